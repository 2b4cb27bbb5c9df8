// Runtime-neutral module: the options every network function shares, checked once into settings. Bad options are
// the caller's bug and throw ProbeInputError; nothing here reads the environment except the global
// fetch and timers as documented defaults.
import { describeType } from '@mcp-atlas/base';
import { type ProbeClock, systemClock } from './clock.js';
import { DEFAULT_CLIENT_INFO, DEFAULT_PROTOCOL_VERSION, DEFAULT_USER_AGENT } from './constants.js';
import { ProbeInputError } from './errors.js';
import type { LookupFunction } from './guard.js';
import { createFetchHttpClient, type FetchFunction, type HttpClientFactory } from './http.js';
import { checkExtraHeaders } from './origin-headers.js';

/**
 * What every network function of the package accepts: the guard's switches and the injected
 * environment. `httpClient` wins over `fetch`; without either the global `fetch` is used (unpinned).
 */
export interface NetworkOptions {
  /** Lifts the address rules and the https rule: for CI, tests, and an operator watching its own private network. Nothing else lifts them. */
  allowPrivate?: boolean;
  /** Host names whose owners opted out (a name covers its subdomains). */
  optedOut?: Iterable<string>;
  /** Resolves host names; the addresses are checked and pinned. Required unless `allowPrivate`. */
  lookup?: LookupFunction;
  /** Makes the HTTP client of one check; `createNodeHttpClient` from `@mcp-atlas/probe/node` pins connections. */
  httpClient?: HttpClientFactory;
  /** A WHATWG fetch to use when no `httpClient` is given (cannot pin connections). */
  fetch?: typeof fetch;
  /** The User-Agent header; it should name the bot and a URL that explains it. */
  userAgent?: string;
  /** Aborts the work; an aborted check ends with reason `aborted`. */
  signal?: AbortSignal;
  /** The clock for timings and limits. */
  clock?: ProbeClock;
}

/** Options of `probeServer`. */
export interface ProbeOptions extends NetworkOptions {
  /** The protocol version offered in initialize (default 2025-06-18). */
  protocolVersion?: string;
  /** The client name and version sent in initialize. */
  clientInfo?: { name: string; version: string };
  /** An overall limit for the whole check, on top of the per-step limits (the five-minute check uses 30 000). */
  deadlineMs?: number;
  /**
   * Extra request headers (a token for a server that needs one), sent with every request to the server's own
   * origin and to no other: not after a redirect to another origin, not to an authorization server. The probe's
   * protocol headers win over one of the same name; the result never holds a value.
   */
  headers?: Readonly<Record<string, string>>;
}

/** @internal Checked network options. */
export interface NetworkSettings {
  readonly allowPrivate: boolean;
  readonly optedOut: readonly string[];
  readonly lookup: LookupFunction | undefined;
  readonly makeClient: HttpClientFactory;
  readonly userAgent: string;
  readonly signal: AbortSignal | undefined;
  readonly clock: ProbeClock;
}

/** @internal Checked probe options. */
export interface ProbeSettings extends NetworkSettings {
  readonly protocolVersion: string;
  readonly clientInfo: { name: string; version: string };
  readonly deadlineMs: number | null;
  /** The extra headers, names lower-cased; empty when none. */
  readonly headers: Readonly<Record<string, string>>;
}

function fail(message: string): never {
  throw new ProbeInputError('invalid-option', message);
}

function optionalFunction(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function')
    fail(`${name} must be a function, got ${describeType(value, { article: true })}`);
}

function checkHeaderText(name: string, value: unknown, maxLength: number): string {
  if (typeof value !== 'string' || value.trim() === '')
    fail(`${name} must be a non-empty string, got ${describeType(value, { article: true })}`);
  // A header value with a control character would be refused by the HTTP stack mid-check; refuse it here.
  if (value.length > maxLength || /[\x00-\x1f\x7f]/.test(value)) {
    fail(`${name} must be at most ${maxLength} characters with no control characters (line breaks included)`);
  }
  return value;
}

