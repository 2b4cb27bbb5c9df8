import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsStorage, removeStaleTempFiles } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { type OpenedStore, openStore } from '../src/storage/open-store.js';
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
});
