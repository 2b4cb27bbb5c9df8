// One way in for every command: a store URL names the driver and where it keeps its files. `file:DIR` is the
// data folder on local disk (the embedded default, the same as --data DIR); `postgres://…` is the shared
// PostgreSQL store that several workers and serve processes use at once.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchFolderChanges } from './change-log.js';
import { createFsStorage, removeStaleTempFiles } from './fs-storage.js';
import { createPgStorage, type PgStorage } from './pg-storage.js';
import type { Storage } from './storage.js';

/** Thrown for a store URL that names no driver this build has, or no place to keep files. */
export class StoreUrlError extends Error {
  constructor(
    readonly url: string,
    why: string,
  ) {
    super(`Invalid store URL "${redactStoreUrl(url)}": ${why} (use file:DIR or postgres://user@host:port/db)`);
    this.name = 'StoreUrlError';
  }
}

/** The URL schemes of the PostgreSQL driver. */
export const POSTGRES_URL_SCHEMES = ['postgres:', 'postgresql:'] as const;

/** Options of openStore. */
export interface OpenStoreOptions {
  /**
   * For file:, temp files last modified at or before this instant (epoch ms) are removed on open: a crash left
   * them. Leave it out to remove none (another process may be writing).
   */
  removeTempFilesModifiedAtOrBefore?: number;
  /** For postgres:, the most connections this process opens. */
  maxConnections?: number;
  /** For postgres:, the name shown in pg_stat_activity. */
  applicationName?: string;
}

/** An open store: the Storage contract, how to close it, and what its driver offers beyond that. */
export interface OpenedStore extends Storage {
  /** Releases what the store holds (connections); the folder store has nothing to release. */
  close(): Promise<void>;
  /** Which driver this is. */
  readonly kind: 'file' | 'postgres';
  /** The data folder, for file: (key files are fsynced and checked there); null for postgres:. */
  readonly dir: string | null;
  /** The PostgreSQL store itself (its pool, its change notifications), or null for file:. */
  readonly pg: PgStorage | null;
  /**
   * Calls `listener` when another process writes something the read model shows: on postgres: a day, a seal, an
   * hour or an operator's change; on file: an operator's change (storage/change-log.ts). Resolves to the function
   * that stops listening; null for a store that cannot tell.
   */
  watchChanges: ((listener: (path: string) => void) => Promise<() => Promise<void>>) | null;
}

/** The URL with any password replaced, safe to print and log. */
export function redactStoreUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

/** The folder a file: URL names (file:DIR relative to the working folder, or file:///absolute/dir). */
export function folderOfFileUrl(url: string): string {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url);
    } catch (error) {
      throw new StoreUrlError(url, (error as Error).message);
    }
  }
  const dir = url.slice('file:'.length);
  if (dir === '') throw new StoreUrlError(url, 'file: needs a folder');
  return resolve(dir);
}

/** Which driver a store URL selects. */
export function storeKindOf(url: string): 'file' | 'postgres' {
  if (url.startsWith('file:')) return 'file';
  if (POSTGRES_URL_SCHEMES.some((scheme) => url.toLowerCase().startsWith(`${scheme}//`))) return 'postgres';
  throw new StoreUrlError(url, 'the scheme is neither file: nor postgres:');
}

/**
 * Opens the store `url` names: `file:DIR` creates the folder when missing, `postgres://…` connects and creates
 * the tables on first use. Close the result when done.
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  if (storeKindOf(url) === 'file') {
    const dir = folderOfFileUrl(url);
    await mkdir(dir, { recursive: true });
    if (options.removeTempFilesModifiedAtOrBefore !== undefined)
      await removeStaleTempFiles(dir, { modifiedAtOrBefore: options.removeTempFilesModifiedAtOrBefore });
    const storage = createFsStorage(dir);
    return {
      ...storage,
      kind: 'file',
      dir,
      pg: null,
      watchChanges: (listener) => watchFolderChanges(dir, listener),
      close: async () => undefined,
    };
  }
  const store = await createPgStorage(url, {
    ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
    ...(options.applicationName !== undefined ? { applicationName: options.applicationName } : {}),
  });
  return {
    get: store.get,
    put: store.put,
    list: store.list,
    delete: store.delete,
    append: store.append,
    createIfAbsent: store.createIfAbsent,
    createRoot: store.createRoot,
    close: store.close,
    kind: 'postgres',
    dir: null,
    pg: store,
    watchChanges: store.watchChanges,
  };
}

/**
 * Removes everything `store` holds, sealed days and roots included, which no Storage call may do (they refuse to
 * change sealed history). Only for a store the caller made wholly and may throw away, such as the demo's own
 * store before it fills it again; the service never calls it. On file: it empties the folder (keeping the folder),
 * on postgres: it deletes every row of the files table.
 */
export async function eraseWholeStore(store: OpenedStore): Promise<void> {
  if (store.pg !== null) {
    await store.pg.eraseAll();
    return;
  }
  if (store.dir === null) return;
  const dir = store.dir;
  for (const entry of await readdir(dir)) await rm(join(dir, entry), { recursive: true, force: true });
}
