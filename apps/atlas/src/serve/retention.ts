// Retention: once a day, delete the day folders of short-lived stores that are past their limit. The
// limits are the methodology's (from @mcp-atlas/reliability); signed day files and roots are never deleted.
import { shiftDay } from '@mcp-atlas/history';
import { RETENTION_DAYS } from '@mcp-atlas/reliability';
import type { Storage } from '../storage/storage.js';

/**
 * The app's own record of each day's robots.txt and well-known reads. Housekeeping, not a published
 * figure: nothing shown depends on it after the day it was read.
 */
export const ORIGIN_READS_KEEP_DAYS = 30;

/** Which store keeps its files in which day-named folders, and for how long (in days). */
// Only stores the app writes today are listed; the others the methodology names (demand records, badge
// sightings, view counts, rate counters) join this table with the features that write them.
export const RETENTION_STORES: readonly { prefix: string; keepDays: number }[] = [
  { prefix: 'sensors/', keepDays: RETENTION_DAYS.rawSensorBatches },
  { prefix: 'state/origins/', keepDays: ORIGIN_READS_KEEP_DAYS },
];

const DAY_AT_START = /^(\d{4}-\d{2}-\d{2})/;

/** Deletes every file in a store's day folders older than its limit; returns the paths removed. */
export async function enforceRetention(storage: Storage, today: string): Promise<string[]> {
  const removed: string[] = [];
  for (const store of RETENTION_STORES) {
    const oldestKept = shiftDay(today, -(store.keepDays - 1));
    for (const path of await storage.list(store.prefix)) {
      const day = DAY_AT_START.exec(path.slice(store.prefix.length))?.[1];
      if (day !== undefined && day < oldestKept) {
        await storage.delete(path);
        removed.push(path);
      }
    }
  }
  return removed;
}
