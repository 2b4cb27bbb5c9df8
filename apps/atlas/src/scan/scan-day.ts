// The daily check of every watched server, split into shards. Each shard's file is written only when the
// whole shard is done (catalogs first, then the shard file), so a scan a crash interrupts resumes at the
// first shard without a file, and a finished shard is never probed twice.
import { createHash } from 'node:crypto';
import { dayCatalogPath, dayIndexPath, dayShardPath } from '../data/paths.js';
import { DayIndexSchema, ShardFileSchema, type DayIndex, type ServerDayResult, type WatchedServer } from '../data/schemas.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { recordCheck, type ProbeFn } from './check-server.js';
import { mapWithLimit } from './pool.js';

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
}

/** What a scan did. */
export interface ScanDayOutcome {
  day: string;
  results: ServerDayResult[];
  /** Shards probed in this run (the others were already on disk). */
  shardsRun: number[];
  shardsResumed: number[];
}

/** Default number of shards a day's scan is split into; shards are independent units of work. */
export const DEFAULT_SHARDS = 8;
export const DEFAULT_SCAN_CONCURRENCY = 16;

/** A server's shard: a stable hash of its id, so the same server lands in the same shard every day. */
export function shardOf(serverId: string, shards: number): number {
  return createHash('sha256').update(serverId).digest().readUInt32BE(0) % shards;
}

async function loadOrWriteIndex(options: ScanDayOptions): Promise<DayIndex> {
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
  };
  await putJson(options.storage, dayIndexPath(options.day), index);
  return index;
}

async function readShard(storage: Storage, day: string, shard: number): Promise<ServerDayResult[] | null> {
  const data = await getJson(storage, dayShardPath(day, shard));
  return data === null ? null : ShardFileSchema.parse(data).results;
}

/**
 * Runs (or resumes) the daily check for `day`. The day's server list is fixed by its index file, written
 * first; a resumed scan keeps that list even if the registry changed meanwhile.
 */
export async function scanDay(options: ScanDayOptions): Promise<ScanDayOutcome> {
  const index = await loadOrWriteIndex(options);
  const byId = new Map(options.servers.map((server) => [server.id, server]));
  const total = index.servers.length;
  let done = 0;
  const results: ServerDayResult[] = [];
  const shardsRun: number[] = [];
  const shardsResumed: number[] = [];
  for (let shard = 0; shard < index.shards; shard++) {
    const existing = await readShard(options.storage, options.day, shard);
    const members = index.servers.filter((entry) => entry.shard === shard);
    if (existing !== null) {
      shardsResumed.push(shard);
      results.push(...existing);
      done += members.length;
      continue;
    }
    const checks = await mapWithLimit(members, options.concurrency ?? DEFAULT_SCAN_CONCURRENCY, async (entry) => {
      const server = byId.get(entry.id) ?? { id: entry.id, url: entry.url, source: 'registry' as const };
      const check = recordCheck(server, options.day, await options.probe(server));
      if (check.catalog !== null) await putJson(options.storage, dayCatalogPath(options.day, server.id), check.catalog);
      done++;
      options.onChecked?.(done, total, check.result);
      return check.result;
    });
    await putJson(options.storage, dayShardPath(options.day, shard), { day: options.day, shard, results: checks });
    shardsRun.push(shard);
    results.push(...checks);
  }
  results.sort((a, b) => a.id.localeCompare(b.id));
  return { day: options.day, results, shardsRun, shardsResumed };
}
