// The daily check of every watched server, split into shards. Each shard's file is written only when the
// whole shard is done (catalogs first, then the shard file), so a scan a crash interrupts resumes at the
// first shard without a file, and a finished shard is never probed twice.
//
// With a daily cost cap, a shard starts only when the day's spend plus the shard's estimate stays within the
// budget (@mcp-atlas/operations' rule); the first refusal stops the day, and the shards left over wait for
// the next day, which runs them first. Every finished check is charged to the day's ledger before its shard
// can be written, so a resumed scan neither repeats nor forgets a charge.
//
// Whatever one server sends, the day goes on: a check our own code cannot finish (the probe or what we do
// with its answer throws) becomes that server's `internal-error` record, and catalogs are written from the
// raw tool text, so no answer can make the save throw. Storage failures still stop the scan, which resumes.
import { createHash } from 'node:crypto';
import { type CheckCostModel, estimateChecksCost, priceCheck } from '@mcp-atlas/operations';
import { ProbeInputError } from '@mcp-atlas/probe';
import { naturalOrder, planDayShardOrder, readLastWallTimes } from '../costs/daily-cap.js';
import { SpendGate, type SpendReservation } from '../costs/spend-gate.js';
import { dailySpendPath, dayCatalogPath, dayIndexPath, dayShardPath } from '../data/paths.js';
import {
  type DayIndex,
  DayIndexSchema,
  type ServerDayResult,
  ShardFileSchema,
  type SpendLedger,
  type WatchedServer,
} from '../data/schemas.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { encodeCatalog, internalErrorResult, type ProbeFn, recordCheck } from './check-server.js';
import { mapWithLimit } from './pool.js';
import { probeRespectingRateLimit } from './rate-limit-retry.js';

/** Options of one day's scan. */
export interface ScanDayOptions {
  day: string;
  servers: readonly WatchedServer[];
  storage: Storage;
  probe: ProbeFn;
  methodologyVersion: string;
  shards?: number;
  concurrency?: number;
  /** Called after each server's check, for progress output. */
  onChecked?: (done: number, total: number, result: ServerDayResult) => void;
  /** The daily compute cap; without one every shard runs (the demo's simulated month). */
  cap?: DailyCap;
  /**
   * The clock read just before each server's probe, for its record's `checkedAt`. Without one the results
   * carry no `checkedAt` (dated by their day only): a caller that hands over answers it did not take now (the
   * demo's simulated month) must not have them stamped with the wall clock. The schedule always passes its clock.
   */
  now?: () => Date;
  /** Aborted when the service stops: a wait before asking a rate-limited server again ends at once. */
  signal?: AbortSignal;
}

/** The daily compute cap of one scan: the day's budget and what one check costs. */
export interface DailyCap {
  budgetMicroUsd: number;
  model: CheckCostModel;
}

/** Where the cap stopped the day: the shard refused, its estimate, and the day's spend at that moment. */
export interface CapStop {
  shard: number;
  estimateMicroUsd: number;
  spentMicroUsd: number;
}

/** What a scan did. */
export interface ScanDayOutcome {
  day: string;
  results: ServerDayResult[];
  /** Shards probed in this run (the others were already on disk). */
  shardsRun: number[];
  shardsResumed: number[];
  /** Shards the cap left for the next day, in the day's order. */
  shardsSkipped: number[];
  /** Servers in those shards: their day is `n`. */
  skippedByCap: string[];
  /** Where the cap stopped the day, or null when every shard ran (or there is no cap). */
  capStop: CapStop | null;
  /** The day's spend ledger as the scan left it, or null without a cap. */
  spend: SpendLedger | null;
}

/** Default number of shards a day's scan is split into; shards are independent units of work. */
export const DEFAULT_SHARDS = 8;
export const DEFAULT_SCAN_CONCURRENCY = 16;

/** A server's shard: a stable hash of its id, so the same server lands in the same shard every day. */
export function shardOf(serverId: string, shards: number): number {
  return createHash('sha256').update(serverId).digest().readUInt32BE(0) % shards;
}

