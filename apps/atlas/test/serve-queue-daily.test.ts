// `serve --queue-daily` with `worker` beside it, both configured by the environment alone as a container runs
// them, on a throwaway PostgreSQL cluster and a loopback registry of real MCP servers. The schedule reads the
// registry and queues the day's shards instead of checking the day itself; the worker checks every server and
// folds the day. Without the setting, nothing would ever put a day on the queue for the worker.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dayFromTime } from '@mcp-atlas/history';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readServeSettings, startServe } from '../src/commands/serve.js';
import { UsageError } from '../src/commands/shared.js';
import { EXIT_OK, runCommand } from '../src/commands.js';
import { dayIndexPath, dayShardPath, daySummaryPath } from '../src/data/paths.js';
import { DayIndexSchema, ShardFileSchema } from '../src/data/schemas.js';
import { createLogger } from '../src/log.js';
import { openStore } from '../src/storage/open-store.js';
import { getJson } from '../src/storage/storage.js';
import { daysWithPendingShards, openShardQueue } from '../src/workers/shard-queue.js';
import { writeSigningKeyFile } from './fixtures/signing-key-file.js';
import { useLoopbackFleetPerFile } from './setup/fleet.js';
import { usePostgresPerFile } from './setup/postgres.js';
import { waitFor } from './setup/wait-for.js';

const FLEET_SIZE = 5;
const postgres = usePostgresPerFile();
const { closers } = postgres;
const fleet = useLoopbackFleetPerFile(FLEET_SIZE, 0);
const log = createLogger('silent');

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A signing key file the operator keeps (the shared store never holds the private key), removed after the test. */
async function signingKeyFile(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'atlas-queue-daily-'));
  closers.push(() => rm(folder, { recursive: true, force: true }));
  return writeSigningKeyFile(folder);
}

describe('serve --queue-daily', () => {
  it('queues the day for a worker, which checks every server once and folds the day', async () => {
    const url = await postgres.cluster.createDatabase();
    const env = {
      MCP_ATLAS_STORE: url,
      MCP_ATLAS_QUEUE_DAILY: '1',
      MCP_ATLAS_REGISTRY: fleet().registryUrl,
      MCP_ATLAS_ALLOW_PRIVATE: '1',
      MCP_ATLAS_SIGNING_KEY: await signingKeyFile(),
    };
    const settings = readServeSettings(['--port', '0'], env);
    expect(settings.queueDaily).toBe(true);
    const started = await startServe(settings, log, { handleSignals: false });
    closers.push(() => started.running.close());
    const store = await openStore(url);
    closers.push(() => store.close());
    const boss = await openShardQueue(url);
    closers.push(() => boss.stop({ graceful: false, wait: true }));
    const day = dayFromTime(new Date());
    await waitFor('the schedule queues the day’s shards', async () =>
      (await daysWithPendingShards(boss)).includes(day),
    );
    const index = DayIndexSchema.parse(await getJson(store, dayIndexPath(day)));
    expect(index.servers).toHaveLength(FLEET_SIZE);
    // The worker as compose starts it: the store and private addresses from the environment only.
    for (const [name, value] of Object.entries({ MCP_ATLAS_STORE: url, MCP_ATLAS_ALLOW_PRIVATE: '1' }))
      vi.stubEnv(name, value);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await runCommand(['worker', '--until-idle', '--lease-seconds', '30'], log)).toBe(EXIT_OK);
    expect(await getJson(store, daySummaryPath(day))).not.toBeNull();
    const results = [];
    for (let shard = 0; shard < index.shards; shard++)
      results.push(...ShardFileSchema.parse(await getJson(store, dayShardPath(day, shard))).results);
    expect(results.map((result) => result.id).sort()).toEqual(index.servers.map((server) => server.id).sort());
    // Every server was reached: private addresses were allowed by the environment, so no guard said down.
    expect(results.filter((result) => result.letter === 'd')).toEqual([]);
  });

  it('is refused on a data folder, naming the variable that set it', () => {
    expect(() => readServeSettings([], { MCP_ATLAS_QUEUE_DAILY: '1', MCP_ATLAS_DATA: '/tmp/nowhere' })).toThrow(
      UsageError,
    );
    expect(() => readServeSettings([], { MCP_ATLAS_QUEUE_DAILY: '1' })).toThrow(/postgres/);
  });
});
