// Runtime-neutral module (no node: imports; network only through the injected client): finds a site's MCP endpoint in documents the scan
// already holds, in a fixed order, and falls back to one plain GET of /mcp, as the site scanner does.

import { describeType } from '@mcp-atlas/base';
import type { Deadline } from './clock.js';
import {
  MCP_DEFAULT_PATH,
  MCP_LINK_RELATIONS,
  MCP_PATH_GET_ACCEPT,
  MCP_PATH_GET_TIMEOUT_MS,
  SERVER_CARD_MEDIA_TYPES,
  SITE_ANSWER_CAP_BYTES,
} from './constants.js';
import { ProbeInputError } from './errors.js';
import { getDocument } from './get-document.js';
import { hostOf, isOptedOut } from './guard.js';
import { isRedirectStatus } from './handshake.js';
import { decodeUtf8, mediaTypeOf } from './http.js';
import { parseBoundedJson } from './json-depth.js';
import { type NetworkOptions, type NetworkSettings, resolveNetworkSettings } from './options.js';
import { checkOrigin } from './robots.js';
import type { DiscoveryResult, EndpointCandidate, EndpointSource, McpPathProbe } from './schemas.js';

/**
 * Documents a site scan already fetched. All optional; discovery reads what is there and fetches
 * nothing but `/mcp`. `catalogCards` maps a server card URL listed by the ai-catalog to that card.
 */
export interface SiteDocuments {
  serverCard?: unknown;
  legacyServerCards?: readonly unknown[];
  aiCatalog?: unknown;
  catalogCards?: Readonly<Record<string, unknown>>;
  /** The home page's Link header and HTML (only the head matters). */
  home?: { url?: string; linkHeader?: string | null; html?: string | null };
}

interface RawCandidate {
  readonly url: string;
  readonly source: EndpointSource;
  readonly transport: string | null;
}

function remotesOf(card: unknown): { type: string | null; url: string }[] {
  if (card === null || typeof card !== 'object') return [];
  const remotes = (card as { remotes?: unknown }).remotes;
  if (!Array.isArray(remotes)) return [];
  const out: { type: string | null; url: string }[] = [];
  for (const remote of remotes) {
    if (remote === null || typeof remote !== 'object') continue;
    const url = (remote as { url?: unknown }).url;
    const type = (remote as { type?: unknown }).type;
    if (typeof url === 'string') out.push({ type: typeof type === 'string' ? type.toLowerCase() : null, url });
  }
  return out;
}

/** The server card URLs an ai-catalog lists (entries whose type names an MCP server card). */
export function catalogCardUrls(catalog: unknown): string[] {
  if (catalog === null || typeof catalog !== 'object') return [];
  const entries = (catalog as { entries?: unknown }).entries;
  if (!Array.isArray(entries)) return [];
  const urls: string[] = [];
  for (const entry of entries) {
    if (entry === null || typeof entry !== 'object') continue;
    const type = (entry as { type?: unknown }).type;
    const url = (entry as { url?: unknown }).url;
    if (typeof url === 'string' && typeof type === 'string' && SERVER_CARD_MEDIA_TYPES.includes(type.toLowerCase()))
      urls.push(url);
  }
  return urls;
}

/**
 * The targets of a Link header whose relation is `mcp` or `mcp-server`, in order. Relations are
 * space-separated and compared case-insensitively (RFC 8288).
 *
 * @example
 * parseLinkHeader('<https://example.com/mcp>; rel="mcp", </style.css>; rel=stylesheet') // ['https://example.com/mcp']
 */
export function parseLinkHeader(header: string): string[] {
  const targets: string[] = [];
  const pattern = /<([^>]*)>((?:\s*;\s*[^;,<]+(?:=(?:"[^"]*"|[^;,]*))?)*)/g;
  for (const match of header.matchAll(pattern)) {
    const target = match[1] as string;
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(params);
    const value = rel === null ? '' : (rel[1] ?? rel[2] ?? '');
    if (
      value
        .toLowerCase()
        .split(/\s+/)
        .some((r) => MCP_LINK_RELATIONS.has(r))
    )
      targets.push(target);
  }
  return targets;
}

// One compiled pattern per attribute name: a page may hold thousands of tags.
const ATTRIBUTE_PATTERNS = new Map<string, RegExp>();

function attribute(tag: string, name: string): string | null {
  let pattern = ATTRIBUTE_PATTERNS.get(name);
  if (pattern === undefined) {
    pattern = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i');
    ATTRIBUTE_PATTERNS.set(name, pattern);
  }
  const match = pattern.exec(tag);
  if (match === null) return null;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? '');
}

function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? _,
  );
}

const OPEN_COMMENT = '<!--';
const CLOSE_COMMENT = '-->';

/** True when `<link` starts at `at` (any case) and the name ends there (`<linkx` is another element). */
function startsLinkTag(html: string, at: number): boolean {
  if (html.slice(at + 1, at + 5).toLowerCase() !== 'link') return false;
  // A word character would make it another name; anything else (space, `/`, `>`, the end) ends it.
  return !/\w/.test(html.charAt(at + 5));
}

