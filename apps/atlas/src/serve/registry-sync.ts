// Reading the registry into the list of watched servers. Entries are taken as the probe package reads them
// (latest versions, deleted entries left out); the remote is the probe's choice; SSE-only remotes, URL
// templates, IP addresses and opted-out hosts are left out here by the probe's guard, before any request.
// Each entry's npm and PyPI packages are kept with it, for the package layer.
// An entry with no remote that ships an npm or PyPI package at a version is a local server: it goes to its own
// list, which the daily check installs and lists in the probe's sandbox when local checks are on.

import type { SourceEntry } from '@mcp-atlas/discovery';
import { PACKAGE_LAYER_RULES } from '@mcp-atlas/operations/rules';
import { checkTarget, listRegistryServers, type NetworkOptions, pickRemote } from '@mcp-atlas/probe';
import { officialRegistryEntry } from '@mcp-atlas/probe/outside';
import { OUTSIDE_SERVICE_RULES } from '@mcp-atlas/probe/rules';
import type { z } from 'zod';
import { CatalogFileError, writeCatalog } from '../data/catalog-file.js';
import {
  type RegistryScoreFacts,
  type WatchedPackage,
  WatchedPackageSchema,
  type WatchedServer,
} from '../data/schemas.js';
import { serverIdFor } from '../data/server-id.js';
import { writeWatchedServers } from '../data/watched-servers.js';
import {
  catalogFileOf,
  checkedAsOf,
  type DirectorySetting,
  directoryLocal,
  directoryWatched,
  type MergedCatalog,
  mergeDayCatalog,
} from '../discovery/sync-catalog.js';
import {
  type LocalServer,
  type LocalServerPackage,
  LocalServerPackageSchema,
  writeLocalServers,
} from '../scan/local-servers.js';
import { scoreFactsOf, writeRegistryScoreFacts } from '../score/registry-facts.js';
import type { Storage } from '../storage/storage.js';

/** A registry entry that is not watched, and why. */
export interface SkippedEntry {
  name: string;
  why: string;
}

// The public registries the package layer reads; an entry naming another registry (a private mirror, a
// company's own) ships a package those do not hold, or a different one under the same name.
const PUBLIC_REGISTRY = {
  npm: OUTSIDE_SERVICE_RULES.defaultNpmRegistryUrl,
  pypi: OUTSIDE_SERVICE_RULES.defaultPypiUrl,
} as const;

function isPublicRegistry(type: WatchedPackage['registryType'], base: unknown): boolean {
  if (base === undefined) return true;
  return typeof base === 'string' && base.replace(/\/+$/, '').toLowerCase() === PUBLIC_REGISTRY[type];
}

/**
 * The npm and PyPI packages of a registry entry (`packages[]`: `registryType`, `identifier`, `version`),
 * each once, at most 10. Other package types, entries that do not parse, and packages hosted on a registry
 * other than the public npm registry or PyPI are left out.
 */
