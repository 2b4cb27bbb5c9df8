// One shard of a day, taken from the queue: check the servers that have no record of the day yet, keep each
// record once (day-checks.ts), then write the shard's catalogs and its file from the kept records. A worker
// that takes a shard another worker left half done checks only what is missing; one that finds the shard file
// written only looks whether the day is complete. The last shard to land folds the day (changes, states,
// summary), once, under a lock, exactly as the one-process scan does after its last shard.

import { estimateChecksCost, priceCheck } from '@mcp-atlas/operations';
import { type NetworkOptions, probeServer } from '@mcp-atlas/probe';
import { readLastWallTimes } from '../costs/daily-cap.js';
import { SpendGate } from '../costs/spend-gate.js';
import { readOptedOutHosts } from '../data/opted-out.js';
import { dailySpendPath, dayCatalogPath, dayIndexPath, dayShardPath, daySummaryPath, rootPath } from '../data/paths.js';
import { queueCatalogReviews } from '../data/review-queue.js';
import { type DayIndex, DayIndexSchema, type ServerDayResult, type WatchedServer } from '../data/schemas.js';
import { readWatchedServers } from '../data/watched-servers.js';
import type { Logger } from '../log.js';
import { foldDay } from '../scan/fold-day.js';
import type { HostGate } from '../scan/host-gate.js';
import { mapWithLimit } from '../scan/pool.js';
import { checkServer, type DailyCap, readShard } from '../scan/scan-day.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { readServerChecks, readSkippedShards, recordServerCheck, recordShardSkipped } from './day-checks.js';
import type { ShardJob } from './shard-queue.js';
import { advisoryLedgerLock, type WorkerDb, withAdvisoryLock } from './worker-db.js';

/** What a worker needs to check shards. */
export interface ShardWorkContext {
  storage: Storage;
  db: WorkerDb;
  /** The probe's network (the guarded Node network; `--allow-private` lifts the private-network rules). */
  network: NetworkOptions;
  methodologyVersion: string;
  /** Checks running at once within a shard. */
  concurrency: number;
  /** The daily compute cap, charged in the shared ledger; null runs every shard. */
  cap: DailyCap | null;
  /** The clock read before each probe, for the record's `checkedAt`. */
  now: () => Date;
  log: Logger;
  /** The gate of checks per host shared by the cluster (workers/host-locks.ts); absent: none. */
  hostGate?: HostGate;
  /** Aborted when the worker stops: a wait before asking a rate-limited server again ends at once. */
  signal?: AbortSignal;
}

/** What became of one shard job. */
export type ShardOutcome = 'written' | 'already-written' | 'skipped-by-cap' | 'day-finished' | 'day-sealed';

async function readIndex(storage: Storage, day: string): Promise<DayIndex> {
  const data = await getJson(storage, dayIndexPath(day));
  // A job for a day with no index was queued by hand or the index was lost: a bug to report, not to guess past.
  if (data === null) throw new Error(`days/${day}/index.json is missing, so shard jobs of ${day} cannot run`);
  return DayIndexSchema.parse(data);
}

function watchedOf(entry: DayIndex['servers'][number], byId: ReadonlyMap<string, WatchedServer>): WatchedServer {
  return byId.get(entry.id) ?? { id: entry.id, url: entry.url, source: 'registry' };
}

/**
 * Checks the members of `shard` that have no kept record yet. With a cap, the shard must be admitted first
 * (on the ledger every worker charges); a refusal is noted and the shard waits for the next day. Every probe
 * made is charged before its record is offered, so the ledger counts a check a second worker repeated too.
 */
