// The agreement task the schedule runs each hour: every agent's and every gateway sensor's reports of the
// last 30 days, compared with our own checks kept over the same days (the daily results, the hourly file
// and its hour-of-day slots, the five-minute file), tallied by the package's rule and written to the
// reporter records file, which the read model passes to the ratings.
import { shiftDay } from '@mcp-atlas/base';
import { dayFromTime } from '@mcp-atlas/history';
import {
  type AgreementRecord,
  type AgreementSubject,
  isAnsweringLetter,
  type OwnCheckView,
  type TimedCheckView,
  tallyAgreementRecords,
} from '@mcp-atlas/reliability';
import { ownCheckViewOf } from '@mcp-atlas/reliability/live';
import { RATING_RULES } from '@mcp-atlas/reliability/rules';
import { readDayResults } from '../data/day-results.js';
import { readFiveMinuteChecks } from '../data/five-minute-checks.js';
import { HOURLY_PATH } from '../data/paths.js';
import { type ReporterRecords, writeReporterRecords } from '../data/reporter-records.js';
import { HourlyFileSchema } from '../data/schemas.js';
import { getJson, type Storage } from '../storage/storage.js';
import { readRecentReports, readRecentSensorData } from './build-view.js';
import { dailyObservationOf, hourlyObservationsOf } from './live-inputs.js';

/** Our checks by server over the report window, each dated (see {@link readOwnChecks}). */
export type ChecksByServer = Map<string, TimedCheckView[]>;

function pushCheck(map: ChecksByServer, server: string, check: TimedCheckView): void {
  const list = map.get(server);
  if (list === undefined) map.set(server, [check]);
  else list.push(check);
}

/** The instants (epoch ms) at which a server has a full record of ours: a daily result or a kept observation. */
type RecordedInstants = Map<string, Set<number>>;

function noteInstant(instants: RecordedInstants, server: string, at: string): void {
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) return;
  const set = instants.get(server);
  if (set === undefined) instants.set(server, new Set([ms]));
  else set.add(ms);
}

/**
 * Adds one full record of a check (daily, hourly or five-minute) and notes its instant, whether or not it says
 * anything: a check that says nothing about the server must not be replaced by its hour-slot copy, which would.
 */
function addFullRecord(
  checks: ChecksByServer,
  instants: RecordedInstants,
  server: string,
  at: string,
  view: OwnCheckView | null,
): void {
  noteInstant(instants, server, at);
  if (view !== null) pushCheck(checks, server, { at, ...view });
}

/**
 * Every check of ours kept over the 31 days ending today, by server. A daily result stored before its start
 * time was kept is dated at the start of its day: the earliest it can have run, so it is the newest check
 * for every report of that day until an hourly or five-minute check comes after it.
 *
 * The hour-of-day slots hold copies of the hourly, five-minute and daily results, with only their letter. A
 * slot at the instant of a full record is that record's copy and is left out: after the sort by time the slot
 * would otherwise stand in for the record, saying "no server error" where the record saw a 5xx, and "not
 * answering" where the record says nothing (our guard refused the check), so that the check before it counts.
 */
export async function readOwnChecks(storage: Storage, today: string): Promise<ChecksByServer> {
  const checks: ChecksByServer = new Map();
  const recorded: RecordedInstants = new Map();
  for (let back = RATING_RULES.reportWindowDays; back >= 0; back--) {
    const day = shiftDay(today, -back);
    for (const [server, result] of await readDayResults(storage, day)) {
      const observation = dailyObservationOf(result, day);
      const view = observation === null ? null : ownCheckViewOf(observation);
      // Only a real start time is an instant a slot can copy: the start of the day is our stand-in for none.
      if (result.checkedAt !== undefined) addFullRecord(checks, recorded, server, result.checkedAt, view);
      else if (view !== null) pushCheck(checks, server, { at: `${day}T00:00:00.000Z`, ...view });
    }
  }
  const hourlyData = HourlyFileSchema.safeParse(await getJson(storage, HOURLY_PATH));
  const hourly = hourlyData.success ? hourlyData.data.results : {};
  for (const [server, entry] of Object.entries(hourly))
    for (const observation of hourlyObservationsOf(entry))
      addFullRecord(checks, recorded, server, observation.at, ownCheckViewOf(observation));
  for (const [server, observations] of Object.entries(await readFiveMinuteChecks(storage)))
    for (const observation of observations)
      if (!Number.isNaN(Date.parse(observation.at)))
        addFullRecord(checks, recorded, server, observation.at, ownCheckViewOf(observation));
  // The slots keep only a letter: enough to say answering or not, never a server error.
  for (const [server, entry] of Object.entries(hourly)) {
    const copies = recorded.get(server);
    for (const slot of entry.hours ?? []) {
      const ms = slot === null ? Number.NaN : Date.parse(slot.at);
      if (slot === null || Number.isNaN(ms) || copies?.has(ms) === true) continue;
      pushCheck(checks, server, { at: slot.at, answering: isAnsweringLetter(slot.letter), serverError: false });
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
