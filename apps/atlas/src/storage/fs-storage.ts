// The embedded default: a data folder on local disk. Writes are atomic (temp file, fsync, rename, fsync of
// the folder), so a crash at any instant leaves either the last good file or the new one, never a torn one.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { assertStoragePath, assertStoragePrefix, type Storage } from './storage.js';

async function fsyncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes bytes to `target` through a temp file in the same folder, with fsync before and after the rename. */
export async function writeFileAtomic(target: string, bytes: Uint8Array, mode = 0o644): Promise<void> {
  const folder = dirname(target);
  await mkdir(folder, { recursive: true });
  const temp = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await fsyncDirectory(folder);
}

async function walk(root: string, folder: string, out: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const full = join(folder, entry.name);
    if (entry.isDirectory()) await walk(root, full, out);
    else if (entry.isFile() && !entry.name.endsWith('.tmp')) out.push(relative(root, full).split(sep).join('/'));
  }
}

/** Removes temp files an interrupted write left behind; they are never the live copy of anything. */
export async function removeStaleTempFiles(root: string): Promise<number> {
  const stale: string[] = [];
  async function collect(folder: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) await collect(full);
      else if (entry.name.endsWith('.tmp')) stale.push(full);
    }
  }
  await collect(root);
  await Promise.all(stale.map((file) => rm(file, { force: true })));
  return stale.length;
}

/** Creates a Storage over the folder `root`, creating it when missing. */
export function createFsStorage(root: string): Storage {
  return {
    async get(path) {
      assertStoragePath(path);
      try {
        return new Uint8Array(await readFile(join(root, path)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async put(path, bytes) {
      assertStoragePath(path);
      // Keys are private: the folder that holds them is the only one written with owner-only permissions.
      const mode = path.startsWith('keys/') ? 0o600 : 0o644;
      await writeFileAtomic(join(root, path), bytes, mode);
    },
    async list(prefix) {
      assertStoragePrefix(prefix);
      const cut = prefix.lastIndexOf('/');
      const base = cut < 0 ? root : join(root, prefix.slice(0, cut));
      const out: string[] = [];
      await walk(root, base, out);
      return out.filter((path) => path.startsWith(prefix)).sort();
    },
    async delete(path) {
      assertStoragePath(path);
      await rm(join(root, path), { force: true });
    },
  };
}
