// The shared store for more than one process: the same Storage contract kept in one PostgreSQL table, so
// several scan workers and several `serve` processes can read and write one atlas. Each path is one row; a put
// is one upsert statement (readers see the old row or the new, never a mix), a list is a range scan over the
// primary key (C collation, so byte order and the index agree), and the rule that a sealed day is never
// rewritten (and a root never replaced) is checked inside the same statement that writes, then again by a trigger
// under a per-day lock, which makes it hold against a root committing mid-statement and against plain SQL.
import pg from 'pg';
import { OPERATOR_CHANGES_PATH } from './change-log.js';
import {
  dayPathsOf,
  isRootPath,
  SealedDayWriteError,
  SealedRootWriteError,
  sealedDayOf,
  sealingRootOf,
} from './sealed-days.js';
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

/**
 * The first key of every day's advisory lock (the second is the day as YYYYMMDD): held shared by each change of
 * a day file, exclusive by the insert of the day's root. Two-key advisory locks are a key space of their own, so
 * these never meet the one-key locks of the schema and the workers (workers/worker-db.ts).
 */
export const PG_DAY_LOCK_KEY = 0x61746c64; // "atld"

/** The version of the sealed-day guard (its trigger and function); a store with an older one, or none, gets this. */
export const PG_SEALED_GUARD_VERSION = 1;

/** The trigger on the files table that keeps sealed days and roots as they are, whoever writes the table. */
export const PG_SEALED_GUARD_TRIGGER = 'atlas_guard_sealed_days';

/** The SQLSTATE the guard raises for a change under a sealed day; the store turns it into SealedDayWriteError. */
export const PG_SEALED_DAY_SQLSTATE = 'AT001';

/** The SQLSTATE the guard raises for a change of an existing root; the store turns it into SealedRootWriteError. */
export const PG_SEALED_ROOT_SQLSTATE = 'AT002';

/**
 * The SQLSTATE the guard raises for a change under days/ in a transaction above READ COMMITTED: there the check
 * reads the transaction's first snapshot and could miss a root committed since, so such a change is refused.
 */
export const PG_DAY_WRITE_ISOLATION_SQLSTATE = 'AT003';

/** Thrown when the store was created by a newer build, whose schema this one does not know. */
export class PgSchemaVersionError extends Error {
  constructor(readonly found: number) {
    super(`The store's schema version is ${found}, newer than this build's ${PG_SCHEMA_VERSION}: upgrade mcp-atlas`);
    this.name = 'PgSchemaVersionError';
  }
}

/**
 * Whether a write of `path` means readers should rebuild their view: a day's summary (its scan finished), a root
 * (a day was sealed), the hourly state (an hour's checks landed) or the operators' change log (a mark, a closed
 * incident or review). Everything else changes with them or is rolling state no page reads alone; announcing
 * every catalog write would wake readers thousands of times a day.
 */
