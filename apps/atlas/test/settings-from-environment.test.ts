// Every command configured by the environment alone, as a unit file or a container runs it: each run of the CLI
// (bundled from source) gets no setting on its command line, only PATH, TMPDIR and MCP_ATLAS_* variables. On a
// data folder: scan reads the registry named by MCP_ATLAS_REGISTRY and checks loopback servers under
// MCP_ATLAS_ALLOW_PRIVATE, then seal, verify (by MCP_ATLAS_DATA and by MCP_ATLAS_STORE), mark, keys, sensors
// and review all find the folder. On PostgreSQL: `scan --enqueue` and `worker` by MCP_ATLAS_STORE, and a day
// queued from a registry that listed nothing is not final: the command runs again and queues the servers. A bad
// value names its variable, in one line.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readDayResults } from '../src/data/day-results.js';
import { dayIndexPath, dayShardPath } from '../src/data/paths.js';
import { DayIndexSchema } from '../src/data/schemas.js';
import { readWatchedServers } from '../src/data/watched-servers.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { openStore } from '../src/storage/open-store.js';
import { getJson, putJson } from '../src/storage/storage.js';
import { bundleCliFromSource } from './fixtures/bundle-harness.js';
import { type LoopbackFleet, startLoopbackFleet } from './fixtures/loopback-fleet.js';
import { writeSigningKeyFile } from './fixtures/signing-key-file.js';
import { usePostgresPerFile } from './setup/postgres.js';

const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
let cli: string;
let fleet: LoopbackFleet;
const folders: string[] = [];

beforeAll(async () => {
  cli = await bundleCliFromSource('settings-env-cli');
  fleet = await startLoopbackFleet(2, 0);
});
afterAll(async () => {
  await fleet?.close();
});
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `args` and only PATH, TMPDIR and `env` in its environment. */
function runWithEnv(args: readonly string[], env: Record<string, string>): Promise<Ran> {
  const base = { PATH: process.env.PATH ?? '', TMPDIR: tmpdir(), MCP_ATLAS_LOG_LEVEL: 'silent' };
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { env: { ...base, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

async function folder(prefix: string): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), prefix));
  folders.push(made);
  return made;
}

/** A registry on loopback that answers, but lists no server. */
async function startEmptyRegistry(): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Hono();
  app.get('/v0.1/servers', (c) => c.json({ servers: [], metadata: {} }));
  const server = await new Promise<{ server: ServerType; url: string }>((resolve) => {
    const started: ServerType = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
      resolve({ server: started, url: `http://127.0.0.1:${info.port}` }),
    );
  });
  return {
    url: server.url,
    close: () => new Promise<void>((resolve) => server.server.close(() => resolve())),
  };
}

