/**
 * What a directory says about one server, and the same entry checked and reduced to what the merge reads. Pure
 * module: an entry that cannot be read is left out with its reason, never thrown.
 */
import { PACKAGE_REGISTRIES, SOURCES } from './constants.js';
import { normalizeGithubUrl } from './github-url.js';

/** A directory servers are discovered from. */
export type SourceName = (typeof SOURCES)[number];

/** A package registry an entry may name. */
export type PackageRegistry = (typeof PACKAGE_REGISTRIES)[number];

/** A small fact a directory adds about a server: a license, a visitor count, a star count, a rank. */
export type SourceFact = string | number | boolean | null;

/** A remote endpoint: its URL and transport (`streamable-http`, `sse`). */
export interface CatalogRemote {
  url: string;
  transport: string;
}

/** A package a server ships, for a client to run it locally. */
export interface CatalogPackage {
  registry: PackageRegistry;
  name: string;
  version: string | null;
}

/** One server as one directory lists it. Only `source`, `sourceId` and `name` are required. */
export interface SourceEntry {
  /** The entry's id in its directory: a registry name, a Glama id, a slug, an image name, a repository name. */
  sourceId: string;
  name: string;
  description?: string | null | undefined;
  /** The official registry's name of the server (`io.github.owner/repo`), the fallback key. */
  registryId?: string | null | undefined;
  /** The repository URL in any form a directory writes it; normalized here. */
  repositoryUrl?: string | null | undefined;
  remotes?: readonly CatalogRemote[] | undefined;
  packages?: readonly { registry: string; name: string; version?: string | null | undefined }[] | undefined;
  /** The server's page at the directory (Glama, Smithery, PulseMCP, Docker Hub), when it has one. */
  pageUrl?: string | null | undefined;
  /** What the directory adds: license, visitors, stars, pulls, rank, categories. */
  facts?: Readonly<Record<string, SourceFact>> | undefined;
}

/** One directory's read of the day: its entries, and whether the read was whole. */
export interface SourceRead {
  source: SourceName;
  /**
   * `complete`: every page was read. `truncated`: the list was cut (a page limit, a malformed page, a rate limit
   * that outlasted the read). `failed`: nothing usable came back. Only a complete read can deactivate a server.
   */
  outcome: 'complete' | 'truncated' | 'failed';
  entries: readonly SourceEntry[];
}

/** An entry the merge left out, and why. */
export interface LeftOutEntry {
  source: string;
  sourceId: string | null;
  reason: string;
}

/** An entry as the merge reads it. */
export interface ReadEntry {
  source: SourceName;
  /** The source's place in SOURCES: lower wins. */
  priority: number;
  sourceId: string;
  name: string;
  description: string | null;
  registryId: string | null;
  /** The normalized GitHub URL, or null. */
  repo: string | null;
  remotes: CatalogRemote[];
  packages: CatalogPackage[];
  pageUrl: string | null;
  facts: Record<string, SourceFact>;
}

const PRIORITY = new Map<string, number>(SOURCES.map((source, i) => [source, i]));
const REGISTRIES = new Set<string>(PACKAGE_REGISTRIES);

/** The place of `source` in SOURCES, or null for a name that is not one. */
export function priorityOf(source: unknown): number | null {
  return typeof source === 'string' ? (PRIORITY.get(source) ?? null) : null;
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** An https URL with no spaces, or null: a page link is shown to people, so no other scheme is kept. */
function httpsUrl(value: unknown): string | null {
  const url = text(value);
  return url !== null && /^https:\/\/[^\s/]+(\/\S*)?$/i.test(url) && url.length <= 2048 ? url : null;
}

function remotesOf(value: unknown): CatalogRemote[] {
  if (!Array.isArray(value)) return [];
  const remotes: CatalogRemote[] = [];
  for (const remote of value) {
    const url = text((remote as CatalogRemote | null)?.url);
    if (url === null || !/^https?:\/\//i.test(url)) continue;
    remotes.push({ url, transport: text((remote as CatalogRemote).transport) ?? 'streamable-http' });
  }
  return remotes;
}

function packagesOf(value: unknown): CatalogPackage[] {
  if (!Array.isArray(value)) return [];
  const packages: CatalogPackage[] = [];
  for (const item of value) {
    const registry = text(item?.registry);
    const name = text(item?.name);
    if (registry === null || name === null || !REGISTRIES.has(registry)) continue;
    packages.push({ registry: registry as PackageRegistry, name, version: text(item.version) });
  }
  return packages;
}

function factsOf(value: unknown): Record<string, SourceFact> {
  const facts: Record<string, SourceFact> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return facts;
  for (const [key, fact] of Object.entries(value))
    if (fact === null || ['string', 'number', 'boolean'].includes(typeof fact)) facts[key] = fact as SourceFact;
  return facts;
}

/**
 * The entry as the merge reads it, or the reason it cannot be read: it needs a source id and a name. Every
 * other field is optional, and a field of the wrong shape is read as absent.
 */
export function readEntry(source: SourceName, priority: number, entry: SourceEntry): ReadEntry | string {
  const sourceId = text(entry?.sourceId);
  if (sourceId === null) return 'no source id';
  const name = text(entry.name);
  if (name === null) return 'no name';
  return {
    source,
    priority,
    sourceId,
    name,
    description: text(entry.description),
    registryId: text(entry.registryId),
    repo: normalizeGithubUrl(entry.repositoryUrl),
    remotes: remotesOf(entry.remotes),
    packages: packagesOf(entry.packages),
    pageUrl: httpsUrl(entry.pageUrl),
    facts: factsOf(entry.facts),
  };
}
