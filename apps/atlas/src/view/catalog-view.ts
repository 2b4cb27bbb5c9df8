// The newest catalog as the pages and the API read it: who reported each watched server, and the catalog's
// counts. The counting is @mcp-atlas/discovery's (summarizeCatalog, listingSources); this file only indexes.
import {
  type CatalogServer,
  type CatalogSummary,
  lastListedDays,
  listingSources,
  type SourceName,
  summarizeCatalog,
} from '@mcp-atlas/discovery';
import type { CatalogFile, DirectoryReadSummary } from '../data/catalog-file.js';

/** One source that reported a server: under which id, first and last, and whether it lists it now. */
export interface ReportedBy {
  source: SourceName;
  sourceId: string;
  firstSeen: string;
  lastSeen: string;
  listsNow: boolean;
}

/** What the catalog says of one watched server. */
export interface ServerCatalogView {
  key: string;
  reportedBy: ReportedBy[];
  externalUrls: CatalogServer['externalUrls'];
  repositoryUrl: string | null;
}

/** The newest catalog: its day, how each directory's read went, its counts, and each watched server's entry. */
export interface CatalogView {
  day: string;
  reads: DirectoryReadSummary[];
  summary: CatalogSummary;
  byServerId: Map<string, ServerCatalogView>;
  /** Every catalog server, sorted by key, for the whole listing (GET /api/catalog). */
  servers: readonly CatalogServer[];
  /** Catalog key to the watched server it is checked as. */
  checkedAs: Readonly<Record<string, string>>;
  /** Each source's newest listing day, which says whether a sighting is current. */
  lastListed: ReadonlyMap<SourceName, string>;
}

/**
 * Every source that reported `server`, in source order, with whether it lists it now.
 *
 * @example reportedByOf(server, lastListedDays(servers))[0]?.listsNow // true
 */
export function reportedByOf(server: CatalogServer, lastListed: ReadonlyMap<SourceName, string>): ReportedBy[] {
  const now = new Set(listingSources(server, lastListed));
  return (Object.keys(server.sources) as SourceName[]).flatMap((source) => {
    const seen = server.sources[source];
    return seen === undefined ? [] : [{ source, ...seen, listsNow: now.has(source) }];
  });
}

/**
 * The catalog view of a catalog file, or null without one.
 *
 * @example catalogViewOf(catalog)?.byServerId.get('notes')?.reportedBy.map((r) => r.source) // ['official-registry', 'glama']
 */
export function catalogViewOf(catalog: CatalogFile | null): CatalogView | null {
  if (catalog === null) return null;
  const last = lastListedDays(catalog.servers);
  const byServerId = new Map<string, ServerCatalogView>();
  for (const server of catalog.servers) {
    const id = catalog.checkedAs[server.key];
    if (id === undefined || byServerId.has(id)) continue;
    byServerId.set(id, {
      key: server.key,
      reportedBy: reportedByOf(server, last),
      externalUrls: server.externalUrls,
      repositoryUrl: server.repositoryUrl,
    });
  }
  return {
    day: catalog.day,
    reads: catalog.reads,
    summary: summarizeCatalog(catalog.servers),
    byServerId,
    servers: catalog.servers,
    checkedAs: catalog.checkedAs,
    lastListed: last,
  };
}
