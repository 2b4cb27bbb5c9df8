// The demo's checks between daily checks: the hourly checks of the last simulated day and of today up to the
// moment the demo serves, and the five-minute checks of the owner-verified member. Each is a real probe of a
// fleet member, timed at the instant it stands for, and each lands in the same files, through the same
// helpers, as the schedule's hourly and five-minute tasks write (the hourly file's entries, the five-minute
// observations and each server's five-minute counters).

import { daysBetween } from '@mcp-atlas/base';
import { dayFromTime } from '@mcp-atlas/history';
import { CHECK_SCHEDULE_RULES } from '@mcp-atlas/operations/rules';
import { type NetworkOptions, type ProbeResult, probeServer } from '@mcp-atlas/probe';
import { SESSION_RULES } from '@mcp-atlas/probe/rules';
import { isAnsweringLetter } from '@mcp-atlas/reliability';
import { recordFiveMinuteCheck, recordFiveMinuteObservation } from '@mcp-atlas/reliability/live';
import { observationOfCheck } from '../data/check-observation.js';
import { type FiveMinuteObservation, readFiveMinuteChecks, writeFiveMinuteChecks } from '../data/five-minute-checks.js';
import { HOURLY_PATH } from '../data/paths.js';
import { type HourlyFile, HourlyFileSchema, type WatchedServer } from '../data/schemas.js';
import { updateServerState } from '../scan/fold-day.js';
import { mapWithLimit } from '../scan/pool.js';
import { nextHourlyEntry } from '../serve/hourly-entry.js';
import { getJsonOrNull, putJson, type Storage } from '../storage/storage.js';
import { DEMO_AT_HEADER, DEMO_DAY_HEADER } from './fleet.js';
import { fleetFetch } from './fleet-names.js';

/** How many probes of the demo run at once. */
export const DEMO_PROBE_CONCURRENCY = 64;

/** The minute past each hour the demo's hourly checks stand for. */
export const DEMO_HOURLY_MINUTE = 20;

/** Which simulated day, and for a live check which instant, a probe stands for. */
export interface DemoMoment {
  /** 0 for the first simulated day; the day count for today. */
  dayIndex: number;
  /** The instant of a live check; absent for a daily check. */
  at?: string;
}

/**
 * The network of one demo probe: loopback allowed (the fleet is the only thing the guard is lifted for), and
 * a fetch that tells the fleet member which simulated day and instant it is answering for.
 */
export function demoNetwork(moment: DemoMoment): NetworkOptions {
  const fetchForMoment: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set(DEMO_DAY_HEADER, String(moment.dayIndex));
    if (moment.at !== undefined) headers.set(DEMO_AT_HEADER, moment.at);
    return fetch(input, { ...init, headers });
  };
  // The fleet is watched under public-looking names; the demo answers them itself, with its loopback ports.
  return { allowPrivate: true, fetch: fleetFetch(fetchForMoment) };
}

/** The simulated day index of an instant, counted from the first simulated day. */
export function dayIndexOf(firstDay: string, at: string | Date): number {
  return daysBetween(firstDay, dayFromTime(typeof at === 'string' ? new Date(at) : at));
}

/** Hourly checks the demo runs: the 24 hours before it serves, so every slot of the hour-of-day profile shows. */
export const DEMO_HOURLY_CHECKS = 24;

/**
 * The instants of the demo's hourly checks, oldest first: DEMO_HOURLY_MINUTE past each of the last
 * DEMO_HOURLY_CHECKS hours up to `now`, so the newest is at most an hour old and the one before at most two.
 */
export function hourlyCheckTimes(now: Date): string[] {
  const hour = 60 * 60_000;
  let newest = Math.floor(now.getTime() / hour) * hour + DEMO_HOURLY_MINUTE * 60_000;
  if (newest > now.getTime()) newest -= hour;
  return Array.from({ length: DEMO_HOURLY_CHECKS }, (_, i) =>
    new Date(newest - (DEMO_HOURLY_CHECKS - 1 - i) * hour).toISOString(),
  );
}

async function probeAt(
  server: WatchedServer,
  firstDay: string,
  at: string,
  extra: { deadlineMs?: number } = {},
): Promise<ProbeResult> {
  return probeServer(server.url, { ...demoNetwork({ dayIndex: dayIndexOf(firstDay, at), at }), ...extra });
}

/**
 * Runs the hourly checks at `times` (oldest first) on `servers` and writes the hourly file as the schedule
 * would have left it after the last of them, going on from the stored file when there is one: each server's newest check, the one before it, and the
 * hour-of-day profile. All probes run at once (the slow member would otherwise cost its delay once an hour);
 * the entries are then built hour by hour, each on the one before. `firstDay` is the first simulated day.
 */
