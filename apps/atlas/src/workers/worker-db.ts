// What the shard workers keep in PostgreSQL next to the store: each server's record of a day (written once,
// whoever checks it first), the shards the daily cap refused, the scheduled tasks' runs, and the advisory
// locks that make a change to shared state (a spend ledger, a day's fold, a scheduled task) one process's
// at a time. The store's files stay the record of the day; these rows are how several processes agree.
import pg from 'pg';

/** A pool of connections to the cluster the workers share, with the tables they need. */
export interface WorkerDb {
  pool: pg.Pool;
  close(): Promise<void>;
}

// Created on first open. `json`, not `jsonb`, keeps a record's bytes as written (jsonb would reorder its keys).
// A day's records are keyed by day and server, so a second record of the same server
// for the same day is refused by the primary key rather than by a check another process could race.
const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS atlas_day_checks (
  day text NOT NULL,
  server_id text NOT NULL,
  result json NOT NULL,
  catalog bytea,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (day, server_id)
);
CREATE TABLE IF NOT EXISTS atlas_shard_outcomes (
  day text NOT NULL,
  shard integer NOT NULL,
  outcome text NOT NULL,
  PRIMARY KEY (day, shard)
);
CREATE TABLE IF NOT EXISTS atlas_schedule_runs (
  task text NOT NULL,
  period text NOT NULL,
  ran_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (task, period)
);`;

/** The advisory lock key that guards creating the tables, so processes starting together do not race. */
const SCHEMA_LOCK_KEY = 'mcp-atlas:worker-schema';

/** Opens a pool on `url` (postgres://…) and creates the workers' tables when they are missing. */
export async function openWorkerDb(url: string, max = 8): Promise<WorkerDb> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection the server drops must not crash the process: the pool replaces it.
  pool.on('error', () => {});
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [SCHEMA_LOCK_KEY]);
    await client.query(SCHEMA_SQL);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return { pool, close: () => pool.end() };
}

/**
 * Runs `run` while holding the session advisory lock named `key`, waiting for it when another process holds
 * it. The lock is taken on a connection of its own and let go when `run` settles; if that connection breaks,
 * PostgreSQL ends its session and so lets go of the lock as well.
 */
export async function withAdvisoryLock<T>(db: WorkerDb, key: string, run: () => Promise<T>): Promise<T> {
  return holdingAdvisoryLock(
    db,
    async (client) => {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      return key;
    },
    run,
  );
}

/**
 * Runs `run` while holding the session advisory lock that `take` acquires on a connection of the pool (it
 * returns the lock's key), and lets it go when `run` settles.
 */
export async function holdingAdvisoryLock<T>(
  db: WorkerDb,
  take: (client: pg.PoolClient) => Promise<string>,
  run: () => Promise<T>,
): Promise<T> {
  const client = await db.pool.connect();
  let broken: Error | undefined;
  try {
    const key = await take(client);
    try {
      return await run();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch((error: Error) => {
        broken = error;
      });
    }
  } finally {
    // A connection whose unlock failed is closed rather than reused, so the lock cannot outlive it.
    client.release(broken);
  }
}

/**
 * Runs `run` only when the advisory lock `key` is free, holding it meanwhile: `{ ran: false }` when another
 * process holds it (that process is doing the work).
 */
export async function tryAdvisoryLock<T>(
  db: WorkerDb,
  key: string,
  run: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const client = await db.pool.connect();
  let broken: Error | undefined;
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
      [key],
    );
    if (rows[0]?.locked !== true) return { ran: false };
    try {
      return { ran: true, value: await run() };
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch((error: Error) => {
        broken = error;
      });
    }
  } finally {
    client.release(broken);
  }
}

/** A ledger lock (costs/spend-gate.ts) over advisory locks, so every worker charges one shared ledger. */
export function advisoryLedgerLock(db: WorkerDb): { withLock<T>(key: string, run: () => Promise<T>): Promise<T> } {
  return { withLock: (key, run) => withAdvisoryLock(db, `mcp-atlas:ledger:${key}`, run) };
}
