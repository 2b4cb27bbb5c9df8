/**
 * The day's catalog: every directory's entries and yesterday's catalog merged into one record per server. Pure
 * module: the day is an argument, and the result depends only on the inputs (their order included only where a
 * rule says so).
 *
 * - Keys. Entries that share a normalized GitHub URL or an official registry name are one server. Its key is the
 *   GitHub URL, else `registry:<name>`, else `<source>:<id>` for an entry with neither. A GitHub URL that two
 *   registry names claim (a repository holding several servers) links nothing: each registry name is its own
 *   server, and an entry that names only that URL is the repository's own record.
 * - Priority. Fields come from the entry of the source earliest in SOURCES (the official registry first), then
 *   the lower source id; later sources only fill what is empty. Remotes and packages are the union, in that order.
 * - Links. External pages (Glama, Smithery, PulseMCP, Docker Hub, npm, PyPI) are taken from today's entries and
 *   kept from yesterday's record when today has none: a link once known is never blanked.
 * - Lifecycle. A server no source lists today is deactivated, never deleted, and only when every source that
 *   ever listed it read its whole list today; a failed or cut read deactivates nothing, and neither does a
 *   whole read that lists no server at all (a directory does not empty overnight; its answer is broken). Listed again, it is active.
 */
import { dayStartMs } from '@mcp-atlas/base';
import {
  EXTERNAL_LINK_KINDS,
  PACKAGE_PAGE_PREFIXES,
  REGISTRY_KEY_PREFIX,
  SOURCE_PAGE_LINKS,
  SOURCES,
} from './constants.js';
import {
  type CatalogPackage,
  type CatalogRemote,
  type LeftOutEntry,
  priorityOf,
  type ReadEntry,
  readEntry,
  type SourceFact,
  type SourceName,
  type SourceRead,
} from './entries.js';
import { DiscoveryInputError } from './errors.js';

/** An external page a server links to. */
export type LinkKind = (typeof EXTERNAL_LINK_KINDS)[number];

/** When one source listed a server: under which id, first and last. */
export interface SourceSighting {
  sourceId: string;
  firstSeen: string;
  lastSeen: string;
}

/** One server of the catalog. */
export interface CatalogServer {
  /** `https://github.com/{owner}/{repo}`, else `registry:<name>`, else `<source>:<id>`. */
  key: string;
  /** Earlier keys of this server (a record that two sources later showed to be this one). */
  aliases: string[];
  repositoryUrl: string | null;
  registryId: string | null;
  name: string;
  description: string | null;
  remotes: CatalogRemote[];
  packages: CatalogPackage[];
  externalUrls: Partial<Record<LinkKind, string>>;
  /** What each source adds, by source. */
  facts: Partial<Record<SourceName, Record<string, SourceFact>>>;
  /** Every source that ever listed the server, with when. */
  sources: Partial<Record<SourceName, SourceSighting>>;
  firstSeen: string;
  lastSeen: string;
  active: boolean;
  /** The day it was deactivated; null while active. */
  deactivatedOn: string | null;
}

/** The merged catalog, sorted by key, and the entries left out with their reasons. */
export interface MergeResult {
  servers: CatalogServer[];
  leftOut: LeftOutEntry[];
}

// ---------------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------------

const registryKey = (id: string): string => `${REGISTRY_KEY_PREFIX}${id}`;
const ownKey = (entry: ReadEntry): string => `${entry.source}:${entry.sourceId}`;

/** GitHub URLs that two or more registry names claim, from today's entries and yesterday's servers. */
function sharedRepos(entries: readonly ReadEntry[], previous: readonly CatalogServer[]): Set<string> {
  const claims = new Map<string, Set<string>>();
  const claim = (repo: string | null, registryId: string | null) => {
    if (repo === null || registryId === null) return;
    const ids = claims.get(repo) ?? new Set();
    ids.add(registryId);
    claims.set(repo, ids);
  };
  for (const entry of entries) claim(entry.repo, entry.registryId);
  for (const server of previous) claim(server.repositoryUrl, server.registryId);
  return new Set([...claims].filter(([, ids]) => ids.size > 1).map(([repo]) => repo));
}

/** The keys that link a record to others: its registry name, and its GitHub URL unless a registry name outranks it. */
function linkKeys(repo: string | null, registryId: string | null, shared: ReadonlySet<string>): string[] {
  const keys: string[] = [];
  if (registryId !== null) keys.push(registryKey(registryId));
  if (repo !== null && (registryId === null || !shared.has(repo))) keys.push(repo);
  return keys;
}

/** Union-find over key strings, with path halving. */
class KeyGroups {
  private readonly parent = new Map<string, string>();

