/**
 * @internal Input checks and time arithmetic shared by the modules of this package. Pure: no clock;
 * every instant comes from the caller. Not re-exported from the package entry.
 */

import { dayOfTime, dayStartMs } from '@mcp-atlas/base';
import { describeValue, ReliabilityInputError, type ReliabilityInputErrorCode } from './errors.js';

// ISO 8601 with a date, a time and an explicit offset: Date.parse is only reliable across runtimes
// for this shape, and an instant without an offset would depend on the machine's time zone.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

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

/** @internal Throws unless `value` is a number in [0, 1]. */
export function assertShare(value: unknown, field: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new ReliabilityInputError(
      'invalid-number',
      field,
      `expected a number from 0 to 1, received ${describeValue(value)}`,
    );
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

/** @internal Throws unless `value` is a non-empty string. */
export function assertText(value: unknown, field: string, code: ReliabilityInputErrorCode): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ReliabilityInputError(code, field, `expected a non-empty string, received ${describeValue(value)}`);
  }
  return value;
}

/** @internal Throws unless `value` is one of `allowed` (or null/undefined when `optional`). */
export function assertOneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  field: string,
  code: ReliabilityInputErrorCode,
): T | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new ReliabilityInputError(
    code,
    field,
    `expected one of ${allowed.join(', ')} or null, received ${describeValue(value)}`,
  );
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
  const ms = parseInstant(value);
  if (!Number.isNaN(ms)) return ms;
  throw new ReliabilityInputError(
    code,
    field,
    `expected a valid Date or an ISO 8601 time with offset such as "2025-03-01T12:00:00Z", received ${describeValue(value)}`,
  );
}

/** @internal Like {@link instantOf}, but NaN instead of an error, for hot loops that report errors themselves. */
export function parseInstant(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && ISO_INSTANT.test(value)) return Date.parse(value);
  return Number.NaN;
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
