// Pure module: reading an HTTP Retry-After field (RFC 9110, section 10.2.3) into a wait in milliseconds.

/** Longest Retry-After text read; a delay or an IMF-fixdate is far shorter, so anything longer is not one. */
const RETRY_AFTER_MAX_CHARS = 64;

/**
 * The wait a Retry-After field asks for, in ms: a number of seconds (digits only), or an HTTP date, counted
 * from `nowMs` (a date already past is 0). Null when the field is absent or is neither.
 *
 * @example
 * parseRetryAfter('2', 0); // 2000
 * parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('2015-10-21T07:27:00Z')); // 60000
 * parseRetryAfter('soon', 0); // null
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (text === '' || text.length > RETRY_AFTER_MAX_CHARS) return null;
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds * 1000) ? seconds * 1000 : null;
  }
  // A date starts with its weekday (IMF-fixdate, RFC 850 and asctime forms): Date.parse alone also takes "2026".
  if (!/^[A-Za-z]{3,9},? /.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
