/**
 * Uptime figures, their labels, and the state page's distribution rule. Pure module: the day is
 * always an argument.
 */

import { shiftDay } from '@mcp-atlas/base';
import {
  DISTRIBUTION_MIN_MEDIAN_DAYS,
  FIVE_MINUTE_MIN_CHECKS,
  LETTER_WINDOW_DAYS,
  THIRTY_DAY_LABEL_MIN_DAYS,
  THIRTY_DAY_UPTIME_LABEL,
  UPTIME_CAP_WHEN_MISSED,
  UPTIME_DECIMALS,
} from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { countLetters } from './letters.js';
import { assertCount, startOfDay } from './validate.js';

/** Answered and total checks over a window (five-minute counters). */
export interface CheckCounts {
  answered: number;
  total: number;
}

/** Input of {@link describeUptime}. */
export interface UptimeInput {
  /** The server's daily letters, oldest first. */
  letters: string;
  /** Five-minute checks over the last 30 UTC days, when the server has any. */
  fiveMinute?: CheckCounts | null;
  /** Five-minute checks over the last 90 UTC days, when kept. */
  fiveMinuteLong?: CheckCounts | null;
}

/** The uptime figure a page shows, with where it came from and how it is labelled. */
export interface UptimeSummary {
  /** Percent with one decimal, or null when nothing was observed. */
  percent: number | null;
  /** `five_minute` once there are at least 12 five-minute checks, otherwise `daily`. */
  source: 'five_minute' | 'daily';
  /** Daily letters that are not `n`. */
  daysObserved: number;
  /** True from 14 observed days: only then may the figure be called a 30-day uptime. */
  isThirtyDay: boolean;
  /** `30-day uptime`, `over N days observed` or `no days observed`. */
  label: string;
  /** Which checks the figure counts: `five-minute checks` or `daily checks`. */
  sourceLabel: 'five-minute checks' | 'daily checks';
  /** The 90-day five-minute figure, only when the five-minute figure is used and older checks exist. */
  longPercent: number | null;
}

/** The state page's decision about the uptime distribution. */
export type DistributionStatus =
  | { shown: true; medianDaysObserved: number }
  | {
      shown: false;
      /** Observed days of the median server, or null when there are no servers. */
      medianDaysObserved: number | null;
      /** The day the distribution appears if the daily check runs every day, or null without servers. */
      appearsOn: string | null;
    };

const ROUNDING_SCALE = 10 ** UPTIME_DECIMALS;

/**
 * @internal Percent with one decimal of `up` out of `total`, capped below 100 when any was missed.
 * Computed as round(1000 x up / total) / 10 so the only rounding happens once, on the scaled ratio.
 */
export function roundedPercent(up: number, total: number): number {
  const percent = Math.round((100 * ROUNDING_SCALE * up) / total) / ROUNDING_SCALE;
  return up < total ? Math.min(percent, UPTIME_CAP_WHEN_MISSED) : percent;
}

/**
 * Daily uptime in percent with one decimal: 100 x (observed days not `d`) / (observed days).
 * `a` and `p` count as up, `n` days count nowhere. Returns null when no day was observed. A server
 * with any `d` shows at most 99.9, never 100.
 *
 * @example
 * dailyUptime('ooood');  // 80
 * dailyUptime('nnn');    // null
 * dailyUptime('o'.repeat(29) + 'd'); // 96.7
 */
export function dailyUptime(letters: string): number | null {
  const counts = countLetters(letters);
  return counts.observed === 0 ? null : roundedPercent(counts.answering, counts.observed);
}

/**
 * Uptime from check counters (the five-minute checks): 100 x answered / total, one decimal, null
 * when there were no checks. A single missed check keeps the figure at 99.9 or below. Throws
 * {@link ReliabilityInputError} unless both are whole numbers with answered <= total.
 *
 * @example
 * checkUptime(8639, 8640); // 99.9 (99.988... would round to 100)
 */
export function checkUptime(answered: number, total: number): number | null {
  assertCount(answered, 'answered');
  assertCount(total, 'total');
  if (answered > total) {
    throw new ReliabilityInputError(
      'invalid-number',
      'answered',
      `must not exceed total (${total}), received ${answered}`,
    );
  }
  return total === 0 ? null : roundedPercent(answered, total);
}

