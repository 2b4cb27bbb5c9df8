// The embedded default: a data folder on local disk. Writes are atomic (temp file, fsync, rename, fsync of
// the folder), so a crash at any instant leaves either the last good file or the new one, never a torn one.
// Appends (day logs) open the file for appending, write and fsync; appends that arrive while an fsync runs
// wait and share the next one (group commit), so the cost of a durable line stays flat as the log grows.
//
// Sealed history: a write under `days/<day>/` is refused once `roots/<day>.json` exists, and a root is written
// once (sealed-days.ts). A folder has no transaction, so the root's existence is checked right before the write
// lands (just before the rename, the append or the removal), after the slow part (writing and fsyncing the temp
// file). Within one process, that check and the write hold the day's lock shared and the root's creation holds
// it alone (day-locks.ts), so no write of this process can land after a root it did not see. Another process
// writing the same folder does not share the lock: a root it creates between this process's check and rename
// (a stat and a rename wide) is not seen, and `mcp-atlas verify` finds such a day. Several processes that write
// one atlas at once should share the PostgreSQL store, which closes the gap in the database. Roots themselves
// have no gap: a root is created with link(), which only one writer can win.
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { type FileHandle, link, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { dayLocksOf } from './day-locks.js';
import {
  assertDayNotSealed,
  dayPathsOf,
  isRootPath,
  SealedRootWriteError,
  sameBytes,
  sealedDayOf,
} from './sealed-days.js';
import { assertStoragePath, assertStoragePrefix, readFilesUnder, type Storage } from './storage.js';

async function fsyncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes `bytes` to a new temp file next to `target` and fsyncs it; returns the temp file's path. */
async function writeTempFile(target: string, bytes: Uint8Array, mode: number): Promise<string> {
  await mkdir(dirname(target), { recursive: true });
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
  return temp;
}

/**
 * How a write lands once its temp file is durable: `landing` is given the step that puts the file in place (the
 * rename or link) and runs it, with whatever check or lock must surround that step. When it throws, the write has
 * not landed.
 */
export type Landing = (commit: () => Promise<void>) => Promise<void>;

const landNow: Landing = (commit) => commit();

/**
 * Writes bytes to `target` through a temp file in the same folder, with fsync before and after the rename.
 * `landing` runs the rename once the temp file is durable; when it throws, the temp file is removed, the target
 * is left as it was, and the error is passed on.
 */
export async function writeFileAtomic(
  target: string,
  bytes: Uint8Array,
  mode = 0o644,
  landing: Landing = landNow,
): Promise<void> {
  const temp = await writeTempFile(target, bytes, mode);
  let renamed = false;
  try {
    // The folder's fsync is part of landing: whatever the landing holds (a day's lock) is let go only once the new
    // name is durable, so a seal that waits for it never signs a file a power cut could take back.
    await landing(async () => {
      await rename(temp, target);
      renamed = true;
      await fsyncDirectory(dirname(target));
    });
  } catch (error) {
    if (!renamed) await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Creates `target` with `bytes` only when no file is there, atomically even across processes: the bytes go to a
 * durable temp file, which is then hard-linked to the target. link() fails with EEXIST when the target exists,
 * so of any number of racing creators exactly one wins, and a reader never sees a half-written target. Returns
 * true when this call created it. `landing` runs the link, as writeFileAtomic's runs the rename.
 */
export async function createFileIfAbsent(
  target: string,
  bytes: Uint8Array,
  mode = 0o644,
  landing: Landing = landNow,
): Promise<boolean> {
  const temp = await writeTempFile(target, bytes, mode);
  let linked = false;
  try {
    // As in writeFileAtomic, the folder's fsync is part of landing. The new name, and the temp name's removal,
    // are folder entries: one fsync makes both survive a power cut before the landing lets go of its lock.
    await landing(async () => {
      await link(temp, target);
      linked = true;
      await unlink(temp);
      await fsyncDirectory(dirname(target));
    });
    return true;
  } catch (error) {
    if (linked || (error as NodeJS.ErrnoException).code !== 'EEXIST') {
      if (!linked) await unlink(temp).catch(() => undefined);
      throw error;
    }
  }
  // Another creator won: this one's temp file goes, and its removal is made durable as the creator's was.
  await unlink(temp);
  await fsyncDirectory(dirname(target));
  return false;
}

/** Whether a file exists at `path` (any stat error but "missing" is passed on). */
async function fileExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
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
  if (chunks.length === 1) return chunks[0] as Uint8Array;
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
function createAppender(
  mode: (path: string) => number,
  onWrite: FsStorageOptions['onAppendWrite'],
  landingOf: (path: string) => Landing,
) {
  const lanes = new Map<string, AppendLane>();

  async function drain(target: string, path: string, lane: AppendLane, fileMode: number): Promise<void> {
    while (lane.pending.length > 0) {
      const batch = lane.pending.splice(0);
      const waiters = lane.waiters.splice(0);
      try {
        const bytes = concatChunks(batch);
        // Checked per batch, right before it is written: a seal that landed while the batch gathered refuses it.
        await landingOf(path)(() => appendFileDurable(target, bytes, fileMode));
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
      void drain(target, path, lane, mode(path));
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

/**
 * The key of a folder's day locks: its real path when it exists, so stores opened through a symlink and through
 * its target share them; else its resolved path (a folder made later under the same name gets the same key).
 */
function lockKeyOf(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return resolve(root);
  }
}

/** Creates a Storage over the folder `root`, creating it when missing. */
export function createFsStorage(root: string, options: FsStorageOptions = {}): Storage {
  const exists = (path: string): Promise<boolean> => fileExists(join(root, path));
  const dayLocks = dayLocksOf(lockKeyOf(root));
  /**
   * Lands a write of `path` after `check` passes, both under its day's lock: shared for a day's files, alone
   * for its root, so a root is never created between another write's check and its landing.
   */
  const landingUnder =
    (path: string, check: () => Promise<void>): Landing =>
    (commit) => {
      const day = sealedDayOf(path);
      const land = async () => {
        await check();
        await commit();
      };
      return day === '' ? land() : dayLocks.run(day, isRootPath(path), land);
    };
  const guardDay = (path: string): Promise<void> => assertDayNotSealed(path, exists);
  /** For a put: a sealed day's file may only be put again with the bytes it holds. */
  const guardDayPut = (path: string, bytes: Uint8Array): Promise<void> =>
    assertDayNotSealed(path, exists, () => holds(path, bytes));
  /** Refuses any append to, or removal of, an existing root: a root only ever gains its one version. */
  const guardAppendOrDelete = async (path: string): Promise<void> => {
    await guardDay(path);
    if (isRootPath(path) && (await exists(path))) throw new SealedRootWriteError(path, sealedDayOf(path));
  };
  const append = createAppender(modeOf, options.onAppendWrite, (path) =>
    landingUnder(path, () => guardAppendOrDelete(path)),
  );

  /** Whether the file at `path` holds exactly `bytes`. */
  async function holds(path: string, bytes: Uint8Array): Promise<boolean> {
    try {
      return sameBytes(new Uint8Array(await readFile(join(root, path))), bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /**
   * A root is created once; a later put passes only when it carries the bytes already there. `landing` runs the
   * link: under the day's lock taken alone, or at once when the caller holds that lock already (createRoot).
   */
  async function putRoot(path: string, bytes: Uint8Array, landing: Landing): Promise<void> {
    const created = await createFileIfAbsent(join(root, path), bytes, modeOf(path), landing);
    if (created) return;
    if (!(await holds(path, bytes))) throw new SealedRootWriteError(path, sealedDayOf(path));
  }

  const storage: Storage = {
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
      if (isRootPath(path))
        return putRoot(
          path,
          bytes,
          landingUnder(path, async () => undefined),
        );
      await writeFileAtomic(
        join(root, path),
        bytes,
        modeOf(path),
        landingUnder(path, () => guardDayPut(path, bytes)),
      );
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
      // Deleting a missing file changes nothing, so only a present one can break the sealed rule.
      if (!(await exists(path))) return;
      await landingUnder(path, () => guardAppendOrDelete(path))(() => rm(join(root, path), { force: true }));
    },
    async append(path, bytes) {
      assertStoragePath(path);
      await append(join(root, path), path, bytes);
    },
    async createIfAbsent(path, bytes) {
      assertStoragePath(path);
      return createFileIfAbsent(
        join(root, path),
        bytes,
        modeOf(path),
        landingUnder(path, () => guardDay(path)),
      );
    },
    async createRoot(day, makeRoot) {
      const { folder, root: rootFile } = dayPathsOf(day);
      // The day's lock, alone, from the read to the root: this process's writes to the day wait, then see the root.
      await dayLocks.run(day, true, async () => {
        const bytes = await makeRoot(await readFilesUnder(storage, folder));
        await putRoot(rootFile, bytes, landNow);
      });
    },
  };
  return storage;
}
