// What the daily scan reads to apply its cap: each server's last wall time (for a shard's estimate before it
// starts) and how the previous scanned day ran its shards (so the day after a capped day starts with the
// shards that day left undone). The rules themselves are @mcp-atlas/operations'.
import { shiftDay } from '@mcp-atlas/base';
import { type PreviousShardRun, planShardOrder } from '@mcp-atlas/operations';
import { LETTER_RULES } from '@mcp-atlas/reliability/rules';
import { dayIndexPath, dayShardPath, serverStatePath } from '../data/paths.js';
import { DayIndexSchema, ServerStateSchema } from '../data/schemas.js';
import { getJson, type Storage } from '../storage/storage.js';

/** Each server's last measured check time in ms (null for one never checked), read from its rolling state. */
export async function readLastWallTimes(
  storage: Storage,
  serverIds: readonly string[],
): Promise<Map<string, number | null>> {
  const times = new Map<string, number | null>();
  for (const id of serverIds) {
    const data = await getJson(storage, serverStatePath(id));
    times.set(id, data === null ? null : ServerStateSchema.parse(data).lastHandshakeMs);
  }
  return times;
}

/** The natural order of a day's shards, for indexes written before the order was recorded. */
export function naturalOrder(shards: number): number[] {
  return Array.from({ length: shards }, (_, i) => i);
}

/**
 * How the newest scanned day before `day` (looking back at most 30 days, the letters' window) ran its
 * shards: its order and the shards that have no results file, whether the cap stopped them or the scan
 * never finished. Null when no earlier day was scanned in that window.
 */
export async function readPreviousShardRun(storage: Storage, day: string): Promise<PreviousShardRun | null> {
  for (let back = 1; back <= LETTER_RULES.windowDays; back++) {
    const earlier = shiftDay(day, -back);
    const data = await getJson(storage, dayIndexPath(earlier));
    if (data === null) continue;
    const index = DayIndexSchema.parse(data);
    const order = index.order ?? naturalOrder(index.shards);
    const skipped: number[] = [];
    for (const shard of order) if ((await storage.get(dayShardPath(earlier, shard))) === null) skipped.push(shard);
    return { shards: index.shards, order, skipped };
  }
  return null;
}

/** The order `day` runs its shards in: first the shards the previous scanned day left undone, then round. */
export async function planDayShardOrder(storage: Storage, day: string, shards: number): Promise<number[]> {
  return planShardOrder(shards, await readPreviousShardRun(storage, day));
}
