// Runtime-neutral module (no node: imports; network only through the injected client): one guarded JSON
// request to an outside service (RDAP, a package registry, OSV), with the probe's guard, DNS pinning, time
// limit and size cap, redirects followed only for GET and each hop checked again, plus a caller's own
// check per hop (RDAP uses it to keep away from the server whose domain it looks up). A caller may add
// headers (GitHub's token and API version) and ask for answer headers back (GitHub's rate-limit headers),
// so every outside reader shares this one loop.
import { type Deadline, type StopCause, startStep } from './clock.js';
import { ACCEPT_ENCODING, REDIRECT_STATUSES } from './constants.js';
import { ProbeInputError } from './errors.js';
import { checkTarget, type GuardRule, resolveTarget } from './guard.js';
import {
  classifyTransportError,
  decodeUtf8,
  type HeaderReader,
  readCappedBody,
  type TransportFailure,
} from './http.js';
import { describeTooDeep, parseBoundedJson } from './json-depth.js';
import type { NetworkSettings } from './options.js';
import {
  OUTSIDE_CREDENTIAL_HEADERS,
  OUTSIDE_REFUSED_REQUEST_HEADERS,
  REDACTED_CREDENTIAL,
} from './outside-constants.js';

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
  /**
   * Headers added to every hop, names in any case. A name that is not an HTTP token, a name given twice, a
   * name in OUTSIDE_REFUSED_REQUEST_HEADERS (Host, hop-by-hop, framing, and those the request writes itself)
   * or a value with a line break or another control character is a caller's mistake: ProbeInputError, thrown
   * before anything is sent, whose message never holds a value. Credential headers
   * (OUTSIDE_CREDENTIAL_HEADERS) go to the first URL's origin only, and their secret never appears in the answer.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Answer headers to hand back (names in any case, returned lower-case), on success and on failure alike: those
   * of the answer whose status the result carries, so none when the last hop got no answer (guard, DNS or
   * transport failure). Without this field the answer has no `headers`.
   */
  readonly responseHeaders?: readonly string[];
  /** Hands back the answer's UTF-8 text, unparsed, as `json` (a README, a CSV file), instead of parsed JSON. */
  readonly text?: boolean;
}

/** @internal The parts every answer carries besides its outcome. */
interface OutsideAnswerCommon {
  url: string;
  elapsedMs: number;
  /** Requests sent, redirect hops included (0 when the guard or DNS stopped the first hop). */
  requests: number;
  /** The answer headers asked for by `responseHeaders` that the last answer had; absent when none were asked for. */
  headers?: Readonly<Record<string, string>>;
}

/** @internal What one request got: parsed JSON from a 2xx answer, or why not. */
export type OutsideAnswer =
  | (OutsideAnswerCommon & { ok: true; status: number; json: unknown })
  | (OutsideAnswerCommon & {
      ok: false;
      reason: OutsideFailureReason;
      message: string;
      httpStatus: number | null;
    });

// RFC 9110's token: the characters a header name may have.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Any control character but the horizontal tab: CR or LF would start a new header, NUL no client sends.
const UNSAFE_HEADER_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;
// The scheme in front of a credential (`Bearer <token>`); what follows it is the secret.
const AUTH_SCHEME_PREFIX = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ +(?=\S)/;

function refuseHeader(message: string): never {
  throw new ProbeInputError('invalid-option', message);
}

// Lower-cases a header name after checking it; an unusable name is never echoed, it may be anything.
function checkHeaderName(name: unknown, field: string): string {
  if (typeof name !== 'string' || !HEADER_NAME.test(name))
    refuseHeader(`${field}: a header name must be an HTTP token (letters, digits and !#$%&'*+.^_\`|~-)`);
  return name.toLowerCase();
}

// The caller's headers, names lower-cased. A null-prototype record, so a name such as `__proto__` stays a name.
function checkRequestHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const checked = Object.create(null) as Record<string, string>;
  for (const [rawName, value] of Object.entries(headers ?? {})) {
    const name = checkHeaderName(rawName, 'headers');
    if (OUTSIDE_REFUSED_REQUEST_HEADERS.has(name))
      refuseHeader(`headers: ${name} is written by the request or its HTTP client and cannot be set`);
    if (Object.hasOwn(checked, name)) refuseHeader(`headers: ${name} is given twice`);
    if (typeof value !== 'string' || UNSAFE_HEADER_VALUE.test(value))
      refuseHeader(`headers: the value of ${name} must be a string with no line break or other control character`);
    checked[name] = value;
  }
  return checked;
}

function checkResponseHeaderNames(names: readonly string[] | undefined): string[] | null {
  if (names === undefined) return null;
  if (!Array.isArray(names)) refuseHeader('responseHeaders: must be an array of header names');
  return [...new Set(names.map((name) => checkHeaderName(name, 'responseHeaders')))];
}

// The secrets the caller's credential headers carry: what follows the scheme, or the whole value.
function credentialSecrets(headers: Readonly<Record<string, string>>): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!OUTSIDE_CREDENTIAL_HEADERS.has(name)) continue;
    const secret = value.replace(AUTH_SCHEME_PREFIX, '').trim();
    if (secret !== '') secrets.push(secret);
  }
  return secrets;
}