  find(key: string): string {
    let node = key;
    for (;;) {
      const up = this.parent.get(node);
      if (up === undefined) {
        this.parent.set(node, node);
        return node;
      }
      if (up === node) return node;
      const grand = this.parent.get(up) ?? up;
      this.parent.set(node, grand);
      node = grand;
    }
  }

  join(keys: readonly string[]): string {
    const [first, ...rest] = keys.map((key) => this.find(key));
    if (first === undefined) throw new Error('join needs a key');
    for (const root of rest) if (root !== first) this.parent.set(root, first);
    return first;
  }
}

// ---------------------------------------------------------------------------------------------------
// One server
// ---------------------------------------------------------------------------------------------------

interface Group {
  entries: ReadEntry[];
  previous: CatalogServer[];
}

function byPriority(a: ReadEntry, b: ReadEntry): number {
  return a.priority - b.priority || (a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0);
}

function byKey(a: CatalogServer, b: CatalogServer): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The group's key (its entries and records in rule order): an unshared GitHub URL, else a registry name, else a shared URL, else an entry's own key. */
function keyOf(group: Group, shared: ReadonlySet<string>): string {
  const repos = [...group.entries.map((e) => e.repo), ...group.previous.map((s) => s.repositoryUrl)];
  const unshared = repos.find((repo) => repo !== null && !shared.has(repo));
  if (unshared) return unshared;
  const registryId = [...group.entries.map((e) => e.registryId), ...group.previous.map((s) => s.registryId)].find(
    (id) => id !== null,
  );
  if (registryId) return registryKey(registryId);
  const repo = repos.find((r) => r !== null);
  if (repo) return repo;
  const entry = group.entries[0];
  return entry !== undefined ? ownKey(entry) : (group.previous[0] as CatalogServer).key;
}

/** A stored server's aliases (none in a record written without them). */
function aliasesOf(server: CatalogServer): string[] {
  return Array.isArray(server.aliases) ? server.aliases.filter((alias) => typeof alias === 'string') : [];
}

// Days as YYYY-MM-DD order as strings.
function earlierDay(a: string, b: string): string {
  if (b < a) return b;
  return a;
}

function laterDay(a: string, b: string): string {
  if (b > a) return b;
  return a;
}

function firstOf<T>(values: readonly (T | null)[]): T | null {
  for (const value of values) if (value !== null) return value;
  return null;
}

function unionBy<T>(lists: readonly (readonly T[])[], idOf: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const list of lists) for (const item of list) if (!seen.has(idOf(item))) seen.set(idOf(item), item);
  return [...seen.values()];
}

/** Today's external links of the group's entries, the earliest source's first. */
function linksOf(entries: readonly ReadEntry[]): Partial<Record<LinkKind, string>> {
  const links: Partial<Record<LinkKind, string>> = {};
  for (const entry of entries) {
    const kind = (SOURCE_PAGE_LINKS as Record<string, LinkKind | undefined>)[entry.source];
    if (kind !== undefined && entry.pageUrl !== null) links[kind] ??= entry.pageUrl;
    for (const pkg of entry.packages)
      if (pkg.registry === 'npm' || pkg.registry === 'pypi')
        links[pkg.registry] ??= `${PACKAGE_PAGE_PREFIXES[pkg.registry]}${pkg.name}`;
  }
  return links;
}

/** Yesterday's links with today's over them: a kind today lacks keeps its old link. */
function mergeLinks(group: Group): Partial<Record<LinkKind, string>> {
  const merged: Partial<Record<LinkKind, string>> = {};
  for (const server of group.previous)
    for (const kind of EXTERNAL_LINK_KINDS) {
      const link = server.externalUrls[kind];
      if (link !== undefined) merged[kind] ??= link;
    }
  const today = linksOf(group.entries);
  const out: Partial<Record<LinkKind, string>> = {};
  for (const kind of EXTERNAL_LINK_KINDS) {
    const link = today[kind] ?? merged[kind];
    if (link !== undefined) out[kind] = link;
  }
  return out;
}

/** Each source's sighting: today's for the sources that list it, the kept one for the others. */
function sightingsOf(group: Group, day: string): Partial<Record<SourceName, SourceSighting>> {
  const before: Partial<Record<SourceName, SourceSighting>> = {};
  for (const server of group.previous)
    for (const source of SOURCES) {
      const seen = server.sources[source];
      const kept = before[source];
      if (seen === undefined) continue;
      before[source] =
        kept === undefined
          ? seen
          : {
              sourceId: seen.lastSeen > kept.lastSeen ? seen.sourceId : kept.sourceId,
              firstSeen: earlierDay(seen.firstSeen, kept.firstSeen),
              lastSeen: laterDay(seen.lastSeen, kept.lastSeen),
            };
    }
  const out: Partial<Record<SourceName, SourceSighting>> = {};
  for (const source of SOURCES) {
    const entry = group.entries.find((e) => e.source === source);
    const kept = before[source];
    if (entry !== undefined)
      out[source] = { sourceId: entry.sourceId, firstSeen: kept?.firstSeen ?? day, lastSeen: day };
    else if (kept !== undefined) out[source] = kept;
  }
  return out;
}

