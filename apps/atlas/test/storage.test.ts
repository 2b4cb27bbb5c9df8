import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFileIfAbsent,
  createFsStorage,
  removeStaleTempFiles,
  writeFileAtomic,
} from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { type OpenedStore, openStore } from '../src/storage/open-store.js';
import {
  assertDayNotSealed,
  isRootPath,
  SealedDayWriteError,
  sameBytes,
  sealedDayOf,
  sealingRootOf,
} from '../src/storage/sealed-days.js';
import { type PostgresCluster, startPostgresCluster } from './setup/postgres.js';
import { describeStorageConformance } from './storage-conformance.js';

const folders: string[] = [];

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A fresh temp folder, removed after the file's tests. */
async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'atlas-storage-'));
  folders.push(folder);
  return folder;
}

describeStorageConformance('memory storage', async () => createMemoryStorage());
describeStorageConformance('folder storage', async () => createFsStorage(await tempFolder()));

describe('on a throwaway PostgreSQL cluster', () => {
  let cluster: PostgresCluster;
  const opened: OpenedStore[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await cluster?.stop();
  });
  // A fresh database per test: each starts from an empty store, as with the other drivers.
  describeStorageConformance('postgres storage', async () => {
    const store = await openStore(await cluster.createDatabase(), { maxConnections: 4 });
    opened.push(store);
    return store;
  });
  describeStorageConformance('file: store URL', async () => {
    const store = await openStore(`file:${await tempFolder()}`);
    opened.push(store);
    return store;
  });
});