// One hop's headers: the request's own, then the caller's, credentials only when the hop stays on the first
// URL's origin (a redirect elsewhere must not carry them).
function hopHeaders(
  request: OutsideRequest,
  userAgent: string,
  extra: Readonly<Record<string, string>>,
  sameOrigin: boolean,
): Record<string, string> {
  const headers = Object.create(null) as Record<string, string>;
  headers['user-agent'] = userAgent;
  headers.accept = request.accept;
  headers['accept-encoding'] = ACCEPT_ENCODING;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  for (const [name, value] of Object.entries(extra))
    if (sameOrigin || !OUTSIDE_CREDENTIAL_HEADERS.has(name)) headers[name] = value;
  return headers;
}

function pickHeaders(reader: HeaderReader | null, names: readonly string[]): Record<string, string> {
  const picked: [string, string][] = [];
  for (const name of names) {
    const value = reader?.get(name) ?? null;
    if (value !== null) picked.push([name, value]);
  }
  return Object.fromEntries(picked);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function redactText(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets)
    if (redacted.includes(secret)) redacted = redacted.split(secret).join(REDACTED_CREDENTIAL);
  return redacted;
}

function redactValue(item: unknown, secrets: readonly string[]): unknown {
  if (typeof item === 'string') return redactText(item, secrets);
  if (Array.isArray(item)) {
    const redacted = item.map((entry) => redactValue(entry, secrets));
    return redacted.some((entry, index) => entry !== item[index]) ? redacted : item;
  }
  if (item === null || typeof item !== 'object') return item;
  let changed = false;
  const entries = Object.entries(item).map(([key, entry]) => {
    const pair = [redactText(key, secrets), redactValue(entry, secrets)] as const;
    if (pair[0] !== key || pair[1] !== entry) changed = true;
    return pair;
  });
  return changed ? Object.fromEntries(entries) : item;
}

/**
 * @internal Returns `value` with every occurrence of each secret, in strings and object keys at any depth,
 * replaced by REDACTED_CREDENTIAL. What holds no secret is returned as it was, not copied, so an answer that
 * never echoed one costs a single walk. The GitHub reader runs it over its whole result as well.
 *
 * @example redactSecrets({ note: 'seen Bearer abc' }, ['abc']) // { note: 'seen Bearer [token]' }
 */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  return secrets.length === 0 ? value : (redactValue(value, secrets) as T);
}

/**
 * Sends one request and parses the answer as JSON. Never throws for what the service (or the network)
 * does: every failure comes back with a reason and a message a person can act on. Throws ProbeInputError,
 * before anything is sent, for headers or answer-header names it cannot send or read (see OutsideRequest).
 */
export async function requestOutsideJson(request: OutsideRequest, network: NetworkSettings): Promise<OutsideAnswer> {
  const extraHeaders = checkRequestHeaders(request.headers);
  const wanted = checkResponseHeaderNames(request.responseHeaders);
  const secrets = credentialSecrets(extraHeaders);
  const firstOrigin = originOf(request.url);
  const deadline: Deadline = { clock: network.clock, endsAt: null, signal: network.signal };
  const timer = startStep(deadline, request.timeoutMs);
  const client = network.makeClient();
  let current = request.url;
  let requests = 0;
  let latest: HeaderReader | null = null;
  // Every answer leaves through here: the headers asked for, and no credential anywhere in it.
  const finish = (answer: OutsideAnswer): OutsideAnswer =>
    redactSecrets(wanted === null ? answer : { ...answer, headers: pickHeaders(latest, wanted) }, secrets);
  const fail = (reason: OutsideFailureReason, message: string, httpStatus: number | null = null): OutsideAnswer =>
    finish({ ok: false, url: current, reason, message, httpStatus, elapsedMs: timer.elapsed(), requests });
  try {
    for (let hop = 0; ; hop++) {
      // Headers handed back belong to the answer whose status the result carries, never to an earlier hop's.
      latest = null;
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
      const headers = hopHeaders(request, network.userAgent, extraHeaders, new URL(current).origin === firstOrigin);
      requests++;
      const response = await client.request({
        url: current,
        method: request.method,
        headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: timer.signal,
        addresses: resolved.addresses,
      });
      latest = response.headers;
      if (REDIRECT_STATUSES.has(response.status)) {
        response.discard();
        const location = response.headers.get('location');
        if (request.method !== 'GET')
          return fail('http-status', `answered ${response.status} (redirect not followed)`, response.status);
        if (location === null)
          return fail('http-status', `answered ${response.status} without a Location`, response.status);
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
      if (request.text === true)
        return finish({
          ok: true,
          url: current,
          status: response.status,
          json: text,
          elapsedMs: timer.elapsed(),
          requests,
        });
      const parsed = parseBoundedJson(text);
      if (!parsed.ok && parsed.why === 'too-deep')
        return fail('too-deep', describeTooDeep('the answer'), response.status);
      if (!parsed.ok) return fail('not-json', 'the answer is not JSON', response.status);
      return finish({
        ok: true,
        url: current,
        status: response.status,
        json: parsed.value,
        elapsedMs: timer.elapsed(),
        requests,
      });
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
