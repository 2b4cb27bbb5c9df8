// The worker loop: take a shard job, hold its lease while the shard runs (renewing it every third of a lease),
// complete it, and take the next. With `untilIdle` it stops once no shard of an open (unsealed) day is queued,
// waiting for a retry, or leased: a shard leased by a worker that died still counts, so the workers left wait
// for its lease to lapse, take it, and finish the day.
import type PgBoss from 'pg-boss';
import { rootPath } from '../data/paths.js';
import { daysWithPendingShards, renewLease, SHARD_QUEUE, type ShardJob, ShardJobSchema } from './shard-queue.js';
import { type ShardOutcome, type ShardWorkContext, workShard } from './work-shard.js';

/** How long an idle worker waits before it looks at the queue again. */
export const WORKER_POLL_MS = 500;

/** Options of one worker. */
export interface RunWorkerOptions extends ShardWorkContext {
  boss: PgBoss;
  leaseSeconds: number;
  /** Stop once no shard of an open day is queued or leased, instead of waiting for more. */
  untilIdle: boolean;
  /** Stops the loop after the shard in hand (SIGTERM, SIGINT), and ends any wait to ask a rate-limited server again. */
  signal?: AbortSignal;
  pollMs?: number;
}

/** One shard job this worker ran, and what became of it. */
export interface WorkedShard extends ShardJob {
  outcome: ShardOutcome;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** True while some day that has no root still has a shard queued, waiting for a retry, or leased. */
async function hasOpenWork(options: RunWorkerOptions): Promise<boolean> {
  for (const day of await daysWithPendingShards(options.boss))
    if ((await options.storage.get(rootPath(day))) === null) return true;
  return false;
}

/** Runs one job under a renewed lease; a failure puts the job back for a retry rather than stopping the worker. */
async function runJob(options: RunWorkerOptions, job: PgBoss.Job<unknown>): Promise<WorkedShard | null> {
  const parsed = ShardJobSchema.safeParse(job.data);
  if (!parsed.success) {
    options.log.error({ job: job.id, data: job.data }, 'a shard job with a wrong shape: dropped');
    await options.boss.fail(SHARD_QUEUE, job.id, { message: 'wrong shape' });
    return null;
  }
  const { leaseSeconds, boss } = options;
  await renewLease(boss, job.id, leaseSeconds);
  const renewal = setInterval(
    () => {
      renewLease(boss, job.id, leaseSeconds).catch((error: unknown) =>
        options.log.warn({ job: job.id, err: error }, 'lease renewal failed'),
      );
    },
    Math.max(250, (leaseSeconds * 1000) / 3),
  );
  try {
    const outcome = await workShard(options, parsed.data);
    await boss.complete(SHARD_QUEUE, job.id, { outcome });
    options.log.info({ day: parsed.data.day, shard: parsed.data.shard, outcome }, 'shard done');
    return { ...parsed.data, outcome };
  } catch (error) {
    options.log.error({ day: parsed.data.day, shard: parsed.data.shard, err: error }, 'shard failed; it is retried');
    await boss.fail(SHARD_QUEUE, job.id, { message: (error as Error).message });
    return null;
  } finally {
    clearInterval(renewal);
  }
}

/** Takes and runs shard jobs until stopped (or, with `untilIdle`, until no open day has work left). */
export async function runWorker(options: RunWorkerOptions): Promise<WorkedShard[]> {
  const worked: WorkedShard[] = [];
  while (options.signal?.aborted !== true) {
    const [job] = await options.boss.fetch<unknown>(SHARD_QUEUE, { batchSize: 1 });
    if (job !== undefined) {
      const done = await runJob(options, job);
      if (done !== null) worked.push(done);
      continue;
    }
    if (options.untilIdle && !(await hasOpenWork(options))) break;
    await sleep(options.pollMs ?? WORKER_POLL_MS, options.signal);
  }
  return worked;
}