export function packagesOf(server: unknown): WatchedPackage[] {
  const listed = (server as { packages?: unknown } | null)?.packages;
  if (!Array.isArray(listed)) return [];
  const kept: WatchedPackage[] = [];
  const seen = new Set<string>();
  for (const item of listed) {
    if (item === null || typeof item !== 'object') continue;
    const raw = item as { registryType?: unknown; identifier?: unknown; version?: unknown; registryBaseUrl?: unknown };
    const type = typeof raw.registryType === 'string' ? raw.registryType.toLowerCase() : null;
    const parsed = WatchedPackageSchema.safeParse({
      registryType: type,
      identifier: raw.identifier,
      ...(typeof raw.version === 'string' ? { version: raw.version } : {}),
    });
    if (!parsed.success || !isPublicRegistry(parsed.data.registryType, raw.registryBaseUrl)) continue;
    const key = `${parsed.data.registryType} ${parsed.data.identifier}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(parsed.data);
    if (kept.length === PACKAGE_LAYER_RULES.packagesPerServerMax) break;
  }
  return kept;
}

/** The elements of `list` (when it is an array) that `schema` parses, at most `most`; the others are left out. */
function parsedElements<T>(list: unknown, schema: z.ZodType<T>, most: number): T[] {
  if (!Array.isArray(list)) return [];
  return list
    .flatMap((item) => {
      const parsed = schema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    })
    .slice(0, most);
}

const VARIABLE_FIELDS = LocalServerPackageSchema.shape.environmentVariables.element;
const ARGUMENT_FIELDS = LocalServerPackageSchema.shape.packageArguments.element;

/**
 * The package a registry entry with no remote runs as: its first npm or PyPI package on the public registry that
 * names a version, with the variables and arguments it declares (each kept only when it parses). Null when it has
 * none: such an entry stays in the catalog as a local server, unchecked.
 */
export function localPackageOf(server: unknown): LocalServerPackage | null {
  const listed = (server as { packages?: unknown } | null)?.packages;
  if (!Array.isArray(listed)) return null;
  for (const item of listed) {
    if (item === null || typeof item !== 'object') continue;
    const raw = item as Record<string, unknown>;
    const type = typeof raw.registryType === 'string' ? raw.registryType.toLowerCase() : null;
    if ((type !== 'npm' && type !== 'pypi') || !isPublicRegistry(type, raw.registryBaseUrl)) continue;
    const parsed = LocalServerPackageSchema.safeParse({
      registryType: type,
      identifier: raw.identifier,
      version: raw.version,
      environmentVariables: parsedElements(raw.environmentVariables, VARIABLE_FIELDS, 50),
      packageArguments: parsedElements(raw.packageArguments, ARGUMENT_FIELDS, 50),
    });
    if (parsed.success) return parsed.data;
  }
  return null;
}

/** What a registry sync did with the day's catalog. */
export interface CatalogOutcome {
  /** Catalog servers, active and not. */
  servers: number;
  /** Servers only other directories list that were added to the watched list. */
  addedFromDirectories: number;
  /** Servers only other directories list, with no remote but a package at a version, added as local servers. */
  localFromDirectories: number;
  /** Why no catalog was merged (its state file is unreadable), or null. */
  problem: string | null;
}

/** Merges the day's catalog; an unreadable catalog state is reported, never merged over. */
async function mergeOrReport(
  input: Parameters<typeof mergeDayCatalog>[0],
): Promise<MergedCatalog | { problem: string }> {
  try {
    return await mergeDayCatalog(input);
  } catch (error) {
    if (error instanceof CatalogFileError) return { problem: error.message };
    throw error;
  }
}

/**
 * Reads the registry and writes the watched list; returns it with the entries left out. `network` is how
 * the registry is read (its `allowPrivate` lets a registry at a private address be read). `allowPrivate`
 * (default false) is for an observatory of a company's own servers: it keeps listed servers at IP
 * addresses, local names, private addresses and plain http, as the probe's option of that name does; the
 * template, user-info, SSE-only and opt-out rules still apply.
 */
export async function syncRegistry(input: {
  storage: Storage;
  registryUrl: string;
  network: NetworkOptions;
  optedOut: readonly string[];
  allowPrivate?: boolean;
  /**
   * The day whose catalog to merge (the registry's entries and `directories`), written to the day's folder and
   * sealed with it. Without it, or when the registry lists no server to check, no catalog is merged.
   */
  catalogDay?: string;
  /** The directories read beside the registry; none by default. */
  directories?: readonly DirectorySetting[];
}): Promise<{
  servers: WatchedServer[];
  /** The entries with no remote that ship an npm or PyPI package: checked in the sandbox when local checks are on. */
  local: LocalServer[];
  skipped: SkippedEntry[];
  catalog: CatalogOutcome | null;
}> {
  const servers: WatchedServer[] = [];
  const skipped: SkippedEntry[] = [];
  const seen = new Set<string>();
  const scoreFacts = new Map<string, RegistryScoreFacts>();
  const official: SourceEntry[] = [];
  const locals: LocalServer[] = [];
  const localIds = new Set<string>();
  for await (const entry of listRegistryServers(input.registryUrl, input.network)) {
    const name = entry.server.name;
    // Every listed entry is in the catalog, checked or not: one without a remote is a local server.
    official.push(officialRegistryEntry(entry));
    const remote = pickRemote(entry);
    if (remote === null) {
      const local = localPackageOf(entry.server);
      const id = serverIdFor(name);
      if (local !== null && !localIds.has(id)) {
        localIds.add(id);
        // Its security and distribution facts, for the quality score of its local check.
        scoreFacts.set(id, scoreFactsOf(entry.server, null));
        locals.push({ id, title: name.slice(0, 200), package: local });
      } else skipped.push({ name, why: 'no remote' });
      continue;
    }
    const target = checkTarget(remote.url, {
      optedOut: input.optedOut,
      remoteType: remote.type,
      allowPrivate: input.allowPrivate === true,
    });
    if (!target.ok) {
      skipped.push({ name, why: target.reason });
      continue;
    }
    const id = serverIdFor(name);
    if (seen.has(id)) continue;
    seen.add(id);
    const packages = packagesOf(entry.server);
    // What the daily quality score reads of the entry (security, distribution, context flags).
    scoreFacts.set(id, scoreFactsOf(entry.server, remote));
    servers.push({
      id,
      url: remote.url,
      title: name.slice(0, 200),
      source: 'registry',
      ...(packages.length > 0 ? { packages } : {}),
    });
  }
  // A registry with no server to check starts no day (scan writes nothing of it), so no catalog is merged either.
  const catalog =
    input.catalogDay === undefined || servers.length + locals.length === 0
      ? null
      : await syncCatalogOf(input, input.catalogDay, official, servers, locals);
  servers.sort((a, b) => a.id.localeCompare(b.id));
  await writeWatchedServers(input.storage, servers);
  await writeRegistryScoreFacts(input.storage, scoreFacts);
  locals.sort((a, b) => a.id.localeCompare(b.id));
  await writeLocalServers(input.storage, locals);
  return { servers, local: locals, skipped, catalog };
}

/**
 * Merges and writes the day's catalog, and adds to `servers` the directory-only servers with a remote endpoint.
 * The catalog is written before the watched list, so a server checked as a directory's is in that day's catalog.
 */
async function syncCatalogOf(
  input: Parameters<typeof syncRegistry>[0],
  day: string,
  official: readonly SourceEntry[],
  servers: WatchedServer[],
  locals: LocalServer[],
): Promise<CatalogOutcome> {
  const merged = await mergeOrReport({
    storage: input.storage,
    day,
    official,
    directories: input.directories ?? [],
    network: input.network,
  });
  if ('problem' in merged)
    return { servers: 0, addedFromDirectories: 0, localFromDirectories: 0, problem: merged.problem };
  const watchedIds = new Set(servers.map((server) => server.id));
  const added = directoryWatched(merged.servers, {
    watchedUrls: new Set(servers.map((server) => server.url)),
    optedOut: input.optedOut,
    allowPrivate: input.allowPrivate === true,
  }).filter((server) => !watchedIds.has(server.id));
  servers.push(...added);
  // Directory-only servers with no remote that name a package at a version are local servers too.
  const taken = new Set([...servers, ...locals].map((server) => server.id));
  const addedLocal = directoryLocal(merged.servers, taken);
  locals.push(...addedLocal);
  const checkedAs = checkedAsOf(merged.servers, servers, serverIdFor);
  await writeCatalog(input.storage, catalogFileOf(day, merged, checkedAs));
  return {
    servers: merged.servers.length,
    addedFromDirectories: added.length,
    localFromDirectories: addedLocal.length,
    problem: null,
  };
}
