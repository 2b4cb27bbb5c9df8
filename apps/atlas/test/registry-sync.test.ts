import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverIdFor } from '../src/data/server-id.js';
import { syncRegistry } from '../src/serve/registry-sync.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson } from '../src/storage/storage.js';

// A registry on loopback speaking the official listing's shape, over two pages.
const PAGES: Record<string, unknown> = {
  first: {
    servers: [
      {
        server: {
          name: 'io.example/notes',
          remotes: [
            { type: 'sse', url: 'https://notes.example.com/sse' },
            { type: 'streamable-http', url: 'https://notes.example.com/mcp' },
          ],
        },
        _meta: { 'io.modelcontextprotocol.registry/official': { isLatest: true } },
      },
      {
        server: { name: 'io.example/old', remotes: [{ type: 'streamable-http', url: 'https://old.example.com/mcp' }] },
        _meta: { 'io.modelcontextprotocol.registry/official': { isLatest: false } },
      },
      { server: { name: 'io.example/sse-only', remotes: [{ type: 'sse', url: 'https://sse.example.com/sse' }] } },
    ],
    metadata: { nextCursor: 'second' },
  },
  second: {
    servers: [
      {
        server: {
          name: 'io.example/gone',
          remotes: [{ type: 'streamable-http', url: 'https://gone.example.com/mcp' }],
        },
        _meta: { 'io.modelcontextprotocol.registry/official': { status: 'deleted' } },
      },
      {
        server: {
          name: 'io.example/template',
          remotes: [{ type: 'streamable-http', url: 'https://{tenant}.example.com/mcp' }],
        },
      },
      { server: { name: 'io.example/ip', remotes: [{ type: 'streamable-http', url: 'https://192.0.2.10/mcp' }] } },
      {
        server: {
          name: 'io.example/quiet',
          remotes: [{ type: 'streamable-http', url: 'https://quiet.example.org/mcp' }],
        },
      },
      { server: { name: 'io.example/local', remotes: [] } },
      {
        server: {
          name: 'io.example/weather-cli',
          packages: [
            {
              registryType: 'npm',
              identifier: 'private-weather',
              version: '1.0.0',
              registryBaseUrl: 'https://npm.corp',
            },
            {
              registryType: 'PyPI',
              identifier: 'weather-mcp',
              version: '2.1.0',
              environmentVariables: [
                { name: 'WEATHER_KEY', isRequired: true, isSecret: true },
                { name: 42 },
                { name: 'UNITS', default: 'metric' },
              ],
              packageArguments: [{ type: 'positional', value: '--stdio' }, { type: 'flag' }],
            },
          ],
        },
      },
      { server: { name: 'io.example/range', packages: [{ registryType: 'npm', identifier: 'r' }] } },
    ],
    metadata: {},
  },
};

let registry: { server: ServerType; url: string };

beforeAll(async () => {
  const app = new Hono();
  app.get('/v0.1/servers', (c) => c.json(PAGES[c.req.query('cursor') ?? 'first'] ?? { servers: [] }));
  registry = await new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
      resolve({ server, url: `http://127.0.0.1:${info.port}` }),
    );
  });
});

afterAll(() => {
  registry.server.close();
});

describe('reading the registry', () => {
  it('watches the latest, live entries at their chosen remote, and leaves out what the guard refuses', async () => {
    const storage = createMemoryStorage();
    const { servers, local, skipped } = await syncRegistry({
      storage,
      registryUrl: registry.url,
      network: { allowPrivate: true },
      optedOut: ['quiet.example.org'],
    });
    expect(servers).toEqual([
      {
        id: serverIdFor('io.example/notes'),
        url: 'https://notes.example.com/mcp',
        title: 'io.example/notes',
        source: 'registry',
      },
    ]);
    expect(skipped.map((s) => s.name).sort()).toEqual([
      'io.example/ip',
      'io.example/local',
      'io.example/quiet',
      'io.example/range',
      'io.example/sse-only',
      'io.example/template',
    ]);
    expect(await getJson(storage, 'state/servers.json')).toEqual({ servers });
    // An entry with no remote but a package on a public registry, at a version, is a local server: the package on
    // a private registry is passed over, and the declarations that do not parse are left out.
    expect(local).toEqual([
      {
        id: serverIdFor('io.example/weather-cli'),
        title: 'io.example/weather-cli',
        package: {
          registryType: 'pypi',
          identifier: 'weather-mcp',
          version: '2.1.0',
          environmentVariables: [
            { name: 'WEATHER_KEY', isRequired: true, isSecret: true },
            { name: 'UNITS', default: 'metric' },
          ],
          packageArguments: [{ type: 'positional', value: '--stdio' }],
        },
      },
    ]);
    expect(await getJson(storage, 'state/local-servers.json')).toEqual({ servers: local });
  });

  it('gives every name a path-safe id that two similar names do not share', () => {
    expect(serverIdFor('io.github.user/My Server')).toMatch(/^io-github-user-my-server-[0-9a-f]{8}$/);
    expect(serverIdFor('a/b')).not.toBe(serverIdFor('a.b'));
  });
});
