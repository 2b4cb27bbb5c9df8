/**
 * The root of a day: one SHA-256 over the previous root and the day's lines.
 *
 * Pure module. root = sha256(UTF-8(previousRoot ?? "") + "\n" + lines joined by "\n"), in lowercase
 * hex. Because each root includes the one before, changing any past day changes every later root.
 */
import { NO_PREVIOUS_ROOT, ROOT_PREIMAGE_SEPARATOR } from './constants.js';
import { bytesToHex, isSha256Hex, utf8ToBytes } from './encoding.js';
import { describeValue, HistoryError } from './errors.js';
import { type HashOptions, resolveSha256 } from './hash.js';

/** Throws `invalid-root` unless `value` is null or 64 lowercase hex characters. @internal */
export function assertPreviousRoot(value: unknown, label: string): asserts value is string | null {
  if (value !== null && !isSha256Hex(value)) {
    throw new HistoryError(
      'invalid-root',
      `${label} must be null or 64 lowercase hex characters, got ${describeValue(value)}`,
    );
  }
}

/** The root formula without argument checks, for callers that already checked. @internal */
export function rootOf(previousRoot: string | null, lines: readonly string[], options?: HashOptions): string {
  const preimage = (previousRoot ?? NO_PREVIOUS_ROOT) + ROOT_PREIMAGE_SEPARATOR + lines.join(ROOT_PREIMAGE_SEPARATOR);
  return bytesToHex(resolveSha256(options)(utf8ToBytes(preimage)));
}

/**
 * The root of a day, in lowercase hex: SHA-256 of the previous root (or "" when the day chains to
 * nothing), a newline, and the lines joined by newlines. The lines are hashed as given, so pass
 * them sorted (as `dayLines` returns them). Throws `invalid-root` for a previous root that is not
 * null or 64 lowercase hex characters, `invalid-line` when a line is not a string.
 *
 * @example
 * computeRoot(null, []) // sha256("\n") = '01ba4719c80b6fe911b091a7c05124b64eeece964e09c058ef8f9805daca546b'
 */
export function computeRoot(previousRoot: string | null, lines: readonly string[], options?: HashOptions): string {
  assertPreviousRoot(previousRoot, 'previous root');
  if (!Array.isArray(lines)) {
    throw new HistoryError('invalid-line', `lines must be an array of strings, got ${describeValue(lines)}`);
  }
  const index = lines.findIndex((line: unknown) => typeof line !== 'string');
  if (index !== -1) {
    throw new HistoryError('invalid-line', `lines[${index}] must be a string, got ${describeValue(lines[index])}`);
  }
  return rootOf(previousRoot, lines, options);
}
