/**
 * The UTC day of a moment and the two calendar rules of the seal: which day a root chains to, and which
 * days a run still has to sign.
 *
 * Pure module: the clock never appears here. "Today" is always an argument. Day arithmetic is done
 * on whole day numbers (days since 1970-01-01) with the proleptic Gregorian calendar, so month ends,
 * leap days and year ends need no special cases.
 */
import { dayNumberOf, dayOfNumber, dayOfTime } from '@mcp-atlas/base';
import { CATCH_UP_DAYS, PREVIOUS_ROOT_WINDOW_DAYS } from './constants.js';
import { isSha256Hex } from './encoding.js';
import { describeValue, HistoryError } from './errors.js';

// The calendar itself (day numbers, real-date checks, shifting a day, years 0000 to 9999) is @mcp-atlas/base's,
// the one day helper module of the project; this file adds the seal's rules and this package's errors.

/** Throws `invalid-day` unless `value` is a real `YYYY-MM-DD` date; returns its day number. */
function dayNumberOrThrow(value: unknown, label: string): number {
  const dayNumber = dayNumberOf(value);
  if (dayNumber === null) {
    throw new HistoryError(
      'invalid-day',
      `${label} must be a real calendar date written YYYY-MM-DD, got ${describeValue(value)}`,
    );
  }
  return dayNumber;
}

/**
 * The UTC day a moment falls on, for callers that hold a clock reading (milliseconds since the
 * epoch, or a `Date`). The package itself never reads the clock.
 *
 * @example
 * dayFromTime(Date.UTC(2026, 9, 3, 1, 5)) // '2026-10-03'
 */
export function dayFromTime(time: number | Date): string {
  const ms = time instanceof Date ? time.getTime() : time;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new HistoryError(
      'invalid-time',
      `time must be finite milliseconds since 1970-01-01 or a valid Date, got ${describeValue(time instanceof Date ? 'Invalid Date' : time)}`,
    );
  }
  const day = dayOfTime(ms);
  if (day === null) throw new HistoryError('invalid-day', `time ${ms} falls outside the years 0000 to 9999`);
  return day;
}

/**
 * The root that `day` chains to: the root of the newest day among the 14 days before it
 * (`day - 1` back to `day - 14`, both included), or `null` when none of them has a root.
 * Roots of `day` itself or of later days are never used.
 *
 * @example
 * const roots = new Map([['2026-09-18', 'aa…'], ['2026-09-30', 'bb…']]);
 * previousRootFor('2026-10-02', roots) // 'bb…' (2026-09-30 is the newest in the window)
 * previousRootFor('2026-10-14', roots) // 'bb…' (2026-09-30 is exactly 14 days back)
 * previousRootFor('2026-10-15', roots) // null  (2026-09-30 is 15 days back)
 */
export function previousRootFor(day: string, roots: ReadonlyMap<string, string>): string | null {
  const start = dayNumberOrThrow(day, 'day');
  if (typeof (roots as { get?: unknown } | null)?.get !== 'function') {
    throw new HistoryError('invalid-input', `roots must be a Map from day to root, got ${describeValue(roots)}`);
  }
  for (let back = 1; back <= PREVIOUS_ROOT_WINDOW_DAYS; back++) {
    const candidateDay = dayOfNumber(start - back);
    if (candidateDay === null) return null;
    const root = roots.get(candidateDay);
    if (root === undefined) continue;
    if (!isSha256Hex(root)) {
      throw new HistoryError(
        'invalid-root',
        `root of ${candidateDay} must be 64 lowercase hex characters, got ${describeValue(root)}`,
      );
    }
    return root;
  }
  return null;
}

/**
 * The days a seal run on `today` must sign, oldest first: the previous day, plus each of the 7 days
 * before it (`today - 2` back to `today - 8`) that has no root yet. Days in `sealed` already have a
 * root and are never signed again, so they are left out, the previous day included.
 *
 * @example
 * daysToSign('2026-03-01', new Set(['2026-02-25']))
 * // ['2026-02-21', '2026-02-22', '2026-02-23', '2026-02-24', '2026-02-26', '2026-02-27', '2026-02-28']
 */
export function daysToSign(today: string, sealed: ReadonlySet<string>): string[] {
  const start = dayNumberOrThrow(today, 'today');
  if (typeof (sealed as { has?: unknown } | null)?.has !== 'function') {
    throw new HistoryError('invalid-input', `sealed must be a Set of days, got ${describeValue(sealed)}`);
  }
  const days: string[] = [];
  for (let back = CATCH_UP_DAYS + 1; back >= 1; back--) {
    const candidateDay = dayOfNumber(start - back);
    if (candidateDay !== null && !sealed.has(candidateDay)) days.push(candidateDay);
  }
  return days;
}

/** Throws `invalid-day` with an exact message unless `value` is a real `YYYY-MM-DD` date. @internal */
export function assertDay(value: unknown, label: string): asserts value is string {
  dayNumberOrThrow(value, label);
}
