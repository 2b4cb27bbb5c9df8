// Pure module: when the daily check asks a rate-limited server again (methodology, "Checking a server" >
// "Rate-limited servers"). A server that answers 429, or 503 with Retry-After, asked us to wait; the daily check
// waits what it asked and asks again, a bounded number of times, within the same UTC day. `now` is an argument.
import { RATE_LIMIT_DEFAULT_WAIT_MS, RATE_LIMIT_RETRIES, RATE_LIMIT_WAIT_MAX_MS } from './constants.js';

const MS_PER_DAY = 86_400_000;

/** What the daily check does after a rate-limited try. */
export type RateLimitRetryDecision =
  | { retry: true; waitMs: number }
  | { retry: false; why: 'retries-used' | 'wait-too-long' | 'past-day-end' };

/** A rate-limited try, as the retry decision reads it. */
export interface RateLimitedTry {
  /** The wait the server asked for (ms), or null when it named none. */
  retryAfterMs: number | null;
  /** Tries already made again after the first one (0 after the first try). */
  retriesDone: number;
  /** The UTC day of the daily check, `YYYY-MM-DD`. */
  day: string;
  /** The time now. */
  now: Date;
}

/**
 * Whether to ask the server again, and after how long: only while retries are left, the wait is at most
 * `RATE_LIMIT_RULES.waitMaxMs`, and the next try would start before the check's UTC day ends.
 *
 * @example
 * decideRateLimitRetry({ retryAfterMs: 2000, retriesDone: 0, day: '2026-12-06', now: new Date('2026-12-06T10:00:00Z') });
 * // { retry: true, waitMs: 2000 }
 * decideRateLimitRetry({ retryAfterMs: null, retriesDone: 2, day: '2026-12-06', now: new Date('2026-12-06T10:00:00Z') });
 * // { retry: false, why: 'retries-used' }
 */
export function decideRateLimitRetry(input: RateLimitedTry): RateLimitRetryDecision {
  if (input.retriesDone >= RATE_LIMIT_RETRIES) return { retry: false, why: 'retries-used' };
  const waitMs = input.retryAfterMs ?? RATE_LIMIT_DEFAULT_WAIT_MS;
  if (waitMs > RATE_LIMIT_WAIT_MAX_MS) return { retry: false, why: 'wait-too-long' };
  const dayEndsAt = Date.parse(`${input.day}T00:00:00.000Z`) + MS_PER_DAY;
  if (input.now.getTime() + waitMs >= dayEndsAt) return { retry: false, why: 'past-day-end' };
  return { retry: true, waitMs };
}
