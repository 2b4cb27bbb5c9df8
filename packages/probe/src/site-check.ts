// Runtime-neutral module (no node: imports; network only through the injected client): the site scanner's check
// "MCP server answers and lists its tools", as that scanner measures it: discovery, then one capped MCP session of
// at most 3 POSTs in 12 s, and a verdict of pass, partial, fail, not-measured or out-of-scope.
import {
  AI_CATALOG_PATH,
  DEFAULT_CLIENT_INFO,
  LEGACY_SERVER_CARD_PATHS,
  MAX_TOOLS_KEPT,
  PROBE_RULES_VERSION,
  SERVER_CARD_PATH,
  SITE_ANSWER_CAP_BYTES,
  SITE_CHECK_PROTOCOL_VERSION,
  SITE_MAX_TOOL_NAMES,
  SITE_SESSION_BUDGET_MS,
  WELL_KNOWN_CAP_BYTES,
  WELL_KNOWN_TIMEOUT_MS,
} from './constants.js';
import { catalogCardUrls, discoverWith, rejectCandidate, type SiteDocuments } from './discovery.js';
import { ProbeInputError } from './errors.js';
import { getDocument } from './get-document.js';
import { checkTarget } from './guard.js';
import { type HandshakeOutcome, HttpHandshake, isRedirectStatus } from './handshake.js';
import { mediaTypeOf } from './http.js';
import { isNamedTool } from './interpret.js';
import { type NetworkOptions, type NetworkSettings, resolveNetworkSettings } from './options.js';
import { checkOrigin } from './robots.js';
import type { DiscoveryResult, SiteCheckResult, SiteVerdict } from './schemas.js';
import { readJsonDocument } from './well-known.js';

/** Options of `checkSite`. */
export interface CheckSiteOptions extends NetworkOptions {
  /** Documents the scan already holds; when absent, `readSiteDocuments` fetches them first. */
  documents?: SiteDocuments;
  /** Milliseconds the scan has left; under 12 000 the session is not opened (not measured). */
  scanTimeLeftMs?: number;
}

/** @internal A verdict and its explanation. */
export interface SiteJudgement {
  verdict: SiteVerdict;
  reason: string;
  message: string;
  defect: boolean;
}

function judgement(verdict: SiteVerdict, reason: string, message: string, defect = false): SiteJudgement {
  return { verdict, reason, message, defect };
}

/** What the site check says of every 3xx, on the /mcp GET or any step of the session. */
const REDIRECT_MESSAGE = 'redirects; not followed';

function decidingContentType(outcome: HandshakeOutcome): string {
  for (let i = outcome.steps.length - 1; i >= 0; i--) {
    const step = outcome.steps[i];
    if (step !== undefined && step.name === outcome.failedStep) return mediaTypeOf(step.contentType);
  }
  return '';
}

/**
 * A failing error status: a fail, and a defect when the answer is an HTML page (a web server's error page
 * where an MCP endpoint should be), as a 2xx HTML page already is.
 */
function failOnStatus(outcome: HandshakeOutcome, message: string): SiteJudgement {
  if (decidingContentType(outcome) !== 'text/html') return judgement('fail', 'error-status', message);
  const step = outcome.failedStep ?? 'the session';
  return judgement(
    'fail',
    'html-answer',
    `${step} answered HTTP ${outcome.decidingStatus ?? '?'} with an HTML page, not an MCP answer`,
    true,
  );
}

/** The verdict of a session that ended without a failure: what tools/list named, if it was asked. */
function judgeListedTools(outcome: HandshakeOutcome): SiteJudgement {
  if (!outcome.toolsDeclared)
    return judgement(
      'partial',
      'no-tools-capability',
      'initialize succeeded, but the server declares no tools capability',
    );
  const named = outcome.namedToolCount;
  if (named === 0) {
    const unnamed = outcome.toolCount;
    return judgement(
      'partial',
      'no-tools-listed',
      unnamed === 0
        ? 'initialize succeeded, but tools/list names no tool'
        : `initialize succeeded, but none of the ${unnamed} entries tools/list returned is a tool with a name`,
    );
  }
  return judgement('pass', 'lists-tools', `tools/list names ${named} tool${named === 1 ? '' : 's'}`);
}

/**
 * @internal The site scanner's verdict for a finished session. pass: tools/list names a tool (an object with a
 * non-empty string name). partial: a 401 with a WWW-Authenticate challenge, or initialize worked but no tool is
 * named or no tools capability is declared. fail: an HTML page (whatever its status), no JSON-RPC answer, a
 * JSON-RPC error, or another error status (the first two are defects). not-measured: 403, 429, 5xx, 401 without a
 * challenge, no answer, any 3xx on any step, the 12 s limit, a guard refusal, an answer over the 64 KB cap.
 */
