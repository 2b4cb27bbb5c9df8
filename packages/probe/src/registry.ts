// Runtime-neutral module (no node: imports; network only through the injected client): reading the official MCP registry's listing, and
// choosing which remote of an entry to probe.
import { describeType } from '@mcp-atlas/base';
import {
  REGISTRY_MAX_PAGES,
  REGISTRY_OFFICIAL_META_KEY,
  REGISTRY_PAGE_CAP_BYTES,
  REGISTRY_PAGE_LIMIT,
  REGISTRY_PAGE_TIMEOUT_MS,
  REGISTRY_SERVERS_PATH,
} from './constants.js';
import { ProbeInputError, RegistryReadError } from './errors.js';
import { getDocument } from './get-document.js';
import { decodeUtf8 } from './http.js';
import { describeTooDeep, parseBoundedJson } from './json-depth.js';
import { type NetworkOptions, resolveNetworkSettings } from './options.js';
import { type RegistryEntry, RegistryMetaSchema, type RegistryRemote, RegistryServerSchema } from './schemas.js';

/** Options of `listRegistryServers`. */
export interface ListRegistryOptions extends NetworkOptions {
  /** Called for each listed item that is not a usable entry (no server name, say), with why. */
  onSkip?: (item: unknown, why: string) => void;
}

function pageUrl(base: string, cursor: string | null): string {
  const url = new URL(`${base}${REGISTRY_SERVERS_PATH}`);
  url.searchParams.set('limit', String(REGISTRY_PAGE_LIMIT));
  // Asking for latest versions only keeps pages small; the client-side filter below still decides.
  url.searchParams.set('version', 'latest');
  if (cursor !== null) url.searchParams.set('cursor', cursor);
  return url.href;
}

/** @internal One listed item as an entry, or why it is not one. The directory reader reads the same pages. */
export function toEntry(item: unknown): { entry: RegistryEntry } | { skip: string } {
  if (item === null || typeof item !== 'object') return { skip: 'not an object' };
  const server = RegistryServerSchema.safeParse((item as { server?: unknown }).server);
  if (!server.success) return { skip: `server: ${server.error.issues[0]?.message ?? 'invalid'}` };
  const rawMeta = (item as { _meta?: Record<string, unknown> })._meta;
  const official = rawMeta !== null && typeof rawMeta === 'object' ? rawMeta[REGISTRY_OFFICIAL_META_KEY] : undefined;
  const meta = RegistryMetaSchema.safeParse(official ?? {});
  return { entry: { server: server.data, meta: meta.success ? meta.data : {} } };
}

/** True when an entry is listed: not deleted, and the latest version (an entry without the flag counts as latest). */
export function isListedEntry(entry: RegistryEntry): boolean {
  if (typeof entry.meta.status === 'string' && entry.meta.status.toLowerCase() === 'deleted') return false;
  return entry.meta.isLatest !== false;
}

/**
 * Lists the official MCP registry (`<baseUrl>/v0.1/servers`) as an async iterator of entries, page by
 * page through `metadata.nextCursor`, keeping only latest versions and leaving deleted entries out. It
 * stops on a repeated cursor or after 2,000 pages. A page that cannot be read throws
 * `RegistryReadError`: a quiet end would look like every remaining server leaving the registry.
 *
 * @example
 * for await (const entry of listRegistryServers('https://registry.modelcontextprotocol.io', nodeNetwork)) {
 *   const remote = pickRemote(entry);
 * }
 */
export async function* listRegistryServers(
  baseUrl: string,
  options?: ListRegistryOptions,
): AsyncGenerator<RegistryEntry, void, undefined> {
  if (typeof baseUrl !== 'string')
    throw new ProbeInputError(
      'invalid-origin',
      `baseUrl must be a string, got ${describeType(baseUrl, { article: true })}`,
    );
  let base: string;
  try {
    base = new URL(baseUrl).href.replace(/\/+$/, '');
  } catch {
    throw new ProbeInputError('invalid-origin', `baseUrl must be an absolute URL, got ${baseUrl.slice(0, 100)}`);
  }
  const network = resolveNetworkSettings(options);
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let page = 1; page <= REGISTRY_MAX_PAGES; page++) {
    const got = await getDocument(pageUrl(base, cursor), network, {
      timeoutMs: REGISTRY_PAGE_TIMEOUT_MS,
      capBytes: REGISTRY_PAGE_CAP_BYTES,
      maxRedirects: 0,
      accept: 'application/json',
    });
    if (!got.ok) throw new RegistryReadError(`registry page ${page}: ${got.reason}: ${got.message}`, page, null);
    if (got.status < 200 || got.status >= 300)
      throw new RegistryReadError(`registry page ${page} answered HTTP ${got.status}`, page, got.status);
    if (got.overCap)
      throw new RegistryReadError(`registry page ${page} is over ${REGISTRY_PAGE_CAP_BYTES} bytes`, page, got.status);
    const parsed = parseBoundedJson(decodeUtf8(got.bytes) ?? '');
    if (!parsed.ok && parsed.why === 'too-deep')
      throw new RegistryReadError(`registry page ${page}: ${describeTooDeep('the page')}`, page, got.status);
    if (!parsed.ok) throw new RegistryReadError(`registry page ${page} is not JSON`, page, got.status);
    const body = parsed.value;
    const servers = (body as { servers?: unknown } | null)?.servers;
    if (!Array.isArray(servers))
      throw new RegistryReadError(`registry page ${page} has no servers array`, page, got.status);
    for (const item of servers) {
      const read = toEntry(item);
      if ('skip' in read) {
        options?.onSkip?.(item, read.skip);
        continue;
      }
      if (isListedEntry(read.entry)) yield read.entry;
    }
    const next = (body as { metadata?: { nextCursor?: unknown } }).metadata?.nextCursor;
    if (typeof next !== 'string' || next === '' || seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}

/**
 * The remote to probe for a registry entry: the first `streamable-http` remote, else the first remote,
 * else null. Accepts a listing entry (`{ server: { remotes } }`) or a server object (`{ remotes }`).
 *
 * @example
 * pickRemote({ server: { name: 'x', remotes: [{ type: 'sse', url: 'https://a/sse' }, { type: 'streamable-http', url: 'https://a/mcp' }] } })
 * // { type: 'streamable-http', url: 'https://a/mcp' }
 */
export function pickRemote(entry: unknown): RegistryRemote | null {
  if (entry === null || typeof entry !== 'object') return null;
  const holder =
    'server' in entry &&
    (entry as { server?: unknown }).server !== null &&
    typeof (entry as { server?: unknown }).server === 'object'
      ? (entry as { server: object }).server
      : entry;
  const remotes = (holder as { remotes?: unknown }).remotes;
  if (!Array.isArray(remotes)) return null;
  const usable = remotes.filter(
    (r): r is RegistryRemote =>
      r !== null &&
      typeof r === 'object' &&
      typeof (r as { type?: unknown }).type === 'string' &&
      typeof (r as { url?: unknown }).url === 'string',
  );
  return usable.find((r) => r.type.toLowerCase() === 'streamable-http') ?? usable[0] ?? null;
}
