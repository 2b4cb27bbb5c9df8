// Two processes that start on a fresh store at the same moment must sign with one key. The key is created only
// where none exists (Storage.createIfAbsent), so one creation wins and every other caller reads the winner's key:
// in one process on the folder, memory and PostgreSQL stores, and with two real `seal` processes on one folder,
// whose roots then verify against the one key left on disk.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNING_KEY_PATH } from '../src/data/paths.js';
import {
  KEY_FILE_MODE,
  loadOrCreateSigningKeys,
  loadSigningKeys,
  openSigningKeys,
  type SigningKeys,
} from '../src/seal/keys.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { type OpenedStore, openStore } from '../src/storage/open-store.js';
import type { Storage } from '../src/storage/storage.js';
import { bundleCliFromSource } from './fixtures/bundle-harness.js';
import { type PostgresCluster, startPostgresCluster } from './setup/postgres.js';
import { waitFor } from './setup/wait-for.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const NOW = new Date('2026-11-21T01:05:00Z');
const DAY = '2026-11-20';
/** Files in the sealed day: enough that reading them outlasts the gap between two processes' starts. */
const DAY_FILES = 1500;
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A fresh data folder (not created yet: the first write makes it), removed after the file's tests. */
async function dataFolder(): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'atlas-key-race-'));
  folders.push(parent);
  return join(parent, 'data');
}

const hex = (keys: SigningKeys): string => Buffer.from(keys.publicKey).toString('hex');

/** A barrier for `count` callers: each call resolves once all `count` have arrived. */
function startBarrier(count: number): () => Promise<void> {
  let arrived = 0;
  let release = (): void => undefined;
  const everyone = new Promise<void>((resolve) => {
    release = resolve;
  });
  return () => {
    arrived += 1;
    if (arrived === count) release();
    return everyone;
  };
}

/**
 * The store as one contender sees it: its first read of the key file returns only once every contender has read
 * it too. So all of them find no key before any creates one, the worst interleaving, every run (left to the
 * scheduler, one load often finishes before the other starts, and the race would not happen).
 */
function readingInStep(inner: Storage, arrive: () => Promise<void>): Storage {
  let firstRead = true;
  return {
    ...inner,
    get: async (path) => {
      const bytes = await inner.get(path);
      if (path === SIGNING_KEY_PATH && firstRead) {
        firstRead = false;
        await arrive();
      }
      return bytes;
    },
  };
}

/** Starts `count` key loads at once, each on its own store object, and returns the public keys they sign with. */
async function raceKeyLoads(
  count: number,
  storeFor: (index: number) => Storage | Promise<Storage>,
  options: { dataDir?: string } = {},
): Promise<string[]> {
  const arrive = startBarrier(count);
  const stores = await Promise.all(
    Array.from({ length: count }, async (_, i) => readingInStep(await storeFor(i), arrive)),
  );
  const keys = await Promise.all(stores.map((storage) => loadOrCreateSigningKeys(storage, NOW, options)));
  return keys.map(hex);
}

describe('signing key creation racing in one process', () => {
  it('gives two loads on one fresh data folder (with its on-disk guards) the key left on disk', async () => {
    const dir = await dataFolder();
    const keys = await raceKeyLoads(2, () => createFsStorage(dir), { dataDir: dir });
    expect(new Set(keys).size).toBe(1);
    const onDisk = await loadSigningKeys(createFsStorage(dir), { dataDir: dir });
    expect(hex(onDisk!)).toBe(keys[0]);
    expect((await stat(join(dir, SIGNING_KEY_PATH))).mode & 0o777).toBe(KEY_FILE_MODE);
    expect(await readdir(join(dir, 'keys'))).toEqual(['signing-key.json']);
  });

  it('gives eight loads on one fresh folder through the storage seam alone one key', async () => {
    const dir = await dataFolder();
    const keys = await raceKeyLoads(8, () => createFsStorage(dir));
    expect(new Set(keys).size).toBe(1);
    expect(hex((await loadSigningKeys(createFsStorage(dir)))!)).toBe(keys[0]);
    expect(await readdir(join(dir, 'keys'))).toEqual(['signing-key.json']);
  });

  it('says "created" to exactly one of eight racing callers, so only one process warns about a new key', async () => {
    const storage = createMemoryStorage();
    const arrive = startBarrier(8);
    const opened = await Promise.all(
      Array.from({ length: 8 }, () => openSigningKeys(readingInStep(storage, arrive), NOW)),
    );
    expect(opened.filter((o) => o.created)).toHaveLength(1);
    expect(new Set(opened.map((o) => hex(o.keys))).size).toBe(1);
    expect((await openSigningKeys(storage, NOW)).created).toBe(false);
  });

  it('gives two loads on one memory store one key', async () => {
    const storage = createMemoryStorage();
    const keys = await raceKeyLoads(2, () => storage);
    expect(new Set(keys).size).toBe(1);
    expect(hex((await loadSigningKeys(storage))!)).toBe(keys[0]);
  });
});