export function judgeSiteSession(outcome: HandshakeOutcome): SiteJudgement {
  const status = outcome.decidingStatus;
  // Any 3xx, 300 and 304 included and on whichever step, is a redirect the check does not follow.
  if (status !== null && isRedirectStatus(status)) return judgement('not-measured', 'redirect', REDIRECT_MESSAGE);
  switch (outcome.reason) {
    case 'ok':
      return judgeListedTools(outcome);
    case 'auth-required':
      if (status === 401 && outcome.authChallenge !== null && outcome.authChallenge.trim() !== '') {
        return judgement(
          'partial',
          'auth-challenge',
          'the server asks for authorization with a WWW-Authenticate challenge',
        );
      }
      if (status === 401)
        return judgement('not-measured', 'auth-no-challenge', 'the server answers 401 without a challenge');
      return judgement('not-measured', 'forbidden', `the server answers ${status ?? 403}`);
    case 'rate-limited':
      // A 503 with a wait is a server error that asks for time: the site check names it as the 5xx it is.
      if (status === 429) return judgement('not-measured', 'rate-limited', 'the server answers 429');
      return judgement('not-measured', 'server-error', `the server answers ${status ?? 503}`);
    case 'http-error':
      if (status !== null && status >= 500)
        return judgement('not-measured', 'server-error', `the server answers ${status}`);
      return failOnStatus(outcome, outcome.message);
    case 'payment-required':
      return failOnStatus(outcome, 'the server answers 402');
    case 'not-mcp': {
      const html = decidingContentType(outcome) === 'text/html';
      return judgement('fail', html ? 'html-answer' : 'no-jsonrpc-answer', outcome.message, true);
    }
    case 'jsonrpc-error':
      return judgement('fail', 'jsonrpc-error', outcome.message);
    case 'redirect-cross-site':
    case 'redirect-limit':
    case 'redirect-invalid':
      return judgement('not-measured', 'redirect', REDIRECT_MESSAGE);
    case 'deadline':
      return judgement(
        'not-measured',
        'session-limit',
        `the session did not finish within ${SITE_SESSION_BUDGET_MS} ms`,
      );
    case 'answer-too-large':
      return judgement('not-measured', 'answer-too-large', `an answer is over ${SITE_ANSWER_CAP_BYTES} bytes`);
    case 'too-deep':
      // An answer nobody can read without walking thousands of levels is a defect of the endpoint.
      return judgement('fail', 'too-deep', outcome.message, true);
    case 'aborted':
      return judgement('not-measured', 'aborted', 'the scan was aborted');
    default:
      if (outcome.reason.startsWith('guard:')) return judgement('not-measured', 'guard', outcome.message);
      return judgement('not-measured', 'no-answer', outcome.message);
  }
}

function siteResult(
  origin: string,
  discovery: DiscoveryResult,
  judged: SiteJudgement,
  outcome: HandshakeOutcome | null,
): SiteCheckResult {
  const names: string[] = [];
  for (const tool of outcome?.tools ?? []) {
    if (names.length >= SITE_MAX_TOOL_NAMES) break;
    if (isNamedTool(tool)) names.push((tool as { name: string }).name);
  }
  return {
    origin,
    verdict: judged.verdict,
    reason: judged.reason,
    message: judged.message,
    defect: judged.defect,
    endpoint: discovery.endpoint,
    source: discovery.source,
    protocolVersion: outcome?.protocolVersion ?? null,
    toolNames: names,
    // Only tools an agent could call by name count; `{}` or `null` in the array names nothing.
    toolCount: outcome?.namedToolCount ?? 0,
    posts: outcome?.posts ?? 0,
    steps: outcome?.steps ?? [],
    discovery,
    authDiscovery: outcome?.authDiscovery ?? null,
    rulesVersion: PROBE_RULES_VERSION,
  };
}

/**
 * Fetches the documents endpoint discovery reads, for a scan that does not hold them yet: the server
 * card, the legacy card paths, the ai-catalog and the cards it lists on the measured site, and the home
 * page (its Link header and HTML). Each read has 4 s and 256 KiB; a missing one is simply absent.
 */
export async function readSiteDocuments(origin: string, options?: NetworkOptions): Promise<SiteDocuments> {
  const base = checkOrigin(origin);
  return readDocumentsWith(base, resolveNetworkSettings(options));
}

async function readDocumentsWith(origin: string, network: NetworkSettings): Promise<SiteDocuments> {
  const documents: SiteDocuments = {};
  const card = await readJsonDocument(`${origin}${SERVER_CARD_PATH}`, network);
  if (card.found) documents.serverCard = card.document;
  const legacy: unknown[] = [];
  for (const path of LEGACY_SERVER_CARD_PATHS) {
    const got = await readJsonDocument(`${origin}${path}`, network);
    if (got.found) legacy.push(got.document);
  }
  if (legacy.length > 0) documents.legacyServerCards = legacy;
  const catalog = await readJsonDocument(`${origin}${AI_CATALOG_PATH}`, network);
  if (catalog.found) {
    documents.aiCatalog = catalog.document;
    const cards: Record<string, unknown> = {};
    for (const url of catalogCardUrls(catalog.document)) {
      // Only cards on the measured site are fetched: another site's card would name another site's endpoint.
      if (rejectCandidate({ url, source: 'link-header', transport: null }, origin) !== null) continue;
      const listed = await readJsonDocument(url, network, 'application/mcp-server-card+json, application/json');
      if (listed.found) cards[url] = listed.document;
    }
    documents.catalogCards = cards;
  }
  const home = await getDocument(`${origin}/`, network, {
    timeoutMs: WELL_KNOWN_TIMEOUT_MS,
    capBytes: WELL_KNOWN_CAP_BYTES,
    maxRedirects: 0,
    accept: 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5',
  });
  if (home.ok) {
    documents.home = {
      url: home.url,
      linkHeader: home.headers.get('link'),
      html: mediaTypeOf(home.headers.get('content-type')).includes('html')
        ? new TextDecoder().decode(home.bytes)
        : null,
    };
  }
  return documents;
}

