// Pure module: decides, before any request, whether a URL may be probed at all, and which addresses a
// connection to it may use. The DNS part runs through an injected `lookup`; nothing here opens a socket.
import { describeType, parseIpv4 } from '@mcp-atlas/base';
import { getDomain } from 'tldts';
import { REFUSED_HOST_SUFFIXES, REFUSED_HOSTNAMES } from './constants.js';
import { ProbeInputError } from './errors.js';
import { classifyAddress, isIpAddress } from './ip.js';

/** Resolves a host name to its addresses (IPv4 and IPv6, as text). Injected so tests never touch DNS. */
export type LookupFunction = (hostname: string) => Promise<string[]>;

/**
 * Why the guard refused a target. The `reason` of a refusal is `guard:` followed by one of these, so a
 * result always names the rule that stopped it.
 */
export type GuardRule =
  | 'invalid-url'
  | 'sse-only'
  | 'template'
  | 'not-https'
  | 'user-info'
  | 'ip-literal'
  | 'localhost'
  | 'local-name'
  | 'opted-out'
  | 'private-address'
  | 'no-resolver';

/** What `checkTarget` answers: the target may be probed, or the rule that refuses it. */
export type TargetCheck = { ok: true } | { ok: false; reason: `guard:${GuardRule}`; message: string };

/** Options of `checkTarget`. */
export interface CheckTargetOptions {
  /**
   * Lifts the address rules (IP literals, localhost, .local/.internal, resolved addresses) and the https rule.
   * For CI, tests, and an operator watching its own private network.
   */
  allowPrivate?: boolean;
  /** Host names whose owners opted out; a listed name also covers its subdomains. */
  optedOut?: Iterable<string>;
  /** The registry remote's transport type; `sse` is refused (the probe speaks Streamable HTTP only). */
  remoteType?: string;
}

/** What `resolveTarget` answers: the addresses a connection may use (null: let the transport resolve). */
export type ResolvedTarget =
  | { ok: true; addresses: string[] | null }
  | { ok: false; reason: `guard:${GuardRule}` | 'dns-failed'; message: string };

/** Options of `resolveTarget`. */
export interface ResolveTargetOptions {
  allowPrivate?: boolean;
  lookup?: LookupFunction;
  /** Aborts a lookup that hangs; the lookup itself may go on, but its answer is ignored. */
  signal?: AbortSignal;
}

function refuse(rule: GuardRule, message: string): TargetCheck {
  return { ok: false, reason: `guard:${rule}`, message };
}

/** @internal Lower-cases a host name and drops a trailing dot, so `Example.COM.` and `example.com` compare equal. */
export function normalizeHostname(hostname: string): string {
  let host = hostname.toLowerCase();
  while (host.endsWith('.')) host = host.slice(0, -1);
  return host;
}

/** @internal The host name of a URL without IPv6 brackets, normalized. */
export function hostOf(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return normalizeHostname(host);
}

function toOptOutHost(entry: string): string {
  const trimmed = entry.trim();
  if (trimmed.includes('://')) {
    try {
      return hostOf(new URL(trimmed));
    } catch {
      return normalizeHostname(trimmed);
    }
  }
  return normalizeHostname(trimmed);
}

/**
 * True when `hostname` is an opted-out name or a subdomain of one. An owner who opts out `example.com`
 * opts out `mcp.example.com` too; the reverse is not true.
 */
export function isOptedOut(hostname: string, optedOut: Iterable<string> | undefined): boolean {
  if (optedOut === undefined) return false;
  const host = normalizeHostname(hostname);
  for (const entry of optedOut) {
    if (typeof entry !== 'string') continue;
    const listed = toOptOutHost(entry);
    if (listed === '') continue;
    if (host === listed || host.endsWith(`.${listed}`)) return true;
  }
  return false;
}

// A label made only of digits, or a 0x number, would be read as an IPv4 number part by a resolver.
function looksNumeric(label: string): boolean {
  return /^(0x[0-9a-f]*|\d+)$/i.test(label);
}

function isIpLiteralHost(host: string): boolean {
  if (isIpAddress(host)) return true;
  // URL parsing already rewrites decimal, hex and octal IPv4 spellings into dotted form; this is the
  // belt to that: a last label that is a number is an address to a resolver, never a name.
  const labels = host.split('.');
  return looksNumeric(labels[labels.length - 1] ?? '');
}

function hasTemplate(url: string): boolean {
  return url.includes('{') || url.includes('}');
}

function validateCheckOptions(options: CheckTargetOptions): void {
  if (options.allowPrivate !== undefined && typeof options.allowPrivate !== 'boolean') {
    throw new ProbeInputError(
      'invalid-option',
      `allowPrivate must be a boolean, got ${describeType(options.allowPrivate, { article: true })}`,
    );
  }
  if (
    options.optedOut !== undefined &&
    (options.optedOut === null || typeof (options.optedOut as Iterable<string>)[Symbol.iterator] !== 'function')
  ) {
    throw new ProbeInputError(
      'invalid-option',
      `optedOut must be an iterable of host names, got ${describeType(options.optedOut, { article: true })}`,
    );
  }
  if (options.remoteType !== undefined && typeof options.remoteType !== 'string') {
    throw new ProbeInputError(
      'invalid-option',
      `remoteType must be a string, got ${describeType(options.remoteType, { article: true })}`,
    );
  }
}

