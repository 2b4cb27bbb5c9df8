// An in-memory Storage for tests and for the load benchmark; same contract as the folder on disk.
import { assertStoragePath, assertStoragePrefix, type Storage } from './storage.js';

/** Creates a Storage that keeps copies of every file in memory. */
export function createMemoryStorage(): Storage {
  const files = new Map<string, Uint8Array>();
  return {
    async get(path) {
      assertStoragePath(path);
      const bytes = files.get(path);
      return bytes === undefined ? null : bytes.slice();
    },
    async put(path, bytes) {
      assertStoragePath(path);
      files.set(path, bytes.slice());
    },
    async list(prefix) {
      assertStoragePrefix(prefix);
      return [...files.keys()].filter((path) => path.startsWith(prefix)).sort();
    },
    async delete(path) {
      assertStoragePath(path);
      files.delete(path);
    },
    async append(path, bytes) {
      assertStoragePath(path);
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
  };
}
