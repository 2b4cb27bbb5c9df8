// Workers sharing a day, end to end through the real CLI on a fresh throwaway PostgreSQL cluster: `scan
// --enqueue` over a loopback registry; three `worker --until-idle --lease-seconds 10` processes, one killed with
// SIGKILL while each holds a shard; the two left finish the day and every listed server has exactly one result;
// `seal` then `verify` prints verified; two `serve --no-schedule` processes answer the same /api/servers.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayShardPath, daySummaryPath } from '../src/data/paths.js';
import { DayIndexSchema, ShardFileSchema } from '../src/data/schemas.js';
import { openStore } from '../src/storage/open-store.js';
import { getJson } from '../src/storage/storage.js';
import { countServerChecks } from '../src/workers/day-checks.js';
import { openWorkerDb } from '../src/workers/worker-db.js';
import { bundleCliFromSource } from './fixtures/bundle-harness.js';
import { type LoopbackFleet, startLoopbackFleet } from './fixtures/loopback-fleet.js';
import { writeSigningKeyFile } from './fixtures/signing-key-file.js';
import { type PostgresCluster, startPostgresCluster } from './setup/postgres.js';
import { waitFor } from './setup/wait-for.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const DAY = '2026-12-01';
const FLEET_SIZE = 160;
let cli: string;
let cluster: PostgresCluster;
let fleet: LoopbackFleet;
let url: string;
let keyFolder: string | undefined;
let keyFile: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  cli = await bundleCliFromSource('workers-cli');
  cluster = await startPostgresCluster();
  url = await cluster.createDatabase();
  // A PostgreSQL store never holds the private signing key: every command is given the operator's file.
  keyFolder = await mkdtemp(join(tmpdir(), 'atlas-workers-key-'));
  keyFile = await writeSigningKeyFile(keyFolder);
  // Each request waits 100 ms, so one worker's shard (20 servers, two at a time) lasts seconds: the kill, once
  // every worker holds a shard, lands while the first one is in the middle of its shard.
  fleet = await startLoopbackFleet(FLEET_SIZE, 100);
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await fleet?.close();
  await cluster?.stop();
  if (keyFolder !== undefined) await rm(keyFolder, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function start(args: string[]): { child: ChildProcess; done: Promise<Ran> } {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: join(here, '..'),
    env: { ...process.env, MCP_ATLAS_LOG_LEVEL: 'silent', MCP_ATLAS_SIGNING_KEY: keyFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Ran>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

function run(args: string[]): Promise<Ran> {
  return start(args).done;
}

/** Starts `serve` on a free port and resolves with its address once it serves. */
function serveAt(args: string[]): Promise<string> {
  const { child, done } = start(args);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /serving at (http:\/\/\S+)/.exec(out);
      if (match !== null) resolve(match[1]!.replace(/\/$/, ''));
    });
    void done.then((ran) => reject(new Error(`serve exited ${ran.code} before serving: ${ran.stderr}`)));
  });
}

describe('scale-out on PostgreSQL, done when', () => {
  it('enqueues, survives a killed worker, seals, verifies, and serves the same list twice', async () => {
    const enqueued = await run([
      'scan',
      '--store',
      url,
      '--registry',
      fleet.registryUrl,
      '--allow-private',
      '--day',
      DAY,
      '--enqueue',
    ]);
    expect(enqueued.stderr).toBe('');
    expect(enqueued.stdout).toContain(`queued 8 of 8 shards of ${DAY} (${FLEET_SIZE} servers)`);
    expect(enqueued.code).toBe(0);

    // The whole fleet is one loopback host, so the workers are let check six of it at once, as they would six
    // hosts: the default of one check per host would turn this day into one long queue.
    const workerArgs = [
      ...['worker', '--store', url, '--allow-private', '--until-idle', '--lease-seconds', '10'],
      ...['--checks-per-host', '6'],
    ];
    const workers = [0, 1, 2].map(() => start([...workerArgs, '--concurrency', '2']));
    // Once every worker holds a shard (a loaded machine may start them slowly), so the kill lands mid-shard.
    const watch = await openWorkerDb(url, 1);
    await waitFor('the three workers hold a shard each', async () => {
      const { rows } = await watch.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'mcp-atlas-day-shards' AND state = 'active'",
      );
      return rows[0]!.n >= 3;
    });
    await watch.close();
    workers[0]!.child.kill('SIGKILL');
    const [killed, ...left] = await Promise.all(workers.map((worker) => worker.done));
    expect(killed!.signal).toBe('SIGKILL');
    for (const ran of left) {
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
    }

    const store = await openStore(url);
    const db = await openWorkerDb(url);
    try {
      // The killed worker held a shard: its lease lapsed and the queue put it back for the two left.
      const { rows } = await db.pool.query<{ retries: number }>(
        "SELECT max(retry_count)::int AS retries FROM pgboss.job WHERE name = 'mcp-atlas-day-shards'",
      );
      expect(rows[0]!.retries).toBeGreaterThanOrEqual(1);
      const index = DayIndexSchema.parse(await getJson(store, `days/${DAY}/index.json`));
      expect(index.servers).toHaveLength(FLEET_SIZE);
      const ids: string[] = [];
      for (let shard = 0; shard < index.shards; shard++)
        ids.push(
          ...ShardFileSchema.parse(await getJson(store, dayShardPath(DAY, shard))).results.map((result) => result.id),
        );
      expect(ids.sort()).toEqual(index.servers.map((entry) => entry.id).sort());
      const counts = await countServerChecks(db, DAY);
      expect(counts.size).toBe(FLEET_SIZE);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      expect(await getJson(store, daySummaryPath(DAY))).not.toBeNull();
    } finally {
      await db.close();
      await store.close();
    }

    const sealed = await run(['seal', '--store', url, '--day', DAY]);
    expect(sealed.stdout).toMatch(new RegExp(`^sealed ${DAY} [0-9a-f]{64}`));
    expect(sealed.code).toBe(0);
    const verified = await run(['verify', '--store', url]);
    expect(verified.stdout).toBe('verified\n');
    expect(verified.code).toBe(0);

    const serveArgs = ['serve', '--store', url, '--no-schedule', '--port', '0', '--host', '127.0.0.1'];
    const [first, second] = await Promise.all([serveAt(serveArgs), serveAt(serveArgs)]);
    expect(first).not.toBe(second);
    const [a, b] = await Promise.all([first, second].map((base) => fetch(`${base}/api/servers`)));
    expect(a!.status).toBe(200);
    const [bodyA, bodyB] = await Promise.all([a!.json(), b!.json()]);
    expect(bodyB).toEqual(bodyA);
    expect(JSON.stringify(bodyA)).toContain('io.fleet/server-0');
  });
});
