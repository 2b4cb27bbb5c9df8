/**
 * The one error type this package throws, for input a caller got wrong.
 *
 * Pure module. Records fetched from elsewhere that fail verification are not errors: they come back
 * as results with a reason. A `HistoryError` means the caller passed something unusable (a day that
 * is not a date, a key of the wrong length, a path that escapes the day folder).
 */
import { MAX_QUOTED_INPUT_LENGTH } from './constants.js';

/** What kind of bad input a {@link HistoryError} reports; stable, safe to switch on. */
export type HistoryErrorCode =
  | 'invalid-day'
  | 'invalid-time'
  | 'invalid-path'
  | 'duplicate-path'
  | 'invalid-bytes'
  | 'invalid-line'
  | 'invalid-root'
  | 'invalid-key'
  | 'invalid-pem'
  | 'invalid-record'
  | 'invalid-hash'
  | 'invalid-input'
  | 'already-sealed'
  | 'no-random-source'
  | 'key-unavailable'
  | 'folder-unreadable'
  | 'no-roots';

/**
 * Thrown for bad input, with a stable `code` and an exact, human-readable `message`.
 *
 * @example
 * try { daysToSign('2026-13-01', new Set()); }
 * catch (error) { if (error instanceof HistoryError && error.code === 'invalid-day') { … } }
 */
export class HistoryError extends Error {
  readonly code: HistoryErrorCode;

  constructor(code: HistoryErrorCode, message: string) {
    super(message);
    this.name = 'HistoryError';
    this.code = code;
  }
}

/**
 * Describes a value for an error message: strings are quoted (and cut short, so a megabyte of
 * garbage does not end up in a log line), byte arrays give their length, other values their kind.
 * @internal
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value);
    return quoted.length > MAX_QUOTED_INPUT_LENGTH
      ? `${quoted.slice(0, MAX_QUOTED_INPUT_LENGTH - 1)}…" (${value.length} characters)`
      : quoted;
  }
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return `${typeof value} ${String(value)}`;
  }
  return typeof value === 'object' ? 'an object' : typeof value;
}
