/**
 * Five-minute counters: one pair (answered, checks) per server and UTC day, kept 92 days, with the answering
 * checks' wall times for the newest CHECK_TALLY_DAYS_KEPT days, and the uptime inputs read from them. Pure module:
 * today is an argument.
 */

import { addLatency, isTallyDayKept, type LatencyCounts } from './check-tally.js';
import {
  FIVE_MINUTE_DAYS_KEPT,
  FIVE_MINUTE_LONG_WINDOW_DAYS,
  FIVE_MINUTE_WINDOW_DAYS,
  MS_PER_DAY,
} from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import type { TimedObservation } from './live-checks.js';
import { FIVE_MINUTE_OBSERVATIONS_KEPT } from './live-checks.js';
import type { UptimeInput } from './uptime.js';
import { assertCount, instantOf, startOfDay } from './validate.js';

/** One UTC day's five-minute counters of one server. */
export interface FiveMinuteDay {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** Checks that answered (sign-in and payment answers included). */
  answered: number;
  /** Checks run. */
  checks: number;
  /**
   * Wall times of the day's answering checks, in whole milliseconds (see check-tally.ts for the precision). Kept
   * for the newest CHECK_TALLY_DAYS_KEPT days only; absent on older days and on pairs written before it was kept.
   */
  latencyMs?: LatencyCounts | undefined;
}

/** Whole UTC days from `day` back to `today`: 0 for today, 1 for yesterday, negative for a later day. */
function daysBack(day: string, today: string, field: string): number {
  return Math.round((startOfDay(today, 'today') - startOfDay(day, field)) / MS_PER_DAY);
}

function checkPairs(pairs: readonly FiveMinuteDay[]): readonly FiveMinuteDay[] {
  if (!Array.isArray(pairs))
    throw new ReliabilityInputError('invalid-number', 'pairs', `expected an array, received ${describeValue(pairs)}`);
  pairs.forEach((pair, i) => {
    startOfDay(pair?.day, `pairs[${i}].day`);
    const checks = assertCount(pair.checks, `pairs[${i}].checks`);
    const answered = assertCount(pair.answered, `pairs[${i}].answered`);
    if (answered > checks)
      throw new ReliabilityInputError(
        'invalid-number',
        `pairs[${i}]`,
        `expected answered <= checks, received ${answered} of ${checks}`,
      );
  });
  return pairs;
}

/**
 * The pairs of the last 92 UTC days, today included (days 0 to 91 back); older ones are dropped.
 * The limit is a number of days, not of pairs: a day without checks leaves a gap and no pair.
 *
 * @example
 * keepFiveMinuteDays([{ day: '2026-08-31', answered: 1, checks: 1 }, { day: '2026-09-01', answered: 1, checks: 1 }], '2026-12-01');
 * // [{ day: '2026-09-01', answered: 1, checks: 1 }] (2026-09-01 is 91 days back and kept; 2026-08-31 is 92 back)
 */
export function keepFiveMinuteDays(pairs: readonly FiveMinuteDay[], today: string): FiveMinuteDay[] {
  startOfDay(today, 'today');
  return checkPairs(pairs).filter((pair) => daysBack(pair.day, today, 'day') < FIVE_MINUTE_DAYS_KEPT);
}

/**
 * Counts one more five-minute check on `today` (with its wall time when it answered and one is given) and drops
 * pairs older than 92 days; the wall times of days older than CHECK_TALLY_DAYS_KEPT are dropped, their counts kept.
 *
 * @example
 * recordFiveMinuteCheck([], '2026-12-01', true, 140); // [{ day: '2026-12-01', answered: 1, checks: 1, latencyMs: [[140, 1]] }]
 */
export function recordFiveMinuteCheck(
  pairs: readonly FiveMinuteDay[],
  today: string,
  answered: boolean,
  elapsedMs?: number | null,
): FiveMinuteDay[] {
  if (typeof answered !== 'boolean')
    throw new ReliabilityInputError(
      'invalid-check',
      'answered',
      `expected a boolean, received ${describeValue(answered)}`,
    );
  const add = answered ? 1 : 0;
  const kept = keepFiveMinuteDays(pairs, today).map((pair) => withLatencyKept(pair, today));
  const todays = kept.find((pair) => pair.day === today);
  const latencyMs = addLatency(todays?.latencyMs, answered ? elapsedMs : null);
  const counted = {
    day: today,
    answered: (todays?.answered ?? 0) + add,
    checks: (todays?.checks ?? 0) + 1,
    ...(latencyMs.length > 0 ? { latencyMs } : {}),
  };
  return todays ? kept.map((pair) => (pair.day === today ? counted : pair)) : [...kept, counted];
}

/** The pair without its wall times once its day is older than CHECK_TALLY_DAYS_KEPT. */
function withLatencyKept(pair: FiveMinuteDay, today: string): FiveMinuteDay {
  if (pair.latencyMs === undefined || isTallyDayKept(pair.day, today)) return pair;
  return { day: pair.day, answered: pair.answered, checks: pair.checks };
}

function sumSince(
  pairs: readonly FiveMinuteDay[],
  today: string,
  windowDays: number,
): { answered: number; total: number } {
  let answered = 0;
  let total = 0;
  for (const pair of pairs) {
    const back = daysBack(pair.day, today, 'day');
    if (back < 0 || back >= windowDays) continue;
    answered += pair.answered;
    total += pair.checks;
  }
  return { answered, total };
}

/**
 * A server's uptime inputs: its daily letters, and its five-minute counters summed over the 30 and
 * the 90 UTC days ending `today` (today included). With no counters (or no day yet), the letters alone.
 *
 * @example
 * uptimeInputOf('oo', [{ day: '2026-11-30', answered: 10, checks: 12 }], '2026-11-30');
 * // { letters: 'oo', fiveMinute: { answered: 10, total: 12 }, fiveMinuteLong: { answered: 10, total: 12 } }
 */
export function uptimeInputOf(letters: string, pairs: readonly FiveMinuteDay[], today: string | null): UptimeInput {
  if (today === null || checkPairs(pairs).length === 0) return { letters };
  return {
    letters,
    fiveMinute: sumSince(pairs, today, FIVE_MINUTE_WINDOW_DAYS),
    fiveMinuteLong: sumSince(pairs, today, FIVE_MINUTE_LONG_WINDOW_DAYS),
  };
}

/**
 * Adds one five-minute observation to those kept and returns the newest two, oldest first: all the
 * second-failure rule reads.
 *
 * @example
 * recordFiveMinuteObservation([a, b], c); // [b, c]
 */
export function recordFiveMinuteObservation(
  kept: readonly TimedObservation[],
  observation: TimedObservation,
): TimedObservation[] {
  const all = [...(Array.isArray(kept) ? kept : []), observation].map((o, i) => ({
    o,
    atMs: instantOf(o?.at, `observations[${i}].at`, 'invalid-check'),
  }));
  all.sort((a, b) => a.atMs - b.atMs);
  return all.slice(-FIVE_MINUTE_OBSERVATIONS_KEPT).map((entry) => entry.o);
}
