/**
 * UTC calendar days written `YYYY-MM-DD` (years 0000 to 9999, proleptic Gregorian calendar) and the length of a
 * day. history, reliability, route, score and the app all count days; they count them here, so a leap day or a
 * year end is handled once.
 *
 * Two conventions, one per kind of helper. The readers (`isDay`, `dayNumberOf`, `dayStartMs`, `dayOfNumber`,
 * `dayOfTime`) take any value and answer null when it names no day, because their callers read outside input
 * and each turns null into its own error. The arithmetic (`shiftDay`, `daysBetween`) takes days the caller has
 * already checked with `isDay` and throws a RangeError when one is not, because a bad day there is a bug.
 *
 * Pure module: no I/O, no clock; "now" is always an argument.
 */
import { describeType } from './describe-type.js';

/** Milliseconds in one UTC day (no leap seconds, as in ECMAScript time). */
export const MS_PER_DAY = 86_400_000;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

interface CivilDate {
  year: number;
  month: number;
  day: number;
}

// Days from 1970-01-01 to a civil date (H. Hinnant's algorithm): exact for any year, no Date object, so
// years below 100 are not read as 19xx.
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
  const next = month === 12 ? { year: year + 1, month: 1, day: 1 } : { year, month: month + 1, day: 1 };
  return daysFromCivil(next) - daysFromCivil({ year, month, day: 1 });
}

/** The day number of 0000-01-01, the first day a day string can name. */
const FIRST_DAY_NUMBER = daysFromCivil({ year: 0, month: 1, day: 1 });
/** The day number of 9999-12-31, the last day a day string can name. */
const LAST_DAY_NUMBER = daysFromCivil({ year: 9999, month: 12, day: 31 });

/**
 * Whole days since 1970-01-01 of a real calendar date written `YYYY-MM-DD`, or null for anything else
 * (a malformed string, 2026-02-29, a value that is not a string).
 *
 * @example
 * dayNumberOf('1970-01-02') // 1
 * dayNumberOf('2026-02-29') // null
 */
export function dayNumberOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = DAY_PATTERN.exec(value);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return daysFromCivil({ year, month, day });
}

/**
 * The `YYYY-MM-DD` day of a day number (whole days since 1970-01-01), or null when it is not a whole number
 * or falls outside the years 0000 to 9999.
 *
 * @example dayOfNumber(0) // '1970-01-01'
 */
export function dayOfNumber(dayNumber: number): string | null {
  if (!Number.isSafeInteger(dayNumber) || dayNumber < FIRST_DAY_NUMBER || dayNumber > LAST_DAY_NUMBER) return null;
  const { year, month, day } = civilFromDays(dayNumber);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * True when `value` is a real calendar date written `YYYY-MM-DD`.
 *
 * @example
 * isDay('2024-02-29') // true
 * isDay('2026-02-29') // false
 */
export function isDay(value: unknown): value is string {
  return dayNumberOf(value) !== null;
}

// How a value that should have been a day is named in an error: quoted when it is a string.
function describeDayValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : describeType(value);
}

/**
 * The day `offset` whole days after `day` (before it when negative). `day` must be a real day (check outside
 * input with {@link isDay} first): a day that is not real, an offset that is not a whole number or a result
 * outside the years 0000 to 9999 throws a RangeError.
 *
 * @example
 * shiftDay('2024-02-28', 1)  // '2024-02-29'
 * shiftDay('2026-01-01', -1) // '2025-12-31'
 */
export function shiftDay(day: string, offset: number): string {
  const start = dayNumberOf(day);
  if (start === null) {
    throw new RangeError(`shiftDay needs a real YYYY-MM-DD day, got ${describeDayValue(day)}`);
  }
  if (!Number.isSafeInteger(offset)) {
    throw new RangeError(`shiftDay needs a whole number of days, got ${String(offset)}`);
  }
  const shifted = dayOfNumber(start + offset);
  if (shifted === null) {
    throw new RangeError(
      `${day} moved by ${offset} day${Math.abs(offset) === 1 ? '' : 's'} falls outside the years 0000 to 9999`,
    );
  }
  return shifted;
}

/**
 * Whole days from `earlier` to `later` (negative when `later` comes first). Both must be real days (check
 * outside input with {@link isDay} first): otherwise it throws a RangeError naming both.
 *
 * @example daysBetween('2024-02-28', '2024-03-01') // 2
 */
export function daysBetween(earlier: string, later: string): number {
  const from = dayNumberOf(earlier);
  const to = dayNumberOf(later);
  if (from === null || to === null) {
    throw new RangeError(`daysBetween needs two real YYYY-MM-DD days, got ${earlier} and ${later}`);
  }
  return to - from;
}

/**
 * The UTC day an instant (milliseconds since 1970-01-01) falls on, or null when it is not finite or falls
 * outside the years 0000 to 9999.
 *
 * @example dayOfTime(Date.UTC(2026, 9, 3, 1, 5)) // '2026-10-03'
 */
export function dayOfTime(ms: number): string | null {
  return Number.isFinite(ms) ? dayOfNumber(Math.floor(ms / MS_PER_DAY)) : null;
}

/**
 * Midnight UTC (milliseconds since 1970-01-01) of a real `YYYY-MM-DD` day, or null for anything else.
 *
 * @example dayStartMs('1970-01-02') // 86400000
 */
export function dayStartMs(value: unknown): number | null {
  const dayNumber = dayNumberOf(value);
  return dayNumber === null ? null : dayNumber * MS_PER_DAY;
}

/**
 * Days, as a fraction, from the instant `fromMs` to the instant `nowMs` (negative when `fromMs` is later).
 *
 * @example daysSince(0, 1.5 * MS_PER_DAY) // 1.5
 */
export function daysSince(fromMs: number, nowMs: number): number {
  return (nowMs - fromMs) / MS_PER_DAY;
}