describe('every command on a data folder, configured by the environment alone', () => {
  it('scan, seal, verify, mark, keys, sensors and review read their settings from MCP_ATLAS_* variables', async () => {
    const data = await folder('atlas-env-data-');
    const env = { MCP_ATLAS_DATA: data, MCP_ATLAS_REGISTRY: fleet.registryUrl, MCP_ATLAS_ALLOW_PRIVATE: '1' };

    // The day is an argument of the run, not a setting; everything else comes from the environment.
    const scanned = await runWithEnv(['scan', '--day', YESTERDAY], env);
    expect(scanned.stderr).toBe(`daily check ${YESTERDAY}: 1/2\ndaily check ${YESTERDAY}: 2/2\n`);
    expect(scanned).toMatchObject({ code: 0, stdout: `scanned ${YESTERDAY}\n` });
    const storage = createFsStorage(data);
    const results = await readDayResults(storage, YESTERDAY);
    expect([...results.values()].map((result) => result.letter)).toEqual(['o', 'o']);

    expect((await runWithEnv(['seal'], { MCP_ATLAS_DATA: data })).code).toBe(0);
    expect(await runWithEnv(['verify'], { MCP_ATLAS_DATA: data })).toMatchObject({ code: 0, stdout: 'verified\n' });
    expect(await runWithEnv(['verify'], { MCP_ATLAS_STORE: `file:${data}` })).toMatchObject({
      code: 0,
      stdout: 'verified\n',
    });

    const [first] = await readWatchedServers(storage);
    const marked = await runWithEnv(['mark', 'gateway', first!.id], { MCP_ATLAS_DATA: data });
    expect(marked).toMatchObject({ code: 0, stdout: `${first!.id} added to the gateways\n` });
    const key = await runWithEnv(['keys', 'export-public'], { MCP_ATLAS_DATA: data });
    expect(key.stdout).toContain('-----BEGIN PUBLIC KEY-----');
    expect(await runWithEnv(['sensors', 'list', '--json'], { MCP_ATLAS_DATA: data })).toMatchObject({ code: 0 });
    expect(await runWithEnv(['review', 'list', '--json'], { MCP_ATLAS_DATA: data })).toMatchObject({ code: 0 });
  });

  it('site checks a loopback site only with MCP_ATLAS_ALLOW_PRIVATE, and verify with nothing named says where to point it', async () => {
    const site = fleet.registryUrl;
    expect((await runWithEnv(['site', site], {})).stdout).toContain('only checked with --allow-private');
    expect((await runWithEnv(['site', site], { MCP_ATLAS_ALLOW_PRIVATE: 'yes' })).stdout).not.toContain(
      'only checked with --allow-private',
    );
    const unnamed = await runWithEnv(['verify'], {});
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toBe(
      'mcp-atlas: verify needs one of --data DIR, --store URL or --url BASE (or MCP_ATLAS_STORE or MCP_ATLAS_DATA)\n' +
        'run "mcp-atlas verify --help" for its options\n',
    );
  });

  it('a bad value is one line naming the flag and its variable, then a hint', async () => {
    const data = await folder('atlas-env-bad-');
    const ran = await runWithEnv(['scan'], { MCP_ATLAS_DATA: data, MCP_ATLAS_CHECKS_PER_HOST: '0' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      'mcp-atlas: --checks-per-host must be an integer from 1 to 64 (set by MCP_ATLAS_CHECKS_PER_HOST)\n' +
        'run "mcp-atlas scan --help" for its options\n',
    );
    const switchWord = await runWithEnv(['site', 'https://example.com'], { MCP_ATLAS_ALLOW_PRIVATE: 'maybe' });
    expect(switchWord.code).toBe(2);
    expect(switchWord.stderr).toContain('MCP_ATLAS_ALLOW_PRIVATE must be 1, true, yes, 0, false or no');
  });

  it('a one-process scan whose registry lists nothing writes nothing, and runs again once it lists servers', async () => {
    const data = await folder('atlas-env-empty-');
    const empty = await startEmptyRegistry();
    try {
      const refused = await runWithEnv(['scan', '--day', YESTERDAY], {
        MCP_ATLAS_DATA: data,
        MCP_ATLAS_REGISTRY: empty.url,
        MCP_ATLAS_ALLOW_PRIVATE: '1',
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`listed no server that can be checked (0 skipped), so nothing of ${YESTERDAY}`);
      expect(await readdir(join(data, 'days')).catch(() => [])).toEqual([]);
    } finally {
      await empty.close();
    }
    // A day an earlier version fixed empty is opened again too.
    const storage = createFsStorage(data);
    await putJson(storage, dayIndexPath(YESTERDAY), {
      day: YESTERDAY,
      methodologyVersion: '0',
      shards: 2,
      servers: [],
    });
    await putJson(storage, dayShardPath(YESTERDAY, 0), { day: YESTERDAY, shard: 0, results: [] });
    const scanned = await runWithEnv(['scan', '--day', YESTERDAY], {
      MCP_ATLAS_DATA: data,
      MCP_ATLAS_REGISTRY: fleet.registryUrl,
      MCP_ATLAS_ALLOW_PRIVATE: '1',
    });
    expect(scanned).toMatchObject({ code: 0, stdout: `scanned ${YESTERDAY}\n` });
    expect(DayIndexSchema.parse(await getJson(storage, dayIndexPath(YESTERDAY))).servers).toHaveLength(2);
    expect([...(await readDayResults(storage, YESTERDAY)).values()].map((result) => result.letter)).toEqual(['o', 'o']);
  });
});

describe('scan --enqueue and worker on PostgreSQL, configured by the environment alone', () => {
  const postgres = usePostgresPerFile();

  it('an empty registry queues nothing; run again with servers listed, the workers check them over loopback', async () => {
    const url = await postgres.cluster.createDatabase();
    const keys = await folder('atlas-env-key-');
    const keyFile = await writeSigningKeyFile(keys);
    const base = { MCP_ATLAS_STORE: url, MCP_ATLAS_SIGNING_KEY: keyFile, MCP_ATLAS_ALLOW_PRIVATE: 'true' };

    const empty = await startEmptyRegistry();
    try {
      const refused = await runWithEnv(['scan', '--enqueue', '--day', YESTERDAY], {
        ...base,
        MCP_ATLAS_REGISTRY: empty.url,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('listed no server that can be checked');
    } finally {
      await empty.close();
    }
    // Without any registry the watched list is still empty: nothing is queued, and the message says what to do.
    const unread = await runWithEnv(['scan', '--enqueue', '--day', YESTERDAY], base);
    expect(unread.code).toBe(1);
    expect(unread.stderr).toContain('read a registry first (--registry URL or MCP_ATLAS_REGISTRY)');

    const queued = await runWithEnv(['scan', '--enqueue', '--day', YESTERDAY], {
      ...base,
      MCP_ATLAS_REGISTRY: fleet.registryUrl,
    });
    expect(queued.stderr).toBe('');
    expect(queued.stdout).toMatch(new RegExp(`^queued \\d+ of \\d+ shards of ${YESTERDAY} \\(2 servers\\)\\n$`));

    const worked = await runWithEnv(['worker', '--until-idle'], { ...base, MCP_ATLAS_LEASE_SECONDS: '10' });
    expect(worked.stderr).toBe('');
    expect(worked.code).toBe(0);
    const store = await openStore(url);
    postgres.closers.push(() => store.close());
    // MCP_ATLAS_ALLOW_PRIVATE reached the worker: loopback servers answered, not refused as "not https".
    const letters = [...(await readDayResults(store, YESTERDAY)).values()].map((result) => result.letter);
    expect(letters).toEqual(['o', 'o']);
  });
});