/**
 * The site scanner's check, as that scanner measures it. Discovery first (documents from `options.documents`, or
 * read now); then, with an endpoint, one MCP session: initialize offering 2025-11-25 (the version the server
 * answers is accepted), notifications/initialized, and tools/list only when the tools capability is declared; at
 * most 3 POSTs, 12 s in all (no step has a limit of its own), 64 KB per answer, no redirect followed (any 3xx is
 * not measured), no DELETE, no other method. The verdict: pass (a named tool listed), partial, fail, not-measured
 * or out-of-scope (no endpoint, and /mcp answered without signalling MCP). Up to 25 tool names are kept.
 *
 * @example
 * const site = await checkSite('https://example.com', { ...nodeNetwork });
 * site.verdict // 'pass' | 'partial' | 'fail' | 'not-measured' | 'out-of-scope'
 */
export async function checkSite(origin: string, options?: CheckSiteOptions): Promise<SiteCheckResult> {
  const base = checkOrigin(origin);
  const network = resolveNetworkSettings(options);
  const timeLeft = options?.scanTimeLeftMs;
  if (timeLeft !== undefined && (typeof timeLeft !== 'number' || Number.isNaN(timeLeft))) {
    throw new ProbeInputError('invalid-option', 'scanTimeLeftMs must be a number of milliseconds');
  }
  const documents = options?.documents ?? (await readDocumentsWith(base, network));
  const discovery = await discoverWith(base, documents, network, false);
  const noSession = (judged: SiteJudgement): SiteCheckResult => siteResult(base, discovery, judged, null);

  if (discovery.endpoint === null) {
    if (discovery.mcpPath !== null && discovery.mcpPath.failure !== null) {
      const refused = discovery.mcpPath.failure.startsWith('guard:');
      return noSession(
        judgement('not-measured', refused ? 'guard' : 'no-answer', `GET /mcp: ${discovery.mcpPath.failure}`),
      );
    }
    // A 3xx on /mcp is not followed, so what it points at stays unknown: not measured, not out of scope.
    const pathStatus = discovery.mcpPath?.httpStatus ?? null;
    if (pathStatus !== null && isRedirectStatus(pathStatus))
      return noSession(judgement('not-measured', 'redirect', REDIRECT_MESSAGE));
    return noSession(
      judgement(
        'out-of-scope',
        'no-endpoint',
        'no document names an endpoint the scan opens, and /mcp does not signal MCP',
      ),
    );
  }
  if (discovery.optedOut)
    return noSession(judgement('not-measured', 'opted-out', `the endpoint's subdomain is on the removal list`));
  if (timeLeft !== undefined && timeLeft < SITE_SESSION_BUDGET_MS) {
    return noSession(
      judgement(
        'not-measured',
        'too-little-time',
        `the scan has ${Math.max(0, Math.round(timeLeft))} ms left; the session needs ${SITE_SESSION_BUDGET_MS}`,
      ),
    );
  }
  const guard = checkTarget(discovery.endpoint, { allowPrivate: network.allowPrivate, optedOut: network.optedOut });
  if (!guard.ok) return noSession(judgement('not-measured', 'guard', guard.message));

  const outcome = await new HttpHandshake(discovery.endpoint, network, {
    protocolVersion: SITE_CHECK_PROTOCOL_VERSION,
    clientInfo: DEFAULT_CLIENT_INFO,
    maxRedirects: 0,
    initializeCapBytes: SITE_ANSWER_CAP_BYTES,
    toolsPageCapBytes: SITE_ANSWER_CAP_BYTES,
    maxToolPages: 1,
    maxToolsKept: MAX_TOOLS_KEPT,
    listToolsOnlyWhenDeclared: true,
    sendDelete: false,
    // A sign-in request is followed by the same read-only discovery as the daily check, so a site owner learns
    // whether an agent can find where to sign in; it shares the session's deadline.
    discoverAuth: true,
    deadlineMs: SITE_SESSION_BUDGET_MS,
    // The 12 s cover the session as a whole; the daily probe's 8 s / 5 s / 8 s step limits are not the site check's.
    perStepLimits: false,
    anyRedirectEnds: true,
  }).run();
  return siteResult(base, discovery, judgeSiteSession(outcome), outcome);
}
