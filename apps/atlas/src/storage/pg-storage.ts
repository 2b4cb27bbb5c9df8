// The shared store for more than one process: the same Storage contract kept in one PostgreSQL table, so
// several scan workers and several `serve` processes can read and write one atlas. Each path is one row; a put
// is one upsert statement (readers see the old row or the new, never a mix), a list is a range scan over the
// primary key (C collation, so byte order and the index agree), and the rule that a sealed day is never
// rewritten (and a root never replaced) is checked inside the same statement that writes.
import pg from 'pg';
import { isRootPath, SealedDayWriteError, SealedRootWriteError, sealedDayOf, sealingRootOf } from './sealed-days.js';
import { assertStoragePath, assertStoragePrefix, type Storage } from './storage.js';

// The sealed-history rule and its errors live in sealed-days.ts, shared by every store; re-exported here for
// the callers that met them on this store first.
export { SealedDayWriteError, SealedRootWriteError, sealingRootOf };

/** The table every path lives in; one row per stored file. */
export const PG_FILES_TABLE = 'atlas_files';

/** The table that records which schema version the store was created with. */
export const PG_META_TABLE = 'atlas_meta';

/** The schema version this build creates and reads; a store with a newer one is refused rather than misread. */
export const PG_SCHEMA_VERSION = 1;

/** The LISTEN/NOTIFY channel a put of a read-model landmark (a new day, seal or hour) is announced on. */
export const PG_CHANGE_CHANNEL = 'atlas_store_changes';

/** The advisory lock key held while the schema is created, so two processes opening a fresh store at once agree. */
const SCHEMA_LOCK_KEY = 0x61746c61; // "atla"

/** Thrown when the store was created by a newer build, whose schema this one does not know. */
export class PgSchemaVersionError extends Error {
  constructor(readonly found: number) {
    super(`The store's schema version is ${found}, newer than this build's ${PG_SCHEMA_VERSION}: upgrade mcp-atlas`);
    this.name = 'PgSchemaVersionError';
  }
}

/**
 * Whether a write of `path` means readers should rebuild their view: a day's summary (its scan finished), a root
 * (a day was sealed) or the hourly state (an hour's checks landed). Everything else changes with them or is
 * rolling state no page reads alone; announcing every catalog write would wake readers thousands of times a day.
 */
export function isReadModelLandmark(path: string): boolean {
  return (
    path.startsWith('roots/') ||
    path === 'state/hourly.json' ||
    path === 'state/five-minute.json' ||
    /^days\/\d{4}-\d{2}-\d{2}\/summary\.json$/.test(path)
  );
}

/**
 * The exclusive upper bound of the paths that start with `prefix`: the prefix with its last character moved one
 * up. Paths are ASCII (assertStoragePath), and the column sorts bytewise, so `prefix <= path < bound` is exactly
 * "starts with", and the planner answers it from the primary key index.
 */
