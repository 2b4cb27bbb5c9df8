// The agreement task the schedule runs each hour: every agent's and every gateway sensor's reports of the
// last 30 days, compared with our own checks kept over the same days (the daily results, the hourly file
// and its hour-of-day slots, the five-minute file), tallied by the package's rule and written to the
// reporter records file, which the read model passes to the ratings.
import { dayFromTime, shiftDay } from '@mcp-atlas/history';
import {
  type AgreementRecord,
  type AgreementSubject,
  isAnsweringLetter,
  ownCheckViewOf,
  type TimedCheckView,
  tallyAgreementRecords,
} from '@mcp-atlas/reliability';
import { RATING_RULES } from '@mcp-atlas/reliability/rules';
import { readDayResults } from '../data/day-results.js';
import { readFiveMinuteChecks } from '../data/five-minute-checks.js';
import { HOURLY_PATH } from '../data/paths.js';
import { type ReporterRecords, writeReporterRecords } from '../data/reporter-records.js';
import { HourlyFileSchema } from '../data/schemas.js';
import { getJson, type Storage } from '../storage/storage.js';
import { readRecentReports, readRecentSensorData } from './build-view.js';
import { dailyObservationOf, hourlyObservationsOf } from './live-inputs.js';

// Rule constants under the names this file uses (the package publishes them grouped, on its subpath).
const { reportWindowDays: REPORT_WINDOW_DAYS } = RATING_RULES;

/** Our checks by server over the report window, each dated (see {@link readOwnChecks}). */
export type ChecksByServer = Map<string, TimedCheckView[]>;

function pushCheck(map: ChecksByServer, server: string, check: TimedCheckView): void {
  const list = map.get(server);
  if (list === undefined) map.set(server, [check]);
  else list.push(check);
}

/**
 * Every check of ours kept over the 31 days ending today, by server. A daily result stored before its start
 * time was kept is dated at the start of its day: the earliest it can have run, so it is the newest check
 * for every report of that day until an hourly or five-minute check comes after it.
 */
export async function readOwnChecks(storage: Storage, today: string): Promise<ChecksByServer> {
  const checks: ChecksByServer = new Map();
  for (let back = REPORT_WINDOW_DAYS; back >= 0; back--) {
    const day = shiftDay(today, -back);
    for (const [server, result] of await readDayResults(storage, day)) {
      const view = ownCheckViewOf(dailyObservationOf(result, day));
      if (view !== null) pushCheck(checks, server, { at: result.checkedAt ?? `${day}T00:00:00.000Z`, ...view });
    }
  }
  const hourlyData = HourlyFileSchema.safeParse(await getJson(storage, HOURLY_PATH));
  const hourly = hourlyData.success ? hourlyData.data.results : {};
  for (const [server, entry] of Object.entries(hourly)) {
    const seen = new Set<string>();
    for (const observation of hourlyObservationsOf(entry)) {
      const view = ownCheckViewOf(observation);
      seen.add(observation.at);
      if (view !== null) pushCheck(checks, server, { at: observation.at, ...view });
    }
    // The hour-of-day slots keep only a letter: enough to say answering or not, never a server error.
    for (const slot of entry.hours ?? []) {
      if (slot === null || seen.has(slot.at) || Number.isNaN(Date.parse(slot.at))) continue;
      pushCheck(checks, server, { at: slot.at, answering: isAnsweringLetter(slot.letter), serverError: false });
    }
  }
  for (const [server, observations] of Object.entries(await readFiveMinuteChecks(storage))) {
    for (const observation of observations) {
      const view = Number.isNaN(Date.parse(observation.at)) ? null : ownCheckViewOf(observation);
      if (view !== null) pushCheck(checks, server, { at: observation.at, ...view });
    }
  }
  return checks;
}

function asRecord(records: Map<string, AgreementRecord>): ReporterRecords['reporters'] {
  return Object.fromEntries([...records].sort(([a], [b]) => a.localeCompare(b)));
}

/** Tallies every reporter's and sensor's agreement at `now` and writes the reporter records file. */
export async function writeAgreementRecords(storage: Storage, now: Date): Promise<ReporterRecords> {
  const today = dayFromTime(now);
  const checks = await readOwnChecks(storage, today);
  const reportSubjects: AgreementSubject[] = [];
  for (const [server, reports] of await readRecentReports(storage, today)) {
    for (const r of reports)
      reportSubjects.push({
        by: r.reporter,
        server,
        ok: r.ok,
        at: r.at,
        ...(r.reason !== undefined ? { reason: r.reason } : {}),
      });
  }
  const sensorSubjects = (await readRecentSensorData(storage, today)).subjects;
  const records: ReporterRecords = {
    computedAt: now.toISOString(),
    reporters: asRecord(tallyAgreementRecords(reportSubjects, checks, now)),
    sensors: asRecord(tallyAgreementRecords(sensorSubjects, checks, now)),
  };
  await writeReporterRecords(storage, records);
  return records;
}
