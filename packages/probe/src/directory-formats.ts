// Pure module: the eight directories' public formats. For each: the first request, the headers its token goes
// in, and how one answer becomes entries and the next request. A format never fetches; directory-read.ts does,
// with the guard, the caps and the rate-limit waits. An answer that is not in the documented shape is
// `malformed`, with why, and ends that directory's read there (its list is then known to be cut).
import type { SourceEntry, SourceFact, SourceName } from '@mcp-atlas/discovery';
import {
  BEST_OF_SNAPSHOT_PATTERN,
  DIRECTORY_DEFAULTS,
  DIRECTORY_PAGE_PREFIXES,
  DIRECTORY_PAGE_SIZE,
  DOCKER_MCP_NAMESPACE,
  GITHUB_DISCOVERY_TOPICS,
  GITHUB_SEARCH_RESULT_LIMIT,
  SMITHERY_DEPLOYMENT_ORIGIN,
} from './directory-constants.js';
import { readAwesomeList, readBestOfSnapshot } from './directory-lists.js';
import { isListedEntry, toEntry } from './registry.js';
import type { RegistryEntry } from './schemas.js';

/** One request of a directory read: its URL, and whether the answer is JSON or a text document. */
export interface PageRequest {
  url: string;
  kind: 'json' | 'text';
}

/** What one answer gave: its entries, the next request (null at the end), and whether the list is known cut. */
export type PageParse = { entries: SourceEntry[]; next: PageRequest | null; cut?: string } | { malformed: string };

