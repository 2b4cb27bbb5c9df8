/**
 * @internal Input checks shared by the operating rules that came from @mcp-atlas/reliability (cost caps,
 * intake quotas, submissions, retention, domain age, the package layer). Pure: no clock; every instant comes
 * from the caller. Not re-exported from the package entry.
 *
 * They throw @mcp-atlas/reliability's `ReliabilityInputError`, with the same codes, fields and messages as
 * before the rules moved, so that a caller that catches bad input keeps catching it the same way.
 */

import { dayOfTime, dayStartMs } from '@mcp-atlas/base';
import { ReliabilityInputError, type ReliabilityInputErrorCode } from '@mcp-atlas/reliability';

// ISO 8601 with a date, a time and an explicit offset: Date.parse is only reliable across runtimes
// for this shape, and an instant without an offset would depend on the machine's time zone.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** @internal Short, safe rendering of a received value for error messages. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  return typeof value;
}

/** @internal Throws unless `value` is an integer >= 0. */
export function assertCount(value: unknown, field: string, code: ReliabilityInputErrorCode = 'invalid-number'): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new ReliabilityInputError(code, field, `expected a whole number >= 0, received ${describeValue(value)}`);
  }
  return value;
}

/** @internal Throws unless `value` is a finite number >= 0. */
export function assertNonNegative(
  value: unknown,
  field: string,
  code: ReliabilityInputErrorCode = 'invalid-number',
): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ReliabilityInputError(code, field, `expected a finite number >= 0, received ${describeValue(value)}`);
  }
  return value;
}

/** @internal Throws unless `value` is a boolean. */
export function assertBoolean(value: unknown, field: string, code: ReliabilityInputErrorCode): boolean {
  if (typeof value !== 'boolean') {
    throw new ReliabilityInputError(code, field, `expected true or false, received ${describeValue(value)}`);
  }
  return value;
}

/** @internal Milliseconds since the epoch of a valid Date, or throws. */
export function instantOfDate(value: unknown, field: string): number {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new ReliabilityInputError('invalid-date', field, `expected a valid Date, received ${describeValue(value)}`);
  }
  return value.getTime();
}

/**
 * @internal Milliseconds since the epoch of a Date or an ISO 8601 instant with offset
 * (`2025-03-01T12:00:00Z`), or throws.
 */
export function instantOf(value: unknown, field: string, code: ReliabilityInputErrorCode = 'invalid-date'): number {
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'string' && ISO_INSTANT.test(value)
        ? Date.parse(value)
        : Number.NaN;
  if (!Number.isNaN(ms)) return ms;
  throw new ReliabilityInputError(
    code,
    field,
    `expected a valid Date or an ISO 8601 time with offset such as "2025-03-01T12:00:00Z", received ${describeValue(value)}`,
  );
}

/** @internal Midnight UTC (ms) of a `YYYY-MM-DD` day, or throws. */
export function startOfDay(day: unknown, field: string, code: ReliabilityInputErrorCode = 'invalid-day'): number {
  // The day arithmetic is @mcp-atlas/base's (the project's one day helper); only the error is ours.
  const ms = dayStartMs(day);
  if (ms !== null) return ms;
  throw new ReliabilityInputError(code, field, `expected a calendar day "YYYY-MM-DD", received ${describeValue(day)}`);
}

/** @internal The UTC day (`YYYY-MM-DD`) containing an instant the caller already checked. */
export function formatDay(ms: number): string {
  const day = dayOfTime(ms);
  if (day === null) throw new RangeError(`no calendar day in the years 0000 to 9999 holds the instant ${ms}`);
  return day;
}