export function isReadModelLandmark(path: string): boolean {
  return (
    path.startsWith('roots/') ||
    path === OPERATOR_CHANGES_PATH ||
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
 * The sealed-day guard, in the schema `schema` (quoted): a trigger function that checks each path a row change
 * touches (the old row's, which changes or goes, and the new row's when it arrives at another path).
 *
 * Why a trigger and not only the writing statement's own check: under READ COMMITTED a statement reads the root row
 * in the snapshot it started with, so a write whose snapshot predates a root's commit could land after it. The guard
 * closes that: a day file's change takes the day's advisory lock shared, the root's insert takes it exclusive (so a
 * root waits for the day's changes that hold it to commit, and later changes wait for the root), and the root is
 * looked up after the lock is granted, in a fresh snapshot, which a VOLATILE function's query gets at READ COMMITTED.
 * Either a change holds the lock before the root's insert asks for it, and commits first, or it sees the root and
 * fails, whatever its statement's snapshot saw.
 *
 * The trigger runs AFTER each row is written, not before: an upsert (INSERT ... ON CONFLICT DO UPDATE) fires the
 * BEFORE INSERT and the BEFORE UPDATE triggers both, the AFTER trigger once, for what was really done; and an
 * update that keeps the bytes (a sealed file or a root put again as it is) is seen by comparing the old row with the
 * new, with no query. It is one function with no helper: a call from PL/pgSQL to another PL/pgSQL function costs
 * more than the checks themselves. Being a trigger, it also holds for another client writing the table with plain
 * SQL. TRUNCATE fires no row trigger: it stays the one way to empty a whole store (eraseAll).
 */
function sealedGuardSql(schema: string): string[] {
  const files = `${schema}.${PG_FILES_TABLE}`;
  return [
    `CREATE OR REPLACE FUNCTION ${schema}.${PG_SEALED_GUARD_TRIGGER}() RETURNS trigger
     LANGUAGE plpgsql VOLATILE AS $guard$
     DECLARE
       p text;
       day text;
     BEGIN
       -- The same bytes again change nothing, sealed or not. The lengths first: octet_length reads a stored
       -- value's size without fetching it, so an append (a longer value) is told apart without reading a large file.
       IF TG_OP = 'UPDATE' AND NEW.path = OLD.path AND octet_length(NEW.bytes) = octet_length(OLD.bytes)
          AND NEW.bytes = OLD.bytes THEN
         RETURN NULL;
       END IF;
       -- Step 1: the old row's path, which changes or goes. Step 2: the new row's path, when a row arrives there.
       FOR step IN 1..2 LOOP
         IF step = 1 THEN
           CONTINUE WHEN TG_OP = 'INSERT';
           p := OLD.path;
         ELSE
           CONTINUE WHEN TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND NEW.path = OLD.path);
           p := NEW.path;
         END IF;
         IF left(p, 5) = 'days/' THEN
           day := substring(p from '^days/([0-9]{4}-[0-9]{2}-[0-9]{2})/');
           CONTINUE WHEN day IS NULL;
           PERFORM pg_advisory_xact_lock_shared(${PG_DAY_LOCK_KEY}, replace(day, '-', '')::integer);
           IF current_setting('transaction_isolation') <> 'read committed' THEN
             RAISE EXCEPTION USING ERRCODE = '${PG_DAY_WRITE_ISOLATION_SQLSTATE}', MESSAGE = format(
               'Refusing to write %s: a change under days/ must run at READ COMMITTED, where the sealed-day check '
               'sees a root committed meanwhile (this transaction runs at %s)', p,
               current_setting('transaction_isolation'));
           END IF;
           -- A query of its own, so a snapshot of its own, taken now that the lock is held.
           IF EXISTS (SELECT 1 FROM ${files} WHERE path = 'roots/' || day || '.json') THEN
             RAISE EXCEPTION USING ERRCODE = '${PG_SEALED_DAY_SQLSTATE}', MESSAGE = format(
               'Refusing to write %s: day %s is sealed (roots/%s.json exists) and its files are final', p, day, day);
           END IF;
         ELSIF left(p, 6) = 'roots/' THEN
           day := substring(p from '^roots/([0-9]{4}-[0-9]{2}-[0-9]{2})[.]json$');
           CONTINUE WHEN day IS NULL;
           IF step = 1 THEN
             RAISE EXCEPTION USING ERRCODE = '${PG_SEALED_ROOT_SQLSTATE}', MESSAGE = format(
               'Refusing to change %s: the root of day %s is written once and is never replaced, extended or removed',
               p, day);
           END IF;
           PERFORM pg_advisory_xact_lock(${PG_DAY_LOCK_KEY}, replace(day, '-', '')::integer);
         END IF;
       END LOOP;
       RETURN NULL;
     END
     $guard$`,
    `DROP TRIGGER IF EXISTS ${PG_SEALED_GUARD_TRIGGER} ON ${files}`,
    `CREATE TRIGGER ${PG_SEALED_GUARD_TRIGGER} AFTER INSERT OR UPDATE OR DELETE ON ${files}
     FOR EACH ROW EXECUTE FUNCTION ${schema}.${PG_SEALED_GUARD_TRIGGER}()`,
    `INSERT INTO ${PG_META_TABLE} (key, value) VALUES ('sealed_guard_version', '${PG_SEALED_GUARD_VERSION}')
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
  ];
}

/**
 * One statement that writes a row unless its day is sealed: the insert reads the root row in the same snapshot (the
 * common refusal, with no error; the guard's trigger checks again under the day's lock), and a notification (for
 * landmarks) is queued in the same transaction, so it goes out only if the write commits.
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

/** The server setting every connection of the store starts with (see {@link withReadCommitted}). */
const READ_COMMITTED_OPTION = '-c default_transaction_isolation=read\\ committed';

/**
 * The connection string with READ COMMITTED added to its `options` startup parameter, kept with what the operator
 * set there, or else in PGOPTIONS (a search_path, say). The sealed-day guard refuses day writes above READ COMMITTED
 * (PG_DAY_WRITE_ISOLATION_SQLSTATE), so the store's connections must run at it whatever the database's default.
 * Merged here because node-postgres takes `options` from one place only (the URL, else the pool's config, else
 * PGOPTIONS): setting it in the config alone would be lost to a URL's, and would drop PGOPTIONS.
 *
 * @example
 * withReadCommitted('postgres://db/atlas?options=-c%20search_path%3Datlas');
 * // options: '-c search_path=atlas -c default_transaction_isolation=read\\ committed'
 */
export function withReadCommitted(connectionString: string, env: NodeJS.ProcessEnv = process.env): string {
  const url = new URL(connectionString);
  const own = url.searchParams.get('options') ?? env.PGOPTIONS ?? '';
  url.searchParams.set('options', own.trim() === '' ? READ_COMMITTED_OPTION : `${own.trim()} ${READ_COMMITTED_OPTION}`);
  return url.toString();
}

/** Runs `run` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
async function inTransaction<T>(pool: pg.Pool, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await run(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Installs the sealed-day guard when the store has none, an older one, or a trigger that does not fire in a normal
 * session (disabled, or enabled for replicas only: pg_trigger.tgenabled other than O or A). The schema version
 * stays: the table is unchanged and a build without the guard still reads and writes it (see the README).
 */
async function ensureSealedGuard(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ schema: string; version: string | null; armed: boolean }>(
    `SELECT current_schema() AS schema,
       (SELECT value FROM ${PG_META_TABLE} WHERE key = 'sealed_guard_version') AS version,
       EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = '${PG_FILES_TABLE}'::regclass AND tgname = $1
               AND tgenabled IN ('O', 'A')) AS armed`,
    [PG_SEALED_GUARD_TRIGGER],
  );
  const row = rows[0];
  if (row === undefined) throw new Error('SELECT without FROM returned no row');
  const installed = Number(row.version ?? 0);
  // A newer build's guard is left to that build, which re-arms it whenever it opens the store.
  if (installed > PG_SEALED_GUARD_VERSION || (row.armed && installed === PG_SEALED_GUARD_VERSION)) return;
  // Schema-qualified, so a client with another search_path that writes the table runs the same guard.
  for (const sql of sealedGuardSql(pg.escapeIdentifier(row.schema))) await client.query(sql);
}

/**
 * Creates the tables and the sealed-day guard when missing and checks the schema version; safe when several
 * processes open at once.
 */
export async function ensurePgSchema(pool: pg.Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    // CREATE TABLE IF NOT EXISTS and CREATE OR REPLACE FUNCTION are not safe against themselves in two sessions at
    // once; the lock orders them.
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    for (const sql of SCHEMA_SQL) await client.query(sql);
    const { rows } = await client.query<{ value: string }>(
      `SELECT value FROM ${PG_META_TABLE} WHERE key = 'schema_version'`,
    );
    const found = Number(rows[0]?.value);
    if (found > PG_SCHEMA_VERSION) throw new PgSchemaVersionError(found);
    await ensureSealedGuard(client);
  });
}

/**
 * The store's own error for a refusal the guard raised inside a statement (a root committed while the statement
 * ran, so the statement's own check missed it), else `error` unchanged.
 */
function sealedErrorOf(error: unknown, path: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === PG_SEALED_DAY_SQLSTATE) return new SealedDayWriteError(path, sealedDayOf(path));
  if (code === PG_SEALED_ROOT_SQLSTATE) return new SealedRootWriteError(path, sealedDayOf(path));
  return error;
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
    connectionString: withReadCommitted(connectionString),
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
    try {
      const result = await pool.query(sql, [path, bytes, sealingRootOf(path), isReadModelLandmark(path)]);
      return (result.rowCount ?? 0) > 0;
    } catch (error) {
      throw sealedErrorOf(error, path);
    }
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
      const result = await pool.query(DELETE_SQL, [path, root]).catch((error: unknown) => {
        throw sealedErrorOf(error, path);
      });
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
    async createRoot(day, makeRoot) {
      const { folder, root } = dayPathsOf(day);
      await inTransaction(pool, async (client) => {
        // The day's lock, alone, as the root's own insert takes it (the same key and number as the guard's): a day
        // write under way holds it shared until it commits, so it lands before the read below; a later one waits
        // for this transaction and then finds the root. Taken before the read, whose snapshot therefore sees
        // every write that got in first.
        await client.query(`SELECT pg_advisory_xact_lock($1, replace($2, '-', '')::integer)`, [PG_DAY_LOCK_KEY, day]);
        const { rows } = await client.query<{ path: string; bytes: Buffer }>(
          `SELECT path, bytes FROM ${PG_FILES_TABLE} WHERE path >= $1 AND path < $2 ORDER BY path`,
          [folder, prefixUpperBound(folder)],
        );
        const bytes = await makeRoot(rows.map((row) => ({ path: row.path, bytes: new Uint8Array(row.bytes) })));
        const written = await client
          .query(PUT_ROOT_SQL, [root, toParam(bytes), null, isReadModelLandmark(root)])
          .catch((error: unknown) => {
            throw sealedErrorOf(error, root);
          });
        if ((written.rowCount ?? 0) === 0) throw new SealedRootWriteError(root, day);
      });
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
      // TRUNCATE fires no row trigger, so the sealed-day guard lets it through, as a DELETE of a sealed row is not.
      // The table is locked first, so the count is exactly what the TRUNCATE removes.
      return inTransaction(pool, async (client) => {
        await client.query(`LOCK TABLE ${PG_FILES_TABLE} IN ACCESS EXCLUSIVE MODE`);
        const { rows } = await client.query<{ files: number }>(
          `SELECT count(*)::integer AS files FROM ${PG_FILES_TABLE}`,
        );
        await client.query(`TRUNCATE ${PG_FILES_TABLE}`);
        return rows[0]?.files ?? 0;
      });
    },
    async close() {
      await lanes.settle();
      await pool.end();
    },
  };
}