/** How one directory is read. */
export interface DirectoryFormat {
  /** The first request of each chain of pages (GitHub topics: one chain per topic). */
  first(baseUrl: string): PageRequest[];
  /** The headers that carry a token, sent to the base URL's origin only. */
  tokenHeaders(token: string): Record<string, string>;
  /** The answer headers the format reads (pagination links). */
  answerHeaders?: readonly string[];
  parse(body: unknown, request: PageRequest, headers: Readonly<Record<string, string>>): PageParse;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const num = (value: unknown): number | null => {
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : null;
};
const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

function withQuery(base: string, path: string, query: Record<string, string | null>): string {
  const url = new URL(`${base}${path}`);
  for (const [name, value] of Object.entries(query)) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** The array at `body[field]`, or null when the answer has none. */
function listAt(body: unknown, field: string): unknown[] | null {
  const list = isObject(body) ? body[field] : undefined;
  return Array.isArray(list) ? list : null;
}

/**
 * An official-registry-shaped entry (the registry's own, and PulseMCP's, which serves the same server.json) as a
 * catalog entry: its name, title, repository, remotes and packages.
 */
function serverJsonEntry(entry: RegistryEntry, registryId: string | null): SourceEntry {
  const server = entry.server as Json;
  const repository = isObject(server.repository) ? str(server.repository.url) : null;
  const packages = Array.isArray(server.packages) ? server.packages.filter(isObject) : [];
  return {
    sourceId: entry.server.name,
    name: str(server.title) ?? entry.server.name,
    description: str(server.description),
    registryId,
    repositoryUrl: repository,
    remotes: (entry.server.remotes ?? []).map((remote) => ({ url: remote.url, transport: remote.type })),
    packages: packages.map((item) => ({
      registry: String(item.registryType ?? '').toLowerCase(),
      name: String(item.identifier ?? ''),
      version: str(item.version),
    })),
    facts: { version: entry.server.version ?? null },
  };
}

/**
 * An official MCP Registry listing entry as a catalog entry; its name is also the fallback key.
 *
 * @example officialRegistryEntry({ server: { name: 'io.github.acme/tools' }, meta: {} }).registryId // 'io.github.acme/tools'
 */
export function officialRegistryEntry(entry: RegistryEntry): SourceEntry {
  return serverJsonEntry(entry, entry.server.name);
}

/** A `{ servers: [...], metadata: { nextCursor } }` page (the official registry and PulseMCP). */
function cursorPage(
  body: unknown,
  request: PageRequest,
  toSource: (entry: RegistryEntry, item: Json) => SourceEntry,
): PageParse {
  const servers = listAt(body, 'servers');
  if (servers === null) return { malformed: 'the page has no servers array' };
  const entries: SourceEntry[] = [];
  for (const item of servers) {
    const read = toEntry(item);
    if ('entry' in read && isListedEntry(read.entry)) entries.push(toSource(read.entry, item as Json));
  }
  const metadata = isObject(body) && isObject(body.metadata) ? body.metadata : {};
  const cursor = str(metadata.nextCursor);
  if (cursor === null) return { entries, next: null };
  const url = new URL(request.url);
  url.searchParams.set('cursor', cursor);
  return { entries, next: { url: url.href, kind: 'json' } };
}

const officialRegistry: DirectoryFormat = {
  first: (base) => [
    {
      url: withQuery(base, DIRECTORY_DEFAULTS['official-registry'].path, {
        limit: String(DIRECTORY_PAGE_SIZE),
        version: 'latest',
      }),
      kind: 'json',
    },
  ],
  tokenHeaders: bearer,
  parse: (body, request) => cursorPage(body, request, officialRegistryEntry),
};

// PulseMCP's v0.1 API serves server.json records with its own `_meta`: visitor estimates and an official flag.
const pulsemcp: DirectoryFormat = {
  first: (base) => [
    { url: withQuery(base, DIRECTORY_DEFAULTS.pulsemcp.path, { limit: String(DIRECTORY_PAGE_SIZE) }), kind: 'json' },
  ],
  tokenHeaders: (token) => ({ 'x-api-key': token }),
  parse: (body, request) =>
    cursorPage(body, request, (entry, item) => {
      const source = serverJsonEntry(entry, null);
      const meta =
        isObject(item._meta) && isObject(item._meta['com.pulsemcp/server']) ? item._meta['com.pulsemcp/server'] : {};
      return {
        ...source,
        facts: {
          ...source.facts,
          visitorsWeek: num(meta.visitorsEstimateMostRecentWeek),
          visitorsTotal: num(meta.visitorsEstimateTotal),
          official: bool(meta.isOfficial),
        },
      };
    }),
};

const glamaServer = (item: Json): SourceEntry | null => {
  const id = str(item.id);
  const name = str(item.name);
  if (id === null || name === null) return null;
  const attributes = Array.isArray(item.attributes) ? item.attributes.filter((a) => typeof a === 'string') : [];
  const license = isObject(item.spdxLicense) ? str(item.spdxLicense.name) : null;
  const hosting = attributes.filter((a) => a.startsWith('hosting:')).map((a) => a.slice('hosting:'.length));
  return {
    sourceId: id,
    name,
    description: str(item.description),
    repositoryUrl: isObject(item.repository) ? str(item.repository.url) : null,
    pageUrl: str(item.url),
    facts: {
      license,
      hosting: hosting.length > 0 ? hosting.sort().join(',') : null,
      remoteCapable: hosting.includes('remote-capable'),
    },
  };
};

// Glama: `?first=N&after=<cursor>`, answered with `{ pageInfo: { endCursor, hasNextPage }, servers }`.
const glama: DirectoryFormat = {
  first: (base) => [
    { url: withQuery(base, DIRECTORY_DEFAULTS.glama.path, { first: String(DIRECTORY_PAGE_SIZE) }), kind: 'json' },
  ],
  tokenHeaders: bearer,
  parse: (body, request) => {
    const servers = listAt(body, 'servers');
    const info = isObject(body) ? body.pageInfo : undefined;
    if (servers === null || !isObject(info)) return { malformed: 'the page has no servers array or pageInfo' };
    const entries = servers.filter(isObject).flatMap((item) => glamaServer(item) ?? []);
    const cursor = str(info.endCursor);
    if (info.hasNextPage !== true || cursor === null) return { entries, next: null };
    const url = new URL(request.url);
    url.searchParams.set('after', cursor);
    return { entries, next: { url: url.href, kind: 'json' } };
  },
};

const smitheryServer = (item: Json): SourceEntry | null => {
  const qualifiedName = str(item.qualifiedName);
  if (qualifiedName === null) return null;
  const homepage = str(item.homepage);
  const deployed = bool(item.isDeployed) ?? bool(item.remote);
  return {
    sourceId: qualifiedName,
    name: str(item.displayName) ?? qualifiedName,
    description: str(item.description),
    // A homepage is sometimes the repository itself; the merge keeps it only when it names one on GitHub.
    repositoryUrl: homepage,
    pageUrl: `${DIRECTORY_PAGE_PREFIXES.smithery}${qualifiedName}`,
    facts: {
      useCount: num(item.useCount),
      deployed,
      // Smithery's hosted copy answers through its own proxy: kept as a link, never checked as the server.
      deploymentUrl: deployed === true ? `${SMITHERY_DEPLOYMENT_ORIGIN}/${qualifiedName}/mcp` : null,
    },
  };
};

// Smithery: `?page=N&pageSize=M`, answered with `{ servers, pagination: { currentPage, totalPages } }`.
const smithery: DirectoryFormat = {
  first: (base) => [
    {
      url: withQuery(base, DIRECTORY_DEFAULTS.smithery.path, { page: '1', pageSize: String(DIRECTORY_PAGE_SIZE) }),
      kind: 'json',
    },
  ],
  tokenHeaders: bearer,
  parse: (body, request) => {
    const servers = listAt(body, 'servers');
    const pagination = isObject(body) ? body.pagination : undefined;
    if (servers === null || !isObject(pagination)) return { malformed: 'the page has no servers array or pagination' };
    const entries = servers.filter(isObject).flatMap((item) => smitheryServer(item) ?? []);
    const current = num(pagination.currentPage);
    const total = num(pagination.totalPages);
    if (current === null || total === null || current >= total) return { entries, next: null };
    const url = new URL(request.url);
    url.searchParams.set('page', String(current + 1));
    return { entries, next: { url: url.href, kind: 'json' } };
  },
};

const dockerImage = (item: Json): SourceEntry | null => {
  const name = str(item.name);
  if (name === null) return null;
  const namespace = str(item.namespace) ?? DOCKER_MCP_NAMESPACE;
  const image = `${namespace}/${name}`;
  return {
    sourceId: image,
    name,
    description: str(item.description),
    packages: [{ registry: 'oci', name: `docker.io/${image}` }],
    pageUrl: `${DIRECTORY_PAGE_PREFIXES['docker-hub']}${image}`,
    facts: {
      pulls: num(item.pull_count),
      stars: num(item.star_count),
      lastUpdated: str(item.last_updated),
      dockerBuilt: namespace === DOCKER_MCP_NAMESPACE,
    },
  };
};

// Docker Hub: `?page_size=N&page=1`, answered with `{ count, next, results }`; `next` is the next page's URL.
const dockerHub: DirectoryFormat = {
  first: (base) => [
    {
      url: withQuery(base, DIRECTORY_DEFAULTS['docker-hub'].path, {
        page_size: String(DIRECTORY_PAGE_SIZE),
        page: '1',
      }),
      kind: 'json',
    },
  ],
  tokenHeaders: bearer,
  parse: (body) => {
    const results = listAt(body, 'results');
    if (results === null) return { malformed: 'the page has no results array' };
    const entries = results.filter(isObject).flatMap((item) => dockerImage(item) ?? []);
    const next = isObject(body) ? str(body.next) : null;
    return { entries, next: next === null ? null : { url: next, kind: 'json' } };
  },
};

// best-of-mcp-servers: GitHub's contents listing of `history/`, then the newest `<day>_projects.csv` in it.
const bestOf: DirectoryFormat = {
  first: (base) => [{ url: `${base}${DIRECTORY_DEFAULTS['best-of-mcp-servers'].path}`, kind: 'json' }],
  tokenHeaders: bearer,
  parse: (body, request) => {
    if (request.kind === 'text') {
      const read = readBestOfSnapshot(String(body));
      return read.ok ? { entries: read.entries, next: null } : { malformed: read.why };
    }
    if (!Array.isArray(body)) return { malformed: 'the history listing is not an array' };
    const snapshots = body
      .filter(isObject)
      .filter((file) => BEST_OF_SNAPSHOT_PATTERN.test(String(file.name)) && str(file.download_url) !== null)
      .sort((a, b) => String(b.name).localeCompare(String(a.name)));
    const newest = snapshots[0];
    if (newest === undefined) return { malformed: 'the history folder holds no projects snapshot' };
    return { entries: [], next: { url: String(newest.download_url), kind: 'text' } };
  },
};

const awesome: DirectoryFormat = {
  first: (base) => [{ url: `${base}${DIRECTORY_DEFAULTS['awesome-mcp-servers'].path}`, kind: 'text' }],
  tokenHeaders: bearer,
  parse: (body) => {
    const read = readAwesomeList(String(body));
    return read.ok ? { entries: read.entries, next: null } : { malformed: read.why };
  },
};

/** The URL a Link header names for `rel="next"`, or null. */
export function nextLink(link: string | undefined): string | null {
  if (link === undefined) return null;
  for (const part of link.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part);
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}

const githubRepository = (item: Json): SourceEntry | null => {
  const fullName = str(item.full_name);
  if (fullName === null) return null;
  const license = isObject(item.license) ? str(item.license.spdx_id) : null;
  const topics: SourceFact = Array.isArray(item.topics)
    ? item.topics.filter((t) => typeof t === 'string').join(',')
    : null;
  return {
    sourceId: fullName,
    name: str(item.name) ?? fullName,
    description: str(item.description),
    repositoryUrl: str(item.html_url) ?? `https://github.com/${fullName}`,
    facts: { stars: num(item.stargazers_count), license, topics, archived: bool(item.archived) },
  };
};

// GitHub's repository search: one query per topic, `per_page` and `page`, the next page in the Link header. It
// answers at most 1,000 results per query, so a longer total (or `incomplete_results`) is a cut list.
const githubTopics: DirectoryFormat = {
  first: (base) =>
    GITHUB_DISCOVERY_TOPICS.map((topic) => ({
      url: withQuery(base, DIRECTORY_DEFAULTS['github-topics'].path, {
        q: `topic:${topic}`,
        per_page: String(DIRECTORY_PAGE_SIZE),
        page: '1',
      }),
      kind: 'json' as const,
    })),
  tokenHeaders: bearer,
  answerHeaders: ['link'],
  parse: (body, _request, headers) => {
    const items = listAt(body, 'items');
    if (items === null || !isObject(body)) return { malformed: 'the page has no items array' };
    const entries = items.filter(isObject).flatMap((item) => githubRepository(item) ?? []);
    const total = num(body.total_count);
    const cut =
      body.incomplete_results === true
        ? 'GitHub marked the search incomplete'
        : total !== null && total > GITHUB_SEARCH_RESULT_LIMIT
          ? `the search has ${total} results, over the ${GITHUB_SEARCH_RESULT_LIMIT} GitHub returns`
          : undefined;
    const next = nextLink(headers.link);
    return { entries, next: next === null ? null : { url: next, kind: 'json' }, ...(cut === undefined ? {} : { cut }) };
  },
};

/** Each directory's format, by source name. */
export const DIRECTORY_FORMATS: Readonly<Record<SourceName, DirectoryFormat>> = Object.freeze({
  'official-registry': officialRegistry,
  glama,
  pulsemcp,
  smithery,
  'docker-hub': dockerHub,
  'best-of-mcp-servers': bestOf,
  'awesome-mcp-servers': awesome,
  'github-topics': githubTopics,
});
