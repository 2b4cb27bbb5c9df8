// The host gate across every process that shares a PostgreSQL store: serve processes and shard workers. A host
// has `limit` turns, and each turn is a PostgreSQL advisory lock named after the host and the turn's number,
// held for the whole check on a connection of its own. So at most `limit` checks of a host run at once in the
// whole cluster, whichever process and lane runs them. Within a process the local gate (scan/host-gate.ts)
// lets at most `limit` of a host's checks ask for a lock, so a process never holds more connections for one
// host than it could use.
import type pg from 'pg';
import { createHostGate, type HostGate, hostKeyOf } from '../scan/host-gate.js';
import { holdingAdvisoryLock, openWorkerDb, type WorkerDb } from './worker-db.js';

/** The advisory lock of one turn of a host. */
export function hostLockKey(url: string, turn: number): string {
  return `mcp-atlas:host:${hostKeyOf(url)}:${turn}`;
}

/**
 * Takes a turn of `url`'s host on `client`: the first turn free in the cluster, tried from `first` onwards,
 * or, when every turn is held, `first` itself once its holder lets it go (the wait is PostgreSQL's, not a poll).
 */
async function takeClusterTurn(client: pg.PoolClient, url: string, first: number, limit: number): Promise<string> {
  for (let step = 0; step < limit; step++) {
    const key = hostLockKey(url, (first + step) % limit);
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked',
      [key],
    );
    if (rows[0]?.locked === true) return key;
  }
  const key = hostLockKey(url, first);
  await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
  return key;
}

/** Runs `work` holding a cluster turn of `url`'s host; the local turn `first` says where to start looking. */
function withClusterTurn<T>(
  db: WorkerDb,
  url: string,
  first: number,
  limit: number,
  work: () => Promise<T>,
): Promise<T> {
  return holdingAdvisoryLock(db, (client) => takeClusterTurn(client, url, first, limit), work);
}

/** A host gate over `db`'s advisory locks: at most `limit` checks of a host at once across the cluster. */
export function clusterHostGate(db: WorkerDb, limit: number): HostGate {
  const local = createHostGate(limit);
  return {
    run: (url, work) => local.run(url, (turn) => withClusterTurn(db, url, turn, limit, () => work(turn))),
  };
}

/**
 * A cluster host gate on its own pool for `url` (postgres://…): each check holds a connection while it runs,
 * so the pool has one per check the process runs at once, and a few more for the other lanes.
 */
export async function openClusterHostGate(
  url: string,
  limit: number,
  checksAtOnce: number,
): Promise<HostGate & { close(): Promise<void> }> {
  const db = await openWorkerDb(url, checksAtOnce + 4);
  return { ...clusterHostGate(db, limit), close: () => db.close() };
}