export function prefixUpperBound(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/** The query `list(prefix)` runs: a range over the primary key, or the whole table for the empty prefix. */
export function listQuery(prefix: string): { text: string; values: string[] } {
  return prefix === ''
    ? { text: `SELECT path FROM ${PG_FILES_TABLE} ORDER BY path`, values: [] }
    : {
        text: `SELECT path FROM ${PG_FILES_TABLE} WHERE path >= $1 AND path < $2 ORDER BY path`,
        values: [prefix, prefixUpperBound(prefix)],
      };
}

const SCHEMA_SQL = [
  `CREATE TABLE IF NOT EXISTS ${PG_META_TABLE} (key text PRIMARY KEY, value text NOT NULL)`,
  // COLLATE "C": byte order, so ORDER BY matches the other drivers' sort and a range scan is a prefix scan.
  `CREATE TABLE IF NOT EXISTS ${PG_FILES_TABLE} (
     path text COLLATE "C" PRIMARY KEY,
     bytes bytea NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  `INSERT INTO ${PG_META_TABLE} (key, value) VALUES ('schema_version', '${PG_SCHEMA_VERSION}') ON CONFLICT (key) DO NOTHING`,
];

/**
 * One statement that writes a row unless its day is sealed: the insert reads the root row in the same snapshot,
 * and a notification (for landmarks) is queued in the same transaction, so it goes out only if the write commits.
 * `$1` path, `$2` bytes, `$3` the sealing root or null, `$4` whether to announce; `onConflict` is what happens to
 * an existing row (replaced for put, extended for append, kept for create). With `unchangedPasses`, a sealed day's
 * file may be put again with the bytes it already holds (the sealed-history rule refuses changes, not repeats).
 */
function writeSql(onConflict: string, unchangedPasses = false): string {
  const unchanged = unchangedPasses
    ? ` OR EXISTS (SELECT 1 FROM ${PG_FILES_TABLE} WHERE path = $1::text AND bytes = $2::bytea)`
    : '';
  return `WITH written AS (
      INSERT INTO ${PG_FILES_TABLE} (path, bytes)
      SELECT $1::text, $2::bytea
      WHERE $3::text IS NULL OR NOT EXISTS (SELECT 1 FROM ${PG_FILES_TABLE} WHERE path = $3::text)${unchanged}
      ON CONFLICT (path) ${onConflict}
      RETURNING path
    )
    SELECT path, CASE WHEN $4::boolean THEN pg_notify('${PG_CHANGE_CHANNEL}', path) END AS announced FROM written`;
}

const PUT_SQL = writeSql('DO UPDATE SET bytes = EXCLUDED.bytes, updated_at = now()', true);
const APPEND_SQL = writeSql(`DO UPDATE SET bytes = ${PG_FILES_TABLE}.bytes || EXCLUDED.bytes, updated_at = now()`);
/** A put of a root: an existing row is "updated" only when it already holds the same bytes, so no row means refused. */
const PUT_ROOT_SQL = writeSql(`DO UPDATE SET bytes = EXCLUDED.bytes WHERE ${PG_FILES_TABLE}.bytes = EXCLUDED.bytes`);
/** Creates the row only when the path is free: of racing inserts one commits, the others wait for it and skip. */
const CREATE_SQL = writeSql('DO NOTHING');
const DELETE_SQL = `DELETE FROM ${PG_FILES_TABLE} WHERE path = $1::text
  AND ($2::text IS NULL OR NOT EXISTS (SELECT 1 FROM ${PG_FILES_TABLE} WHERE path = $2::text))`;

/** Options of the PostgreSQL store. */
export interface PgStorageOptions {
  /** The most connections this process opens (default 10). */
  maxConnections?: number;
  /** Shown in pg_stat_activity, so an operator can tell the processes apart. */
  applicationName?: string;
}

/** A Storage kept in PostgreSQL, with what a process needs beyond the contract. */
export interface PgStorage extends Storage {
  /** Waits for appends in flight, then closes every connection. */
  close(): Promise<void>;
  /**
   * Calls `listener` with the path each time another process (or this one) writes a read-model landmark
   * (isReadModelLandmark). Resolves once listening; the returned function stops it.
   */
  watchChanges(listener: (path: string) => void): Promise<() => Promise<void>>;
  /** The pool, for code that needs SQL of its own on the same database (the job queue, cluster-wide locks). */
  readonly pool: pg.Pool;
  /**
   * Removes every file, sealed days and roots included: the one way past the sealed-history rule, for a store
   * its caller made wholly and may throw away (the demo's). The service never calls it. Returns how many went.
   */
  eraseAll(): Promise<number>;
}

/** Creates the tables when missing and checks the schema version; safe when several processes open at once. */
export async function ensurePgSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // CREATE TABLE IF NOT EXISTS is not safe against itself in two sessions at once; the lock orders them.
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    for (const sql of SCHEMA_SQL) await client.query(sql);
    const { rows } = await client.query<{ value: string }>(
      `SELECT value FROM ${PG_META_TABLE} WHERE key = 'schema_version'`,
    );
    await client.query('COMMIT');
    const found = Number(rows[0]?.value);
    if (found > PG_SCHEMA_VERSION) throw new PgSchemaVersionError(found);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Copies bytes into a Buffer the driver sends as bytea; a copy, so the caller may reuse its buffer at once. */
function toParam(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes);
}

/** Joins the chunks an append lane gathered. */
function concat(chunks: Uint8Array[]): Buffer {
  return Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
}

/**
 * Appends to one path go through one lane, so they land in the order they were called even though the pool
 * has several connections; appends that arrive while a write is under way go out together in the next one.
 */
function createAppendLanes(write: (path: string, bytes: Buffer) => Promise<void>) {
  const lanes = new Map<
    string,
    { pending: Buffer[]; waiters: { resolve: () => void; reject: (e: unknown) => void }[] }
  >();
  const draining = new Set<Promise<void>>();

  async function drain(path: string): Promise<void> {
    const lane = lanes.get(path);
    if (lane === undefined) return;
    while (lane.pending.length > 0) {
      const batch = lane.pending.splice(0);
      const waiters = lane.waiters.splice(0);
      try {
        await write(path, concat(batch));
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    lanes.delete(path);
  }

  return {
    append(path: string, bytes: Uint8Array): Promise<void> {
      let lane = lanes.get(path);
      const start = lane === undefined;
      if (lane === undefined) {
        lane = { pending: [], waiters: [] };
        lanes.set(path, lane);
      }
      lane.pending.push(toParam(bytes));
      const done = new Promise<void>((resolve, reject) => lane.waiters.push({ resolve, reject }));
      if (start) {
        const running = drain(path);
        draining.add(running);
        void running.finally(() => draining.delete(running));
      }
      return done;
    },
    /** Resolves once every lane has drained. */
    async settle(): Promise<void> {
      while (draining.size > 0) await Promise.allSettled([...draining]);
    },
  };
}

/**
 * Opens the store at `connectionString` (postgres://user:pass@host:port/db), creating its tables on first use.
 * Close it when done: the pool keeps connections open.
 */
export async function createPgStorage(connectionString: string, options: PgStorageOptions = {}): Promise<PgStorage> {
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'mcp-atlas',
    // A one-shot command (scan, seal, verify) exits when its work is done even if a path forgot to close.
    allowExitOnIdle: true,
  });
  // An idle connection the server drops (a restart, a proxy timeout) must not crash the process: the pool
  // discards it and the next query opens a fresh one.
  pool.on('error', () => undefined);
  try {
    await ensurePgSchema(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }

  /** Runs one writing statement; resolves to whether it wrote a row. */
  async function tryWrite(sql: string, path: string, bytes: Buffer): Promise<boolean> {
    const result = await pool.query(sql, [path, bytes, sealingRootOf(path), isReadModelLandmark(path)]);
    return (result.rowCount ?? 0) > 0;
  }

  async function write(sql: string, path: string, bytes: Buffer): Promise<void> {
    if (await tryWrite(sql, path, bytes)) return;
    // No row: for a root, it holds other bytes; for any other path, the statement found the day's root.
    if (isRootPath(path)) throw new SealedRootWriteError(path, sealedDayOf(path));
    throw new SealedDayWriteError(path, sealedDayOf(path));
  }

  async function exists(path: string): Promise<boolean> {
    const { rowCount } = await pool.query(`SELECT 1 FROM ${PG_FILES_TABLE} WHERE path = $1`, [path]);
    return (rowCount ?? 0) > 0;
  }

  const lanes = createAppendLanes((path, bytes) => write(APPEND_SQL, path, bytes));

  return {
    pool,
    async get(path) {
      assertStoragePath(path);
      const { rows } = await pool.query<{ bytes: Buffer }>(`SELECT bytes FROM ${PG_FILES_TABLE} WHERE path = $1`, [
        path,
      ]);
      const row = rows[0];
      return row === undefined ? null : new Uint8Array(row.bytes);
    },
    async put(path, bytes) {
      assertStoragePath(path);
      await write(isRootPath(path) ? PUT_ROOT_SQL : PUT_SQL, path, toParam(bytes));
    },
    async list(prefix) {
      assertStoragePrefix(prefix);
      const { rows } = await pool.query<{ path: string }>(listQuery(prefix));
      return rows.map((row) => row.path);
    },
    async delete(path) {
      assertStoragePath(path);
      // A root is never removed; deleting one that is missing changes nothing, as for any path.
      if (isRootPath(path)) {
        if (await exists(path)) throw new SealedRootWriteError(path, sealedDayOf(path));
        return;
      }
      const root = sealingRootOf(path);
      const result = await pool.query(DELETE_SQL, [path, root]);
      // Nothing deleted: the path was missing (fine) or its day is sealed (refused); only the second is an error.
      if (result.rowCount === 0 && root !== null && (await exists(path)))
        throw new SealedDayWriteError(path, sealedDayOf(path));
    },
    append(path, bytes) {
      try {
        assertStoragePath(path);
      } catch (error) {
        return Promise.reject(error);
      }
      // A root is never extended: an append to one only creates it, in one statement, or is refused.
      if (isRootPath(path))
        return tryWrite(CREATE_SQL, path, toParam(bytes)).then((created) => {
          if (!created) throw new SealedRootWriteError(path, sealedDayOf(path));
        });
      return lanes.append(path, bytes);
    },
    async createIfAbsent(path, bytes) {
      assertStoragePath(path);
      if (await tryWrite(CREATE_SQL, path, toParam(bytes))) return true;
      // No row: the path was taken, or the day is sealed; a sealed day refuses, as a put would.
      const root = sealingRootOf(path);
      if (root !== null && (await exists(root))) throw new SealedDayWriteError(path, sealedDayOf(path));
      return false;
    },
    async watchChanges(listener) {
      const client = await pool.connect();
      const onNotification = (message: pg.Notification): void => {
        if (message.channel === PG_CHANGE_CHANNEL && message.payload !== undefined) listener(message.payload);
      };
      client.on('notification', onNotification);
      await client.query(`LISTEN ${PG_CHANGE_CHANNEL}`);
      let stopped = false;
      return async () => {
        if (stopped) return;
        stopped = true;
        client.off('notification', onNotification);
        try {
          await client.query(`UNLISTEN ${PG_CHANGE_CHANNEL}`);
          client.release();
        } catch (error) {
          client.release(error as Error);
        }
      };
    },
    async eraseAll() {
      await lanes.settle();
      const { rowCount } = await pool.query(`DELETE FROM ${PG_FILES_TABLE}`);
      return rowCount ?? 0;
    },
    async close() {
      await lanes.settle();
      await pool.end();
    },
  };
}
