// GET /api/catalog: every server of the newest catalog, a page at a time, in key order, with the directories
// that reported it and whether it is checked. Every field comes from the catalog view; this file only filters,
// pages and names.
import type { CatalogServer } from '@mcp-atlas/discovery';
import type { AtlasView } from '../view/build-view.js';
import { type CatalogView, reportedByOf } from '../view/catalog-view.js';
import { CATALOG_PAGE_DEFAULT_LIMIT, type CatalogAnswer, type CatalogQuery } from './schemas.js';

function entryOf(catalog: CatalogView, server: CatalogServer): CatalogAnswer['servers'][number] {
  return {
    key: server.key,
    name: server.name,
    description: server.description,
    repositoryUrl: server.repositoryUrl,
    registryId: server.registryId,
    remotes: server.remotes.map((remote) => ({ url: remote.url, transport: remote.transport })),
    packages: server.packages.map((item) => ({ registry: item.registry, name: item.name, version: item.version })),
    sources: reportedByOf(server, catalog.lastListed).map((seen) => ({
      source: seen.source,
      id: seen.sourceId,
      firstSeen: seen.firstSeen,
      lastSeen: seen.lastSeen,
      listsNow: seen.listsNow,
    })),
    external_urls: { ...server.externalUrls },
    active: server.active,
    deactivatedOn: server.deactivatedOn,
    checkedAs: catalog.checkedAs[server.key] ?? null,
  };
}

function matches(server: CatalogServer, query: CatalogQuery): boolean {
  const state = query.state ?? 'active';
  if (state === 'active' && !server.active) return false;
  if (state === 'deactivated' && server.active) return false;
  return query.source === undefined || server.sources[query.source] !== undefined;
}

/** One page of the catalog: the servers matching the query after `after`, up to `limit`. */
export function presentCatalog(view: AtlasView, query: CatalogQuery): CatalogAnswer {
  const catalog = view.catalog;
  if (catalog === null) return { day: null, total: 0, servers: [], next: null };
  const matching = catalog.servers.filter((server) => matches(server, query));
  const after = query.after;
  const start = after === undefined ? 0 : matching.findIndex((server) => server.key > after);
  const from = start === -1 ? matching.length : start;
  const limit = query.limit ?? CATALOG_PAGE_DEFAULT_LIMIT;
  const page = matching.slice(from, from + limit);
  const more = from + limit < matching.length;
  return {
    day: catalog.day,
    total: matching.length,
    servers: page.map((server) => entryOf(catalog, server)),
    next: more ? (page.at(-1)?.key ?? null) : null,
  };
}