/**
 * The `href`s of `<link>` elements whose `rel` is `mcp` or `mcp-server`, in document order. A small
 * tag scanner, not an HTML parser: comments are skipped (an unclosed one runs to the end, as in HTML),
 * and only `<link ...>` tags are read. One pass from left to right, each character looked at a bounded
 * number of times, so its time grows linearly with the page whatever the page holds.
 */
export function findLinkElements(html: string): string[] {
  const hrefs: string[] = [];
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf('<', i);
    if (open === -1) break;
    if (html.startsWith(OPEN_COMMENT, open)) {
      const close = html.indexOf(CLOSE_COMMENT, open + OPEN_COMMENT.length);
      if (close === -1) break;
      i = close + CLOSE_COMMENT.length;
      continue;
    }
    if (!startsLinkTag(html, open)) {
      i = open + 1;
      continue;
    }
    const end = html.indexOf('>', open);
    // No `>` anywhere after: no tag can end, so nothing more can be read.
    if (end === -1) break;
    const tag = html.slice(open, end + 1);
    i = end + 1;
    const rel = attribute(tag, 'rel');
    const href = attribute(tag, 'href');
    if (rel === null || href === null) continue;
    if (
      rel
        .toLowerCase()
        .split(/\s+/)
        .some((r) => MCP_LINK_RELATIONS.has(r))
    )
      hrefs.push(href.trim());
  }
  return hrefs;
}

function collectCandidates(origin: string, documents: SiteDocuments): RawCandidate[] {
  const out: RawCandidate[] = [];
  for (const remote of remotesOf(documents.serverCard))
    out.push({ url: remote.url, source: 'server-card', transport: remote.type });
  for (const card of documents.legacyServerCards ?? []) {
    for (const remote of remotesOf(card))
      out.push({ url: remote.url, source: 'legacy-server-card', transport: remote.type });
  }
  for (const cardUrl of catalogCardUrls(documents.aiCatalog)) {
    const card = documents.catalogCards?.[cardUrl];
    for (const remote of remotesOf(card)) out.push({ url: remote.url, source: 'ai-catalog', transport: remote.type });
  }
  const homeUrl = documents.home?.url ?? `${origin}/`;
  const resolve = (href: string): string => {
    try {
      return new URL(href, homeUrl).href;
    } catch {
      return href;
    }
  };
  const linkHeader = documents.home?.linkHeader;
  if (typeof linkHeader === 'string')
    for (const target of parseLinkHeader(linkHeader))
      out.push({ url: resolve(target), source: 'link-header', transport: null });
  const html = documents.home?.html;
  if (typeof html === 'string')
    for (const href of findLinkElements(html))
      out.push({ url: resolve(href), source: 'link-element', transport: null });
  return out;
}

/**
 * Why a named endpoint is not opened, or null when it may be: it must be on the measured site (the
 * origin's host or a subdomain of it, on the same port), not a template, not an sse remote, not plain
 * http on an https site, and carry no user name or password. A server card's remote must also be
 * streamable-http.
 */
export function rejectCandidate(
  candidate: { url: string; source: EndpointSource; transport: string | null },
  origin: string,
): string | null {
  if (candidate.transport === 'sse') return 'an sse remote';
  if (
    (candidate.source === 'server-card' ||
      candidate.source === 'legacy-server-card' ||
      candidate.source === 'ai-catalog') &&
    candidate.transport !== 'streamable-http'
  ) {
    return `a ${candidate.transport ?? 'untyped'} remote, not streamable-http`;
  }
  if (candidate.url.includes('{') || candidate.url.includes('}')) return 'a URL template';
  let url: URL;
  try {
    url = new URL(candidate.url);
  } catch {
    return 'not a URL';
  }
  const site = new URL(origin);
  if (url.username !== '' || url.password !== '') return 'carries a user name or password';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `not http(s) (${url.protocol})`;
  if (site.protocol === 'https:' && url.protocol === 'http:') return 'plain http on an https site';
  const host = hostOf(url);
  const siteHost = hostOf(site);
  if (host !== siteHost && !host.endsWith(`.${siteHost}`)) return `on another site (${host})`;
  if (url.port !== site.port || url.protocol !== site.protocol) return 'on another port';
  return null;
}

/**
 * What the status and headers of the /mcp GET settle on their own: true (405 whose Allow names POST, or an
 * event stream), false (a 401, whatever its challenge; a 3xx, which points elsewhere instead of answering),
 * or null when only the body can tell.
 */
function signalFromHeaders(status: number, allow: string | null, contentType: string | null): boolean | null {
  if (status === 401 || isRedirectStatus(status)) return false;
  if (status === 405 && allow !== null && allow.split(',').some((m) => m.trim().toUpperCase() === 'POST')) return true;
  if (mediaTypeOf(contentType) === 'text/event-stream') return true;
  return null;
}