/**
 * The guard, run before any request. It refuses SSE-only remotes, URL templates (`{` or `}`), anything
 * that is not https, URLs carrying a user name or password, IP literals in every spelling (dotted,
 * decimal, hex, octal, IPv6, IPv4-mapped), `localhost` and names under `.localhost`, `.local` and
 * `.internal`, and opted-out hosts. `allowPrivate` lifts the address rules and the https rule (http is
 * then allowed; other schemes never are); it lifts nothing else. It does no DNS: `resolveTarget` does.
 *
 * @example
 * checkTarget('https://mcp.example.com/mcp')          // { ok: true }
 * checkTarget('https://0x7f.1/mcp')                   // { ok: false, reason: 'guard:ip-literal', ... }
 * checkTarget('http://127.0.0.1:3000/mcp', { allowPrivate: true }) // { ok: true }
 */
export function checkTarget(url: string, options: CheckTargetOptions = {}): TargetCheck {
  if (typeof url !== 'string')
    throw new ProbeInputError('url-not-string', `url must be a string, got ${describeType(url, { article: true })}`);
  validateCheckOptions(options);
  const allowPrivate = options.allowPrivate === true;

  if (options.remoteType !== undefined && options.remoteType.toLowerCase() === 'sse') {
    return refuse('sse-only', 'the remote speaks only the SSE transport; the probe speaks Streamable HTTP');
  }
  if (hasTemplate(url)) return refuse('template', 'the URL is a template ({ or }), not an address');

  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('invalid-url', `not a URL: ${url.slice(0, 200)}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return refuse('user-info', 'the URL carries a user name or password');
  }
  const scheme = parsed.protocol;
  if (scheme !== 'https:' && !(allowPrivate && scheme === 'http:')) {
    return refuse('not-https', `only https is probed, got ${scheme.slice(0, -1)}`);
  }
  const host = hostOf(parsed);
  if (host === '') return refuse('invalid-url', 'the URL has no host');
  if (!allowPrivate) {
    if (isIpLiteralHost(host)) return refuse('ip-literal', `the host is an IP address (${host}), not a name`);
    if (REFUSED_HOSTNAMES.has(host)) return refuse('localhost', `the host is ${host}`);
    const suffix = REFUSED_HOST_SUFFIXES.find((s) => host.endsWith(s));
    if (suffix === '.localhost') return refuse('localhost', `the host ${host} is under .localhost`);
    if (suffix !== undefined) return refuse('local-name', `the host ${host} is under ${suffix}`);
  }
  if (isOptedOut(host, options.optedOut)) return refuse('opted-out', `the owner of ${host} opted out`);
  return { ok: true };
}

function withAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new Error('aborted before the lookup'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('the lookup did not answer in time'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The DNS half of the guard (our own addition, not taken from 7Maps or the site scanner). It resolves the URL's
 * host with `lookup` and refuses the target when any address is not public, so a name pointing at a private,
 * loopback, link-local, CGNAT or multicast address is never reached; the addresses it returns are the only ones a
 * connection may use, so a DNS answer that changes between this check and the connection cannot redirect it. An IP
 * literal (only possible with `allowPrivate`) is its own address. Without `lookup` a host name is refused
 * (`guard:no-resolver`), unless `allowPrivate`, where the transport resolves it itself (addresses: null). Run
 * `checkTarget` first: this function assumes a URL that passed it.
 */
export async function resolveTarget(url: string, options: ResolveTargetOptions = {}): Promise<ResolvedTarget> {
  const parsed = new URL(url);
  const host = hostOf(parsed);
  const allowPrivate = options.allowPrivate === true;
  if (isIpAddress(host)) {
    if (!allowPrivate) return { ok: false, reason: 'guard:ip-literal', message: `the host is an IP address (${host})` };
    return { ok: true, addresses: [host] };
  }
  if (options.lookup === undefined) {
    if (allowPrivate) return { ok: true, addresses: null };
    return {
      ok: false,
      reason: 'guard:no-resolver',
      message:
        'no lookup was given, so the addresses of the host cannot be checked; pass lookup (for example nodeNetwork from @mcp-atlas/probe/node)',
    };
  }
  let addresses: string[];
  try {
    addresses = await withAbort(options.lookup(host), options.signal);
  } catch (error) {
    return { ok: false, reason: 'dns-failed', message: `could not resolve ${host}: ${(error as Error).message}` };
  }
  if (!Array.isArray(addresses) || addresses.length === 0) {
    return { ok: false, reason: 'dns-failed', message: `${host} resolved to no address` };
  }
  if (!allowPrivate) {
    for (const address of addresses) {
      const verdict = classifyAddress(String(address));
      if (!verdict.public) {
        return {
          ok: false,
          reason: 'guard:private-address',
          message: `${host} resolves to ${String(address)}, which is not public (${verdict.range ?? 'unknown'})`,
        };
      }
    }
  }
  return { ok: true, addresses: addresses.map(String) };
}

/**
 * The registrable domain of a host (the public suffix plus one label, by the public suffix list with
 * its private section, so `a.vercel.app` and `b.vercel.app` are different sites). For an IP address or a
 * bare suffix it is the host itself.
 */
export function registrableDomain(hostname: string): string {
  const host = normalizeHostname(hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);
  if (isIpAddress(host) || parseIpv4(host) !== null) return host;
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/** True when two URLs are on the same registrable domain (scheme and port do not matter). */
export function isSameSite(a: string | URL, b: string | URL): boolean {
  const left = typeof a === 'string' ? new URL(a) : a;
  const right = typeof b === 'string' ? new URL(b) : b;
  return registrableDomain(hostOf(left)) === registrableDomain(hostOf(right));
}
