// The day's catalog through the registry sync, against a loopback registry and a loopback directory answering as
// Glama and PulseMCP do: what is merged, sealed and watched on each of four days, a directory down deactivating
// nothing, a server gone from every list deactivated and kept, and an unreadable catalog state left as it is.
import { type ServerType, serve } from '@hono/node-server';
import { mergeCatalog } from '@mcp-atlas/discovery';
import { generateKeyPair } from '@mcp-atlas/history';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogState } from '../src/data/catalog-file.js';
import { CATALOG_PATH, dayDirectoriesPath } from '../src/data/paths.js';
import { serverIdFor } from '../src/data/server-id.js';
import { directoryLocal } from '../src/discovery/sync-catalog.js';
import { readDayFiles, sealStoredDay } from '../src/seal/seal-day.js';
import { syncRegistry } from '../src/serve/registry-sync.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson } from '../src/storage/storage.js';

const TOKEN = 'glama-token-5be1';
const registryEntry = (name: string, extra: Record<string, unknown>) => ({
  server: { name, ...extra },
  _meta: { 'io.modelcontextprotocol.registry/official': { isLatest: true } },
});

/** What the fixtures list today; each test day sets it before the sync. */
const today = { registryListsOld: true, glamaDown: false, pulseListsEcho: true };
let origin = '';
let loopback: ServerType;
const glamaAuth: (string | undefined)[] = [];

function fixtureApp(): Hono {
  const app = new Hono();
  app.get('/v0.1/servers', (c) => {
    // PulseMCP asks with its API key: one server of its own, with a remote on loopback.
    if (c.req.header('x-api-key') !== undefined)
      return c.json({
        servers: today.pulseListsEcho
          ? [
              registryEntry('com.echo/server', {
                title: 'Echo',
                remotes: [{ type: 'streamable-http', url: `${origin}/echo/mcp` }],
              }),
            ]
          : [registryEntry('com.other/server', {})],
        metadata: {},
      });
    return c.json({
      servers: [
        registryEntry('io.github.acme/notes', {
          repository: { url: 'https://github.com/acme/notes' },
          remotes: [{ type: 'streamable-http', url: 'https://notes.acme.example/mcp' }],
        }),
        // A package-only server: in the catalog, and a local server, never watched as a remote.
        registryEntry('io.github.acme/local', {
          packages: [{ registryType: 'npm', identifier: '@acme/local-mcp', version: '1.0.0' }],
        }),
        ...(today.registryListsOld
          ? [
              registryEntry('io.github.acme/old', {
                remotes: [{ type: 'streamable-http', url: 'https://old.acme.example/mcp' }],
              }),
            ]
          : []),
      ],
      metadata: {},
    });
  });
  app.get('/api/mcp/v1/servers', (c) => {
    glamaAuth.push(c.req.header('authorization'));
    if (today.glamaDown) return c.json({ error: 'down' }, 503);
    return c.json({
      pageInfo: { hasNextPage: false, endCursor: null },
      servers: [
        {
          id: 'n1',
          name: 'notes',
          repository: { url: 'git@github.com:Acme/notes.git' },
          url: 'https://glama.ai/mcp/servers/n1',
        },
        {
          id: 'g1',
          name: 'glama-only',
          repository: { url: 'https://github.com/solo/glama-only' },
          url: 'https://glama.ai/mcp/servers/g1',
        },
      ],
    });
  });
  return app;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    loopback = serve({ fetch: fixtureApp().fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
      origin = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => loopback.close(() => resolve()));
});

const storage = createMemoryStorage();
const syncDay = (day: string) =>
  syncRegistry({
    storage,
    registryUrl: origin,
    network: { allowPrivate: true },
    optedOut: [],
    allowPrivate: true,
    catalogDay: day,
    directories: [
      { source: 'glama', baseUrl: origin, token: TOKEN },
      { source: 'pulsemcp', baseUrl: origin, token: 'pulse-key' },
    ],
  });

async function catalogOf(day: string) {
  const file = (await getJson(storage, dayDirectoriesPath(day))) as {
    reads: { source: string; outcome: string; entries: number }[];
    servers: {
      key: string;
      active: boolean;
      deactivatedOn: string | null;
      sources: Record<string, { lastSeen: string }>;
    }[];
    checkedAs: Record<string, string>;
  };
  return { ...file, byKey: new Map(file.servers.map((server) => [server.key, server])) };
}

