// The catalog merge at its edges: which entries are one server (GitHub URL, registry name, a repository that
// holds several servers), which fields win (source order, then id), which links are kept, and when a server
// that no source lists is deactivated (never when a read failed or was cut). Every expected record is written
// out by hand from the rules in docs/methodology/discovery.md. Pure module under test.
import { describe, expect, it } from 'vitest';
import {
  type CatalogServer,
  DiscoveryInputError,
  mergeCatalog,
  type SourceEntry,
  type SourceName,
  type SourceRead,
} from '../src/index.js';

const DAY = '2026-12-07';
const NEXT = '2026-12-08';

function read(source: SourceName, entries: SourceEntry[], outcome: SourceRead['outcome'] = 'complete'): SourceRead {
  return { source, outcome, entries };
}

const REGISTRY_NOTES: SourceEntry = {
  sourceId: 'io.github.acme/notes',
  name: 'Notes',
  description: 'Notes from the registry',
  registryId: 'io.github.acme/notes',
  repositoryUrl: 'https://github.com/acme/notes',
  remotes: [{ url: 'https://notes.acme.example/mcp', transport: 'streamable-http' }],
  packages: [{ registry: 'npm', name: '@acme/notes-mcp', version: '1.2.0' }],
};

const GLAMA_NOTES: SourceEntry = {
  sourceId: 'k3x',
  name: 'acme-notes',
  description: 'Glama says notes',
  repositoryUrl: 'git+https://github.com/Acme/Notes.git',
  pageUrl: 'https://glama.ai/mcp/servers/k3x',
  remotes: [
    { url: 'https://notes.acme.example/mcp', transport: 'streamable-http' },
    { url: 'https://notes.acme.example/sse', transport: 'sse' },
  ],
  facts: { license: 'MIT' },
};

const AWESOME_NOTES: SourceEntry = {
  sourceId: 'acme/notes',
  name: 'acme/notes',
  repositoryUrl: 'https://github.com/acme/notes/tree/main',
  facts: { category: 'Knowledge & Memory' },
};

// Another server each whole read still lists: a whole read that lists nothing is taken for a broken one.
const REGISTRY_OTHER: SourceEntry = {
  sourceId: 'io.github.zed/other',
  name: 'Other',
  registryId: 'io.github.zed/other',
};
const GLAMA_OTHER: SourceEntry = { sourceId: 'zz9', name: 'other', repositoryUrl: 'https://github.com/zed/other' };

/** The notes server of a catalog that may also hold the other one. */
function notes(servers: CatalogServer[]): CatalogServer {
  const found = servers.find((server) => server.key === 'https://github.com/acme/notes');
  expect(found).toBeDefined();
  return found as CatalogServer;
}

function only(servers: CatalogServer[]): CatalogServer {
  expect(servers).toHaveLength(1);
  return servers[0] as CatalogServer;
}