export async function simulateHourlyChecks(
  storage: Storage,
  servers: readonly WatchedServer[],
  times: readonly string[],
  firstDay: string,
): Promise<void> {
  const jobs = times.flatMap((at) => servers.map((server) => ({ at, server })));
  const probes = new Map(
    await mapWithLimit(
      jobs,
      DEMO_PROBE_CONCURRENCY,
      async ({ at, server }) => [`${at}|${server.id}`, await probeAt(server, firstDay, at)] as const,
    ),
  );
  // Continues the stored file, so checks run in two parts (the newest day, then today) make one history.
  const stored = HourlyFileSchema.safeParse(await getJsonOrNull(storage, HOURLY_PATH));
  let file: HourlyFile | null = stored.success ? stored.data : null;
  for (const at of times) {
    const results: HourlyFile['results'] = { ...file?.results };
    for (const server of servers) {
      const entry = nextHourlyEntry(file?.results[server.id], probes.get(`${at}|${server.id}`) as ProbeResult, at);
      if (entry !== undefined) results[server.id] = entry;
    }
    file = { hour: at.slice(0, 13), results };
  }
  if (file !== null) await putJson(storage, HOURLY_PATH, file);
}

/**
 * The instants of the hourly checks of one whole simulated day: DEMO_HOURLY_MINUTE past each of its 24 hours. The
 * demo runs them on the newest simulated day before that day is folded, so its quality score counts them.
 */
export function hourlyCheckTimesOfDay(day: string): string[] {
  const minute = String(DEMO_HOURLY_MINUTE).padStart(2, '0');
  return Array.from({ length: 24 }, (_, hour) => `${day}T${String(hour).padStart(2, '0')}:${minute}:00.000Z`);
}

/** The instants of five-minute checks after `from` up to `now`, oldest first. */
export function fiveMinuteCheckTimes(from: Date, now: Date): string[] {
  const times: string[] = [];
  for (
    let at = from.getTime() + CHECK_SCHEDULE_RULES.fiveMinuteCheckPeriodMs;
    at <= now.getTime();
    at += CHECK_SCHEDULE_RULES.fiveMinuteCheckPeriodMs
  )
    times.push(new Date(at).toISOString());
  return times;
}

/**
 * Runs the five-minute checks of one server at `times` (oldest first), with the five-minute deadline, and
 * records each as the schedule's five-minute task does: the day's counter pair in the server's state (sign-in
 * and payment count as answering) and the newest observations in the five-minute file. Returns how many
 * checks answered.
 */
export async function simulateFiveMinuteChecks(
  storage: Storage,
  server: WatchedServer,
  times: readonly string[],
  firstDay: string,
): Promise<number> {
  const probed = await mapWithLimit(times, DEMO_PROBE_CONCURRENCY, async (at) => ({
    at,
    result: await probeAt(server, firstDay, at, { deadlineMs: SESSION_RULES.fiveMinuteCheckDeadlineMs }),
  }));
  // A rate-limited check (n) measured nothing, so it is left out as the schedule leaves it out.
  const observed = probed.flatMap(({ at, result }) => {
    const observation = observationOfCheck(result, at);
    return observation === null ? [] : [{ at, result, observation }];
  });
  const probes = observed.map((o) => o.result);
  const answers = probes.map((result) => isAnsweringLetter(result.letter));
  // Under the server's lock, as the schedule's five-minute task writes them: a fold or another writer of this
  // state in the same process lands wholly before or wholly after these counters, never in between.
  await updateServerState(storage, server.id, (state) => {
    if (state === null) throw new Error(`no state for ${server.id}: the demo's daily checks must run first`);
    let counters = state.fiveMinute;
    observed.forEach(({ at }, i) => {
      counters = recordFiveMinuteCheck(
        counters,
        dayFromTime(new Date(at)),
        answers[i] === true,
        (probes[i] as ProbeResult).elapsedMs,
      );
    });
    return { ...state, fiveMinute: counters };
  });
  let kept: FiveMinuteObservation[] = (await readFiveMinuteChecks(storage))[server.id] ?? [];
  for (const { observation } of observed)
    kept = recordFiveMinuteObservation(kept, observation) as FiveMinuteObservation[];
  const file = await readFiveMinuteChecks(storage);
  file[server.id] = kept;
  await writeFiveMinuteChecks(storage, file);
  return answers.filter(Boolean).length;
}
