// The catalog's counts, on a hand-built catalog whose every figure is counted below by hand.
import { describe, expect, it } from 'vitest';
import { type CatalogServer, listingSources, type SourceName, summarizeCatalog } from '../src/index.js';
import { lastListedDays } from '../src/summary.js';

function server(key: string, sources: Partial<Record<SourceName, string>>, active = true): CatalogServer {
  return {
    key,
    aliases: [],
    repositoryUrl: null,
    registryId: null,
    name: key,
    description: null,
    remotes: [],
    packages: [],
    externalUrls: {},
    facts: {},
    sources: Object.fromEntries(
      Object.entries(sources).map(([source, lastSeen]) => [
        source,
        { sourceId: key, firstSeen: '2026-12-01', lastSeen },
      ]),
    ),
    firstSeen: '2026-12-01',
    lastSeen: '2026-12-07',
    active,
    deactivatedOn: active ? null : '2026-12-07',
  };
}

// Glama's read failed on 12-07: it last listed anything on 12-06, so its 12-06 sightings still count. The
// registry's 12-05 sighting of `c` is stale (the registry read whole lists on 12-07 without it).
const CATALOG = [
  server('a', { 'official-registry': '2026-12-07', glama: '2026-12-06', 'github-topics': '2026-12-07' }),
  server('b', { 'official-registry': '2026-12-07', glama: '2026-12-06' }),
  server('c', { 'official-registry': '2026-12-05', smithery: '2026-12-07' }),
  server('d', { glama: '2026-12-06' }),
  server('gone', { 'docker-hub': '2026-12-03' }, false),
];

describe('summarizeCatalog', () => {
  it('counts each source, what only it lists, the number of sources per server and the pairs', () => {
    expect(summarizeCatalog(CATALOG)).toEqual({
      servers: 5,
      active: 4,
      bySource: [
        { source: 'official-registry', listed: 2, onlyHere: 0, lastListed: '2026-12-07' },
        { source: 'glama', listed: 3, onlyHere: 1, lastListed: '2026-12-06' },
        { source: 'pulsemcp', listed: 0, onlyHere: 0, lastListed: null },
        { source: 'smithery', listed: 1, onlyHere: 1, lastListed: '2026-12-07' },
        { source: 'docker-hub', listed: 0, onlyHere: 0, lastListed: '2026-12-03' },
        { source: 'best-of-mcp-servers', listed: 0, onlyHere: 0, lastListed: null },
        { source: 'awesome-mcp-servers', listed: 0, onlyHere: 0, lastListed: null },
        { source: 'github-topics', listed: 1, onlyHere: 0, lastListed: '2026-12-07' },
      ],
      // d and c by one source each; b by two; a by three.
      bySourceCount: [2, 1, 1, 0, 0, 0, 0, 0],
      pairs: [
        { a: 'official-registry', b: 'glama', both: 2 },
        { a: 'official-registry', b: 'github-topics', both: 1 },
        { a: 'glama', b: 'github-topics', both: 1 },
      ],
    });
  });

  it('counts nothing for an empty catalog', () => {
    const summary = summarizeCatalog([]);
    expect(summary).toMatchObject({ servers: 0, active: 0, bySourceCount: [0, 0, 0, 0, 0, 0, 0, 0], pairs: [] });
    expect(summary.bySource.every((column) => column.listed === 0 && column.lastListed === null)).toBe(true);
  });
});

describe('listingSources', () => {
  it('leaves out a sighting older than its source’s newest listing day', () => {
    const last = lastListedDays(CATALOG);
    expect(listingSources(CATALOG[2] as CatalogServer, last)).toEqual(['smithery']);
    expect(listingSources(CATALOG[0] as CatalogServer, last)).toEqual(['official-registry', 'glama', 'github-topics']);
  });
});