describe('one server from several sources', () => {
  it('merges entries with the same GitHub repository written differently, the registry’s fields first', () => {
    const { servers, leftOut } = mergeCatalog(
      [],
      [
        read('awesome-mcp-servers', [AWESOME_NOTES]),
        read('glama', [GLAMA_NOTES]),
        read('official-registry', [REGISTRY_NOTES]),
      ],
      DAY,
    );
    expect(leftOut).toEqual([]);
    expect(only(servers)).toEqual({
      key: 'https://github.com/acme/notes',
      aliases: [],
      repositoryUrl: 'https://github.com/acme/notes',
      registryId: 'io.github.acme/notes',
      name: 'Notes',
      description: 'Notes from the registry',
      // The union, the registry's first, each URL once.
      remotes: [
        { url: 'https://notes.acme.example/mcp', transport: 'streamable-http' },
        { url: 'https://notes.acme.example/sse', transport: 'sse' },
      ],
      packages: [{ registry: 'npm', name: '@acme/notes-mcp', version: '1.2.0' }],
      externalUrls: { glama: 'https://glama.ai/mcp/servers/k3x', npm: 'https://www.npmjs.com/package/@acme/notes-mcp' },
      facts: { glama: { license: 'MIT' }, 'awesome-mcp-servers': { category: 'Knowledge & Memory' } },
      sources: {
        'official-registry': { sourceId: 'io.github.acme/notes', firstSeen: DAY, lastSeen: DAY },
        glama: { sourceId: 'k3x', firstSeen: DAY, lastSeen: DAY },
        'awesome-mcp-servers': { sourceId: 'acme/notes', firstSeen: DAY, lastSeen: DAY },
      },
      firstSeen: DAY,
      lastSeen: DAY,
      active: true,
      deactivatedOn: null,
    });
  });

  it('links by registry name when one entry has no repository, and keys by the URL the other gives', () => {
    const smithery: SourceEntry = {
      sourceId: 'acme/notes',
      name: 'Notes (hosted)',
      registryId: 'io.github.acme/notes',
      pageUrl: 'https://smithery.ai/server/acme/notes',
    };
    const server = only(
      mergeCatalog([], [read('smithery', [smithery]), read('official-registry', [REGISTRY_NOTES])], DAY).servers,
    );
    expect(server.key).toBe('https://github.com/acme/notes');
    expect(Object.keys(server.sources)).toEqual(['official-registry', 'smithery']);
    expect(server.externalUrls.smithery).toBe('https://smithery.ai/server/acme/notes');
  });

  it('keys a server without a repository by its registry name, and one with neither by source and id', () => {
    const { servers } = mergeCatalog(
      [],
      [
        read('official-registry', [
          { sourceId: 'com.example/hosted', name: 'Hosted', registryId: 'com.example/hosted' },
        ]),
        read('docker-hub', [{ sourceId: 'mcp/fetch', name: 'fetch', pageUrl: 'https://hub.docker.com/r/mcp/fetch' }]),
      ],
      DAY,
    );
    expect(servers.map((s) => s.key)).toEqual(['docker-hub:mcp/fetch', 'registry:com.example/hosted']);
  });

  it('breaks a tie inside one source by the lower id: fields from the first, the other left out as listed twice', () => {
    const { servers, leftOut } = mergeCatalog(
      [],
      [
        read('glama', [
          { sourceId: 'zz9', name: 'Second', repositoryUrl: 'https://github.com/acme/notes' },
          { sourceId: 'aa1', name: 'First', repositoryUrl: 'https://github.com/ACME/notes.git' },
          { sourceId: 'aa1', name: 'Again', repositoryUrl: 'https://github.com/acme/notes' },
        ]),
      ],
      DAY,
    );
    const server = only(servers);
    expect(server.name).toBe('First');
    // One sighting per source: the winning entry's id.
    expect(server.sources.glama?.sourceId).toBe('aa1');
    expect(leftOut).toEqual([{ source: 'glama', sourceId: 'aa1', reason: 'listed twice by its source' }]);
  });

  it('keeps apart the servers of one repository that two registry names claim', () => {
    const monorepo = 'https://github.com/modelcontextprotocol/servers';
    const { servers } = mergeCatalog(
      [],
      [
        read('official-registry', [
          {
            sourceId: 'memory',
            name: 'Memory',
            registryId: 'io.example/memory',
            repositoryUrl: `${monorepo}/tree/main/src/memory`,
          },
          { sourceId: 'everything', name: 'Everything', registryId: 'io.example/everything', repositoryUrl: monorepo },
        ]),
        // A list that names only the repository: the repository's own record, not one of the two.
        read('awesome-mcp-servers', [{ sourceId: 'reference', name: 'Reference servers', repositoryUrl: monorepo }]),
        // A source that names the registry name too joins that one server.
        read('smithery', [
          { sourceId: 'memory', name: 'memory', registryId: 'io.example/memory', repositoryUrl: monorepo },
        ]),
      ],
      DAY,
    );
    expect(servers.map((s) => [s.key, s.name, Object.keys(s.sources)])).toEqual([
      [monorepo, 'Reference servers', ['awesome-mcp-servers']],
      ['registry:io.example/everything', 'Everything', ['official-registry']],
      ['registry:io.example/memory', 'Memory', ['official-registry', 'smithery']],
    ]);
    expect(servers[2]?.repositoryUrl).toBe(monorepo);
  });
});