describe('signing key creation racing on one PostgreSQL store', () => {
  let cluster: PostgresCluster;
  const opened: OpenedStore[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close().catch(() => undefined)));
    await cluster?.stop();
  });

  it('gives two processes (two pools) on a fresh store the one key stored', async () => {
    const url = await cluster.createDatabase();
    const open = async () => {
      const store = await openStore(url, { maxConnections: 2 });
      opened.push(store);
      return store;
    };
    const keys = await raceKeyLoads(2, open);
    expect(new Set(keys).size).toBe(1);
    expect(hex((await loadSigningKeys(await open()))!)).toBe(keys[0]);
  });
});

describe('two seal processes started at once on a fresh data folder', () => {
  let cli: string;
  beforeAll(async () => {
    cli = await bundleCliFromSource('signing-key-race');
  });

  it('leave one key on disk that both signed with, and the folder verifies', async () => {
    const dir = await dataFolder();
    // A day on which no scan ran (no index.json): finished as it is, so `seal --day` signs it. Its many files make
    // each seal read for a while before it writes the root, so both processes sign, and both must write one record.
    await mkdir(join(dir, 'days', DAY, 'notes'), { recursive: true });
    for (let i = 0; i < DAY_FILES; i++)
      await writeFile(join(dir, 'days', DAY, 'notes', `${String(i).padStart(4, '0')}.json`), `{"note":${i}}\n`);
    // Both processes load, then wait at the start gate (their first folder write) until the other is there too.
    const gate = join(dir, '..', 'gate');
    const running = [0, 1].map(() => runCli(cli, ['seal', '--data', dir, '--day', DAY], gate));
    await waitFor(
      'both processes wait at the start gate',
      async () => (await readdir(join(dir, '..'))).filter((name) => name.startsWith('gate.ready.')).length === 2,
    );
    await writeFile(`${gate}.go`, '');
    const seals = await Promise.all(running);
    // Both signed the day and wrote its root; the second write passes only with the first's very bytes, signature
    // included, so both signed with one key (with two keys, the second would be refused and exit 1).
    for (const seal of seals) expect(seal, seal.stderr).toMatchObject({ code: 0 });
    const lines = seals.map((seal) => seal.stdout.trim());
    expect(lines[0]).toMatch(new RegExp(`^sealed ${DAY} [0-9a-f]{64}$`));
    expect(lines[1]).toBe(lines[0]);
    expect(await readdir(join(dir, 'keys'))).toEqual(['signing-key.json']);
    expect(await readdir(join(dir, 'roots'))).toEqual([`${DAY}.json`]);
    const verified = await runCli(cli, ['verify', '--data', dir]);
    expect(verified, verified.stderr).toMatchObject({ code: 0, stdout: 'verified\n' });
  });
});

/**
 * Runs the bundled CLI to its end; resolves with its exit code and output. With `gate`, the process runs behind
 * the start gate (start-gate.mjs): loaded, it waits at its first folder write until the file `<gate>.go` exists.
 */
function runCli(
  cli: string,
  args: string[],
  gate?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const gateArgs = gate === undefined ? [] : ['--import', join(here, 'fixtures', 'start-gate.mjs')];
    const child = spawn(process.execPath, [...gateArgs, cli, ...args], {
      cwd: join(here, '..'),
      env: {
        ...process.env,
        MCP_ATLAS_LOG_LEVEL: 'error',
        ...(gate === undefined ? {} : { ATLAS_TEST_START_GATE: gate }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
