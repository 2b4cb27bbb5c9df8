// Scheduled work that must run once across every process sharing a store: sealing, the registry read and
// daily check, the hourly and five-minute checks, retention. Each task runs under an advisory lock of its own
// (a process that finds it taken skips the task: another is doing it), and a task with a period (an hour, a
// five-minute slot, a day) is noted as run for that period, so a second process arriving after the first
// finished does not run it again. A task that fails is not noted, so the next tick anywhere tries again.
import { openWorkerDb, tryAdvisoryLock, type WorkerDb } from './worker-db.js';

/** Runs scheduled tasks once across the processes that share a store. */
export interface ClusterOnce {
  /**
   * Runs `work` unless another process is running task `task` now, or (with a `period`) one already ran it
   * for that period. Resolves to what `work` returned, or false when it did not run here.
   */
  run(task: string, period: string | null, work: () => Promise<boolean>): Promise<boolean>;
}

/** A ClusterOnce over PostgreSQL advisory locks and the `atlas_schedule_runs` table. */
export function postgresClusterOnce(db: WorkerDb): ClusterOnce {
  return {
    async run(task, period, work) {
      const outcome = await tryAdvisoryLock(db, `mcp-atlas:task:${task}`, async () => {
        if (period !== null) {
          const { rowCount } = await db.pool.query(
            'SELECT 1 FROM atlas_schedule_runs WHERE task = $1 AND period = $2',
            [task, period],
          );
          if (rowCount !== 0) return false;
        }
        const ran = await work();
        if (period !== null)
          await db.pool.query(
            'INSERT INTO atlas_schedule_runs (task, period) VALUES ($1, $2) ON CONFLICT (task, period) DO NOTHING',
            [task, period],
          );
        return ran;
      });
      return outcome.ran ? outcome.value : false;
    },
  };
}

/** A ClusterOnce on its own small pool for `url` (postgres://…); close it when the schedule stops. */
export async function openClusterOnce(url: string): Promise<ClusterOnce & { close(): Promise<void> }> {
  // Its own pool: a task holds its lock's connection while it runs, and must not starve the store's pool. Three
  // connections: the daily lane's task holds one for the whole scan, and a tick-lane task needs one for its lock
  // and one for its period's record, so the hourly and five-minute checks keep their slots during a scan.
  const db = await openWorkerDb(url, 3);
  return { ...postgresClusterOnce(db), close: () => db.close() };
}
