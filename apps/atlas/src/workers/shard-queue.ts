// The queue of a day's shards, on pg-boss (a job queue kept in PostgreSQL tables, so the cluster that holds
// the store is the queue too, with nothing else to run). One job per shard of a day; a worker takes one, holds
// it under a lease it renews while it works, and completes it once the shard file is written. A worker that
// dies stops renewing: once the lease lapses, pg-boss's maintenance (run by any live worker) puts the job back
// and another worker takes it.
import PgBoss from 'pg-boss';
import { z } from 'zod';

/** The queue every day's shards go on. */
export const SHARD_QUEUE = 'mcp-atlas-day-shards';

/** The schema pg-boss keeps its tables in. */
export const QUEUE_SCHEMA = 'pgboss';

/** How long a worker holds a shard without renewing before another may take it (`--lease-seconds`). */
export const DEFAULT_LEASE_SECONDS = 60;

/**
 * How many times a shard is put back after its lease lapsed or its worker failed. A shard that kills every
 * worker that takes it stops being retried after this many tries; the day then stays open until the operator
 * looks (`scan` without --enqueue resumes it in one process).
 */
export const SHARD_RETRY_LIMIT = 20;

/** One job: a shard of a day. */
export const ShardJobSchema = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  shard: z.number().int().nonnegative(),
});
export type ShardJob = z.infer<typeof ShardJobSchema>;

/** Options of a queue connection. */
export interface ShardQueueOptions {
  /** The lease a job is enqueued with, and how often this process's maintenance looks for lapsed ones. */
  leaseSeconds?: number;
  /** Run pg-boss's maintenance (putting back lapsed jobs) from this process; workers do. */
  supervise?: boolean;
  /** Where pg-boss reports a failure of its own background work. */
  onError?: (error: Error) => void;
}

/**
 * Connects to the queue at `url` (postgres://…), creating pg-boss's tables and the shard queue when missing.
 * With `supervise`, maintenance runs every half lease, so a lapsed lease is found within half a lease.
 */
export async function openShardQueue(url: string, options: ShardQueueOptions = {}): Promise<PgBoss> {
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const boss = new PgBoss({
    connectionString: url,
    schema: QUEUE_SCHEMA,
    max: 4,
    schedule: false,
    supervise: options.supervise ?? false,
    maintenanceIntervalSeconds: Math.max(1, Math.floor(leaseSeconds / 2)),
  });
  boss.on('error', (error: Error) => options.onError?.(error));
  await boss.start();
  if ((await boss.getQueue(SHARD_QUEUE)) === null) {
    try {
      // stately: at most one queued and one running job per shard of a day, so enqueuing twice is harmless.
      await boss.createQueue(SHARD_QUEUE, {
        name: SHARD_QUEUE,
        policy: 'stately',
        retryLimit: SHARD_RETRY_LIMIT,
        retryDelay: 0,
        expireInSeconds: leaseSeconds,
      });
    } catch (error) {
      // Another process created it between our look and our create.
      if ((await boss.getQueue(SHARD_QUEUE)) === null) throw error;
    }
  }
  return boss;
}

/**
 * Puts the shards of `day` on the queue in `order` (the first runs first: the daily cap refuses the later ones
 * first). A shard already queued or running is not queued twice. Resolves to how many jobs it queued.
 */
export async function enqueueShards(boss: PgBoss, day: string, order: readonly number[]): Promise<number> {
  let queued = 0;
  for (const [position, shard] of order.entries()) {
    const job: ShardJob = { day, shard };
    const id = await boss.send(SHARD_QUEUE, job, {
      singletonKey: `${day}:${shard}`,
      priority: order.length - position,
    });
    if (id !== null) queued++;
  }
  return queued;
}

/**
 * Renews the lease of a running job: its start moves to now and its lease becomes `leaseSeconds`. pg-boss 10
 * has no heartbeat of its own; its maintenance fails a job whose start plus lease is past, so moving the start
 * is the renewal. Resolves to false when the job is no longer running (its lease lapsed and it was put back).
 */
export async function renewLease(boss: PgBoss, jobId: string, leaseSeconds: number): Promise<boolean> {
  const { rows } = await boss.getDb().executeSql(
    `UPDATE ${QUEUE_SCHEMA}.job SET started_on = now(), expire_in = make_interval(secs => $3)
       WHERE name = $1 AND id = $2 AND state = 'active' RETURNING id`,
    [SHARD_QUEUE, jobId, leaseSeconds],
  );
  return rows.length === 1;
}

/**
 * The days that still have a shard queued, waiting for a retry, or running (a running shard whose lease
 * lapsed counts: maintenance will put it back). A worker with --until-idle stops once none of them is open.
 */
export async function daysWithPendingShards(boss: PgBoss): Promise<string[]> {
  const { rows } = await boss.getDb().executeSql(
    `SELECT DISTINCT data->>'day' AS day FROM ${QUEUE_SCHEMA}.job
       WHERE name = $1 AND state IN ('created', 'retry', 'active') ORDER BY 1`,
    [SHARD_QUEUE],
  );
  return (rows as { day: string }[]).map((row) => row.day);
}
