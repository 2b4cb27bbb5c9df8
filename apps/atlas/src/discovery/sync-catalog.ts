// The day's catalog: the official registry's entries (read once, by the registry sync) and each directory the
// operator turned on, read through the probe's directory readers and merged with yesterday's catalog by
// @mcp-atlas/discovery. The rules (keys, priority, lifecycle) are the package's; this file reads, merges, picks
// which directory-only servers get checked, and records which watched server each catalog server is.
import {
  type CatalogServer,
  mergeCatalog,
  type SourceEntry,
  type SourceName,
  type SourceRead,
} from '@mcp-atlas/discovery';
import { DISCOVERY_RULES } from '@mcp-atlas/discovery/rules';
import { checkTarget, type NetworkOptions, pickRemote } from '@mcp-atlas/probe';
import { type DirectoryRead, readDirectory } from '@mcp-atlas/probe/outside';
import { type CatalogFile, type DirectoryReadSummary, readCatalogState } from '../data/catalog-file.js';
import type { WatchedServer } from '../data/schemas.js';
import { serverIdFor } from '../data/server-id.js';
import { type LocalServer, LocalServerPackageSchema } from '../scan/local-servers.js';
import type { Storage } from '../storage/storage.js';

/** A directory besides the official registry (which `--registry` sets). */
export type DirectorySource = Exclude<SourceName, 'official-registry'>;

/** One directory to read: its name, and the base URL and token when the operator gave them. */
export interface DirectorySetting {
  source: DirectorySource;
  baseUrl?: string;
  token?: string;
}

/** The directories `--directories all` reads, in source order. */
export const DIRECTORY_SOURCES: readonly DirectorySource[] = DISCOVERY_RULES.sources.filter(
  (source): source is DirectorySource => source !== 'official-registry',
);

/** The merged catalog of a day and how each read went, before it is written. */
export interface MergedCatalog {
  servers: CatalogServer[];
  reads: DirectoryReadSummary[];
}

function summaryOf(read: DirectoryRead): DirectoryReadSummary {
  return {
    source: read.source,
    outcome: read.outcome,
    entries: read.entries.length,
    pages: read.pages,
    note: read.note,
  };
}

/** One directory's read; a reader that throws (a setting it refuses) counts as a failed read, with why. */
async function readOne(setting: DirectorySetting, network: NetworkOptions): Promise<DirectoryRead> {
  try {
    return await readDirectory(setting.source, {
      ...network,
      ...(setting.baseUrl === undefined ? {} : { baseUrl: setting.baseUrl }),
      ...(setting.token === undefined ? {} : { token: setting.token }),
    });
  } catch (error) {
    const note = error instanceof Error ? error.message : String(error);
    return { source: setting.source, outcome: 'failed', entries: [], pages: 0, requests: 0, waitedMs: 0, note };
  }
}

/**
 * Reads every directory turned on (at once: each is its own host) and merges them, with the registry's entries
 * when the registry was read (`official` null: it was not, and nothing it listed is deactivated), into yesterday's
 * catalog. Throws CatalogFileError when yesterday's catalog is there but unreadable.
 */
export async function mergeDayCatalog(input: {
  storage: Storage;
  day: string;
  official: readonly SourceEntry[] | null;
  directories: readonly DirectorySetting[];
  network: NetworkOptions;
}): Promise<MergedCatalog> {
  const previous = await readCatalogState(input.storage);
  const directoryReads = await Promise.all(input.directories.map((setting) => readOne(setting, input.network)));
  const official: SourceRead[] =
    input.official === null ? [] : [{ source: 'official-registry', outcome: 'complete', entries: input.official }];
  const merged = mergeCatalog(previous?.servers ?? [], [...official, ...directoryReads], input.day);
  const reads: DirectoryReadSummary[] = [
    ...official.map((read) => ({
      source: read.source,
      outcome: read.outcome,
      entries: read.entries.length,
      pages: 0,
      note: null,
    })),
    ...directoryReads.map(summaryOf),
  ];
  return { servers: merged.servers, reads };
}

/**
 * The servers only directories list (no registry name) that have a remote endpoint, as watched servers: the
 * probe's choice of remote, under the same guard as a registry entry's (opt-outs, templates, SSE-only, private
 * addresses unless allowed). A URL already watched is not added again. Each is keyed by its catalog key.
 */
export function directoryWatched(
  servers: readonly CatalogServer[],
  input: { watchedUrls: ReadonlySet<string>; optedOut: readonly string[]; allowPrivate: boolean },
): WatchedServer[] {
  const added: WatchedServer[] = [];
  const urls = new Set(input.watchedUrls);
  for (const server of servers) {
    if (!server.active || server.registryId !== null || server.remotes.length === 0) continue;
    const remote = pickRemote({ remotes: server.remotes.map((r) => ({ type: r.transport, url: r.url })) });
    if (remote === null || urls.has(remote.url)) continue;
    const target = checkTarget(remote.url, {
      optedOut: input.optedOut,
      remoteType: remote.type,
      allowPrivate: input.allowPrivate,
    });
    if (!target.ok) continue;
    urls.add(remote.url);
    added.push({ id: serverIdFor(server.key), url: remote.url, title: server.name.slice(0, 200), source: 'directory' });
  }
  return added;
}

/**
 * The servers only directories list (no registry name) that have no remote endpoint but name an npm or PyPI package
 * at a version, as local servers, keyed by their catalog key. A directory declares no variables or arguments, so
 * none are kept. An id in `taken` is left as it is.
 */
export function directoryLocal(servers: readonly CatalogServer[], taken: ReadonlySet<string>): LocalServer[] {
  const added: LocalServer[] = [];
  for (const server of servers) {
    if (!server.active || server.registryId !== null || server.remotes.length > 0) continue;
    const pkg = server.packages.find(
      (item) => (item.registry === 'npm' || item.registry === 'pypi') && item.version !== null,
    );
    const id = serverIdFor(server.key);
    if (pkg === undefined || pkg.version === null || taken.has(id)) continue;
    const parsed = LocalServerPackageSchema.safeParse({
      registryType: pkg.registry,
      identifier: pkg.name,
      version: pkg.version,
      environmentVariables: [],
      packageArguments: [],
    });
    if (parsed.success) added.push({ id, title: server.name.slice(0, 200), package: parsed.data });
  }
  return added;
}

/**
 * Which watched server each catalog server is checked as: the one its registry name gives (`idOfRegistryName`),
 * else the one its catalog key gives (a directory-only server), when that id is watched.
 */
export function checkedAsOf(
  servers: readonly CatalogServer[],
  watched: readonly WatchedServer[],
  idOfRegistryName: (name: string) => string | null,
): Record<string, string> {
  const ids = new Set(watched.map((server) => server.id));
  const checkedAs: Record<string, string> = {};
  for (const server of servers) {
    const candidates = [
      server.registryId === null ? null : idOfRegistryName(server.registryId),
      serverIdFor(server.key),
    ];
    const id = candidates.find((candidate): candidate is string => candidate !== null && ids.has(candidate));
    if (id !== undefined) checkedAs[server.key] = id;
  }
  return checkedAs;
}

/** The catalog file of a merged day. */
export function catalogFileOf(day: string, merged: MergedCatalog, checkedAs: Record<string, string>): CatalogFile {
  return { day, reads: merged.reads, servers: merged.servers, checkedAs };
}