/** Each source's facts: today's where the source lists the server, else yesterday's for a source not read whole. */
function factsOfGroup(
  group: Group,
  outcomes: ReadonlyMap<SourceName, SourceRead['outcome']>,
): Partial<Record<SourceName, Record<string, SourceFact>>> {
  const facts: Partial<Record<SourceName, Record<string, SourceFact>>> = {};
  for (const source of SOURCES) {
    const entry = group.entries.find((e) => e.source === source);
    if (entry !== undefined) {
      if (Object.keys(entry.facts).length > 0) facts[source] = entry.facts;
      continue;
    }
    if (outcomes.get(source) === 'complete') continue;
    const kept = group.previous.find((server) => server.facts[source] !== undefined)?.facts[source];
    if (kept !== undefined) facts[source] = kept;
  }
  return facts;
}

/**
 * Whether a server no source lists today stays active: it does unless every source that ever listed it read its
 * whole list today. A source not read at all today (turned off, or failed) keeps it active too.
 */
function staysActive(
  sources: Partial<Record<SourceName, SourceSighting>>,
  outcomes: ReadonlyMap<SourceName, SourceRead['outcome']>,
): boolean {
  const listedBy = Object.keys(sources) as SourceName[];
  return listedBy.length === 0 || listedBy.some((source) => outcomes.get(source) !== 'complete');
}

function serverOf(
  group: Group,
  key: string,
  day: string,
  outcomes: ReadonlyMap<SourceName, SourceRead['outcome']>,
): CatalogServer {
  const { entries, previous } = group;
  const listed = entries.length > 0;
  const sources = sightingsOf({ entries, previous }, day);
  const aliases = [...new Set(previous.flatMap((server) => [server.key, ...aliasesOf(server)]))]
    .filter((alias) => alias !== key)
    .sort();
  const wasActive = previous.length === 0 || previous.some((server) => server.active);
  const active = listed || (wasActive && staysActive(sources, outcomes));
  const firstSeens = previous.map((server) => server.firstSeen);
  return {
    key,
    aliases,
    repositoryUrl: firstOf([...entries.map((e) => e.repo), ...previous.map((s) => s.repositoryUrl)]),
    registryId: firstOf([...entries.map((e) => e.registryId), ...previous.map((s) => s.registryId)]),
    name: firstOf([...entries.map((e) => e.name), ...previous.map((s) => s.name)]) ?? key,
    description: firstOf(listed ? entries.map((e) => e.description) : previous.map((s) => s.description)),
    remotes: unionBy(listed ? entries.map((e) => e.remotes) : previous.map((s) => s.remotes), (r) => r.url),
    packages: unionBy(
      listed ? entries.map((e) => e.packages) : previous.map((s) => s.packages),
      (p) => `${p.registry}:${p.name}`,
    ),
    externalUrls: mergeLinks({ entries, previous }),
    facts: factsOfGroup({ entries, previous }, outcomes),
    sources,
    firstSeen: firstSeens.reduce(earlierDay, day),
    lastSeen: listed ? day : previous.map((s) => s.lastSeen).reduce(laterDay, ''),
    active,
    deactivatedOn: active ? null : (previous.find((s) => s.deactivatedOn !== null)?.deactivatedOn ?? day),
  };
}

// ---------------------------------------------------------------------------------------------------
// The day
// ---------------------------------------------------------------------------------------------------

/** The outcome of each source read today; a source read twice keeps the worse outcome. */
function hasEntries(read: SourceRead): boolean {
  return Array.isArray(read.entries) && read.entries.length > 0;
}

function outcomesOf(reads: readonly SourceRead[]): Map<SourceName, SourceRead['outcome']> {
  const rank = { complete: 0, truncated: 1, failed: 2 } as const;
  const outcomes = new Map<SourceName, SourceRead['outcome']>();
  for (const read of reads) {
    if (priorityOf(read?.source) === null || !(read.outcome in rank)) continue;
    // A whole read that lists nothing is taken for a broken one: a directory does not empty overnight.
    const outcome = read.outcome === 'complete' && !hasEntries(read) ? 'failed' : read.outcome;
    const before = outcomes.get(read.source);
    if (before === undefined || rank[outcome] > rank[before]) outcomes.set(read.source, outcome);
  }
  return outcomes;
}