async function checkMissing(
  ctx: ShardWorkContext,
  job: ShardJob,
  members: readonly DayIndex['servers'][number][],
): Promise<'checked' | 'skipped-by-cap'> {
  const { storage, db, day } = { ...ctx, day: job.day };
  const kept = await readServerChecks(
    db,
    day,
    members.map((entry) => entry.id),
  );
  const todo = members.filter((entry) => !kept.has(entry.id));
  if (todo.length === 0) return 'checked';
  const gate =
    ctx.cap === null
      ? null
      : await SpendGate.open(
          storage,
          dailySpendPath(day),
          day,
          ctx.cap.budgetMicroUsd,
          advisoryLedgerLock(db),
          ctx.now,
        );
  let reservation = null;
  if (gate !== null && ctx.cap !== null) {
    const wall = await readLastWallTimes(
      storage,
      todo.map((entry) => entry.id),
    );
    const estimate = estimateChecksCost(
      todo.map((entry) => wall.get(entry.id) ?? null),
      ctx.cap.model,
    );
    reservation = (await gate.tryStart(String(job.shard), estimate)).reservation;
    if (reservation === null) {
      await recordShardSkipped(db, day, job.shard);
      return 'skipped-by-cap';
    }
  }
  try {
    const byId = new Map((await readWatchedServers(storage)).map((server) => [server.id, server]));
    const optedOut = await readOptedOutHosts(storage);
    const check = (server: WatchedServer) => probeServer(server.url, { ...ctx.network, optedOut });
    const { hostGate } = ctx;
    const probe =
      hostGate === undefined ? check : (server: WatchedServer) => hostGate.run(server.url, () => check(server));
    await mapWithLimit(todo, ctx.concurrency, async (entry) => {
      const check = await checkServer(probe, watchedOf(entry, byId), day, ctx.now, ctx.signal);
      if (gate !== null && ctx.cap !== null)
        await gate.charge(String(job.shard), priceCheck(check.result.elapsedMs, ctx.cap.model));
      await recordServerCheck(db, day, check.result, check.catalogBytes);
    });
  } finally {
    // The reservation lives in the shared ledger: a shard that failed must let it go too, or it would hold
    // the budget until the retry replaces it or it goes stale. A release that fails (the database gone) is
    // logged rather than thrown, so a shard's own error is the one reported; the reservation then goes stale.
    if (reservation !== null && gate !== null) {
      await gate.release(reservation).catch((error: unknown) => {
        ctx.log.warn(
          { day, shard: job.shard, error: error instanceof Error ? error.message : String(error) },
          'shard reservation not released; it stops counting once stale',
        );
      });
    }
  }
  return 'checked';
}

/** Writes the shard's catalogs, then its file, from the kept records (so every writer writes the same bytes). */
async function writeShardFile(
  ctx: ShardWorkContext,
  job: ShardJob,
  members: readonly DayIndex['servers'][number][],
): Promise<void> {
  const kept = await readServerChecks(
    ctx.db,
    job.day,
    members.map((entry) => entry.id),
  );
  const results: ServerDayResult[] = [];
  for (const entry of members) {
    const check = kept.get(entry.id);
    if (check === undefined) throw new Error(`${entry.id} has no record of ${job.day} after its shard ran`);
    if (check.catalogBytes !== null) await ctx.storage.put(dayCatalogPath(job.day, entry.id), check.catalogBytes);
    results.push(check.result);
  }
  await putJson(ctx.storage, dayShardPath(job.day, job.shard), { day: job.day, shard: job.shard, results });
}

/**
 * Folds `day` when every shard of its index is decided (written, or refused by the cap), once across the
 * cluster: under the day's lock, and not again once the summary exists. Resolves to true when it folded.
 */
export async function foldDayIfComplete(ctx: ShardWorkContext, day: string): Promise<boolean> {
  return withAdvisoryLock(ctx.db, `mcp-atlas:fold:${day}`, async () => {
    if ((await ctx.storage.get(daySummaryPath(day))) !== null) return false;
    const index = await readIndex(ctx.storage, day);
    const skipped = await readSkippedShards(ctx.db, day);
    const results: ServerDayResult[] = [];
    const skippedByCap: string[] = [];
    for (let shard = 0; shard < index.shards; shard++) {
      const written = await readShard(ctx.storage, day, shard);
      const members = index.servers.filter((entry) => entry.shard === shard);
      if (written !== null) results.push(...written);
      else if (skipped.has(shard)) skippedByCap.push(...members.map((entry) => entry.id));
      else return false;
    }
    const byId = new Map((await readWatchedServers(ctx.storage)).map((server) => [server.id, server]));
    await foldDay({
      storage: ctx.storage,
      day,
      results: results.sort((a, b) => a.id.localeCompare(b.id)),
      servers: index.servers.map((entry) => watchedOf(entry, byId)),
      methodologyVersion: ctx.methodologyVersion,
      skippedByCap: skippedByCap.sort(),
    });
    const queued = await queueCatalogReviews(ctx.storage, day, ctx.now());
    ctx.log.info(
      { day, servers: results.length, skippedByCap: skippedByCap.length, reviews: queued.length },
      'day folded',
    );
    return true;
  });
}

/** Runs one shard job to its end and folds the day when it was the last; see the file's first comment. */
export async function workShard(ctx: ShardWorkContext, job: ShardJob): Promise<ShardOutcome> {
  const { storage } = ctx;
  if ((await storage.get(rootPath(job.day))) !== null) return 'day-sealed';
  if ((await storage.get(daySummaryPath(job.day))) !== null) return 'day-finished';
  let outcome: ShardOutcome = 'already-written';
  if ((await storage.get(dayShardPath(job.day, job.shard))) === null) {
    const index = await readIndex(storage, job.day);
    const members = index.servers.filter((entry) => entry.shard === job.shard);
    const checked = await checkMissing(ctx, job, members);
    if (checked === 'checked') await writeShardFile(ctx, job, members);
    outcome = checked === 'checked' ? 'written' : 'skipped-by-cap';
  }
  // Also for a shard found written: its worker may have died between the shard file and the fold.
  await foldDayIfComplete(ctx, job.day);
  return outcome;
}