/**
 * Whether a plain GET answer signals MCP: 405 whose Allow names POST, a JSON-RPC 2.0 message, or an event
 * stream. A 401 never does, nor a 3xx (checkSite reports that as a redirect it does not follow).
 */
export function signalsMcp(
  status: number,
  allow: string | null,
  contentType: string | null,
  body: string | null,
): boolean {
  const settled = signalFromHeaders(status, allow, contentType);
  if (settled !== null) return settled;
  if (body === null) return false;
  // A body nested past MAX_JSON_DEPTH is not read, and so signals nothing.
  const parsed = parseBoundedJson(body);
  if (!parsed.ok) return false;
  const messages = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  return messages.some((m) => m !== null && typeof m === 'object' && (m as { jsonrpc?: unknown }).jsonrpc === '2.0');
}

/**
 * @internal The one plain GET of /mcp, with a browser's Accept. The status and headers are judged first; the
 * body (capped) is read only when they leave the answer open, to look for a JSON-RPC message. An event
 * stream or a 405 naming POST counts at once and its body is dropped unread: a stream would never end.
 */
export async function probeMcpPath(
  origin: string,
  network: NetworkSettings,
  deadline?: Deadline,
): Promise<McpPathProbe> {
  const url = `${origin}${MCP_DEFAULT_PATH}`;
  const got = await getDocument(url, network, {
    timeoutMs: MCP_PATH_GET_TIMEOUT_MS,
    capBytes: SITE_ANSWER_CAP_BYTES,
    maxRedirects: 0,
    accept: MCP_PATH_GET_ACCEPT,
    wantsBody: (status, headers) =>
      signalFromHeaders(status, headers.get('allow'), headers.get('content-type')) === null,
    ...(deadline === undefined ? {} : { deadline }),
  });
  if (!got.ok)
    return {
      url,
      httpStatus: null,
      allow: null,
      contentType: null,
      signalsMcp: false,
      failure: `${got.reason}: ${got.message}`,
    };
  const allow = got.headers.get('allow');
  const contentType = got.headers.get('content-type');
  const body = got.overCap ? null : decodeUtf8(got.bytes);
  return {
    url,
    httpStatus: got.status,
    allow,
    contentType,
    signalsMcp: signalsMcp(got.status, allow, contentType, body),
    failure: null,
  };
}

/** Options of `discoverEndpoint`. */
export interface DiscoverOptions extends NetworkOptions {
  /** Skip the GET of /mcp (discovery then reads documents only). */
  skipMcpPath?: boolean;
}

/**
 * Finds the MCP endpoint of a site, in order: a streamable-http remote in the server card, in a legacy
 * server card, in a server card the ai-catalog lists, a Link header with rel `mcp`/`mcp-server`, a
 * `<link>` with that rel, and finally `/mcp` when one plain GET of it signals MCP. The first endpoint on
 * the measured site wins; the others are listed with why they were passed over. An endpoint on a
 * subdomain the removal list (`optedOut`) names is returned with `optedOut: true`, and must not be
 * requested. Only the GET of /mcp touches the network.
 */
export async function discoverEndpoint(
  origin: string,
  documents: SiteDocuments = {},
  options?: DiscoverOptions,
): Promise<DiscoveryResult> {
  const base = checkOrigin(origin);
  if (documents === null || typeof documents !== 'object') {
    throw new ProbeInputError(
      'invalid-option',
      `documents must be an object, got ${describeType(documents, { article: true })}`,
    );
  }
  const network = resolveNetworkSettings(options);
  return discoverWith(base, documents, network, options?.skipMcpPath === true);
}

/** @internal discoverEndpoint with settings already checked. */
export async function discoverWith(
  origin: string,
  documents: SiteDocuments,
  network: NetworkSettings,
  skipMcpPath: boolean,
  deadline?: Deadline,
): Promise<DiscoveryResult> {
  const candidates: EndpointCandidate[] = [];
  const siteHost = hostOf(new URL(origin));
  for (const candidate of collectCandidates(origin, documents)) {
    const rejected = rejectCandidate(candidate, origin);
    candidates.push({ url: candidate.url, source: candidate.source, rejected });
    if (rejected !== null) continue;
    const host = hostOf(new URL(candidate.url));
    const optedOut = host !== siteHost && isOptedOut(host, network.optedOut);
    return { endpoint: new URL(candidate.url).href, source: candidate.source, optedOut, candidates, mcpPath: null };
  }
  if (skipMcpPath) return { endpoint: null, source: null, optedOut: false, candidates, mcpPath: null };
  const mcpPath = await probeMcpPath(origin, network, deadline);
  if (mcpPath.signalsMcp) {
    candidates.push({ url: mcpPath.url, source: 'mcp-path', rejected: null });
    return { endpoint: mcpPath.url, source: 'mcp-path', optedOut: false, candidates, mcpPath };
  }
  return { endpoint: null, source: null, optedOut: false, candidates, mcpPath };
}
