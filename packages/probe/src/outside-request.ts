// Runtime-neutral module (no node: imports; network only through the injected client): one guarded JSON
// request to an outside service (RDAP, a package registry, OSV), with the probe's guard, DNS pinning, time
// limit and size cap, redirects followed only for GET and each hop checked again, plus a caller's own
// check per hop (RDAP uses it to keep away from the server whose domain it looks up).
import { type Deadline, type StopCause, startStep } from './clock.js';
import { ACCEPT_ENCODING, REDIRECT_STATUSES } from './constants.js';
import { checkTarget, type GuardRule, resolveTarget } from './guard.js';
import { classifyTransportError, decodeUtf8, readCappedBody, type TransportFailure } from './http.js';
import { describeTooDeep, parseBoundedJson } from './json-depth.js';
import type { NetworkSettings } from './options.js';

/**
 * Why a read of an outside service gave no usable answer. Transport and guard reasons are the probe's
 * own; the rest say what was wrong with the answer or why no request was sent.
 */
export type OutsideFailureReason =
  | `guard:${GuardRule}`
  | 'dns-failed'
  | StopCause
  | TransportFailure
  /** The request would have reached the domain being looked up (RDAP only); nothing was sent. */
  | 'refused-own-domain'
  /** The host has no registrable domain to look up (an IP address, a bare public suffix). */
  | 'no-domain'
  /** The package name cannot be a name of its ecosystem; nothing was sent. */
  | 'invalid-name'
  | 'redirect-invalid'
  | 'redirect-limit'
  /** Any answer outside 2xx (404 included), or a redirect that is not followed. */
  | 'http-status'
  | 'too-large'
  | 'not-json'
  /** JSON nested deeper than MAX_JSON_DEPTH; refused unread. */
  | 'too-deep'
  /** JSON, but not in the shape the service documents. */
  | 'unexpected-answer'
  /** An RDAP record with no registration event that has a date. */
  | 'no-registration-event'
  /** A package document that names no current version. */
  | 'no-version';

/** @internal One request to an outside service. */
export interface OutsideRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly body?: string;
  readonly accept: string;
  readonly timeoutMs: number;
  readonly capBytes: number;
  /** Redirect hops followed for GET (a POST is never redirected). */
  readonly maxRedirects: number;
  /** Runs before each hop, after the guard; a message refuses the hop with `refused-own-domain`. */
  readonly refuseHop?: (url: URL) => string | null;
}

/** @internal What one request got: parsed JSON from a 2xx answer, or why not. */
export type OutsideAnswer =
  | { ok: true; url: string; status: number; json: unknown; elapsedMs: number }
  | {
      ok: false;
      url: string;
      reason: OutsideFailureReason;
      message: string;
      httpStatus: number | null;
      elapsedMs: number;
    };

/**
 * Sends one request and parses the answer as JSON. Never throws for what the service (or the network)
 * does: every failure comes back with a reason and a message a person can act on.
 */
export async function requestOutsideJson(request: OutsideRequest, network: NetworkSettings): Promise<OutsideAnswer> {
  const deadline: Deadline = { clock: network.clock, endsAt: null, signal: network.signal };
  const timer = startStep(deadline, request.timeoutMs);
  const client = network.makeClient();
  let current = request.url;
  const fail = (reason: OutsideFailureReason, message: string, httpStatus: number | null = null): OutsideAnswer => ({
    ok: false,
    url: current,
    reason,
    message,
    httpStatus,
    elapsedMs: timer.elapsed(),
  });
  try {
    for (let hop = 0; ; hop++) {
      const guard = checkTarget(current, { allowPrivate: network.allowPrivate, optedOut: network.optedOut });
      if (!guard.ok) return fail(guard.reason, guard.message);
      const refusal = request.refuseHop?.(new URL(current)) ?? null;
      if (refusal !== null) return fail('refused-own-domain', refusal);
      const resolved = await resolveTarget(current, {
        allowPrivate: network.allowPrivate,
        ...(network.lookup === undefined ? {} : { lookup: network.lookup }),
        signal: timer.signal,
      });
      const early = timer.cause();
      if (early !== null) return fail(early, `no answer within ${request.timeoutMs} ms`);
      if (!resolved.ok) return fail(resolved.reason, resolved.message);
      const headers: Record<string, string> = {
        'user-agent': network.userAgent,
        accept: request.accept,
        'accept-encoding': ACCEPT_ENCODING,
      };
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      const response = await client.request({
        url: current,
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: timer.signal,
        addresses: resolved.addresses,
      });
      if (REDIRECT_STATUSES.has(response.status)) {
        response.discard();
        const location = response.headers.get('location');
        if (request.method !== 'GET' || location === null)
          return fail('http-status', `answered ${response.status} (redirect not followed)`, response.status);
        if (hop >= request.maxRedirects)
          return fail('redirect-limit', `more than ${request.maxRedirects} redirects`, response.status);
        try {
          current = new URL(location, current).href;
        } catch {
          return fail('redirect-invalid', `unusable Location: ${location.slice(0, 200)}`, response.status);
        }
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        response.discard();
        return fail('http-status', `answered HTTP ${response.status}`, response.status);
      }
      const body = await readCappedBody(response, request.capBytes);
      if (!body.ok) return fail('too-large', `the answer is over ${request.capBytes} bytes`, response.status);
      const text = decodeUtf8(body.bytes);
      if (text === null) return fail('not-json', 'the answer is not UTF-8 text', response.status);
      const parsed = parseBoundedJson(text);
      if (!parsed.ok && parsed.why === 'too-deep')
        return fail('too-deep', describeTooDeep('the answer'), response.status);
      if (!parsed.ok) return fail('not-json', 'the answer is not JSON', response.status);
      return { ok: true, url: current, status: response.status, json: parsed.value, elapsedMs: timer.elapsed() };
    }
  } catch (error) {
    const cause = timer.cause();
    if (cause !== null) return fail(cause, `no answer within ${request.timeoutMs} ms`);
    const { failure, message } = classifyTransportError(error);
    return fail(failure, message);
  } finally {
    timer.dispose();
    client.close();
  }
}

/**
 * Checks an outside service's base URL: absolute http or https, with no query or fragment (paths are
 * appended to it). Returns it without trailing slashes, or null when it cannot serve as a base.
 *
 * @example normalizeBaseUrl('https://rdap.org/') // 'https://rdap.org'
 */
export function normalizeBaseUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.search !== '' || parsed.hash !== '') return null;
  return parsed.href.replace(/\/+$/, '');
}
