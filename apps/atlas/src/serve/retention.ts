// Retention: once a day, delete the day folders (or day files) of the short-lived stores that the methodology's
// retention list names, and nothing else. Whether a day goes is @mcp-atlas/operations' `decideRetention`
// (limits, "aggregate before deleting", the current-month rule); this file only says where each store lives,
// lists its folders and deletes. The job lists only the stores below, so it never touches what is kept as
// written: signed day files (days/), roots (roots/), agents' reports and reporter records, owner and
// submission files, and every daily aggregate (aggregates/).
import {
  decideRetention,
  isPastRetentionLimit,
  needsAggregateBeforeDelete,
  type RetentionStore,
} from '@mcp-atlas/operations';
import { RETENTION_RULES } from '@mcp-atlas/operations/rules';
import {
  ASK_MARKERS_PREFIX,
  BADGE_SIGHTINGS_PREFIX,
  DAILY_CALL_MARKERS_PREFIX,
  DEMAND_RECORDS_PREFIX,
  demandAggregatePath,
  MCP_CALL_LOG_PREFIX,
  monthlyReportPath,
  RATE_COUNTERS_PREFIX,
  REFUSED_SENSOR_REQUESTS_PREFIX,
  SENSOR_BATCHES_PREFIX,
  sensorAggregatePath,
  VIEW_COUNTS_PREFIX,
} from '../data/paths.js';
import type { Storage } from '../storage/storage.js';

/** Where a short-lived store lives: day-named folders (`<prefix><YYYY-MM-DD>/…`) or files (`<prefix><YYYY-MM-DD>.json`). */
export interface RetentionLocation {
  /** The store, as the reliability package names it (its key in `RETENTION_RULES.days`). */
  store: RetentionStore;
  /** What the methodology calls it. */
  name: string;
  prefix: string;
  /** The path of a day's aggregate, for the stores that keep their days until it exists. */
  aggregateOf?: (day: string) => string;
}

/** Every store the retention job cleans, where it lives, in the methodology's order. */
export const RETENTION_LOCATIONS: readonly RetentionLocation[] = [
  {
    store: 'rawSensorBatches',
    name: 'raw sensor batches',
    prefix: SENSOR_BATCHES_PREFIX,
    aggregateOf: sensorAggregatePath,
  },
  {
    store: 'rawDemandRecords',
    name: 'raw demand records',
    prefix: DEMAND_RECORDS_PREFIX,
    aggregateOf: demandAggregatePath,
  },
  { store: 'refusedSensorRequests', name: 'refused sensor requests', prefix: REFUSED_SENSOR_REQUESTS_PREFIX },
  { store: 'askMarkers', name: 'per-server ask markers', prefix: ASK_MARKERS_PREFIX },
  { store: 'badgeSightings', name: 'badge sightings', prefix: BADGE_SIGHTINGS_PREFIX },
  { store: 'viewCounts', name: 'page and widget view counts', prefix: VIEW_COUNTS_PREFIX },
  // The month's report counts distinct agents from these markers, so a day goes only once its month's report exists.
  {
    store: 'dailyCallMarkers',
    name: 'daily-call markers',
    prefix: DAILY_CALL_MARKERS_PREFIX,
    aggregateOf: (day) => monthlyReportPath(day.slice(0, 7)),
  },
  { store: 'rateCounters', name: 'rate counters for submissions and ownership checks', prefix: RATE_COUNTERS_PREFIX },
  { store: 'mcpCallLog', name: 'MCP call log', prefix: MCP_CALL_LOG_PREFIX },
];

/** Each store with its limit in days, as published (for the operator's view and the tests). */
export const RETENTION_STORES = RETENTION_LOCATIONS.map((location) => ({
  ...location,
  keepDays: RETENTION_RULES.days[location.store],
}));

const DAY_AT_START = /^(\d{4}-\d{2}-\d{2})(?:\/|\.jsonl?$)/;

/** The day a store's file belongs to, from its folder or file name; null for anything else (left alone). */
function dayOfPath(location: RetentionLocation, path: string): string | null {
  return DAY_AT_START.exec(path.slice(location.prefix.length))?.[1] ?? null;
}

/** Whether a day's aggregate exists, read once per store and day, and only for the stores that need it. */
function aggregateReader(storage: Storage, location: RetentionLocation): (day: string) => Promise<boolean> {
  const known = new Map<string, boolean>();
  return async (day) => {
    if (location.aggregateOf === undefined || !needsAggregateBeforeDelete(location.store)) return false;
    let exists = known.get(day);
    if (exists === undefined) {
      exists = (await storage.get(location.aggregateOf(day))) !== null;
      known.set(day, exists);
    }
    return exists;
  };
}

/** Deletes every file in a store's day folders that the retention rule lets go on `today`; returns the paths removed. */
export async function enforceRetention(
  storage: Storage,
  today: string,
  locations: readonly RetentionLocation[] = RETENTION_LOCATIONS,
): Promise<string[]> {
  const removed: string[] = [];
  for (const location of locations) {
    const aggregateExists = aggregateReader(storage, location);
    for (const path of await storage.list(location.prefix)) {
      const day = dayOfPath(location, path);
      if (day === null) continue;
      // The aggregate is asked about only for a day past its limit, so a store's recent days cost no read.
      if (!isPastRetentionLimit(location.store, day, today)) continue;
      if (
        decideRetention({ store: location.store, day, today, aggregateExists: await aggregateExists(day) }).action !==
        'delete'
      )
        continue;
      await storage.delete(path);
      removed.push(path);
    }
  }
  return removed;
}
