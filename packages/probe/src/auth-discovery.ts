// Runtime-neutral module (no node: imports; network only through the injected client): sign-in discovery after a
// 401 or 403, read-only and in the MCP spec's order (Authorization, "Authorization Server Discovery"). The probe
// never signs in; it only reads what a client would read first, through the same guard, pinning, size cap and
// per-document limit as every well-known read, all of it inside AUTH_DISCOVERY_BUDGET_MS and the check's deadline.
import { type Deadline, remainingMs } from './clock.js';
import {
  AUTH_DISCOVERY_BUDGET_MS,
  OAUTH_AUTHORIZATION_SERVER_PATH,
  OAUTH_PROTECTED_RESOURCE_PATH,
  OPENID_CONFIGURATION_PATH,
} from './constants.js';
import type { NetworkSettings } from './options.js';
import type { AuthDiscovery, AuthDiscoveryRead } from './schemas.js';
import { readJsonDocument } from './well-known.js';

type ResourceSource = 'www-authenticate' | 'path' | 'root';

/** One place to look for a document, and what to call it when it is found there. */
interface Candidate<Kind> {
  readonly url: string;
  readonly kind: Kind;
}

/**
 * The `resource_metadata` URL of a WWW-Authenticate challenge (RFC 9728, section 5.1), quoted or not, as an
 * absolute http(s) URL; null when the challenge names none or names something that is not one.
 */
export function resourceMetadataUrlOf(challenge: string | null, endpoint: URL): string | null {
  if (challenge === null) return null;
  const match = /(?:^|[\s,])resource_metadata\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/i.exec(challenge);
  const value = match === null ? undefined : (match[1]?.replace(/\\(.)/g, '$1') ?? match[2]);
  if (value === undefined || value === '') return null;
  try {
    const url = new URL(value, endpoint);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A URL's path without its trailing slash, '' for the root: what a well-known name is inserted before. */
function pathOf(url: URL): string {
  return url.pathname.replace(/\/+$/, '');
}

/**
 * Where protected resource metadata is looked for, in order: the challenge's URL, then the well-known name
 * inserted before the endpoint's path (RFC 9728, section 3.1), then at the root. Repeats are dropped.
 */
export function protectedResourceCandidates(endpoint: URL, challenge: string | null): Candidate<ResourceSource>[] {
  const candidates: Candidate<ResourceSource>[] = [];
  const fromChallenge = resourceMetadataUrlOf(challenge, endpoint);
  if (fromChallenge !== null) candidates.push({ url: fromChallenge, kind: 'www-authenticate' });
  const path = pathOf(endpoint);
  if (path !== '') candidates.push({ url: `${endpoint.origin}${OAUTH_PROTECTED_RESOURCE_PATH}${path}`, kind: 'path' });
  candidates.push({ url: `${endpoint.origin}${OAUTH_PROTECTED_RESOURCE_PATH}`, kind: 'root' });
  return dropRepeats(candidates);
}

/**
 * Where an authorization server's metadata is looked for, in the MCP spec's order: with a path in the issuer,
 * OAuth with the path inserted, OpenID Connect with the path inserted, OpenID Connect with the path appended;
 * without one, OAuth then OpenID Connect at the root.
 */
export function authorizationServerCandidates(issuer: URL): Candidate<'oauth' | 'openid'>[] {
  const path = pathOf(issuer);
  if (path === '')
    return [
      { url: `${issuer.origin}${OAUTH_AUTHORIZATION_SERVER_PATH}`, kind: 'oauth' },
      { url: `${issuer.origin}${OPENID_CONFIGURATION_PATH}`, kind: 'openid' },
    ];
  return [
    { url: `${issuer.origin}${OAUTH_AUTHORIZATION_SERVER_PATH}${path}`, kind: 'oauth' },
    { url: `${issuer.origin}${OPENID_CONFIGURATION_PATH}${path}`, kind: 'openid' },
    { url: `${issuer.origin}${path}${OPENID_CONFIGURATION_PATH}`, kind: 'openid' },
  ];
}

function dropRepeats<Kind>(candidates: Candidate<Kind>[]): Candidate<Kind>[] {
  const seen = new Set<string>();
  return candidates.filter((candidate) => !seen.has(candidate.url) && seen.add(candidate.url) !== undefined);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The first authorization server a protected resource document names, as an http(s) URL; null when none. */
function firstAuthorizationServer(document: Record<string, unknown>): URL | null {
  const servers = document.authorization_servers;
  const first: unknown = Array.isArray(servers) ? servers[0] : undefined;
  if (typeof first !== 'string') return null;
  try {
    const url = new URL(first);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/** Reads candidates in order until one answers 2xx with a JSON object; every read is recorded. */
async function firstFound<Kind>(
  candidates: readonly Candidate<Kind>[],
  network: NetworkSettings,
  deadline: Deadline,
  reads: AuthDiscoveryRead[],
): Promise<{ candidate: Candidate<Kind>; document: Record<string, unknown> } | null> {
  for (const candidate of candidates) {
    if (remainingMs(deadline) <= 0 || deadline.signal?.aborted === true) return null;
    const read = await readJsonDocument(candidate.url, network, 'application/json', deadline);
    const found = read.found && isPlainObject(read.document);
    const detail = found ? null : (read.detail ?? 'not a JSON object');
    reads.push({ url: candidate.url, httpStatus: read.httpStatus, found, detail });
    if (found) return { candidate, document: read.document as Record<string, unknown> };
  }
  return null;
}

/**
 * @internal Runs sign-in discovery for `endpoint`, whose answer carried `challenge` (or none), within
 * AUTH_DISCOVERY_BUDGET_MS and what is left of `deadline`. Never throws for what a server does.
 */
export async function discoverAuth(
  endpoint: URL,
  challenge: string | null,
  network: NetworkSettings,
  deadline: Deadline,
): Promise<AuthDiscovery> {
  const budgetEnds = network.clock.now() + AUTH_DISCOVERY_BUDGET_MS;
  const within: Deadline = {
    clock: deadline.clock,
    endsAt: deadline.endsAt === null ? budgetEnds : Math.min(deadline.endsAt, budgetEnds),
    signal: deadline.signal,
  };
  const reads: AuthDiscoveryRead[] = [];
  const resource = await firstFound(protectedResourceCandidates(endpoint, challenge), network, within, reads);
  // Without protected resource metadata, a client of the 2025-03-26 revision reads the server's own origin.
  const named = resource === null ? null : firstAuthorizationServer(resource.document);
  const issuer = resource === null ? new URL(endpoint.origin) : named;
  const metadata =
    issuer === null ? null : await firstFound(authorizationServerCandidates(issuer), network, within, reads);
  return {
    protectedResource: resource === null ? null : { url: resource.candidate.url, source: resource.candidate.kind },
    authorizationServer:
      issuer === null
        ? null
        : { issuer: issuer.href, source: resource === null ? 'server-origin' : 'protected-resource' },
    authorizationServerMetadata:
      metadata === null ? null : { url: metadata.candidate.url, kind: metadata.candidate.kind },
    reads,
  };
}
