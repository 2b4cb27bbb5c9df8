/**
 * A server's day series: one entry per folded UTC day, kept DAY_SERIES_DAYS_KEPT days, holding the day's letter
 * and the nearest-rank percentiles of its handshake times. The letters themselves are kept for 30 days and the
 * wall times for 8, so without this series a page could draw neither 90 days of uptime nor handshake times over
 * time. Pure module: the day is an argument.
 *
 * A day enters the series open when it is folded: its daily check is done, but its hourly and five-minute checks
 * go on until the day ends. The next fold closes it, computing its percentiles from every answering check of that
 * day whose wall time is still kept (the daily check's, the hourly tally's and the five-minute pair's). A closed
 * day's percentiles never change again.
 */

import { dayStartMs, daysBetween, shiftDay } from '@mcp-atlas/base';
import { type CheckTallyDay, isLatencyEntry, type LatencyCounts } from './check-tally.js';
import { DAY_SERIES_DAYS_KEPT, DAY_SERIES_PERCENTILES, FIVE_MINUTE_MIN_CHECKS } from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import type { FiveMinuteDay } from './five-minute.js';
import { type DailyLetter, isAnsweringLetter, isDailyLetters } from './letters.js';
import { roundedPercent } from './uptime.js';
import { startOfDay } from './validate.js';

/** The handshake times of one closed day: two nearest-rank percentiles and how many wall times they read. */
export interface DayHandshake {
  p50Ms: number;
  p95Ms: number;
  samples: number;
}

/** One UTC day of a server's day series. */
export interface SeriesDay {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  /** The day's daily letter (`n` when its daily check did not run). */
  letter: DailyLetter;
  /** The daily check's wall time in whole milliseconds when it answered; null otherwise. */
  dailyMs: number | null;
  /**
   * The day's handshake times once it is closed; null when it closed with no answering check's wall time kept.
   * Absent while the day is open (it is the newest folded day, and its checks may still run).
   */
  handshake?: DayHandshake | null | undefined;
}

/** Today's fold, as the series records it. */
export interface SeriesFold {
  /** The UTC day being folded. */
  day: string;
  letter: DailyLetter;
  /** Wall time of the day's daily check in milliseconds, or null; kept only when the letter answers. */
  elapsedMs?: number | null;
}

/** The wall times of the server's other checks, as the hourly tally and the five-minute pairs keep them. */
export interface SeriesWallTimes {
  hourly?: readonly CheckTallyDay[] | undefined;
  fiveMinute?: readonly FiveMinuteDay[] | undefined;
}

/** The state a series is advanced from: the series itself, or, in a state from before it was kept, its letters. */
export interface SeriesSource {
  series?: readonly SeriesDay[] | undefined;
  letters: string;
  lastDay: string | null;
}

/** How one day of the uptime chart reads. */
export interface SeriesDayStatus {
  day: string;
  /** `up`: every check counted answered; `down`: none did; `partial`: some did; `none`: no check counted. */
  status: 'up' | 'partial' | 'down' | 'none';
  /** The day's uptime in percent, one decimal, by the uptime rounding; null for `none`. */
  percent: number | null;
  /** What the day's figure counts: its five-minute checks, its daily letter, or nothing. */
  source: 'five_minute' | 'daily' | null;
  /** The checks the figure counts: the five-minute checks, 1 for a daily letter, 0 for `none`. */
  checks: number;
}

/**
 * The nearest-rank percentile of wall times held as `[milliseconds, count]` pairs: the smallest value with at
 * least `p`% of the values at or below it, read without expanding the counts. Null when they hold no value.
 */
function percentileOfCounts(counts: LatencyCounts, total: number, p: number): number | null {
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [ms, n] of counts) {
    seen += n;
    if (seen >= rank) return ms;
  }
  return null;
}

/** `[milliseconds, count]` pairs merged and ordered fastest first; entries that are not such pairs are left out. */
function mergeCounts(lists: readonly (readonly unknown[] | undefined)[]): LatencyCounts {
  const merged = new Map<number, number>();
  for (const list of lists)
    for (const entry of Array.isArray(list) ? list : [])
      if (isLatencyEntry(entry)) merged.set(entry[0], (merged.get(entry[0]) ?? 0) + entry[1]);
  return [...merged.entries()].sort((a, b) => a[0] - b[0]);
}

/** The handshake times of `entry`'s day, from its daily check and the kept wall times of its other checks. */
function closeDay(entry: SeriesDay, wallTimes: SeriesWallTimes): DayHandshake | null {
  const ofDay = (list: readonly { day: string; latencyMs?: LatencyCounts | undefined }[] | undefined) =>
    (Array.isArray(list) ? list : []).find((item) => item?.day === entry.day)?.latencyMs;
  const counts = mergeCounts([
    entry.dailyMs === null ? [] : [[entry.dailyMs, 1]],
    ofDay(wallTimes.hourly),
    ofDay(wallTimes.fiveMinute),
  ]);
  const samples = counts.reduce((sum, [, n]) => sum + n, 0);
  if (samples === 0) return null;
  return {
    p50Ms: percentileOfCounts(counts, samples, DAY_SERIES_PERCENTILES.low) as number,
    p95Ms: percentileOfCounts(counts, samples, DAY_SERIES_PERCENTILES.high) as number,
    samples,
  };
}

/**
 * A series for a state from before the series was kept: one open entry per kept letter, ending `lastDay`, with
 * no daily wall time (the letters do not keep one). Closing them reads whatever wall times are still kept.
 */
function seriesFromLetters(letters: string, lastDay: string | null): SeriesDay[] {
  if (lastDay === null || !isDailyLetters(letters)) return [];
  return [...letters].map((letter, i) => ({
    day: shiftDay(lastDay, i - letters.length + 1),
    letter: letter as DailyLetter,
    dailyMs: null,
  }));
}