describe('folder storage on disk', () => {
  it('shares one write and fsync among appends that arrive while another is being made durable (group commit)', async () => {
    const root = await tempFolder();
    const writes: number[] = [];
    const storage = createFsStorage(root, { onAppendWrite: ({ appends }) => writes.push(appends) });
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        storage.append('days/2026-01-01/reports.jsonl', new TextEncoder().encode(`${i}\n`)),
      ),
    );
    expect(writes.reduce((sum, n) => sum + n, 0)).toBe(200);
    // The first append goes out alone; the 199 that queued behind its fsync share the next one.
    expect(writes).toEqual([1, 199]);
    const text = await readFile(join(root, 'days/2026-01-01/reports.jsonl'), 'utf8');
    expect(text.split('\n').slice(0, -1).map(Number)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('writes a key appended to with owner-only permissions, and leaves no temp file', async () => {
    const root = await tempFolder();
    const storage = createFsStorage(root);
    await storage.append('keys/log', new Uint8Array([1]));
    await storage.append('state/log', new Uint8Array([1]));
    expect((await stat(join(root, 'keys/log'))).mode & 0o777).toBe(0o600);
    expect(await readdir(join(root, 'state'))).toEqual(['log']);
  });

  it('leaves no temp files behind after writes', async () => {
    const root = await tempFolder();
    const storage = createFsStorage(root);
    await storage.put('days/2026-01-01/index.json', new TextEncoder().encode('{}'));
    expect(await readdir(join(root, 'days/2026-01-01'))).toEqual(['index.json']);
  });

  it('writes keys readable by the owner only', async () => {
    const root = await tempFolder();
    await createFsStorage(root).put('keys/signing.key', new Uint8Array(32));
    expect((await stat(join(root, 'keys/signing.key'))).mode & 0o777).toBe(0o600);
  });

  it('ignores and cleans up temp files an interrupted write left', async () => {
    const root = await tempFolder();
    const storage = createFsStorage(root);
    await storage.put('state/a.json', new TextEncoder().encode('good'));
    await writeFile(join(root, 'state/a.json.123.abc.tmp'), 'torn');
    expect(await storage.list('state/')).toEqual(['state/a.json']);
    expect(await removeStaleTempFiles(root)).toBe(1);
    expect(await readdir(join(root, 'state'))).toEqual(['a.json']);
  });

  it('creates a file only when absent with the mode of its folder, and leaves no temp file either way', async () => {
    const root = await tempFolder();
    const storage = createFsStorage(root);
    expect(await storage.createIfAbsent('keys/signing-key.json', new TextEncoder().encode('one'))).toBe(true);
    expect(await storage.createIfAbsent('keys/signing-key.json', new TextEncoder().encode('two'))).toBe(false);
    expect((await stat(join(root, 'keys/signing-key.json'))).mode & 0o777).toBe(0o600);
    // One name for the file: the temp file it was linked from is gone.
    expect((await stat(join(root, 'keys/signing-key.json'))).nlink).toBe(1);
    expect(await readdir(join(root, 'keys'))).toEqual(['signing-key.json']);
    expect(await readFile(join(root, 'keys/signing-key.json'), 'utf8')).toBe('one');
  });

  it('lets exactly one of two stores over one folder create a file when they race', async () => {
    const root = await tempFolder();
    const [one, two] = [createFsStorage(root), createFsStorage(root)];
    for (let round = 0; round < 10; round++) {
      const path = `keys/race-${round}.json`;
      const results = await Promise.all([
        one.createIfAbsent(path, new TextEncoder().encode('one')),
        two.createIfAbsent(path, new TextEncoder().encode('two')),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await readFile(join(root, path), 'utf8')).toBe(results[0] ? 'one' : 'two');
    }
    expect(await readdir(join(root, 'keys'))).toHaveLength(10);
  });

  it('leaves the target and no temp file when the seal check right before the rename refuses', async () => {
    const root = await tempFolder();
    const storage = createFsStorage(root);
    const path = 'days/2026-03-01/index.json';
    await storage.put(path, new TextEncoder().encode('{"v":1}'));
    const exists = async (stored: string) => (await storage.get(stored)) !== null;
    // The landing stands where the store checks: the temp file is durable, the target not yet replaced. A root
    // that lands now is seen by the rule, and the put is refused.
    const sealThenCheck = async (commit: () => Promise<void>) => {
      await storage.put('roots/2026-03-01.json', new TextEncoder().encode('{}'));
      await assertDayNotSealed(path, exists);
      await commit();
    };
    await expect(
      writeFileAtomic(join(root, path), new TextEncoder().encode('{"v":2}'), 0o644, sealThenCheck),
    ).rejects.toBeInstanceOf(SealedDayWriteError);
    expect(await readFile(join(root, path), 'utf8')).toBe('{"v":1}');
    expect(await readdir(join(root, 'days/2026-03-01'))).toEqual(['index.json']);
    await expect(
      createFileIfAbsent(join(root, 'days/2026-03-01/new.json'), new Uint8Array([1]), 0o644, async (commit) => {
        await assertDayNotSealed('days/2026-03-01/new.json', exists);
        await commit();
      }),
    ).rejects.toBeInstanceOf(SealedDayWriteError);
    expect(await readdir(join(root, 'days/2026-03-01'))).toEqual(['index.json']);
  });

  it('refuses an append batch whose day was sealed while it waited behind another write', async () => {
    const root = await tempFolder();
    const log = 'days/2026-03-01/reports.jsonl';
    // Another process seals the day the moment the first batch is durable, before the queued batch goes out.
    const storage = createFsStorage(root, {
      onAppendWrite: () => {
        mkdirSync(join(root, 'roots'), { recursive: true });
        writeFileSync(join(root, 'roots/2026-03-01.json'), '{}');
      },
    });
    const first = storage.append(log, new TextEncoder().encode('r1\n'));
    const second = storage.append(log, new TextEncoder().encode('r2\n'));
    const [one, two] = await Promise.allSettled([first, second]);
    expect(one.status).toBe('fulfilled');
    expect(two.status === 'rejected' && two.reason).toBeInstanceOf(SealedDayWriteError);
    expect(await readFile(join(root, log), 'utf8')).toBe('r1\n');
  });
});

describe('the sealed-history rule', () => {
  it('names the root that seals a day file, and nothing else', () => {
    expect(sealingRootOf('days/2026-03-01/results/000.json')).toBe('roots/2026-03-01.json');
    expect(sealingRootOf('days/2026-03-01')).toBeNull();
    expect(sealingRootOf('days/2026-3-01/index.json')).toBeNull();
    expect(sealingRootOf('state/days/2026-03-01/x.json')).toBeNull();
    expect(sealingRootOf('roots/2026-03-01.json')).toBeNull();
  });

  it('knows a root file and the day of a sealed path', () => {
    expect(isRootPath('roots/2026-03-01.json')).toBe(true);
    expect(isRootPath('roots/2026-03-01.json.bak')).toBe(false);
    expect(isRootPath('roots/notes.json')).toBe(false);
    expect(isRootPath('state/roots/2026-03-01.json')).toBe(false);
    expect(sealedDayOf('roots/2026-03-01.json')).toBe('2026-03-01');
    expect(sealedDayOf('days/2026-03-02/index.json')).toBe('2026-03-02');
    expect(sealedDayOf('state/a.json')).toBe('');
  });

  it('compares bytes exactly', () => {
    expect(sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false);
    expect(sameBytes(new Uint8Array([]), new Uint8Array([]))).toBe(true);
  });
});
