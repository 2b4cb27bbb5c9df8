// The eight directory readers against one loopback server in each directory's public format: pagination by
// cursor, page number, `next` URL and Link header; a 429 with Retry-After waited out; a malformed page that cuts
// one list; a token sent and never returned. The reads then go through the catalog merge, whose result is written
// out by hand below. Then the lifecycle on real reads: a directory down deactivates nothing, a server gone from
// every directory that read its whole list is deactivated and keeps its history.
import { type CatalogServer, mergeCatalog, type SourceName } from '@mcp-atlas/discovery';
import { DISCOVERY_RULES } from '@mcp-atlas/discovery/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDirectory } from '../src/directory-read.js';
import { ProbeInputError } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { type DirectoryFixture, startDirectoryFixture } from './fixtures/directories.js';

const SOURCES: readonly SourceName[] = DISCOVERY_RULES.sources;
const TOKEN = 'fixture-secret-7f3a';
let fixture: DirectoryFixture;
const network = { allowPrivate: true, httpClient: createNodeHttpClient };

beforeAll(async () => {
  fixture = await startDirectoryFixture();
});
afterAll(async () => {
  await fixture.server.close();
});

const readAll = (bases: Partial<Record<SourceName, string>> = {}) =>
  Promise.all(
    SOURCES.map((source) =>
      readDirectory(source, { ...network, baseUrl: bases[source] ?? fixture.server.origin, token: TOKEN }),
    ),
  );

/** What a catalog server is compared on: everything but the days, which the lifecycle test checks. */
function summary(server: CatalogServer) {
  return {
    key: server.key,
    name: server.name,
    registryId: server.registryId,
    sources: Object.fromEntries(Object.entries(server.sources).map(([source, seen]) => [source, seen?.sourceId])),
    remotes: server.remotes.map((remote) => remote.url),
    packages: server.packages.map((item) => `${item.registry}:${item.name}`),
    externalUrls: server.externalUrls,
    active: server.active,
  };
}