/**
 * The period label of an uptime figure: `30-day uptime` from 14 observed days, before that
 * `over N days observed` (`over 1 day observed` for one, `no days observed` for none).
 *
 * @example
 * labelUptimePeriod(14); // '30-day uptime'
 * labelUptimePeriod(13); // 'over 13 days observed'
 */
export function labelUptimePeriod(daysObserved: number): string {
  assertCount(daysObserved, 'daysObserved');
  if (daysObserved >= THIRTY_DAY_LABEL_MIN_DAYS) return THIRTY_DAY_UPTIME_LABEL;
  if (daysObserved === 0) return 'no days observed';
  return `over ${daysObserved} ${daysObserved === 1 ? 'day' : 'days'} observed`;
}

/** True once a server has enough five-minute checks (12, one hour) for the five-minute figure. */
export function usesFiveMinuteFigure(checks: number): boolean {
  return assertCount(checks, 'checks') >= FIVE_MINUTE_MIN_CHECKS;
}

/**
 * Picks the uptime figure a page shows and labels it: the five-minute figure once the server has
 * at least 12 five-minute checks, otherwise the daily figure labelled as daily; `30-day uptime`
 * only from 14 observed days. The 90-day figure is added when the five-minute figure is used and
 * the 90-day counters hold checks older than the 30-day window (more checks than the 30-day ones).
 *
 * @example
 * describeUptime({ letters: 'ooooooooooooood', fiveMinute: { answered: 2870, total: 2880 } });
 * // { percent: 99.7, source: 'five_minute', daysObserved: 15, isThirtyDay: true,
 * //   label: '30-day uptime', sourceLabel: 'five-minute checks', longPercent: null }
 */
export function describeUptime(input: UptimeInput): UptimeSummary {
  const counts = countLetters(input.letters);
  const short = input.fiveMinute ?? null;
  const long = input.fiveMinuteLong ?? null;
  const shortPercent = short === null ? null : checkUptime(short.answered, short.total);
  const longFigure = long === null ? null : checkUptime(long.answered, long.total);
  const useFiveMinute = short !== null && usesFiveMinuteFigure(short.total);
  const olderChecksExist = short !== null && long !== null && long.total > short.total;
  return {
    percent: useFiveMinute
      ? shortPercent
      : counts.observed === 0
        ? null
        : roundedPercent(counts.answering, counts.observed),
    source: useFiveMinute ? 'five_minute' : 'daily',
    daysObserved: counts.observed,
    isThirtyDay: counts.observed >= THIRTY_DAY_LABEL_MIN_DAYS,
    label: labelUptimePeriod(counts.observed),
    sourceLabel: useFiveMinute ? 'five-minute checks' : 'daily checks',
    longPercent: useFiveMinute && olderChecksExist ? longFigure : null,
  };
}

/** @internal The lower median (the value of the middle server; the lower one of two middles). */
function lowerMedian(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
}

/**
 * The state page's rule for the uptime distribution: shown once the median server has 14 observed
 * days. Until then it reports the median's observed days and the day the distribution appears,
 * counting one more observed day per day from `day` (the day the counts describe). With an even
 * number of servers the median server is the lower of the two middle ones, so the distribution
 * appears only when at least half of the servers have 14 observed days.
 *
 * @example
 * decideUptimeDistribution([3, 9, 20], '2025-06-01');
 * // { shown: false, medianDaysObserved: 9, appearsOn: '2025-06-06' }
 */
export function decideUptimeDistribution(observedDays: readonly number[], day: string): DistributionStatus {
  startOfDay(day, 'day');
  if (!Array.isArray(observedDays)) {
    throw new ReliabilityInputError(
      'invalid-number',
      'observedDays',
      `expected an array of day counts, received ${describeValue(observedDays)}`,
    );
  }
  observedDays.forEach((value, index) => {
    assertCount(value, `observedDays[${index}]`);
    if (value > LETTER_WINDOW_DAYS) {
      throw new ReliabilityInputError(
        'invalid-number',
        `observedDays[${index}]`,
        `expected at most ${LETTER_WINDOW_DAYS}, received ${value}`,
      );
    }
  });
  if (observedDays.length === 0) return { shown: false, medianDaysObserved: null, appearsOn: null };
  const median = lowerMedian(observedDays);
  if (median >= DISTRIBUTION_MIN_MEDIAN_DAYS) return { shown: true, medianDaysObserved: median };
  return { shown: false, medianDaysObserved: median, appearsOn: shiftDay(day, DISTRIBUTION_MIN_MEDIAN_DAYS - median) };
}