describe('what an entry may lack or get wrong', () => {
  it('leaves out an entry without an id or a name, and a source it does not know, with the reason', () => {
    const { servers, leftOut } = mergeCatalog(
      [],
      [
        read('glama', [
          { sourceId: '', name: 'x' },
          { sourceId: 'b', name: '  ' },
          { sourceId: 'c', name: 'Fine' },
        ]),
        { source: 'somewhere' as SourceName, outcome: 'complete', entries: [{ sourceId: 'd', name: 'Elsewhere' }] },
      ],
      DAY,
    );
    expect(servers.map((s) => s.key)).toEqual(['glama:c']);
    expect(leftOut).toEqual([
      { source: 'glama', sourceId: '', reason: 'no source id' },
      { source: 'glama', sourceId: 'b', reason: 'no name' },
      { source: 'somewhere', sourceId: null, reason: 'not a known source' },
    ]);
  });

  it('reads fields of the wrong shape as absent: a javascript: page, an ftp remote, an unknown registry', () => {
    const server = only(
      mergeCatalog(
        [],
        [
          read('glama', [
            {
              sourceId: 'x',
              name: 'Odd',
              pageUrl: 'javascript:alert(1)',
              remotes: [{ url: 'ftp://files.example/mcp', transport: 'ftp' }, null as never],
              packages: [
                { registry: 'cargo', name: 'odd' },
                { registry: 'pypi', name: 'odd-mcp' },
              ],
              facts: { stars: 12, nested: { a: 1 } as never, official: true },
            },
          ]),
        ],
        DAY,
      ).servers,
    );
    expect(server.externalUrls).toEqual({ pypi: 'https://pypi.org/project/odd-mcp' });
    expect(server.remotes).toEqual([]);
    expect(server.packages).toEqual([{ registry: 'pypi', name: 'odd-mcp', version: null }]);
    expect(server.facts).toEqual({ glama: { stars: 12, official: true } });
  });

  it('throws a typed error for a call it cannot read', () => {
    expect(() => mergeCatalog([], [], 'today')).toThrow(DiscoveryInputError);
    expect(() => mergeCatalog(null as never, [], DAY)).toThrow(DiscoveryInputError);
    expect(() => mergeCatalog([], {} as never, DAY)).toThrow(DiscoveryInputError);
  });
});