/** The state's series without the entries that do not read as a series day, or one made from its letters. */
function seriesOf(source: SeriesSource): SeriesDay[] {
  const stored = Array.isArray(source?.series) ? source.series : seriesFromLetters(source?.letters, source?.lastDay);
  return stored.filter(isSeriesDay);
}

function checkFold(fold: SeriesFold): void {
  startOfDay(fold?.day, 'fold.day');
  if (!isDailyLetters(fold.letter) || fold.letter.length !== 1)
    throw new ReliabilityInputError(
      'invalid-letters',
      'fold.letter',
      `expected one daily letter, received ${describeValue(fold.letter)}`,
    );
}

/** The daily wall time the series keeps for a fold: whole milliseconds, only when the letter answers. */
function dailyMsOf(fold: SeriesFold): number | null {
  const ms = fold.elapsedMs;
  if (!isAnsweringLetter(fold.letter) || typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return null;
  return Math.round(ms);
}

/**
 * The series after folding `fold.day`: every open day before it is closed with the wall times kept for it, the
 * day is added open, and days more than DAY_SERIES_DAYS_KEPT - 1 days before it are dropped. A state without a
 * series starts one from its letters. A day already in the series is left as it is, so a fold run again after a
 * crash changes nothing; so are entries that do not read as a series day (a torn file), which are dropped.
 *
 * @example
 * advanceDaySeries(
 *   { series: [{ day: '2026-12-01', letter: 'o', dailyMs: 300 }], letters: 'o', lastDay: '2026-12-01' },
 *   { day: '2026-12-02', letter: 'd', elapsedMs: 10000 },
 *   { hourly: [{ day: '2026-12-01', answered: 2, checks: 2, latencyMs: [[100, 1], [200, 1]] }] },
 * );
 * // [{ day: '2026-12-01', letter: 'o', dailyMs: 300, handshake: { p50Ms: 200, p95Ms: 300, samples: 3 } },
 * //  { day: '2026-12-02', letter: 'd', dailyMs: null }]
 */
export function advanceDaySeries(source: SeriesSource, fold: SeriesFold, wallTimes: SeriesWallTimes): SeriesDay[] {
  checkFold(fold);
  const kept = seriesOf(source).filter((entry) => daysBetween(entry.day, fold.day) < DAY_SERIES_DAYS_KEPT);
  if (kept.some((entry) => entry.day === fold.day)) return kept;
  const closed = kept.map((entry) =>
    entry.handshake !== undefined || entry.day > fold.day ? entry : { ...entry, handshake: closeDay(entry, wallTimes) },
  );
  return [...closed, { day: fold.day, letter: fold.letter, dailyMs: dailyMsOf(fold) }].sort((a, b) =>
    a.day.localeCompare(b.day),
  );
}

/** Whether a stored entry reads as a series day: a day and one daily letter (a torn file's entries do not). */
function isSeriesDay(entry: SeriesDay): boolean {
  return (
    dayStartMs(entry?.day) !== null &&
    typeof entry.letter === 'string' &&
    entry.letter.length === 1 &&
    isDailyLetters(entry.letter)
  );
}

/** One chart day from its five-minute pair, when the pair has enough checks to stand for the day. */
function fiveMinuteStatus(day: string, pair: FiveMinuteDay): SeriesDayStatus {
  const { answered, checks } = pair;
  const status = answered === checks ? 'up' : answered === 0 ? 'down' : 'partial';
  return { day, status, percent: roundedPercent(answered, checks), source: 'five_minute', checks };
}

/** One chart day from its daily letter: up for `o`, `a` and `p`, down for `d`, nothing for `n` or no entry. */
function letterStatus(day: string, entry: SeriesDay | undefined): SeriesDayStatus {
  if (entry === undefined || entry.letter === 'n')
    return { day, status: 'none', percent: null, source: null, checks: 0 };
  const up = isAnsweringLetter(entry.letter);
  return { day, status: up ? 'up' : 'down', percent: up ? 100 : 0, source: 'daily', checks: 1 };
}

/**
 * The uptime of each of the DAY_SERIES_DAYS_KEPT days ending `lastDay`, oldest first. A day with at least
 * FIVE_MINUTE_MIN_CHECKS five-minute checks reads them (the uptime figure's own switch, applied per day); any
 * other day reads its daily letter; a day with neither is `none`. Hourly checks never count, as in the uptime. A
 * state from before the series was kept reads its letters.
 *
 * @example
 * daySeriesStatus({ letters: 'od', lastDay: '2026-12-02' }, [], '2026-12-02').at(-1);
 * // { day: '2026-12-02', status: 'down', percent: 0, source: 'daily', checks: 1 }
 */
export function daySeriesStatus(
  source: SeriesSource,
  fiveMinute: readonly FiveMinuteDay[] | undefined,
  lastDay: string,
): SeriesDayStatus[] {
  startOfDay(lastDay, 'lastDay');
  const entries = new Map(seriesOf(source).map((entry) => [entry.day, entry]));
  const pairs = new Map((Array.isArray(fiveMinute) ? fiveMinute : []).map((pair) => [pair.day, pair]));
  return Array.from({ length: DAY_SERIES_DAYS_KEPT }, (_, i) => {
    const day = shiftDay(lastDay, i - DAY_SERIES_DAYS_KEPT + 1);
    const pair = pairs.get(day);
    if (pair !== undefined && pair.checks >= FIVE_MINUTE_MIN_CHECKS && pair.answered <= pair.checks)
      return fiveMinuteStatus(day, pair);
    return letterStatus(day, entries.get(day));
  });
}
