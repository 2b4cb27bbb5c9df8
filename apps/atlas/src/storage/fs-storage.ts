// The embedded default: a data folder on local disk. Writes are atomic (temp file, fsync, rename, fsync of
// the folder), so a crash at any instant leaves either the last good file or the new one, never a torn one.
// Appends (day logs) open the file for appending, write and fsync; appends that arrive while an fsync runs
// wait and share the next one (group commit), so the cost of a durable line stays flat as the log grows.
import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
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

/**
 * Removes temp files an interrupted write left behind; they are never the live copy of anything. With
 * `modifiedAtOrBefore` (epoch ms), only temp files last modified at or before it go, so a write another process
 * has in progress is left alone. Returns how many it removed.
 */
export async function removeStaleTempFiles(
  root: string,
  options: { modifiedAtOrBefore?: number } = {},
): Promise<number> {
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
      else if (entry.name.endsWith('.tmp') && (await isModifiedAtOrBefore(full, options.modifiedAtOrBefore)))
        stale.push(full);
    }
  }
  await collect(root);
  await Promise.all(stale.map((file) => rm(file, { force: true })));
  return stale.length;
}

/** True without a cutoff, or when the file was last modified at or before it; a file gone meanwhile is not. */
async function isModifiedAtOrBefore(path: string, cutoffMs: number | undefined): Promise<boolean> {
  if (cutoffMs === undefined) return true;
  try {
    return (await stat(path)).mtimeMs <= cutoffMs;
  } catch {
    return false;
  }
}

/** One path's appends: the bytes waiting for the next write, who waits on them, and the flush under way. */
interface AppendLane {
  pending: Uint8Array[];
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
  flushing: boolean;
}

function concatChunks(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const joined = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  return joined;
}

/** Opens `target` for appending; says whether this call created it (its folder entry then needs an fsync). */
async function openForAppend(target: string, mode: number): Promise<{ handle: FileHandle; created: boolean }> {
  try {
    return { handle: await open(target, 'ax', mode), created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { handle: await open(target, 'a', mode), created: false };
  }
}

/** Appends `bytes` to `target` and makes them durable: write, fsync, and an fsync of the folder when the file is new. */
export async function appendFileDurable(target: string, bytes: Uint8Array, mode = 0o644): Promise<void> {
  const folder = dirname(target);
  await mkdir(folder, { recursive: true });
  const { handle, created } = await openForAppend(target, mode);
  try {
    // This process is the file's only appender (one lane per path), so its size now is where these bytes start.
    const { size } = await handle.stat();
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } catch (error) {
      // Take back a partly written batch, so the appends queued behind it never land after half a line.
      await handle.truncate(size).catch(() => undefined);
      throw error;
    }
  } finally {
    await handle.close();
  }
  if (created) await fsyncDirectory(folder);
}

/**
 * Group commit over appendFileDurable: each path has one lane; an append joins the lane's pending bytes and
 * resolves when the write that carried them is durable. While one write and fsync run, later appends gather
 * and go out together in the next, in the order they were called.
 */
function createAppender(mode: (path: string) => number, onWrite: FsStorageOptions['onAppendWrite']) {
  const lanes = new Map<string, AppendLane>();

  async function drain(target: string, lane: AppendLane, fileMode: number): Promise<void> {
    while (lane.pending.length > 0) {
      const batch = lane.pending.splice(0);
      const waiters = lane.waiters.splice(0);
      try {
        const bytes = concatChunks(batch);
        await appendFileDurable(target, bytes, fileMode);
        onWrite?.({ appends: batch.length, bytes: bytes.length });
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    lane.flushing = false;
    lanes.delete(target);
  }

  return (target: string, path: string, bytes: Uint8Array): Promise<void> => {
    let lane = lanes.get(target);
    if (lane === undefined) {
      lane = { pending: [], waiters: [], flushing: false };
      lanes.set(target, lane);
    }
    // Copied now: the caller may reuse its buffer before the batch is written.
    lane.pending.push(bytes.slice());
    const done = new Promise<void>((resolve, reject) => lane.waiters.push({ resolve, reject }));
    if (!lane.flushing) {
      lane.flushing = true;
      void drain(target, lane, mode(path));
    }
    return done;
  };
}

/** Keys are private: the folder that holds them is the only one written with owner-only permissions. */
function modeOf(path: string): number {
  return path.startsWith('keys/') ? 0o600 : 0o644;
}

/** Options of the folder storage. */
export interface FsStorageOptions {
  /** Called after each durable append write (one fsync) with how many appends it carried: shows group commit at work. */
  onAppendWrite?: (write: { appends: number; bytes: number }) => void;
}

/** Creates a Storage over the folder `root`, creating it when missing. */
export function createFsStorage(root: string, options: FsStorageOptions = {}): Storage {
  const append = createAppender(modeOf, options.onAppendWrite);
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
      await writeFileAtomic(join(root, path), bytes, modeOf(path));
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
    async append(path, bytes) {
      assertStoragePath(path);
      await append(join(root, path), path, bytes);
    },
  };
}
