// `scan --enqueue`: fixes the day's list (the watched servers minus opted-out hosts and origins whose
// robots.txt says no, as the one-process scan does), writes the day's index, and puts every shard that has no
// file yet on the queue. The workers then share the day.
import { isOptedOut, type NetworkOptions } from '@mcp-atlas/probe';
import type PgBoss from 'pg-boss';
import { naturalOrder } from '../costs/daily-cap.js';
import { readOptedOutHosts } from '../data/opted-out.js';
import { dayIndexPath, dayShardPath, daySummaryPath } from '../data/paths.js';
import { readWatchedServers } from '../data/watched-servers.js';
import { reopenEmptyDay } from '../scan/empty-day.js';
import { readOriginsOfDay } from '../scan/read-origins.js';
import { DEFAULT_SCAN_CONCURRENCY, loadOrWriteIndex } from '../scan/scan-day.js';
import type { Storage } from '../storage/storage.js';
import { daysWithPendingShards, enqueueShards } from './shard-queue.js';

/** What `enqueueDay` needs. */
export interface EnqueueDayOptions {
  storage: Storage;
  boss: PgBoss;
  day: string;
  network: NetworkOptions;
  methodologyVersion: string;
  shards?: number;
  concurrency?: number;
}

/** What `enqueueDay` did. */
export interface EnqueuedDay {
  day: string;
  /** The day was already finished (it has its summary): nothing was queued. */
  finished: boolean;
  servers: number;
  shards: number;
  /** Shards put on the queue now (a shard with a file, or already queued, is not). */
  queued: number;
  /**
   * The watched list was empty, so nothing was written or queued: a day's list is fixed once, and a list fixed
   * empty (a registry that answered nothing, or none read) would make the whole day a day of nothing.
   */
  nothingToCheck: boolean;
}

/**
 * Writes the index of `day` (unless it has one: a day's list is fixed once) and queues its shards that have
 * no file, in the index's order. An empty watched list writes nothing; an index an earlier run fixed empty is
 * removed first, so the day takes the list as it is now.
 */
export async function enqueueDay(options: EnqueueDayOptions): Promise<EnqueuedDay> {
  const { storage, day } = options;
  if ((await storage.get(daySummaryPath(day))) !== null)
    return { day, finished: true, servers: 0, shards: 0, queued: 0, nothingToCheck: false };
  // A list an earlier run fixed empty is opened again, unless workers are still on its shards.
  if (!(await daysWithPendingShards(options.boss)).includes(day)) await reopenEmptyDay(storage, day);
  let checked: Awaited<ReturnType<typeof readWatchedServers>> = [];
  if ((await storage.get(dayIndexPath(day))) === null) {
    const optedOut = await readOptedOutHosts(storage);
    const listed = (await readWatchedServers(storage)).filter(
      (server) => !isOptedOut(new URL(server.url).hostname, optedOut),
    );
    const excluded = await readOriginsOfDay(
      { storage, network: options.network, concurrency: options.concurrency ?? DEFAULT_SCAN_CONCURRENCY },
      day,
      listed,
    );
    checked = listed.filter((server) => !excluded.has(new URL(server.url).origin));
    if (checked.length === 0) return { day, finished: false, servers: 0, shards: 0, queued: 0, nothingToCheck: true };
  }
  const index = await loadOrWriteIndex({
    day,
    servers: checked,
    storage,
    methodologyVersion: options.methodologyVersion,
    ...(options.shards !== undefined ? { shards: options.shards } : {}),
  });
  const pending: number[] = [];
  for (const shard of index.order ?? naturalOrder(index.shards))
    if ((await storage.get(dayShardPath(day, shard))) === null) pending.push(shard);
  const queued = await enqueueShards(options.boss, day, pending);
  return { day, finished: false, servers: index.servers.length, shards: index.shards, queued, nothingToCheck: false };
}
