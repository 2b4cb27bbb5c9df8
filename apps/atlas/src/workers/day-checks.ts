// Each server's record of a day, kept once. Two workers can check the same server (a lease lapsed while its
// worker was still busy, or a worker died after checking and before its shard was written); the first record
// stays and the second is dropped, so a shard file built from these rows lists every server exactly once.
import { type ServerDayResult, ServerDayResultSchema } from '../data/schemas.js';
import type { WorkerDb } from './worker-db.js';

/** A server's kept record of a day, with its catalog file's bytes (null without a catalog). */
export interface RecordedCheck {
  result: ServerDayResult;
  catalogBytes: Uint8Array | null;
}

/**
 * Keeps `result` (and its catalog) as the server's record of `day` unless one is kept already. Resolves to
 * true when this call's record is the one kept.
 */
export async function recordServerCheck(
  db: WorkerDb,
  day: string,
  result: ServerDayResult,
  catalogBytes: Uint8Array | null,
): Promise<boolean> {
  const { rowCount } = await db.pool.query(
    `INSERT INTO atlas_day_checks (day, server_id, result, catalog) VALUES ($1, $2, $3, $4)
     ON CONFLICT (day, server_id) DO NOTHING`,
    [day, result.id, JSON.stringify(result), catalogBytes === null ? null : Buffer.from(catalogBytes)],
  );
  return rowCount === 1;
}

/** The kept records of `day` for the servers `ids`, by server id; a server not yet checked is absent. */
export async function readServerChecks(
  db: WorkerDb,
  day: string,
  ids: readonly string[],
): Promise<Map<string, RecordedCheck>> {
  const { rows } = await db.pool.query<{ server_id: string; result: unknown; catalog: Buffer | null }>(
    'SELECT server_id, result, catalog FROM atlas_day_checks WHERE day = $1 AND server_id = ANY($2::text[])',
    [day, [...ids]],
  );
  const checks = new Map<string, RecordedCheck>();
  for (const row of rows)
    checks.set(row.server_id, {
      result: ServerDayResultSchema.parse(row.result),
      catalogBytes: row.catalog === null ? null : new Uint8Array(row.catalog),
    });
  return checks;
}

/** How many records `day` holds per server id, for tests and checks that no server was recorded twice. */
export async function countServerChecks(db: WorkerDb, day: string): Promise<Map<string, number>> {
  const { rows } = await db.pool.query<{ server_id: string; n: string }>(
    'SELECT server_id, count(*) AS n FROM atlas_day_checks WHERE day = $1 GROUP BY server_id',
    [day],
  );
  return new Map(rows.map((row) => [row.server_id, Number(row.n)]));
}

/** Notes that the daily cap refused `shard` of `day`: the shard is decided, and waits for the next day. */
export async function recordShardSkipped(db: WorkerDb, day: string, shard: number): Promise<void> {
  await db.pool.query(
    `INSERT INTO atlas_shard_outcomes (day, shard, outcome) VALUES ($1, $2, 'skipped-by-cap')
     ON CONFLICT (day, shard) DO NOTHING`,
    [day, shard],
  );
}

/** The shards of `day` the daily cap refused. */
export async function readSkippedShards(db: WorkerDb, day: string): Promise<Set<number>> {
  const { rows } = await db.pool.query<{ shard: number }>(
    `SELECT shard FROM atlas_shard_outcomes WHERE day = $1 AND outcome = 'skipped-by-cap'`,
    [day],
  );
  return new Set(rows.map((row) => row.shard));
}
