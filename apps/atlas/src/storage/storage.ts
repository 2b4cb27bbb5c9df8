// The app's storage seam: everything the service keeps goes through put/get/list/delete (and append, for
// day logs) by relative path, so an object store can replace the local folder without the rest of the app
// noticing. Every store also refuses to rewrite sealed history (see sealed-days.ts): a file under a day that has a
// root cannot be put, appended to or deleted, and a root cannot be replaced with other bytes or removed.

/** Thrown for a path that could escape the storage root or is not a plain relative path. */
export class StoragePathError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`Invalid storage path "${path}": ${why}`);
    this.name = 'StoragePathError';
  }
}

/** A small key-value store of files addressed by relative, slash-separated paths. */
export interface Storage {
  /** The bytes at `path`, or null when nothing is stored there. */
  get(path: string): Promise<Uint8Array | null>;
  /** Stores `bytes` at `path` atomically: a reader sees the old bytes or the new, never a mix. */
  put(path: string, bytes: Uint8Array): Promise<void>;
  /** Every stored path that starts with `prefix` (a folder prefix ends with "/"), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Removes `path`; removing a missing path is not an error. */
  delete(path: string): Promise<void>;
  /**
   * Adds `bytes` at the end of `path`, creating it when missing, and resolves once they are durable. Appends
   * to one path land in the order they were called. A crash may lose appends that had not resolved (or
   * leave the last of them torn), never bytes an earlier append resolved for; so a reader of an appended
   * log must expect a torn last line. An append that fails leaves the file as it was, as far as the driver
   * can (the folder driver truncates a partial write away). Meant for logs: do not mix `put` and `append`
   * on one path at once.
   */
  append(path: string, bytes: Uint8Array): Promise<void>;
  /**
   * Stores `bytes` at `path` only when nothing is stored there yet, atomically: of any number of calls racing on
   * one path (from this process or another sharing the store), exactly one resolves true and its bytes stay; the
   * others resolve false and change nothing. Resolves once the new file is durable. For files made once and then
   * shared, such as the signing key.
   */
  createIfAbsent(path: string, bytes: Uint8Array): Promise<boolean>;
  /**
   * Creates the root of `day` (YYYY-MM-DD) from the day's files in one step: reads every file under `days/<day>/`,
   * passes them (sorted by path) to `makeRoot`, and stores the bytes it returns at `roots/<day>.json`. No write to
   * the day lands between the read and the root: a write under way finishes before the read (so the root signs
   * it), and a later one waits and then is refused, as for any sealed day. So the root always signs what the day
   * keeps. When `makeRoot` throws, nothing is written and the error is passed on. A root already there with other
   * bytes is refused (SealedRootWriteError), as for `put`. `makeRoot` may be called again when the store cannot
   * hold writes back (the memory store re-reads the day if a write landed while the root was made).
   */
  createRoot(day: string, makeRoot: (files: readonly StoredFile[]) => Promise<Uint8Array>): Promise<void>;
}

/** A stored file: its path in the store and its bytes. */
export interface StoredFile {
  path: string;
  bytes: Uint8Array;
}

/** Every file under `prefix`, sorted by path, read one by one (a store that can hold writes back holds them first). */
export async function readFilesUnder(storage: Pick<Storage, 'list' | 'get'>, prefix: string): Promise<StoredFile[]> {
  const files: StoredFile[] = [];
  for (const path of await storage.list(prefix)) {
    const bytes = await storage.get(path);
    if (bytes !== null) files.push({ path, bytes });
  }
  return files;
}

const SEGMENT = /^[A-Za-z0-9._@:+=-]+$/;

/** Checks a storage path: relative, slash-separated, no empty, `.` or `..` segments, no odd characters. */
export function assertStoragePath(path: string): void {
  if (typeof path !== 'string' || path.length === 0) throw new StoragePathError(String(path), 'it is empty');
  if (path.length > 512) throw new StoragePathError(path, 'it is longer than 512 characters');
  if (path.startsWith('/')) throw new StoragePathError(path, 'it is absolute');
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..')
      throw new StoragePathError(path, 'it has an empty, "." or ".." segment');
    if (!SEGMENT.test(segment))
      throw new StoragePathError(path, `segment "${segment}" has characters outside [A-Za-z0-9._@:+=-]`);
    if (segment.endsWith('.tmp'))
      throw new StoragePathError(path, 'names ending in .tmp are reserved for atomic writes');
  }
}

/** Checks a list prefix: empty (everything) or a valid path, optionally ending with "/". */
export function assertStoragePrefix(prefix: string): void {
  if (prefix === '') return;
  assertStoragePath(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Reads and parses a JSON file, or returns null when it is missing. */
export async function getJson(storage: Pick<Storage, 'get'>, path: string): Promise<unknown> {
  const bytes = await storage.get(path);
  return bytes === null ? null : (JSON.parse(decoder.decode(bytes)) as unknown);
}

/**
 * Reads a JSON file for a reader that skips what it cannot use: null when the file is missing or cannot be
 * read as JSON (a file edited by hand, say), so the caller's schema check refuses it like any other bad shape.
 */
export async function getJsonOrNull(storage: Pick<Storage, 'get'>, path: string): Promise<unknown> {
  try {
    return await getJson(storage, path);
  } catch {
    return null;
  }
}

/** A value as the bytes every JSON file of the store holds: pretty JSON with a trailing newline. */
export function jsonBytes(value: unknown): Uint8Array {
  return encoder.encode(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes a value as pretty JSON with a trailing newline. */
export async function putJson(storage: Storage, path: string, value: unknown): Promise<Uint8Array> {
  const bytes = jsonBytes(value);
  await storage.put(path, bytes);
  return bytes;
}
