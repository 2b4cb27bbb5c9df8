// Runtime-neutral module (no node: imports; network only through the injected client): probeServer, the check behind every outcome letter.
import { describeType } from '@mcp-atlas/base';
import {
  INITIALIZE_ANSWER_CAP_BYTES,
  MAX_INITIALIZE_REDIRECTS,
  MAX_TOOLS_KEPT,
  MAX_TOOLS_PAGES,
  PROBE_RULES_VERSION,
  TOOLS_PAGE_CAP_BYTES,
} from './constants.js';
import { ProbeInputError } from './errors.js';
import { checkTarget } from './guard.js';
import { type HandshakeOutcome, HttpHandshake } from './handshake.js';
import { type ProbeOptions, resolveProbeSettings } from './options.js';
import { withOriginHeaders } from './origin-headers.js';
import type { Letter, ProbeReason, ProbeResult } from './schemas.js';

/**
 * The letter a reason gives: `ok` is o, `auth-required` is a, `payment-required` is p, `rate-limited` is n
 * (no data: the server asked us to wait, so the check says nothing of whether it is up), anything else d
 * (a timeout, no connection, a redirect to another site, any other HTTP error, a JSON-RPC error on
 * initialize, an answer that is not MCP, no tool list, a guard refusal).
 */
export function letterForReason(reason: ProbeReason): Letter {
  if (reason === 'ok') return 'o';
  if (reason === 'auth-required') return 'a';
  if (reason === 'payment-required') return 'p';
  if (reason === 'rate-limited') return 'n';
  return 'd';
}

/** @internal A result for a check refused before any connection. */
export function refusedResult(url: string, reason: ProbeReason, message: string): ProbeResult {
  return {
    url,
    endpoint: url,
    letter: letterForReason(reason),
    reason,
    message,
    failedStep: null,
    notStandardMcp: false,
    protocolVersion: null,
    supportedVersions: null,
    serverInfo: null,
    capabilities: null,
    tools: [],
    toolsJson: null,
    listedJson: null,
    toolCount: 0,
    toolsTruncated: false,
    pages: 0,
    paymentAddress: null,
    retryAfterMs: null,
    authChallenge: null,
    authDiscovery: null,
    sessionIssued: false,
    redirect: null,
    steps: [],
    warnings: [],
    elapsedMs: 0,
    rulesVersion: PROBE_RULES_VERSION,
  };
}

/** @internal Turns a session's outcome into the public result shape. */
export function toProbeResult(url: string, outcome: HandshakeOutcome): ProbeResult {
  return {
    url,
    endpoint: outcome.endpoint,
    letter: letterForReason(outcome.reason),
    reason: outcome.reason,
    message: outcome.message,
    failedStep: outcome.failedStep,
    notStandardMcp: outcome.notStandardMcp,
    protocolVersion: outcome.protocolVersion,
    supportedVersions: outcome.supportedVersions,
    serverInfo: outcome.serverInfo,
    capabilities: outcome.capabilities,
    tools: outcome.tools,
    toolsJson: outcome.toolsJson,
    listedJson: outcome.listedJson,
    toolCount: outcome.toolCount,
    toolsTruncated: outcome.toolsTruncated,
    pages: outcome.pages,
    paymentAddress: outcome.paymentAddress,
    retryAfterMs: outcome.retryAfterMs,
    authChallenge: outcome.authChallenge,
    authDiscovery: outcome.authDiscovery,
    sessionIssued: outcome.sessionIssued,
    redirect: outcome.redirect,
    steps: outcome.steps,
    warnings: outcome.warnings,
    elapsedMs: outcome.elapsedMs,
    rulesVersion: PROBE_RULES_VERSION,
  };
}

/**
 * Checks one remote MCP server over Streamable HTTP: initialize (offering 2025-06-18 unless told
 * otherwise), notifications/initialized, then tools/list for up to 3 pages (at most 500 tools kept),
 * and a best-effort DELETE when the server issued a session. An event stream that closes after an event id
 * before its answer is resumed (GET with Last-Event-ID, SSE_RESUMPTION_RULES); a sign-in request (letter a)
 * is followed by read-only sign-in discovery in the MCP spec's order (`authDiscovery`). The guard runs first and every address is
 * checked and pinned (pass `lookup` and a pinning `httpClient`, e.g. `nodeNetwork` from
 * `@mcp-atlas/probe/node`). It never throws for anything a server does: a hang, a hostile body, a
 * redirect, a refusal are all results, with the letter, the reason, and every step's status and timing.
 * It throws `ProbeInputError` only for a caller's mistake (a non-string URL, a bad option).
 *
 * @example
 * import { probeServer } from '@mcp-atlas/probe';
 * import { nodeNetwork } from '@mcp-atlas/probe/node';
 * const result = await probeServer('https://mcp.example.com/mcp', { ...nodeNetwork, deadlineMs: 30_000 });
 * console.log(result.letter, result.reason, result.toolCount, result.elapsedMs);
 */
export async function probeServer(url: string, options?: ProbeOptions): Promise<ProbeResult> {
  if (typeof url !== 'string')
    throw new ProbeInputError('url-not-string', `url must be a string, got ${describeType(url, { article: true })}`);
  const resolved = resolveProbeSettings(options);
  const guard = checkTarget(url, { allowPrivate: resolved.allowPrivate, optedOut: resolved.optedOut });
  if (!guard.ok) return refusedResult(url, guard.reason, guard.message);
  // The caller's headers go to the server's own origin only (a guarded URL parses).
  const settings = {
    ...resolved,
    makeClient: withOriginHeaders(resolved.makeClient, new URL(url).origin, resolved.headers),
  };
  const handshake = new HttpHandshake(url, settings, {
    protocolVersion: settings.protocolVersion,
    clientInfo: settings.clientInfo,
    maxRedirects: MAX_INITIALIZE_REDIRECTS,
    initializeCapBytes: INITIALIZE_ANSWER_CAP_BYTES,
    toolsPageCapBytes: TOOLS_PAGE_CAP_BYTES,
    maxToolPages: MAX_TOOLS_PAGES,
    maxToolsKept: MAX_TOOLS_KEPT,
    listToolsOnlyWhenDeclared: false,
    sendDelete: true,
    discoverAuth: true,
    deadlineMs: settings.deadlineMs,
  });
  return toProbeResult(url, await handshake.run());
}
