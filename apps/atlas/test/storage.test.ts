import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFsStorage, removeStaleTempFiles } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { describeStorageConformance } from './storage-conformance.js';

describeStorageConformance('memory storage', async () => createMemoryStorage());
describeStorageConformance('folder storage', async () => createFsStorage(await mkdtemp(join(tmpdir(), 'atlas-storage-'))));

describe('folder storage on disk', () => {
  it('leaves no temp files behind after writes', async () => {
    const root = await mkdtemp(join(tmpdir(), 'atlas-storage-'));
    const storage = createFsStorage(root);
    await storage.put('days/2026-01-01/index.json', new TextEncoder().encode('{}'));
    expect(await readdir(join(root, 'days/2026-01-01'))).toEqual(['index.json']);
  });

  it('writes keys readable by the owner only', async () => {
    const root = await mkdtemp(join(tmpdir(), 'atlas-storage-'));
    await createFsStorage(root).put('keys/signing.key', new Uint8Array(32));
    expect((await stat(join(root, 'keys/signing.key'))).mode & 0o777).toBe(0o600);
  });

  it('ignores and cleans up temp files an interrupted write left', async () => {
    const root = await mkdtemp(join(tmpdir(), 'atlas-storage-'));
    const storage = createFsStorage(root);
    await storage.put('state/a.json', new TextEncoder().encode('good'));
    await writeFile(join(root, 'state/a.json.123.abc.tmp'), 'torn');
    expect(await storage.list('state/')).toEqual(['state/a.json']);
    expect(await removeStaleTempFiles(root)).toBe(1);
    expect(await readdir(join(root, 'state'))).toEqual(['a.json']);
  });
});