describe('the eight directory readers', () => {
  it('read every format, page by page, and merge into the hand-written catalog', async () => {
    const reads = await readAll();
    const outcome = Object.fromEntries(
      reads.map((read) => [read.source, [read.outcome, read.entries.length, read.pages]]),
    );
    expect(outcome).toEqual({
      'official-registry': ['complete', 2, 2],
      glama: ['complete', 1, 2],
      pulsemcp: ['truncated', 1, 2],
      smithery: ['complete', 1, 2],
      'docker-hub': ['complete', 1, 2],
      'best-of-mcp-servers': ['complete', 1, 2],
      'awesome-mcp-servers': ['complete', 1, 1],
      // Three pages over two topics; the repository both topics list is one entry.
      'github-topics': ['complete', 2, 3],
    });
    const byName = new Map(reads.map((read) => [read.source, read]));
    expect(byName.get('pulsemcp')?.note).toBe('page 2: the page has no servers array');
    // Glama's 429 was waited out for the second it asked, and the page asked again.
    expect(byName.get('glama')).toMatchObject({ waitedMs: 1000, requests: 3, note: null });
    expect(fixture.hits('/api/mcp/v1/servers?g1')).toBe(2);

    const { servers, leftOut } = mergeCatalog([], reads, '2026-12-07');
    expect(leftOut).toEqual([]);
    expect(servers.map(summary)).toEqual([
      {
        key: 'docker-hub:mcp/fetch',
        name: 'fetch',
        registryId: null,
        sources: { 'docker-hub': 'mcp/fetch' },
        remotes: [],
        packages: ['oci:docker.io/mcp/fetch'],
        externalUrls: { 'docker-hub': 'https://hub.docker.com/r/mcp/fetch' },
        active: true,
      },
      {
        key: 'https://github.com/acme/weather',
        name: 'Weather',
        registryId: 'io.github.acme/weather',
        sources: {
          'official-registry': 'io.github.acme/weather',
          glama: 'w3ath3r',
          'awesome-mcp-servers': 'acme/weather',
          'github-topics': 'acme/weather',
        },
        remotes: ['https://weather.acme.example/mcp'],
        packages: ['npm:@acme/weather-mcp'],
        externalUrls: {
          glama: 'https://glama.ai/mcp/servers/w3ath3r',
          npm: 'https://www.npmjs.com/package/@acme/weather-mcp',
        },
        active: true,
      },
      {
        key: 'https://github.com/beta/search-tools',
        name: 'search-tools',
        registryId: null,
        sources: { 'github-topics': 'beta/search-tools' },
        remotes: [],
        packages: [],
        externalUrls: {},
        active: true,
      },
      {
        key: 'https://github.com/notes-org/notes-mcp',
        name: 'Notes',
        registryId: null,
        sources: {
          pulsemcp: 'com.notes/server',
          smithery: '@notes/notes',
          'best-of-mcp-servers': 'notes-org/notes-mcp',
        },
        remotes: ['https://notes.example/mcp'],
        packages: [],
        externalUrls: { smithery: 'https://smithery.ai/server/@notes/notes' },
        active: true,
      },
      {
        key: 'registry:io.github.beta/search',
        name: 'io.github.beta/search',
        registryId: 'io.github.beta/search',
        sources: { 'official-registry': 'io.github.beta/search' },
        remotes: [],
        packages: [],
        externalUrls: {},
        active: true,
      },
    ]);
    const weather = servers.find((server) => server.key === 'https://github.com/acme/weather');
    expect(weather?.facts).toMatchObject({
      glama: { license: 'MIT License', remoteCapable: true },
      'awesome-mcp-servers': { official: true, language: 'typescript', scope: 'cloud', category: 'Weather' },
      'github-topics': { stars: 250, license: 'MIT' },
    });
    const notes = servers.find((server) => server.key === 'https://github.com/notes-org/notes-mcp');
    expect(notes?.facts).toMatchObject({
      pulsemcp: { visitorsWeek: 120, official: true },
      smithery: { useCount: 3100, deploymentUrl: 'https://server.smithery.ai/@notes/notes/mcp' },
      'best-of-mcp-servers': { projectRank: 18, contributors: 7, category: 'productivity' },
    });
  });

  it('sends each token to its directory, and no result holds one', async () => {
    const reads = await readAll();
    expect(JSON.stringify(reads)).not.toContain(TOKEN);
    const seen = fixture.server.requests;
    expect(seen.some((r) => r.path.startsWith('/api/mcp/v1/') && r.headers.authorization === `Bearer ${TOKEN}`)).toBe(
      true,
    );
    expect(seen.some((r) => r.headers['x-api-key'] === TOKEN)).toBe(true);
  });

  it('reads a directory that is down as failed, with why', async () => {
    const read = await readDirectory('glama', { ...network, baseUrl: `${fixture.server.origin}/down` });
    expect(read).toMatchObject({ outcome: 'failed', entries: [], pages: 0, note: 'page 1: answered HTTP 503' });
  });

  it('refuses an unknown directory and a base that is not a URL before sending anything', async () => {
    const before = fixture.server.requests.length;
    await expect(readDirectory('npm' as SourceName, network)).rejects.toBeInstanceOf(ProbeInputError);
    await expect(readDirectory('glama', { ...network, baseUrl: 'not a url' })).rejects.toThrow(/absolute http/);
    expect(fixture.server.requests.length).toBe(before);
  });
});

describe('the catalog lifecycle on real reads', () => {
  it('keeps every server when a directory is down, and deactivates one gone from every complete list', async () => {
    const first = mergeCatalog([], await readAll(), '2026-12-05');
    const fetchOf = (servers: CatalogServer[]) => servers.find((server) => server.key === 'docker-hub:mcp/fetch');

    // Day two: Docker Hub is down, and every other directory answers as before. Nothing is deactivated.
    const second = mergeCatalog(
      first.servers,
      await readAll({ 'docker-hub': `${fixture.server.origin}/down` }),
      '2026-12-06',
    );
    expect(second.servers.filter((server) => !server.active)).toEqual([]);
    expect(fetchOf(second.servers)?.sources['docker-hub']?.lastSeen).toBe('2026-12-05');

    // Day three: Docker Hub reads its whole list, and the image is gone from it: deactivated, still in the catalog.
    // (A whole list with nothing in it would count as a broken read, so the list has another image.)
    const third = mergeCatalog(
      second.servers,
      await readAll({ 'docker-hub': `${fixture.server.origin}/empty` }),
      '2026-12-07',
    );
    expect(fetchOf(third.servers)).toMatchObject({
      active: false,
      deactivatedOn: '2026-12-07',
      firstSeen: '2026-12-05',
      sources: { 'docker-hub': { sourceId: 'mcp/fetch', firstSeen: '2026-12-05', lastSeen: '2026-12-05' } },
    });
    expect(third.servers.filter((server) => !server.active).map((server) => server.key)).toEqual([
      'docker-hub:mcp/fetch',
    ]);
  });
});
