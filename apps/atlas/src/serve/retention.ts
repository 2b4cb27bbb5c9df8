// Retention: once a day, delete the day folders (or day files) of the short-lived stores that are past their
// limit, exactly as the methodology's retention list says, and nothing else. The limits are the methodology's
// (RETENTION_DAYS of @mcp-atlas/reliability). The job lists only the stores below, so it never touches what
// is kept as written: signed day files (days/), roots (roots/), agents' reports and reporter records, owner
// and submission files, and every daily aggregate (aggregates/).
import { shiftDay } from '@mcp-atlas/history';
import { RETENTION_DAYS } from '@mcp-atlas/reliability';
import {
  ASK_MARKERS_PREFIX,
  BADGE_SIGHTINGS_PREFIX,
  DAILY_CALL_MARKERS_PREFIX,
  DEMAND_RECORDS_PREFIX,
  demandAggregatePath,
  RATE_COUNTERS_PREFIX,
  REFUSED_SENSOR_REQUESTS_PREFIX,
  SENSOR_BATCHES_PREFIX,
  sensorAggregatePath,
  VIEW_COUNTS_PREFIX,
} from '../data/paths.js';
import type { Storage } from '../storage/storage.js';

/** A store whose files sit in day-named folders (`<prefix><YYYY-MM-DD>/…`) or day-named files (`<prefix><YYYY-MM-DD>.json`). */
export interface RetentionStore {
  /** What the methodology calls it. */
  name: string;
  prefix: string;
  /** Days kept, today included: with 35, today and the 34 days before it stay. */
  keepDays: number;
  /** When set, a day's files go only once this aggregate of the day exists. */
  aggregateOf?: (day: string) => string;
  /** Never delete a day of the current UTC calendar month, however old. */
  keepCurrentMonth?: boolean;
}

/** Every store the retention job cleans, with its limit. */
export const RETENTION_STORES: readonly RetentionStore[] = [
  { name: 'raw sensor batches', prefix: SENSOR_BATCHES_PREFIX, keepDays: RETENTION_DAYS.rawSensorBatches, aggregateOf: sensorAggregatePath },
  { name: 'raw demand records', prefix: DEMAND_RECORDS_PREFIX, keepDays: RETENTION_DAYS.rawDemandRecords, aggregateOf: demandAggregatePath },
  { name: 'refused sensor requests', prefix: REFUSED_SENSOR_REQUESTS_PREFIX, keepDays: RETENTION_DAYS.refusedSensorRequests },
  { name: 'per-server ask markers', prefix: ASK_MARKERS_PREFIX, keepDays: RETENTION_DAYS.askMarkers },
  { name: 'badge sightings', prefix: BADGE_SIGHTINGS_PREFIX, keepDays: RETENTION_DAYS.badgeSightings },
  { name: 'page and widget view counts', prefix: VIEW_COUNTS_PREFIX, keepDays: RETENTION_DAYS.viewCounts },
  { name: 'daily-call markers', prefix: DAILY_CALL_MARKERS_PREFIX, keepDays: RETENTION_DAYS.dailyCallMarkers, keepCurrentMonth: true },
  { name: 'rate counters for submissions and ownership checks', prefix: RATE_COUNTERS_PREFIX, keepDays: RETENTION_DAYS.rateCounters },
];

const DAY_AT_START = /^(\d{4}-\d{2}-\d{2})(?:\/|\.json$)/;

/** The day a store's file belongs to, from its folder or file name; null for anything else (left alone). */
function dayOfPath(store: RetentionStore, path: string): string | null {
  return DAY_AT_START.exec(path.slice(store.prefix.length))?.[1] ?? null;
}

/** True when `store` may delete the files of `day` on `today` (its aggregate, when it needs one, aside). */
export function isPastRetention(store: RetentionStore, day: string, today: string): boolean {
  if (day >= shiftDay(today, -(store.keepDays - 1))) return false;
  if (store.keepCurrentMonth === true && day.slice(0, 7) === today.slice(0, 7)) return false;
  return true;
}

/** Deletes every file in a store's day folders past its limit (and, where needed, aggregated); returns the paths removed. */
export async function enforceRetention(storage: Storage, today: string, stores: readonly RetentionStore[] = RETENTION_STORES): Promise<string[]> {
  const removed: string[] = [];
  for (const store of stores) {
    const aggregated = new Map<string, boolean>();
    for (const path of await storage.list(store.prefix)) {
      const day = dayOfPath(store, path);
      if (day === null || !isPastRetention(store, day, today)) continue;
      if (store.aggregateOf !== undefined) {
        let exists = aggregated.get(day);
        if (exists === undefined) {
          exists = (await storage.get(store.aggregateOf(day))) !== null;
          aggregated.set(day, exists);
        }
        if (!exists) continue;
      }
      await storage.delete(path);
      removed.push(path);
    }
  }
  return removed;
}