/** Today's readable entries, one per source and id (the first one read), and the rest with their reasons. */
function readEntries(reads: readonly SourceRead[]): { entries: ReadEntry[]; leftOut: LeftOutEntry[] } {
  const entries: ReadEntry[] = [];
  const leftOut: LeftOutEntry[] = [];
  const seen = new Set<string>();
  for (const read of reads) {
    const priority = priorityOf(read?.source);
    const list = Array.isArray(read?.entries) ? read.entries : [];
    if (priority === null) {
      leftOut.push({ source: String(read?.source), sourceId: null, reason: 'not a known source' });
      continue;
    }
    for (const raw of list) {
      const entry = readEntry(read.source, priority, raw);
      if (typeof entry === 'string') {
        leftOut.push({
          source: read.source,
          sourceId: typeof raw?.sourceId === 'string' ? raw.sourceId : null,
          reason: entry,
        });
        continue;
      }
      const id = ownKey(entry);
      if (seen.has(id)) {
        leftOut.push({ source: read.source, sourceId: entry.sourceId, reason: 'listed twice by its source' });
        continue;
      }
      seen.add(id);
      entries.push(entry);
    }
  }
  return { entries, leftOut };
}

function checkInput(previous: unknown, reads: unknown, day: unknown): void {
  if (dayStartMs(day) === null)
    throw new DiscoveryInputError('invalid-day', 'day', `expected a day as YYYY-MM-DD, received ${String(day)}`);
  if (!Array.isArray(previous)) throw new DiscoveryInputError('invalid-catalog', 'previous', 'expected an array');
  if (!Array.isArray(reads)) throw new DiscoveryInputError('invalid-reads', 'reads', 'expected an array');
}

/**
 * Merges today's reads of every source with yesterday's catalog into today's catalog, sorted by key. Yesterday's
 * servers are all kept: listed again, deactivated, or left as they were when a source could not be read whole.
 *
 * @example
 * mergeCatalog([], [
 *   { source: 'official-registry', outcome: 'complete', entries: [{ sourceId: 'io.github.acme/notes', name: 'Notes', registryId: 'io.github.acme/notes', repositoryUrl: 'https://github.com/acme/notes' }] },
 *   { source: 'glama', outcome: 'complete', entries: [{ sourceId: 'x1', name: 'acme notes', repositoryUrl: 'git+https://github.com/Acme/notes.git', pageUrl: 'https://glama.ai/mcp/servers/x1' }] },
 * ], '2026-12-07').servers;
 * // [{ key: 'https://github.com/acme/notes', name: 'Notes', externalUrls: { glama: 'https://glama.ai/mcp/servers/x1' },
 * //    sources: { 'official-registry': {...}, glama: {...} }, active: true, ... }]
 */
export function mergeCatalog(
  previous: readonly CatalogServer[],
  reads: readonly SourceRead[],
  day: string,
): MergeResult {
  checkInput(previous, reads, day);
  const outcomes = outcomesOf(reads);
  const { entries, leftOut } = readEntries(reads);
  const kept = previous.filter((server) => typeof server?.key === 'string');
  const shared = sharedRepos(entries, kept);
  const groups = new KeyGroups();
  // An entry also joins its own key, so that a record known yesterday only by source and id (no repository, no
  // registry name) is found again; a server joins its key and its aliases.
  const entryRoots = entries.map((entry) =>
    groups.join([ownKey(entry), ...linkKeys(entry.repo, entry.registryId, shared)]),
  );
  const serverRoots = kept.map((server) =>
    groups.join([server.key, ...aliasesOf(server), ...linkKeys(server.repositoryUrl, server.registryId, shared)]),
  );
  const byRoot = new Map<string, Group>();
  const groupOf = (root: string): Group => {
    const found = byRoot.get(groups.find(root));
    if (found !== undefined) return found;
    const group: Group = { entries: [], previous: [] };
    byRoot.set(groups.find(root), group);
    return group;
  };
  for (const [i, entry] of entries.entries()) groupOf(entryRoots[i] as string).entries.push(entry);
  for (const [i, server] of kept.entries()) groupOf(serverRoots[i] as string).previous.push(server);
  for (const group of byRoot.values()) {
    // The rules pick by source order, then id: the order entries arrived in must not matter.
    group.entries.sort(byPriority);
    group.previous.sort(byKey);
  }
  const servers = [...byRoot.values()].map((group) => serverOf(group, keyOf(group, shared), day, outcomes));
  servers.sort(byKey);
  return { servers, leftOut };
}