function checkClock(value: unknown): ProbeClock {
  if (value === undefined) return systemClock;
  const clock = value as Partial<ProbeClock> | null;
  if (
    clock === null ||
    typeof clock !== 'object' ||
    typeof clock.now !== 'function' ||
    typeof clock.setTimeout !== 'function' ||
    typeof clock.clearTimeout !== 'function'
  ) {
    fail('clock must have now, setTimeout and clearTimeout functions');
  }
  return value as ProbeClock;
}

function checkSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  const signal = value as Partial<AbortSignal> | null;
  if (
    signal === null ||
    typeof signal !== 'object' ||
    typeof signal.aborted !== 'boolean' ||
    typeof signal.addEventListener !== 'function'
  ) {
    fail(`signal must be an AbortSignal, got ${describeType(value, { article: true })}`);
  }
  return value as AbortSignal;
}

function checkOptedOut(value: unknown): string[] {
  if (value === undefined) return [];
  if (
    value === null ||
    typeof value === 'string' ||
    typeof (value as Iterable<unknown>)[Symbol.iterator] !== 'function'
  ) {
    fail(`optedOut must be an iterable of host names, got ${describeType(value, { article: true })}`);
  }
  const names: string[] = [];
  for (const entry of value as Iterable<unknown>) {
    if (typeof entry !== 'string')
      fail(`optedOut entries must be strings, got ${describeType(entry, { article: true })}`);
    names.push(entry);
  }
  return names;
}

/** @internal Checks the shared options and fills in defaults. */
export function resolveNetworkSettings(options: NetworkOptions | undefined): NetworkSettings {
  if (options !== undefined && (options === null || typeof options !== 'object'))
    fail(`options must be an object, got ${describeType(options, { article: true })}`);
  const o = options ?? {};
  if (o.allowPrivate !== undefined && typeof o.allowPrivate !== 'boolean')
    fail(`allowPrivate must be a boolean, got ${describeType(o.allowPrivate, { article: true })}`);
  optionalFunction('lookup', o.lookup);
  optionalFunction('httpClient', o.httpClient);
  optionalFunction('fetch', o.fetch);
  let makeClient = o.httpClient;
  if (makeClient === undefined) {
    const fetchImpl = o.fetch ?? (globalThis.fetch as typeof fetch | undefined);
    if (fetchImpl === undefined) fail('no fetch is available: pass httpClient or fetch');
    makeClient = createFetchHttpClient(fetchImpl as FetchFunction);
  }
  return {
    allowPrivate: o.allowPrivate === true,
    optedOut: checkOptedOut(o.optedOut),
    lookup: o.lookup,
    makeClient,
    userAgent: o.userAgent === undefined ? DEFAULT_USER_AGENT : checkHeaderText('userAgent', o.userAgent, 512),
    signal: checkSignal(o.signal),
    clock: checkClock(o.clock),
  };
}

/** @internal Checks probeServer's options and fills in defaults. */
export function resolveProbeSettings(options: ProbeOptions | undefined): ProbeSettings {
  const network = resolveNetworkSettings(options);
  const o = options ?? {};
  const protocolVersion =
    o.protocolVersion === undefined
      ? DEFAULT_PROTOCOL_VERSION
      : checkHeaderText('protocolVersion', o.protocolVersion, 64);
  let clientInfo = DEFAULT_CLIENT_INFO;
  if (o.clientInfo !== undefined) {
    const info = o.clientInfo as { name?: unknown; version?: unknown } | null;
    if (
      info === null ||
      typeof info !== 'object' ||
      typeof info.name !== 'string' ||
      info.name === '' ||
      typeof info.version !== 'string'
    ) {
      fail('clientInfo must be { name: non-empty string, version: string }');
    }
    clientInfo = { name: info.name as string, version: info.version as string };
  }
  let deadlineMs: number | null = null;
  if (o.deadlineMs !== undefined) {
    if (typeof o.deadlineMs !== 'number' || !Number.isFinite(o.deadlineMs) || o.deadlineMs <= 0) {
      fail(`deadlineMs must be a positive number of milliseconds, got ${String(o.deadlineMs)}`);
    }
    deadlineMs = o.deadlineMs;
  }
  return {
    ...network,
    protocolVersion,
    clientInfo: { ...clientInfo },
    deadlineMs,
    headers: checkExtraHeaders(o.headers),
  };
}
