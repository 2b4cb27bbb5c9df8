/**
 * The one error type of @mcp-atlas/reliability. Pure module.
 *
 * Bad input from a caller (a letter outside `o a p d n`, a negative count, an unparseable date,
 * a malformed IP address) is a bug in the caller, so it is thrown as a typed error with a code a
 * program can switch on and a message a person can act on. A server that misbehaves is never an
 * error here: it is simply data (a `d` day, a failed report).
 */

/** Machine-readable reason of a {@link ReliabilityInputError}. */
export type ReliabilityInputErrorCode =
  | 'invalid-letters'
  | 'invalid-number'
  | 'invalid-date'
  | 'invalid-day'
  | 'invalid-ip'
  | 'invalid-report'
  | 'invalid-sensor-entry'
  | 'invalid-check'
  | 'invalid-server'
  | 'duplicate-server'
  | 'duplicate-sensor-entry';

/**
 * Thrown when a caller passes input this package cannot interpret. `code` names the kind of
 * problem, `field` names the argument or property at fault (with an index for list items), and
 * the message says what was expected and what was received.
 *
 * @example
 * try { dailyUptime('oox'); } catch (e) {
 *   if (e instanceof ReliabilityInputError) console.log(e.code, e.field); // 'invalid-letters' 'letters'
 * }
 */
export class ReliabilityInputError extends Error {
  override readonly name = 'ReliabilityInputError';
  readonly code: ReliabilityInputErrorCode;
  readonly field: string;

  constructor(code: ReliabilityInputErrorCode, field: string, message: string) {
    super(`${field}: ${message}`);
    this.code = code;
    this.field = field;
  }
}

/** @internal Short, safe rendering of a received value for error messages. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  return typeof value;
}
