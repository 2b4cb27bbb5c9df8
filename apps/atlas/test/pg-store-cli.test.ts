// The commands on the shared PostgreSQL store (--store postgres://…) against a throwaway cluster and a loopback
// registry of real MCP servers: scan, seal and verify (which also catches a file changed behind the store's
// back), the demo, and two `serve --no-schedule` processes that answer alike and pick up a new day without a
// restart.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../src/commands.js';
import { dayShardPath, daySummaryPath, rootPath } from '../src/data/paths.js';
import { ShardFileSchema } from '../src/data/schemas.js';
import { createLogger } from '../src/log.js';
import { type OpenedStore, openStore } from '../src/storage/open-store.js';
import { PG_FILES_TABLE, PG_SEALED_DAY_SQLSTATE, SealedDayWriteError } from '../src/storage/pg-storage.js';
import { getJson } from '../src/storage/storage.js';
import { bundleCliFromSource } from './fixtures/bundle-harness.js';
import { type LoopbackFleet, startLoopbackFleet } from './fixtures/loopback-fleet.js';
import { writeSigningKeyFile } from './fixtures/signing-key-file.js';
import { type PostgresCluster, startPostgresCluster } from './setup/postgres.js';
import { waitFor } from './setup/wait-for.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const DAY = '2026-11-20';
const NEXT_DAY = '2026-11-21';
const FLEET_SIZE = 6;

let cluster: PostgresCluster;
let fleet: LoopbackFleet;
let url: string;
let store: OpenedStore;
let keyFolder: string;
let keyFile: string;
const children: ChildProcess[] = [];
const log = createLogger('silent');

beforeAll(async () => {
  cluster = await startPostgresCluster();
  url = await cluster.createDatabase();
  store = await openStore(url);
  fleet = await startLoopbackFleet(FLEET_SIZE, 0);
  // The private signing key lives in a file the operator keeps, never in the database.
  keyFolder = await mkdtemp(join(tmpdir(), 'atlas-pg-key-'));
  keyFile = await writeSigningKeyFile(keyFolder);
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await store?.close();
  await fleet?.close();
  await cluster?.stop();
  if (keyFolder !== undefined) await rm(keyFolder, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** Runs one command in this process; returns its exit code and what it printed on stdout. */
async function run(args: string[]): Promise<{ code: number; stdout: string; stderr?: string }> {
  let stdout = '';
  let stderr = '';
  // Progress lines go to stderr; kept out of the test's output.
  const quiet = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
    return true;
  });
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
    return true;
  });
  try {
    const code = await runCommand(args, log);
    return code === 0 ? { code, stdout } : { code, stdout, stderr };
  } finally {
    spy.mockRestore();
    quiet.mockRestore();
  }
}

/** The ids of every result in the day's shard files. */
/**
 * Runs one statement with the store's row triggers off (replica mode, which takes a superuser): the tampering of
 * someone who owns the database, which the sealed-day trigger cannot stop and `verify` must catch.
 */