describe('from one day to the next', () => {
  const day1 = mergeCatalog(
    [],
    [read('official-registry', [REGISTRY_NOTES]), read('glama', [GLAMA_NOTES]), read('docker-hub', [])],
    DAY,
  ).servers;

  it('keeps a link that a later read does not give, and first sightings', () => {
    const { pageUrl: _gone, ...withoutPage } = GLAMA_NOTES;
    const server = only(
      mergeCatalog(day1, [read('official-registry', [REGISTRY_NOTES]), read('glama', [withoutPage])], NEXT).servers,
    );
    expect(server.externalUrls.glama).toBe('https://glama.ai/mcp/servers/k3x');
    expect(server.sources.glama).toEqual({ sourceId: 'k3x', firstSeen: DAY, lastSeen: NEXT });
    expect(server.firstSeen).toBe(DAY);
    expect(server.lastSeen).toBe(NEXT);
  });

  it('deactivates a server no source lists when every source that listed it read its whole list', () => {
    const whole = [read('official-registry', [REGISTRY_OTHER]), read('glama', [GLAMA_OTHER])];
    const server = notes(mergeCatalog(day1, whole, NEXT).servers);
    expect(server).toMatchObject({ active: false, deactivatedOn: NEXT, lastSeen: DAY, name: 'Notes' });
    // Kept whole: its history, links and sightings stay.
    expect(server.externalUrls.glama).toBe('https://glama.ai/mcp/servers/k3x');
    expect(server.sources['official-registry']?.lastSeen).toBe(DAY);
    // The day after, still deactivated since the same day.
    const later = notes(mergeCatalog([server], whole, '2026-12-09').servers);
    expect(later).toMatchObject({ active: false, deactivatedOn: NEXT });
  });

  it('deactivates nothing when one source that listed it failed, was cut, was not read, or listed nothing', () => {
    const cases: SourceRead[][] = [
      [read('official-registry', [REGISTRY_OTHER]), read('glama', [], 'failed')],
      [read('official-registry', [REGISTRY_OTHER]), read('glama', [], 'truncated')],
      [read('official-registry', [REGISTRY_OTHER])],
      // Whole reads with no entry at all: broken answers, not emptied directories.
      [read('official-registry', []), read('glama', [])],
      [read('official-registry', [REGISTRY_OTHER]), read('glama', [])],
      [],
    ];
    for (const reads of cases) {
      const server = notes(mergeCatalog(day1, reads, NEXT).servers);
      expect(server.active, JSON.stringify(reads.map((r) => r.outcome))).toBe(true);
      expect(server.deactivatedOn).toBeNull();
      expect(server.lastSeen).toBe(DAY);
    }
  });

  it('a failed source keeps its facts; a complete one that no longer lists the server drops them', () => {
    const failed = only(
      mergeCatalog(day1, [read('official-registry', [REGISTRY_NOTES]), read('glama', [], 'failed')], NEXT).servers,
    );
    expect(failed.facts.glama).toEqual({ license: 'MIT' });
    const complete = notes(
      mergeCatalog(day1, [read('official-registry', [REGISTRY_NOTES]), read('glama', [GLAMA_OTHER])], NEXT).servers,
    );
    expect(complete.facts.glama).toBeUndefined();
  });

  it('activates a deactivated server listed again, keeping its first sighting', () => {
    const gone = mergeCatalog(
      day1,
      [read('official-registry', [REGISTRY_OTHER]), read('glama', [GLAMA_OTHER])],
      NEXT,
    ).servers;
    const back = notes(mergeCatalog(gone, [read('glama', [GLAMA_NOTES])], '2026-12-09').servers);
    expect(back).toMatchObject({ active: true, deactivatedOn: null, firstSeen: DAY, lastSeen: '2026-12-09' });
  });

  it('folds two records that a new entry shows to be one server, keeping the other key as an alias', () => {
    // Day 1: a Docker Hub image with no repository, and the registry's server.
    const first = mergeCatalog(
      [],
      [
        read('official-registry', [REGISTRY_NOTES]),
        read('docker-hub', [{ sourceId: 'mcp/notes', name: 'notes', pageUrl: 'https://hub.docker.com/r/mcp/notes' }]),
      ],
      DAY,
    ).servers;
    expect(first.map((s) => s.key)).toEqual(['docker-hub:mcp/notes', 'https://github.com/acme/notes']);
    // Day 2: the image names its repository.
    const image = { sourceId: 'mcp/notes', name: 'notes', repositoryUrl: 'https://github.com/acme/notes' };
    const second = only(
      mergeCatalog(first, [read('official-registry', [REGISTRY_NOTES]), read('docker-hub', [image])], NEXT).servers,
    );
    expect(second.key).toBe('https://github.com/acme/notes');
    expect(second.aliases).toEqual(['docker-hub:mcp/notes']);
    expect(second.externalUrls['docker-hub']).toBe('https://hub.docker.com/r/mcp/notes');
    expect(second.sources['docker-hub']).toEqual({ sourceId: 'mcp/notes', firstSeen: DAY, lastSeen: NEXT });
  });
});
