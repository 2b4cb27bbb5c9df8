// Daily aggregates of the two raw stores that are deleted after 35 days: demand records and sensor batches.
// An aggregate is written once its day is over (with a few minutes' grace for writes still in flight at
// midnight), never rewritten, and kept forever; the retention job deletes a day's raw files only once the
// day's aggregate exists. Neither raw store nor aggregate is part of a signed root.
import { AGGREGATE_GRACE_MINUTES, FAILURE_REASONS, isDayClosed } from '@mcp-atlas/reliability';
import { z } from 'zod';
import {
  DEMAND_RECORDS_PREFIX,
  demandAggregatePath,
  SENSOR_BATCHES_PREFIX,
  sensorAggregatePath,
} from '../data/paths.js';
import { StoredSensorBatchSchema } from '../http/schemas.js';
import { getJson, getJsonOrNull, putJson, type Storage } from '../storage/storage.js';
import { DemandRecordFileSchema } from './recorder.js';

// When a day counts as over (AGGREGATE_GRACE_MINUTES after midnight UTC) is @mcp-atlas/reliability's `isDayClosed`.
export { AGGREGATE_GRACE_MINUTES, isDayClosed };

const DAY_AT_START = /^(\d{4}-\d{2}-\d{2})\//;

/** One day's demand: tasks routed to each server (top pick), summed over every writer. */
export const DemandAggregateSchema = z.strictObject({
  day: z.string(),
  servers: z.record(z.string(), z.int().nonnegative()),
  total: z.int().nonnegative(),
  /** Raw files that did not parse and so are not in the counts. */
  unreadable: z.int().nonnegative(),
});
export type DemandAggregate = z.infer<typeof DemandAggregateSchema>;

/** One server's sensor outcomes of a day. */
export const SensorServerDaySchema = z.strictObject({
  outcomes: z.int().nonnegative(),
  worked: z.int().nonnegative(),
  failed: z.int().nonnegative(),
  /** Distinct sensors that sent outcomes about the server that day. */
  sensors: z.int().nonnegative(),
  /** Failures by stated reason; failures without one are counted under `unstated`. */
  reasons: z.record(z.string(), z.int().nonnegative()),
});

/** One day's sensor outcomes, by server. */
export const SensorAggregateSchema = z.strictObject({
  day: z.string(),
  servers: z.record(z.string(), SensorServerDaySchema),
  batches: z.int().nonnegative(),
  sensors: z.int().nonnegative(),
  unreadable: z.int().nonnegative(),
});
export type SensorAggregate = z.infer<typeof SensorAggregateSchema>;

/** The raw files of a store, grouped by the day their folder is named after. */
async function filesByDay(storage: Storage, prefix: string): Promise<Map<string, string[]>> {
  const byDay = new Map<string, string[]>();
  for (const path of await storage.list(prefix)) {
    const day = DAY_AT_START.exec(path.slice(prefix.length))?.[1];
    if (day === undefined) continue;
    const list = byDay.get(day) ?? [];
    list.push(path);
    byDay.set(day, list);
  }
  return byDay;
}

/** Adds up one day's demand files. */
export async function aggregateDemandDay(storage: Storage, day: string, paths: readonly string[]): Promise<DemandAggregate> {
  const servers: Record<string, number> = {};
  let total = 0;
  let unreadable = 0;
  for (const path of paths) {
    const file = DemandRecordFileSchema.safeParse(await getJsonOrNull(storage, path));
    if (!file.success || file.data.day !== day) {
      unreadable++;
      continue;
    }
    for (const [server, count] of Object.entries(file.data.servers)) {
      servers[server] = (servers[server] ?? 0) + count;
      total += count;
    }
  }
  return { day, servers: Object.fromEntries(Object.entries(servers).sort(([a], [b]) => a.localeCompare(b))), total, unreadable };
}

/** Adds up one day's sensor batches by server. */
export async function aggregateSensorDay(storage: Storage, day: string, paths: readonly string[]): Promise<SensorAggregate> {
  const servers = new Map<string, { outcomes: number; worked: number; failed: number; sensors: Set<string>; reasons: Record<string, number> }>();
  const sensors = new Set<string>();
  let batches = 0;
  let unreadable = 0;
  for (const path of paths) {
    const batch = StoredSensorBatchSchema.safeParse(await getJsonOrNull(storage, path));
    if (!batch.success) {
      unreadable++;
      continue;
    }
    batches++;
    sensors.add(batch.data.sensor);
    for (const outcome of batch.data.outcomes) {
      const entry = servers.get(outcome.server) ?? { outcomes: 0, worked: 0, failed: 0, sensors: new Set<string>(), reasons: {} };
      entry.outcomes++;
      entry.sensors.add(batch.data.sensor);
      if (outcome.ok) entry.worked++;
      else {
        entry.failed++;
        const reason = outcome.reason ?? 'unstated';
        entry.reasons[reason] = (entry.reasons[reason] ?? 0) + 1;
      }
      servers.set(outcome.server, entry);
    }
  }
  const order = [...FAILURE_REASONS, 'unstated'] as string[];
  return {
    day,
    servers: Object.fromEntries(
      [...servers]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([server, e]) => [
          server,
          {
            outcomes: e.outcomes,
            worked: e.worked,
            failed: e.failed,
            sensors: e.sensors.size,
            reasons: Object.fromEntries(Object.entries(e.reasons).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))),
          },
        ]),
    ),
    batches,
    sensors: sensors.size,
    unreadable,
  };
}

/**
 * Writes the aggregate of every closed day that has raw demand records or sensor batches and no aggregate
 * yet; returns the paths written. A day's aggregate is written once and never rewritten.
 */
export async function writeDueAggregates(storage: Storage, now: Date): Promise<string[]> {
  const written: string[] = [];
  const kinds = [
    { prefix: DEMAND_RECORDS_PREFIX, pathOf: demandAggregatePath, aggregate: aggregateDemandDay },
    { prefix: SENSOR_BATCHES_PREFIX, pathOf: sensorAggregatePath, aggregate: aggregateSensorDay },
  ] as const;
  for (const kind of kinds) {
    for (const [day, paths] of [...(await filesByDay(storage, kind.prefix))].sort(([a], [b]) => a.localeCompare(b))) {
      if (!isDayClosed(day, now)) continue;
      const target = kind.pathOf(day);
      if ((await storage.get(target)) !== null) continue;
      await putJson(storage, target, await kind.aggregate(storage, day, paths));
      written.push(target);
    }
  }
  return written;
}

/** A day's demand aggregate, or null before it is written. */
export async function readDemandAggregate(storage: Storage, day: string): Promise<DemandAggregate | null> {
  const data = await getJson(storage, demandAggregatePath(day));
  return data === null ? null : DemandAggregateSchema.parse(data);
}
