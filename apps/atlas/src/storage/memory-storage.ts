// An in-memory Storage for tests and for the load benchmark; same contract as the folder on disk, sealed-history
// rule included. Every call checks and writes without awaiting in between, so each one is atomic by itself. The
// one call that awaits its caller midway, createRoot, checks again before it writes (see there).
import {
  dayPathsOf,
  isRootPath,
  SealedDayWriteError,
  SealedRootWriteError,
  sameBytes,
  sealedDayOf,
  sealingRootOf,
} from './sealed-days.js';
import { assertStoragePath, assertStoragePrefix, type Storage, type StoredFile } from './storage.js';

/** Creates a Storage that keeps copies of every file in memory. */
export function createMemoryStorage(): Storage {
  const files = new Map<string, Uint8Array>();

  /** Whether a put of `replacement` leaves `path` as it is (null: an append or delete, which always changes it). */
  function unchanged(path: string, replacement: Uint8Array | null): boolean {
    const existing = files.get(path);
    return existing !== undefined && replacement !== null && sameBytes(existing, replacement);
  }

  /** Refuses a change under a sealed day, and any change to an existing root; a put of the same bytes passes. */
  function assertWritable(path: string, replacement: Uint8Array | null): void {
    const root = sealingRootOf(path);
    if (root !== null && files.has(root) && !unchanged(path, replacement))
      throw new SealedDayWriteError(path, sealedDayOf(path));
    if (isRootPath(path) && files.has(path) && !unchanged(path, replacement))
      throw new SealedRootWriteError(path, sealedDayOf(path));
  }

  /** The files under `folder` now, sorted by path; the bytes are the stored arrays themselves (never handed out). */
  function filesUnder(folder: string): StoredFile[] {
    return [...files.keys()]
      .filter((path) => path.startsWith(folder))
      .sort()
      .map((path) => ({ path, bytes: files.get(path) as Uint8Array }));
  }

  /** Whether two reads of a folder saw the same files: every write stores a new array, so identity is enough. */
  function sameFiles(a: readonly StoredFile[], b: readonly StoredFile[]): boolean {
    return a.length === b.length && a.every((file, i) => file.path === b[i]?.path && file.bytes === b[i]?.bytes);
  }

  return {
    async get(path) {
      assertStoragePath(path);
      const bytes = files.get(path);
      return bytes === undefined ? null : bytes.slice();
    },
    async put(path, bytes) {
      assertStoragePath(path);
      assertWritable(path, bytes);
      files.set(path, bytes.slice());
    },
    async list(prefix) {
      assertStoragePrefix(prefix);
      return [...files.keys()].filter((path) => path.startsWith(prefix)).sort();
    },
    async delete(path) {
      assertStoragePath(path);
      // Deleting a missing file changes nothing, so only a present one can break the rule.
      if (!files.has(path)) return;
      assertWritable(path, null);
      files.delete(path);
    },
    async append(path, bytes) {
      assertStoragePath(path);
      assertWritable(path, null);
      const existing = files.get(path);
      if (existing === undefined) {
        files.set(path, bytes.slice());
        return;
      }
      const joined = new Uint8Array(existing.length + bytes.length);
      joined.set(existing, 0);
      joined.set(bytes, existing.length);
      files.set(path, joined);
    },
    async createIfAbsent(path, bytes) {
      assertStoragePath(path);
      const root = sealingRootOf(path);
      if (root !== null && files.has(root)) throw new SealedDayWriteError(path, sealedDayOf(path));
      if (files.has(path)) return false;
      files.set(path, bytes.slice());
      return true;
    },
    async createRoot(day, makeRoot) {
      const { folder, root } = dayPathsOf(day);
      // Writes cannot be held back here, so the root is made, and the day read again: if a write landed meanwhile,
      // the root is made again over what the day holds now. The check and the write below do not await.
      for (;;) {
        const read = filesUnder(folder);
        const bytes = await makeRoot(read.map((file) => ({ path: file.path, bytes: file.bytes.slice() })));
        if (!sameFiles(read, filesUnder(folder))) continue;
        assertWritable(root, bytes);
        files.set(root, bytes.slice());
        return;
      }
    },
  };
}
