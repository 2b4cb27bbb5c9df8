// Daily aggregates of the two raw stores that are deleted after 35 days: demand records and sensor batches.
// An aggregate is written once its day is over (with a few minutes' grace for writes still in flight at
// midnight), never rewritten, and kept forever; the retention job deletes a day's raw files only once the
// day's aggregate exists. Neither raw store nor aggregate is part of a signed root.
//
// Two more aggregates are kept forever: the state report of each day with a finished daily check (servers by
// letter, tools, findings), and the monthly report, summed from a month's daily aggregates once it is over.
import { isDayClosed } from '@mcp-atlas/operations';
import { RATING_RULES } from '@mcp-atlas/reliability/rules';
import { z } from 'zod';
import { readDayResults } from '../data/day-results.js';
import {
  AGGREGATES_PREFIX,
  DAILY_CALL_MARKERS_PREFIX,
  DAYS_PREFIX,
  DEMAND_RECORDS_PREFIX,
  dayIndexPath,
  daySummaryPath,
  demandAggregatePath,
  monthlyReportPath,
  SENSOR_BATCHES_PREFIX,
  sensorAggregatePath,
  stateReportPath,
} from '../data/paths.js';
import { DayIndexSchema } from '../data/schemas.js';
import { StoredSensorBatchSchema } from '../data/stored-records.js';
import { getJsonOrNull, putJson, type Storage } from '../storage/storage.js';
import { DayCountFileSchema } from './day-counts.js';
import { DemandRecordFileSchema } from './recorder.js';

// When a day counts as over (its grace period after midnight UTC) is the rule `isDayClosed`, imported above.

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
export async function aggregateDemandDay(
  storage: Storage,
  day: string,
  paths: readonly string[],
): Promise<DemandAggregate> {
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
  return {
    day,
    servers: Object.fromEntries(Object.entries(servers).sort(([a], [b]) => a.localeCompare(b))),
    total,
    unreadable,
  };
}

/** Adds up one day's sensor batches by server. */
export async function aggregateSensorDay(
  storage: Storage,
  day: string,
  paths: readonly string[],
): Promise<SensorAggregate> {
  const servers = new Map<
    string,
    { outcomes: number; worked: number; failed: number; sensors: Set<string>; reasons: Record<string, number> }
  >();
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
      const entry = servers.get(outcome.server) ?? {
        outcomes: 0,
        worked: 0,
        failed: 0,
        sensors: new Set<string>(),
        reasons: {},
      };
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
  const order = [...RATING_RULES.failureReasons, 'unstated'] as string[];
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
            reasons: Object.fromEntries(
              Object.entries(e.reasons).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)),
            ),
          },
        ]),
    ),
    batches,
    sensors: sensors.size,
    unreadable,
  };
}

/** One day's state report: what that day's daily check found, over every server it listed. */
export const StateReportSchema = z.strictObject({
  day: z.string(),
  /** Servers the day's check listed (cost-cap skips included). */
  servers: z.int().nonnegative(),
  /** Servers by the letter of the day's check; `n` for servers the check listed but did not run. */
  letters: z.strictObject({
    o: z.int().nonnegative(),
    a: z.int().nonnegative(),
    p: z.int().nonnegative(),
    d: z.int().nonnegative(),
    n: z.int().nonnegative(),
  }),
  /** Tools listed by servers that answered with tools. */
  tools: z.int().nonnegative(),
  highRiskTools: z.int().nonnegative(),
  /** Servers with each finding. */
  findings: z.record(z.string(), z.int().nonnegative()),
});
export type StateReport = z.infer<typeof StateReportSchema>;

/** One month's report, summed from its daily aggregates once the month is over. */
export const MonthlyReportSchema = z.strictObject({
  month: z.string(),
  /** Days of the month with a state report. */
  days: z.int().nonnegative(),
  /** Server-days by letter, summed over the state reports. */
  letters: z.strictObject({
    o: z.int().nonnegative(),
    a: z.int().nonnegative(),
    p: z.int().nonnegative(),
    d: z.int().nonnegative(),
    n: z.int().nonnegative(),
  }),
  /** Servers and tools on the month's last reported day. */
  serversAtEnd: z.int().nonnegative(),
  toolsAtEnd: z.int().nonnegative(),
  /** Server-days with each finding. */
  findings: z.record(z.string(), z.int().nonnegative()),
  /** Routed tasks (demand aggregates) and sensor outcomes (sensor aggregates) of the month. */
  routedTasks: z.int().nonnegative(),
  sensorOutcomes: z.int().nonnegative(),
  /** Distinct keyed agent ids that called the MCP tools, from the daily-call markers still kept. */
  distinctAgents: z.int().nonnegative(),
  /** Days of the month whose daily-call markers were still there; distinctAgents covers only these. */
  agentDays: z.int().nonnegative(),
});
export type MonthlyReport = z.infer<typeof MonthlyReportSchema>;