async function behindTheGuard(sql: string, values: unknown[]): Promise<void> {
  if (store.pg === null) throw new Error('the test store is not a PostgreSQL store');
  const client = await store.pg.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query(sql, values);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function resultIds(day: string): Promise<string[]> {
  const ids: string[] = [];
  for (const path of await store.list(`days/${day}/results/`))
    for (const result of ShardFileSchema.parse(await getJson(store, path)).results) ids.push(result.id);
  return ids.sort();
}

describe('scan, seal and verify with --store postgres://', () => {
  it('scans a loopback registry into the store, one result per server', async () => {
    const scanned = await run([
      'scan',
      '--store',
      url,
      '--registry',
      fleet.registryUrl,
      '--allow-private',
      '--day',
      DAY,
      '--signing-key',
      keyFile,
    ]);
    expect(scanned).toMatchObject({ code: 0, stdout: `scanned ${DAY}\n` });
    expect(await store.get(daySummaryPath(DAY))).not.toBeNull();
    expect(await store.get(dayShardPath(DAY, 0))).not.toBeNull();
    const ids = await resultIds(DAY);
    expect(ids).toHaveLength(FLEET_SIZE);
    expect(new Set(ids).size).toBe(FLEET_SIZE);
    // Nothing was written to a data folder: the store is the only place the day lives. Of the key, the store
    // holds only the public half.
    expect(await store.list('keys/')).toEqual(['keys/public-key.json']);
  });

  it('refuses to seal without a key file, in one clear line, and writes no key', async () => {
    vi.stubEnv('MCP_ATLAS_SIGNING_KEY', '');
    try {
      const refused = await run(['seal', '--store', url, '--day', DAY]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('a PostgreSQL store needs --signing-key FILE (or MCP_ATLAS_SIGNING_KEY=FILE)');
      // The refusal is one line of its own, whatever else the command printed before it.
      const lines = refused.stderr!.split('\n').filter((line) => line.includes('needs --signing-key'));
      expect(lines.length).toBeGreaterThan(0);
      expect(lines[0]).toContain('the private signing key is never kept in the database');
      expect(await store.get(rootPath(DAY))).toBeNull();
      expect(await store.list('keys/')).toEqual(['keys/public-key.json']);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('seals the day, then refuses to rewrite it, and verify prints verified', async () => {
    // The key file may come from the environment, as serve reads it.
    vi.stubEnv('MCP_ATLAS_SIGNING_KEY', keyFile);
    const sealed = await run(['seal', '--store', url, '--day', DAY]);
    vi.unstubAllEnvs();
    expect(sealed.code).toBe(0);
    expect(sealed.stdout).toMatch(new RegExp(`^sealed ${DAY} [0-9a-f]{64}\\n$`));
    expect(await store.get(rootPath(DAY))).not.toBeNull();
    // No private key anywhere in the database: not as the key file's row, not as any row's text.
    expect(await store.get('keys/signing-key.json')).toBeNull();
    for (const path of await store.list(''))
      expect(new TextDecoder().decode((await store.get(path))!), path).not.toContain('PRIVATE KEY');
    expect((await run(['keys', 'export-public', '--store', url])).code).toBe(0);
    await expect(store.put(daySummaryPath(DAY), new TextEncoder().encode('{}'))).rejects.toBeInstanceOf(
      SealedDayWriteError,
    );
    expect(await run(['verify', '--store', url])).toEqual({ code: 0, stdout: 'verified\n' });
    // A second scan of the sealed day changes nothing.
    expect((await run(['scan', '--store', url, '--day', DAY, '--signing-key', keyFile])).stdout).toBe(
      `${DAY} was already scanned\n`,
    );
  });

  it('verify finds a day file changed behind the store’s back (straight SQL), and says which day', async () => {
    const path = dayShardPath(DAY, 0);
    const [before] = (
      await store.pg!.pool.query<{ bytes: Buffer }>(`SELECT bytes FROM ${PG_FILES_TABLE} WHERE path = $1`, [path])
    ).rows;
    // The store's sealed-day trigger refuses this change to a sealed day, even as plain SQL; only a superuser
    // switching triggers off (replica mode) gets past it, which is what this tampering stands for.
    await expect(
      store.pg!.pool.query(`UPDATE ${PG_FILES_TABLE} SET bytes = bytes || '\\x20'::bytea WHERE path = $1`, [path]),
    ).rejects.toMatchObject({ code: PG_SEALED_DAY_SQLSTATE });
    await behindTheGuard(`UPDATE ${PG_FILES_TABLE} SET bytes = bytes || '\\x20'::bytea WHERE path = $1`, [path]);
    try {
      const verdict = await run(['verify', '--store', url]);
      expect(verdict.code).toBe(1);
      expect(verdict.stdout).toMatch(new RegExp(`^broken: ${DAY}: `));
    } finally {
      await behindTheGuard(`UPDATE ${PG_FILES_TABLE} SET bytes = $2 WHERE path = $1`, [path, before!.bytes]);
    }
    expect((await run(['verify', '--store', url])).stdout).toBe('verified\n');
  });

  it('refuses a store URL with no driver as a usage error', async () => {
    await expect(run(['seal', '--store', 'mysql://db/atlas'])).resolves.toMatchObject({ code: 2 });
    await expect(run(['verify', '--store', url, '--data', '/tmp/x'])).resolves.toMatchObject({ code: 2 });
  });
});

describe('demo with --store postgres://', () => {
  it('fills an empty store with a sealed month that verifies, and clears its own store on a second run', async () => {
    const demoUrl = await cluster.createDatabase();
    const first = await run(['demo', '--store', demoUrl, '--days', '2', '--once']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('chain: verified');
    expect(await run(['verify', '--store', demoUrl])).toEqual({ code: 0, stdout: 'verified\n' });
    const demoKeys = await openStore(demoUrl);
    try {
      expect(await demoKeys.list('keys/')).toEqual(['keys/public-key.json']);
    } finally {
      await demoKeys.close();
    }
    // Its own store it clears (roots first, so sealed days can go); a store with other data it refuses.
    expect((await run(['demo', '--store', demoUrl, '--days', '1', '--once'])).code).toBe(0);
    const demoStore = await openStore(demoUrl);
    try {
      expect(await demoStore.list('roots/')).toHaveLength(1);
    } finally {
      await demoStore.close();
    }
    expect((await run(['demo', '--store', url, '--days', '1', '--once'])).code).toBe(2);
  });
});

/** Starts `serve` as a child process and resolves with its URL once it prints it. */
async function startServe(cli: string, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [cli, 'serve', ...args], {
    cwd: join(here, '..'),
    env: { ...process.env, MCP_ATLAS_LOG_LEVEL: 'info', MCP_ATLAS_SIGNING_KEY: keyFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  // Waits for the address line or the exit, however long a loaded machine takes to start it.
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /mcp-atlas is serving at (http:\/\/[^\s"]+)/.exec(output);
      if (match !== null) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${output}`)));
  });
}

async function servers(base: string): Promise<unknown> {
  const response = await fetch(`${base}/api/servers`);
  expect(response.status).toBe(200);
  return response.json();
}

describe('two serve --no-schedule processes on one store', () => {
  it('answer the same /api/servers, and both show a new day without a restart', async () => {
    const cli = await bundleCliFromSource('pg-store-cli');
    const args = ['--store', url, '--no-schedule', '--port', '0'];
    const [one, two] = await Promise.all([startServe(cli, args), startServe(cli, args)]);
    expect(one).not.toBe(two);
    const [a, b] = await Promise.all([servers(one), servers(two)]);
    expect(a).toEqual(b);
    expect(JSON.stringify(a)).toContain('fleet-');

    // A sensor registered on the shared store is known to both replicas: its token works on one, and its id
    // without the token is refused on the other. The store holds only the token's digest.
    const unkeyed = await run(['sensors', 'add', 'gw-pg', '--store', url]);
    expect(unkeyed).toMatchObject({ code: 1, stderr: expect.stringContaining('needs --signing-key FILE') });
    const added = await run(['sensors', 'add', 'gw-pg', '--store', url, '--signing-key', keyFile]);
    expect(added.code).toBe(0);
    const token = added.stdout.trim();
    expect(new TextDecoder().decode((await store.get('state/sensors/gw-pg.json'))!)).not.toContain(token);
    const server = (a as { servers: { id: string }[] }).servers[0]!.id;
    const batch = {
      sensor: 'gw-pg',
      outcomes: [{ server, ok: true, at: new Date(Date.now() - 60_000).toISOString() }],
    };
    const postTo = (base: string, headers: Record<string, string>) =>
      fetch(`${base}/api/sensors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(batch),
      });
    expect((await postTo(one, { authorization: `Bearer ${token}` })).status).toBe(201);
    const refused = await postTo(two, {});
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('sensor_token_required');

    // Another process scans the next day: both replicas rebuild on its summary's notification.
    expect((await run(['scan', '--store', url, '--day', NEXT_DAY, '--signing-key', keyFile])).code).toBe(0);
    let shownByOne = JSON.stringify(a);
    await waitFor('replica one shows the new day', async () => {
      shownByOne = JSON.stringify(await servers(one));
      return shownByOne !== JSON.stringify(a);
    });
    await waitFor(
      'replica two shows what replica one shows',
      async () => JSON.stringify(await servers(two)) === shownByOne,
    );
  });
});
