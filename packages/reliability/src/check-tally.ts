/**
 * Per-day tallies of a server's checks, so that no check is lost when its observation is dropped: the hourly file
 * keeps only the newest two hourly observations, and the five-minute file the newest two five-minute ones. A tally
 * day counts every check of one UTC day (answered, run) and keeps the wall times of the answering ones as counts
 * per whole millisecond. Pure module: the day comes from the check's own time.
 *
 * Precision: each wall time is rounded to the nearest whole millisecond, so a percentile read from the counts is the
 * exact nearest-rank percentile of the rounded times, within half a millisecond of the unrounded one. The counts
 * hold at most one entry per distinct millisecond, so never more entries than checks.
 */

import { dayStartMs } from '@mcp-atlas/base';
import { CHECK_COUNT_DAYS_KEPT, CHECK_TALLY_DAYS_KEPT, MS_PER_DAY } from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { formatDay, instantOf, startOfDay } from './validate.js';

/** Wall times of answering checks: `[whole milliseconds, how many checks took that long]`, fastest first. */
export type LatencyCounts = [number, number][];

/** One UTC day of one kind of check of one server. */
export interface CheckTallyDay {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Checks that answered (sign-in and payment answers included). */
  answered: number;
  /** Checks run. */
  checks: number;
  /** Wall times of the answering checks that recorded one. */
  latencyMs: LatencyCounts;
}

/** One check as a tally reads it. */
export interface TalliedCheck {
  /** When the check ran, ISO 8601 with offset: its UTC day is the tally day it counts in. */
  at: string;
  answered: boolean;
  /** Wall time of the whole check in milliseconds; absent or null when not kept. */
  elapsedMs?: number | null | undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** @internal Whether an entry read from a stored file is a `[milliseconds, count]` pair a tally can hold. */
export function isLatencyEntry(entry: unknown): entry is [number, number] {
  return Array.isArray(entry) && entry.length === 2 && isCount(entry[0]) && isCount(entry[1]) && entry[1] > 0;
}

/**
 * `counts` with one more check of `elapsedMs` (rounded to a whole millisecond), fastest first. A wall time that
 * is not a finite number of 0 or more adds nothing; entries that are not pairs of whole numbers are dropped.
 *
 * @example
 * addLatency([[120, 2]], 119.6); // [[120, 3]]
 */
export function addLatency(
  counts: readonly unknown[] | undefined,
  elapsedMs: number | null | undefined,
): LatencyCounts {
  const kept = (Array.isArray(counts) ? counts : []).filter(isLatencyEntry).map(([ms, n]): [number, number] => [ms, n]);
  if (typeof elapsedMs !== 'number' || !Number.isFinite(elapsedMs) || elapsedMs < 0) return kept;
  const ms = Math.round(elapsedMs);
  const same = kept.find((entry) => entry[0] === ms);
  if (same) same[1] += 1;
  else kept.push([ms, 1]);
  return kept.sort((a, b) => a[0] - b[0]);
}

/**
 * Every wall time the counts hold, one value per check, fastest first: what a nearest-rank percentile reads.
 *
 * @example
 * latencyValuesOf([[100, 2], [250, 1]]); // [100, 100, 250]
 */
export function latencyValuesOf(counts: readonly unknown[] | undefined): number[] {
  const values: number[] = [];
  const entries = (Array.isArray(counts) ? counts : []).filter(isLatencyEntry).sort((a, b) => a[0] - b[0]);
  for (const [ms, n] of entries) for (let i = 0; i < n; i++) values.push(ms);
  return values;
}

/** Whole UTC days from `day` to `today` (negative for a later day). */
function daysBack(day: string, today: string): number {
  return Math.round((startOfDay(today, 'today') - startOfDay(day, 'day')) / MS_PER_DAY);
}

/** Whether `day` is within the CHECK_TALLY_DAYS_KEPT days ending `today` (a later day is kept too). */
export function isTallyDayKept(day: string, today: string): boolean {
  return daysBack(day, today) < CHECK_TALLY_DAYS_KEPT;
}

/** A tally day as kept on `today`: whole within CHECK_TALLY_DAYS_KEPT days, its counts alone after that. */
function keptTallyDay(tally: CheckTallyDay, today: string): CheckTallyDay {
  return isTallyDayKept(tally.day, today) ? tally : { ...tally, latencyMs: [] };
}

/**
 * Counts one more check in its UTC day's tally and drops days more than CHECK_COUNT_DAYS_KEPT - 1 days before it;
 * days more than CHECK_TALLY_DAYS_KEPT - 1 days before it keep their counts without their wall times. Tally days
 * that do not read as one (a torn file) are dropped too.
 *
 * @example
 * recordCheckTally([], { at: '2026-12-01T10:00:00Z', answered: true, elapsedMs: 180 });
 * // [{ day: '2026-12-01', answered: 1, checks: 1, latencyMs: [[180, 1]] }]
 */
export function recordCheckTally(days: readonly CheckTallyDay[] | undefined, check: TalliedCheck): CheckTallyDay[] {
  if (typeof check?.answered !== 'boolean')
    throw new ReliabilityInputError(
      'invalid-check',
      'check.answered',
      `expected a boolean, received ${describeValue(check?.answered)}`,
    );
  const today = formatDay(instantOf(check?.at, 'check.at', 'invalid-check'));
  const kept = (Array.isArray(days) ? days : []).filter(
    (d) =>
      dayStartMs(d?.day) !== null &&
      isCount(d.answered) &&
      isCount(d.checks) &&
      d.answered <= d.checks &&
      daysBack(d.day, today) < CHECK_COUNT_DAYS_KEPT,
  );
  const before = kept.find((d) => d.day === today);
  // A failed check counts in `checks` only: its wall time is the time it took to fail, not a latency.
  const latencyMs = addLatency(before?.latencyMs, check.answered ? check.elapsedMs : null);
  const todays: CheckTallyDay = {
    day: today,
    answered: (before?.answered ?? 0) + (check.answered ? 1 : 0),
    checks: (before?.checks ?? 0) + 1,
    latencyMs,
  };
  return [...kept.filter((d) => d.day !== today).map((d) => keptTallyDay(d, today)), todays].sort((a, b) =>
    a.day.localeCompare(b.day),
  );
}
