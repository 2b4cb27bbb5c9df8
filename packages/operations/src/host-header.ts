/**
 * The Host-header (DNS-rebinding) verdict of a deep check: how a local server's answer to a request naming a
 * foreign host is judged. A web page on another site can point its own name at this machine; a local server
 * must refuse a request for a host it does not serve. The caller sends the request and says what came back.
 * Pure module: no I/O, no clock.
 */

/** What came back from the request naming a foreign host: an HTTP status, a closed connection, or nothing in time. */
export type ForeignHostAnswer = { status: number } | { closed: string } | { timedOut: true };

/** A Host-header verdict, its fields in the order a report prints them. */
export interface HostHeaderVerdict {
  outcome: 'pass' | 'fail' | 'not-run';
  /** The HTTP status of the answer, or null when there was none. */
  status: number | null;
  /** The foreign host the request named. */
  host: string;
  /** Why, in words a person can act on. */
  reason: string;
}

/** The HTTP status that asks for sign-in before the host is looked at: it says nothing about the host. */
export const SIGN_IN_STATUS = 401;

/** A status in [from, below) of this range refuses the foreign host (any 4xx but sign-in). */
export const REFUSAL_STATUSES = Object.freeze({ from: 400, below: 500 });

/** A status in [from, below) of this range answered the foreign host as if it were its own (any 2xx). */
export const ANSWERED_STATUSES = Object.freeze({ from: 200, below: 300 });

/**
 * Sorts the answer to the foreign-Host request into pass, fail or not-run, with a reason a person can act on:
 * a refusal (4xx other than 401) or a closed connection passes; a 401 is not-run; anything else (2xx, 3xx,
 * 5xx, no answer within `timeoutMs`) fails.
 *
 * @example
 * judgeForeignHostAnswer({ status: 421 }, 'x.invalid', 10_000).outcome; // 'pass'
 * judgeForeignHostAnswer({ status: 200 }, 'x.invalid', 10_000).outcome; // 'fail'
 */
export function judgeForeignHostAnswer(answer: ForeignHostAnswer, host: string, timeoutMs: number): HostHeaderVerdict {
  if ('timedOut' in answer)
    return { outcome: 'fail', status: null, host, reason: `no answer within ${timeoutMs} ms instead of a refusal` };
  if ('closed' in answer)
    return { outcome: 'pass', status: null, host, reason: `the server closed the connection (${answer.closed})` };
  const { status } = answer;
  if (status === SIGN_IN_STATUS)
    return {
      outcome: 'not-run',
      status,
      host,
      reason: 'the server asked for sign-in (401) before looking at the host; give --header with a token to test it',
    };
  if (status >= REFUSAL_STATUSES.from && status < REFUSAL_STATUSES.below)
    return { outcome: 'pass', status, host, reason: `the server refused a request for another host (HTTP ${status})` };
  if (status >= ANSWERED_STATUSES.from && status < ANSWERED_STATUSES.below)
    return {
      outcome: 'fail',
      status,
      host,
      reason: `the server answered a request for another host (HTTP ${status}); a web page could reach it through DNS rebinding: check the Host header against the names you serve`,
    };
  return {
    outcome: 'fail',
    status,
    host,
    reason: `the server did not refuse a request for another host (HTTP ${status}); it should answer 403 or 421`,
  };
}