/**
 * Reads the day's index, or writes it from `options.servers` when the day has none yet. The index fixes the
 * day's server list, shards and shard order, so a resumed scan and every shard worker agree on them.
 */
export async function loadOrWriteIndex(
  options: Pick<ScanDayOptions, 'day' | 'servers' | 'storage' | 'methodologyVersion' | 'shards'>,
): Promise<DayIndex> {
  const existing = await getJson(options.storage, dayIndexPath(options.day));
  if (existing !== null) return DayIndexSchema.parse(existing);
  const shards = options.shards ?? DEFAULT_SHARDS;
  const index: DayIndex = {
    day: options.day,
    methodologyVersion: options.methodologyVersion,
    shards,
    servers: [...options.servers]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((server) => ({ id: server.id, url: server.url, shard: shardOf(server.id, shards) })),
    // Fixed with the index, so a scan resumed after a crash runs the same order and skips the same shards.
    order: await planDayShardOrder(options.storage, options.day, shards),
  };
  await putJson(options.storage, dayIndexPath(options.day), index);
  return index;
}

/** The results of one shard's file, or null while the shard has no file. */
export async function readShard(storage: Storage, day: string, shard: number): Promise<ServerDayResult[] | null> {
  const data = await getJson(storage, dayShardPath(day, shard));
  return data === null ? null : ShardFileSchema.parse(data).results;
}

/** The cap's view of a running scan: the day's spend gate and each server's last wall time. */
interface CapRun {
  gate: SpendGate;
  model: CheckCostModel;
  lastWallMs: Map<string, number | null>;
}

async function openCap(options: ScanDayOptions, index: DayIndex): Promise<CapRun | null> {
  if (options.cap === undefined) return null;
  const gate = await SpendGate.open(
    options.storage,
    dailySpendPath(options.day),
    options.day,
    options.cap.budgetMicroUsd,
  );
  const lastWallMs = await readLastWallTimes(
    options.storage,
    index.servers.map((entry) => entry.id),
  );
  return { gate, model: options.cap.model, lastWallMs };
}

/** Whether a shard starts, and the estimate it holds against the budget while it runs (none without a cap). */
type Admission = { start: false } | { start: true; reservation: SpendReservation | null };

/** Asks the cap whether a shard may start; a refused shard waits for the next day. Without a cap, always yes. */
async function admitShard(
  cap: CapRun | null,
  shard: number,
  members: readonly DayIndex['servers'][number][],
): Promise<Admission> {
  if (cap === null) return { start: true, reservation: null };
  const estimateMicroUsd = estimateChecksCost(
    members.map((entry) => cap.lastWallMs.get(entry.id) ?? null),
    cap.model,
  );
  const { reservation } = await cap.gate.tryStart(String(shard), estimateMicroUsd);
  return reservation === null ? { start: false } : { start: true, reservation };
}

/** One server's record of the day and its catalog file's bytes (null without a catalog). */
export interface CheckedServer {
  result: ServerDayResult;
  catalogBytes: Uint8Array | null;
}

/**
 * Probes one server and turns the answer into its record and catalog bytes. Anything that throws on the
 * way (a probe bug, a tool list our packages choke on) becomes the server's internal-error record, so one
 * server cannot stop the day nor make every later tick retry the same failure. A ProbeInputError is not
 * caught: it is our own configuration that is wrong, for every server alike, and recording it would mark
 * the whole fleet down for the day; the scan stops and resumes once it is fixed.
 */
export async function checkServer(
  probe: ProbeFn,
  server: WatchedServer,
  day: string,
  now: (() => Date) | undefined,
  signal?: AbortSignal,
): Promise<CheckedServer> {
  // Taken before the probe: the incident rule dates a check by when it started, as it does hourly checks.
  const checkedAt = now?.().toISOString();
  try {
    const probed = await probeRespectingRateLimit(() => probe(server), day, now ?? (() => new Date()), signal);
    const check = recordCheck(server, day, probed.result, checkedAt, probed.waitsMs);
    const catalogBytes =
      check.catalog === null || check.catalogToolsJson === null
        ? null
        : encodeCatalog(check.catalog, check.catalogToolsJson);
    return { result: check.result, catalogBytes };
  } catch (error) {
    if (error instanceof ProbeInputError) throw error;
    return { result: internalErrorResult(server, error, checkedAt), catalogBytes: null };
  }
}