/** The state report of `day` from its stored results, or null when the day has no finished daily check. */
export async function aggregateStateDay(storage: Storage, day: string): Promise<StateReport | null> {
  // A day whose check has not finished (no run summary yet: still running, or resuming after a crash) waits.
  if ((await storage.get(daySummaryPath(day))) === null) return null;
  const index = DayIndexSchema.safeParse(await getJsonOrNull(storage, dayIndexPath(day)));
  if (!index.success) return null;
  const results = await readDayResults(storage, day);
  const letters = { o: 0, a: 0, p: 0, d: 0, n: 0 };
  const findings: Record<string, number> = {};
  let tools = 0;
  let highRiskTools = 0;
  for (const listed of index.data.servers) {
    const result = results.get(listed.id);
    if (result === undefined) {
      letters.n++;
      continue;
    }
    letters[result.letter]++;
    if (result.letter === 'o') {
      tools += result.toolCount;
      highRiskTools += result.highRiskTools;
    }
    for (const id of new Set(result.findings.map((finding) => finding.id))) findings[id] = (findings[id] ?? 0) + 1;
  }
  return { day, servers: index.data.servers.length, letters, tools, highRiskTools, findings: sortedRecord(findings) };
}

function sortedRecord(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** The month (`YYYY-MM`) after `month`. */
function nextMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

/** Whether every day of `month` is closed on `now`: its last day is over, with the aggregates' grace. */
export function isMonthClosed(month: string, now: Date): boolean {
  const lastDay = new Date(Date.parse(`${nextMonth(month)}-01T00:00:00.000Z`) - 1).toISOString().slice(0, 10);
  return isDayClosed(lastDay, now);
}

/** The monthly report of `month` from its state reports, demand and sensor aggregates, and daily-call markers. */
export async function aggregateMonth(storage: Storage, month: string): Promise<MonthlyReport> {
  const letters = { o: 0, a: 0, p: 0, d: 0, n: 0 };
  const findings: Record<string, number> = {};
  let days = 0;
  let last: StateReport | null = null;
  for (const path of (await storage.list(`${AGGREGATES_PREFIX}state/${month}-`)).sort()) {
    const report = StateReportSchema.safeParse(await getJsonOrNull(storage, path));
    if (!report.success) continue;
    days++;
    last = report.data;
    for (const letter of ['o', 'a', 'p', 'd', 'n'] as const) letters[letter] += report.data.letters[letter];
    for (const [id, count] of Object.entries(report.data.findings)) findings[id] = (findings[id] ?? 0) + count;
  }
  let routedTasks = 0;
  for (const path of await storage.list(`${AGGREGATES_PREFIX}demand/${month}-`)) {
    const demand = DemandAggregateSchema.safeParse(await getJsonOrNull(storage, path));
    if (demand.success) routedTasks += demand.data.total;
  }
  let sensorOutcomes = 0;
  for (const path of await storage.list(`${AGGREGATES_PREFIX}sensors/${month}-`)) {
    const sensors = SensorAggregateSchema.safeParse(await getJsonOrNull(storage, path));
    if (sensors.success) for (const server of Object.values(sensors.data.servers)) sensorOutcomes += server.outcomes;
  }
  const agents = new Set<string>();
  const agentDays = new Set<string>();
  for (const path of await storage.list(`${DAILY_CALL_MARKERS_PREFIX}${month}-`)) {
    const file = DayCountFileSchema.safeParse(await getJsonOrNull(storage, path));
    if (!file.success) continue;
    agentDays.add(file.data.day);
    for (const agent of Object.keys(file.data.counts)) agents.add(agent);
  }
  return {
    month,
    days,
    letters,
    serversAtEnd: last?.servers ?? 0,
    toolsAtEnd: last?.tools ?? 0,
    findings: sortedRecord(findings),
    routedTasks,
    sensorOutcomes,
    distinctAgents: agents.size,
    agentDays: agentDays.size,
  };
}

/** The days with a daily check (an index under days/), oldest first. */
async function checkedDays(storage: Storage): Promise<string[]> {
  const days = new Set<string>();
  for (const path of await storage.list(DAYS_PREFIX)) {
    const match = /^days\/(\d{4}-\d{2}-\d{2})\/index\.json$/.exec(path);
    if (match !== null) days.add(match[1] as string);
  }
  return [...days].sort();
}

/**
 * Writes the aggregate of every closed day that has raw demand records or sensor batches and no aggregate
 * yet, the state report of every closed day with a daily check, and the monthly report of every month that
 * is over and has state reports; returns the paths written. Each is written once and never rewritten.
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
  const months = new Set<string>();
  for (const day of await checkedDays(storage)) {
    if (!isDayClosed(day, now)) continue;
    months.add(day.slice(0, 7));
    const target = stateReportPath(day);
    if ((await storage.get(target)) !== null) continue;
    const report = await aggregateStateDay(storage, day);
    if (report === null) continue;
    await putJson(storage, target, report);
    written.push(target);
  }
  // A month's report waits for the month to be over, and is written after its days' reports above.
  for (const month of [...months].sort()) {
    if (!isMonthClosed(month, now)) continue;
    const target = monthlyReportPath(month);
    if ((await storage.get(target)) !== null) continue;
    await putJson(storage, target, await aggregateMonth(storage, month));
    written.push(target);
  }
  return written;
}
