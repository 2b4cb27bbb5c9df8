/**
 * UTC day strings and the two calendar rules of the seal: which day a root chains to, and which
 * days a run still has to sign.
 *
 * Pure module: the clock never appears here. "Today" is always an argument. Day arithmetic is done
 * on whole day numbers (days since 1970-01-01) with the proleptic Gregorian calendar, so month ends,
 * leap days and year ends need no special cases.
 */
import { CATCH_UP_DAYS, DAY_PATTERN, MAX_YEAR, MIN_YEAR, MS_PER_DAY, PREVIOUS_ROOT_WINDOW_DAYS } from './constants.js';
import { isSha256Hex } from './encoding.js';
import { describeValue, HistoryError } from './errors.js';

interface CivilDate {
  year: number;
  month: number;
  day: number;
}

// Days from 1970-01-01 to a civil date (H. Hinnant's algorithm): exact for any year, no Date object.
function daysFromCivil({ year, month, day }: CivilDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function civilFromDays(dayNumber: number): CivilDate {
  const z = dayNumber + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function daysInMonth(year: number, month: number): number {
  return (
    daysFromCivil({ year: month === 12 ? year + 1 : year, month: month === 12 ? 1 : month + 1, day: 1 }) -
    daysFromCivil({ year, month, day: 1 })
  );
}

function formatDay({ year, month, day }: CivilDate): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const FIRST_DAY_NUMBER = daysFromCivil({ year: MIN_YEAR, month: 1, day: 1 });
const LAST_DAY_NUMBER = daysFromCivil({ year: MAX_YEAR, month: 12, day: 31 });

/** The civil date in a day string, or `null` when it is not a real `YYYY-MM-DD` date. */
function parseCivil(value: unknown): CivilDate | null {
  if (typeof value !== 'string') return null;
  const match = DAY_PATTERN.exec(value);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/**
 * True when `value` is a real calendar date written `YYYY-MM-DD` (2024-02-29 yes, 2026-02-29 no).
 *
 * @example
 * isDay('2026-10-02') // true
 * isDay('2026-10-2')  // false
 */
export function isDay(value: unknown): value is string {
  return parseCivil(value) !== null;
}

/** Throws `invalid-day` unless `value` is a real `YYYY-MM-DD` date; returns its day number. */
function dayNumberOf(value: unknown, label: string): number {
  const civil = parseCivil(value);
  if (civil === null) {
    throw new HistoryError(
      'invalid-day',
      `${label} must be a real calendar date written YYYY-MM-DD, got ${describeValue(value)}`,
    );
  }
  return daysFromCivil(civil);
}

function dayFromNumber(dayNumber: number, whatFailed: () => string): string {
  if (dayNumber < FIRST_DAY_NUMBER || dayNumber > LAST_DAY_NUMBER) {
    throw new HistoryError('invalid-day', `${whatFailed()} falls outside the years 0000 to 9999`);
  }
  return formatDay(civilFromDays(dayNumber));
}

/**
 * The day `offset` whole days after `day` (before it when negative).
 *
 * @example
 * shiftDay('2024-02-28', 1)  // '2024-02-29'
 * shiftDay('2026-01-01', -1) // '2025-12-31'
 */
export function shiftDay(day: string, offset: number): string {
  const start = dayNumberOf(day, 'day');
  if (!Number.isSafeInteger(offset)) {
    throw new HistoryError('invalid-input', `offset must be a whole number of days, got ${describeValue(offset)}`);
  }
  return dayFromNumber(start + offset, () => `${day} moved by ${offset} day${Math.abs(offset) === 1 ? '' : 's'}`);
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
  return dayFromNumber(Math.floor(ms / MS_PER_DAY), () => `time ${ms}`);
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
  const start = dayNumberOf(day, 'day');
  if (typeof (roots as { get?: unknown } | null)?.get !== 'function') {
    throw new HistoryError('invalid-input', `roots must be a Map from day to root, got ${describeValue(roots)}`);
  }
  for (let back = 1; back <= PREVIOUS_ROOT_WINDOW_DAYS; back++) {
    const candidate = start - back;
    if (candidate < FIRST_DAY_NUMBER) return null;
    const candidateDay = formatDay(civilFromDays(candidate));
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
  const start = dayNumberOf(today, 'today');
  if (typeof (sealed as { has?: unknown } | null)?.has !== 'function') {
    throw new HistoryError('invalid-input', `sealed must be a Set of days, got ${describeValue(sealed)}`);
  }
  const days: string[] = [];
  for (let back = CATCH_UP_DAYS + 1; back >= 1; back--) {
    const candidate = start - back;
    if (candidate < FIRST_DAY_NUMBER) continue;
    const candidateDay = formatDay(civilFromDays(candidate));
    if (!sealed.has(candidateDay)) days.push(candidateDay);
  }
  return days;
}

/** Throws `invalid-day` with an exact message unless `value` is a real `YYYY-MM-DD` date. @internal */
export function assertDay(value: unknown, label: string): asserts value is string {
  dayNumberOf(value, label);
}
