/**
 * The catalog in numbers: how many active servers each source lists, how many only it lists, and how the sources
 * overlap. Pure module. A source "lists" a server when its sighting's last day is the newest day that source
 * listed anything: a source whose read failed today still counts what it listed on its last good day, so one
 * outage does not empty its column.
 */
import { SOURCES } from './constants.js';
import type { SourceName } from './entries.js';
import type { CatalogServer } from './merge.js';

/** One source's column. */
export interface SourceCount {
  source: SourceName;
  /** Active servers the source lists. */
  listed: number;
  /** Of those, the ones no other source lists. */
  onlyHere: number;
  /** The newest day the source listed a server, or null when it never did. */
  lastListed: string | null;
}

/** The catalog's counts. */
export interface CatalogSummary {
  servers: number;
  active: number;
  /** One column per source, in source order. */
  bySource: SourceCount[];
  /** `bySourceCount[i]`: active servers that i + 1 sources list (i from 0 to 7). */
  bySourceCount: number[];
  /** Every pair of sources that list at least one server in common, with how many, in source order. */
  pairs: { a: SourceName; b: SourceName; both: number }[];
}

/** Each source's newest listing day over the catalog. */
export function lastListedDays(servers: readonly CatalogServer[]): Map<SourceName, string> {
  const last = new Map<SourceName, string>();
  for (const server of servers)
    for (const [source, sighting] of Object.entries(server.sources) as [SourceName, { lastSeen: string }][]) {
      const known = last.get(source);
      if (known === undefined || sighting.lastSeen > known) last.set(source, sighting.lastSeen);
    }
  return last;
}

/**
 * The sources that list `server` now (see the module comment), in source order.
 *
 * @example listingSources(server, lastListedDays(catalog)) // ['official-registry', 'glama']
 */
export function listingSources(server: CatalogServer, lastListed: ReadonlyMap<SourceName, string>): SourceName[] {
  return SOURCES.filter((source) => {
    const seen = server.sources[source];
    return seen !== undefined && seen.lastSeen === lastListed.get(source);
  });
}

/**
 * Counts per source and the overlap between sources, over the active servers.
 *
 * @example summarizeCatalog(servers).bySourceCount // [812, 140, 33, 4, 0, 0, 0, 0]
 */
export function summarizeCatalog(servers: readonly CatalogServer[]): CatalogSummary {
  const last = lastListedDays(servers);
  const listed = new Map<SourceName, number>(SOURCES.map((source) => [source, 0]));
  const only = new Map<SourceName, number>(SOURCES.map((source) => [source, 0]));
  const pairs = new Map<string, number>();
  const bySourceCount = SOURCES.map(() => 0);
  let active = 0;
  for (const server of servers) {
    if (!server.active) continue;
    active++;
    const sources = listingSources(server, last);
    if (sources.length > 0) bySourceCount[sources.length - 1] = (bySourceCount[sources.length - 1] ?? 0) + 1;
    for (const [i, source] of sources.entries()) {
      listed.set(source, (listed.get(source) ?? 0) + 1);
      if (sources.length === 1) only.set(source, (only.get(source) ?? 0) + 1);
      for (const other of sources.slice(i + 1))
        pairs.set(`${source} ${other}`, (pairs.get(`${source} ${other}`) ?? 0) + 1);
    }
  }
  return {
    servers: servers.length,
    active,
    bySource: SOURCES.map((source) => ({
      source,
      listed: listed.get(source) ?? 0,
      onlyHere: only.get(source) ?? 0,
      lastListed: last.get(source) ?? null,
    })),
    bySourceCount,
    pairs: SOURCES.flatMap((a, i) =>
      SOURCES.slice(i + 1).flatMap((b) => {
        const both = pairs.get(`${a} ${b}`) ?? 0;
        return both > 0 ? [{ a, b, both }] : [];
      }),
    ),
  };
}