describe('the day’s catalog through the registry sync', () => {
  it('day 1: merges the registry and two directories, watches the directory-only remote, and seals the file', async () => {
    const synced = await syncDay('2026-12-04');
    expect(synced.catalog).toEqual({ servers: 5, addedFromDirectories: 1, localFromDirectories: 0, problem: null });
    // The registry's package-only entry is a local server, with its package.
    expect(synced.local.map((server) => [server.title, server.package.identifier, server.package.version])).toEqual([
      ['io.github.acme/local', '@acme/local-mcp', '1.0.0'],
    ]);
    const catalog = await catalogOf('2026-12-04');
    expect(catalog.reads.map((read) => [read.source, read.outcome, read.entries])).toEqual([
      ['official-registry', 'complete', 3],
      ['glama', 'complete', 2],
      ['pulsemcp', 'complete', 1],
    ]);
    expect([...catalog.byKey.keys()]).toEqual([
      'https://github.com/acme/notes',
      'https://github.com/solo/glama-only',
      'pulsemcp:com.echo/server',
      'registry:io.github.acme/local',
      'registry:io.github.acme/old',
    ]);
    expect(Object.keys(catalog.byKey.get('https://github.com/acme/notes')?.sources ?? {})).toEqual([
      'official-registry',
      'glama',
    ]);
    // Watched: the registry's two remotes, and the remote only PulseMCP lists, keyed by its catalog key.
    const echoId = serverIdFor('pulsemcp:com.echo/server');
    expect(synced.servers.map((server) => [server.id, server.source]).sort()).toEqual(
      [
        [serverIdFor('io.github.acme/notes'), 'registry'],
        [serverIdFor('io.github.acme/old'), 'registry'],
        [echoId, 'directory'],
      ].sort(),
    );
    expect(catalog.checkedAs).toEqual({
      'https://github.com/acme/notes': serverIdFor('io.github.acme/notes'),
      'registry:io.github.acme/old': serverIdFor('io.github.acme/old'),
      'pulsemcp:com.echo/server': echoId,
    });
    // The token went to Glama, and is in no file.
    expect(glamaAuth.at(-1)).toBe(`Bearer ${TOKEN}`);
    expect(
      new TextDecoder().decode((await storage.get(dayDirectoriesPath('2026-12-04'))) ?? new Uint8Array()),
    ).not.toContain(TOKEN);
    // The catalog is a file of the day, so the day's root signs it.
    const keys = await generateKeyPair();
    await sealStoredDay(storage, '2026-12-04', keys);
    expect((await readDayFiles(storage, '2026-12-04')).map((file) => file.path)).toContain('directories.json');
  });

  it('day 2: with Glama down and PulseMCP no longer listing its server, nothing is deactivated but by a whole list', async () => {
    Object.assign(today, { glamaDown: true, pulseListsEcho: false });
    await syncDay('2026-12-05');
    const catalog = await catalogOf('2026-12-05');
    expect(catalog.reads.find((read) => read.source === 'glama')).toMatchObject({ outcome: 'failed', entries: 0 });
    // The Glama-only server stays active: its one source failed today.
    expect(catalog.byKey.get('https://github.com/solo/glama-only')).toMatchObject({
      active: true,
      deactivatedOn: null,
    });
    // PulseMCP read its whole list without the echo server: deactivated, and no longer watched.
    expect(catalog.byKey.get('pulsemcp:com.echo/server')).toMatchObject({ active: false, deactivatedOn: '2026-12-05' });
    expect(catalog.checkedAs['pulsemcp:com.echo/server']).toBeUndefined();
  });

  it('day 3: a server gone from the registry’s whole list is deactivated and keeps its history', async () => {
    Object.assign(today, { glamaDown: false, registryListsOld: false });
    const synced = await syncDay('2026-12-06');
    const old = (await catalogOf('2026-12-06')).byKey.get('registry:io.github.acme/old');
    expect(old).toMatchObject({
      active: false,
      deactivatedOn: '2026-12-06',
      sources: { 'official-registry': { lastSeen: '2026-12-05' } },
    });
    expect(synced.servers.map((server) => server.id)).not.toContain(serverIdFor('io.github.acme/old'));
    // Day 1's sealed catalog is as it was signed.
    expect((await catalogOf('2026-12-04')).byKey.get('registry:io.github.acme/old')?.active).toBe(true);
  });

  it('leaves an unreadable catalog state as it is, and still writes the watched list', async () => {
    await storage.put(CATALOG_PATH, new TextEncoder().encode('{"day": "2026-12-06", "servers": "torn'));
    const synced = await syncDay('2026-12-07');
    expect(synced.catalog?.problem).toContain('state/catalog.json cannot be read (not JSON)');
    expect(await storage.get(dayDirectoriesPath('2026-12-07'))).toBeNull();
    expect(new TextDecoder().decode((await storage.get(CATALOG_PATH)) ?? new Uint8Array())).toContain('"torn');
    expect(synced.servers.length).toBeGreaterThan(0);
    await expect(readCatalogState(storage)).rejects.toThrow(/cannot be read/);
  });
});

describe('directory-only servers that ship only as a package', () => {
  it('are local servers when they name an npm or PyPI package at a version', () => {
    const { servers } = mergeCatalog(
      [],
      [
        {
          source: 'glama',
          outcome: 'complete',
          entries: [
            { sourceId: 'p1', name: 'pinned', packages: [{ registry: 'npm', name: 'pinned-mcp', version: '1.2.3' }] },
            { sourceId: 'p2', name: 'unpinned', packages: [{ registry: 'npm', name: 'unpinned-mcp' }] },
            { sourceId: 'p3', name: 'wheel', packages: [{ registry: 'pypi', name: 'wheel-mcp', version: '0.4.0' }] },
            {
              sourceId: 'p4',
              name: 'remote too',
              remotes: [{ transport: 'streamable-http', url: 'https://remote.example/mcp' }],
              packages: [{ registry: 'npm', name: 'remote-mcp', version: '1.0.0' }],
            },
          ],
        },
      ],
      '2026-12-07',
    );
    const local = directoryLocal(servers, new Set([serverIdFor('glama:p3')]));
    expect(local).toEqual([
      {
        id: serverIdFor('glama:p1'),
        title: 'pinned',
        package: {
          registryType: 'npm',
          identifier: 'pinned-mcp',
          version: '1.2.3',
          environmentVariables: [],
          packageArguments: [],
        },
      },
    ]);
  });
});