/** Checks every member of one shard; each check is charged before it counts as done. */
async function runShard(
  options: ScanDayOptions,
  byId: ReadonlyMap<string, WatchedServer>,
  cap: CapRun | null,
  shard: number,
  members: readonly DayIndex['servers'][number][],
  progress: { done: number; total: number },
): Promise<ServerDayResult[]> {
  return mapWithLimit(members, options.concurrency ?? DEFAULT_SCAN_CONCURRENCY, async (entry) => {
    const server = byId.get(entry.id) ?? { id: entry.id, url: entry.url, source: 'registry' as const };
    const check = await checkServer(options.probe, server, options.day, options.now, options.signal);
    // Charged from the wall time the result records, so the ledger can be checked against the shard file.
    if (cap !== null) await cap.gate.charge(String(shard), priceCheck(check.result.elapsedMs, cap.model));
    if (check.catalogBytes !== null)
      await options.storage.put(dayCatalogPath(options.day, server.id), check.catalogBytes);
    progress.done++;
    options.onChecked?.(progress.done, progress.total, check.result);
    return check.result;
  });
}

function capStopOf(cap: CapRun | null): CapStop | null {
  const stopped = cap?.gate.ledger.stopped ?? null;
  // The ledger's record, not this run's, so a scan resumed after the stop reports the same stop. A refusal of the
  // local checks (a part that is not a shard number) stopped no shard.
  return stopped === null || !/^\d+$/.test(stopped.part)
    ? null
    : { shard: Number(stopped.part), estimateMicroUsd: stopped.estimateMicroUsd, spentMicroUsd: stopped.spentMicroUsd };
}

/**
 * Runs (or resumes) the daily check for `day`. The day's server list and shard order are fixed by its
 * index file, written first; a resumed scan keeps them even if the registry changed meanwhile. With a
 * cap, shards run in that order until the first one the budget refuses; it and every shard after it
 * are left for the next day (a shard already on disk is always kept).
 */
export async function scanDay(options: ScanDayOptions): Promise<ScanDayOutcome> {
  const index = await loadOrWriteIndex(options);
  const cap = await openCap(options, index);
  const byId = new Map(options.servers.map((server) => [server.id, server]));
  const progress = { done: 0, total: index.servers.length };
  const results: ServerDayResult[] = [];
  const shardsRun: number[] = [];
  const shardsResumed: number[] = [];
  const shardsSkipped: number[] = [];
  const skippedByCap: string[] = [];
  for (const shard of index.order ?? naturalOrder(index.shards)) {
    const existing = await readShard(options.storage, options.day, shard);
    const members = index.servers.filter((entry) => entry.shard === shard);
    if (existing !== null) {
      shardsResumed.push(shard);
      results.push(...existing);
      progress.done += members.length;
      continue;
    }
    const admission = await admitShard(cap, shard, members);
    if (!admission.start) {
      shardsSkipped.push(shard);
      skippedByCap.push(...members.map((entry) => entry.id));
      continue;
    }
    const checks = await runShard(options, byId, cap, shard, members, progress);
    if (admission.reservation !== null) cap?.gate.release(admission.reservation);
    await putJson(options.storage, dayShardPath(options.day, shard), { day: options.day, shard, results: checks });
    shardsRun.push(shard);
    results.push(...checks);
  }
  results.sort((a, b) => a.id.localeCompare(b.id));
  skippedByCap.sort();
  return {
    day: options.day,
    results,
    shardsRun,
    shardsResumed,
    shardsSkipped,
    skippedByCap,
    capStop: capStopOf(cap),
    spend: cap?.gate.ledger ?? null,
  };
}
