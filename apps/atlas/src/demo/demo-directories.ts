// The demo's directories: one loopback server (127.0.0.1 only) that answers as Glama's API, the
// awesome-mcp-servers README and Docker Hub's MCP namespace do, read each simulated day through the same
// directory readers and catalog merge as `serve`. The official registry's side is the fleet's registry entries.
// What it shows: the notebook is reported by three directories under three spellings of one repository; a
// Glama-only server leaves Glama on day 20 and is deactivated; the awesome list names a server with no remote,
// listed but never checked; Docker Hub's image stands alone, since an image names no repository.
import type { ServerType } from '@hono/node-server';
import type { SourceEntry } from '@mcp-atlas/discovery';
import { Hono } from 'hono';
import { writeCatalog } from '../data/catalog-file.js';
import type { WatchedServer } from '../data/schemas.js';
import { catalogFileOf, checkedAsOf, type DirectorySetting, mergeDayCatalog } from '../discovery/sync-catalog.js';
import { listen } from '../serve/listen.js';
import type { Storage } from '../storage/storage.js';
import { DEMO_REGISTRY_FACTS } from './demo-registry.js';
import { DEMO_DAY_HEADER } from './fleet.js';
import { demoNetwork } from './live-checks.js';

/** The simulated day from which Glama no longer lists its retired server. */
export const DEMO_RETIRED_FROM_DAY = 20;

const glamaServer = (id: string, name: string, repository: string, license: string) => ({
  id,
  name,
  namespace: 'atlas-demo',
  slug: name,
  description: `${name}, as Glama lists it`,
  repository: { url: repository },
  spdxLicense: { name: license, url: `https://spdx.org/licenses/${license}.json` },
  url: `https://glama.ai/mcp/servers/${id}`,
  attributes: ['hosting:remote-capable'],
  tools: [],
});

const AWESOME_README = `# Awesome MCP Servers (demo)

## Server Implementations

### 📝 <a name="notes"></a>Knowledge & Memory

- [atlas-demo/notes](https://github.com/atlas-demo/notes/tree/main) 📇 ☁️ - Notes in a shared notebook.
- [atlas-demo/local-files](https://github.com/atlas-demo/local-files) 🐍 🏠 - Files on your own machine, over stdio.

### 💰 <a name="finance"></a>Finance & Fintech

- [atlas-demo/ledger](https://github.com/atlas-demo/ledger) 🏎️ ☁️ - Payments and refunds.
`;

function directoryApp(): Hono {
  const app = new Hono();
  app.get('/api/mcp/v1/servers', (c) => {
    const day = Number(c.req.header(DEMO_DAY_HEADER) ?? '0');
    if (c.req.query('after') === 'demo-1')
      return c.json({
        pageInfo: { hasNextPage: false, endCursor: null },
        servers:
          day < DEMO_RETIRED_FROM_DAY
            ? [glamaServer('r3t1red', 'retired-tool', 'https://github.com/atlas-demo/retired-tool', 'MIT')]
            : [],
      });
    return c.json({
      pageInfo: { hasNextPage: true, endCursor: 'demo-1' },
      servers: [
        glamaServer('n0tes', 'notes-mcp', 'https://github.com/Atlas-Demo/notes.git', 'MIT'),
        glamaServer('w3ather', 'weather-mcp', 'https://github.com/atlas-demo/weather/', 'Apache-2.0'),
        glamaServer('v4ult', 'vault-mcp', 'git+https://github.com/atlas-demo/vault', 'MIT'),
      ],
    });
  });
  app.get('/punkpeye/awesome-mcp-servers/main/README.md', (c) => c.text(AWESOME_README));
  app.get('/v2/namespaces/mcp/repositories', (c) =>
    c.json({
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          name: 'atlas-demo-maps',
          namespace: 'mcp',
          description: 'Maps, as an image',
          pull_count: 1200,
          star_count: 3,
        },
      ],
    }),
  );
  return app;
}

/** The running demo directory, and the directories to read from it. */
export interface DemoDirectories {
  directories: DirectorySetting[];
  close(): Promise<void>;
}

/** Starts the demo directory on a free loopback port. */
export async function startDemoDirectories(): Promise<DemoDirectories> {
  const { server, port }: { server: ServerType; port: number } = await listen(directoryApp().fetch, 0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    directories: [
      { source: 'glama', baseUrl },
      { source: 'awesome-mcp-servers', baseUrl },
      { source: 'docker-hub', baseUrl },
    ],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

/** The fleet's registry entries as the official registry's catalog entries: each watched member that has one. */
function officialEntriesOf(servers: readonly WatchedServer[]): SourceEntry[] {
  return servers.flatMap((server) => {
    const facts = DEMO_REGISTRY_FACTS.get(server.id);
    if (facts === undefined) return [];
    return [
      {
        sourceId: facts.registryId,
        name: server.title ?? server.id,
        description: facts.description === '' ? null : facts.description,
        registryId: facts.registryId,
        repositoryUrl: facts.repositoryUrl,
        remotes: [{ url: server.url, transport: facts.transport ?? 'streamable-http' }],
        packages: facts.packages.map((item) => ({ registry: item.registryType, name: item.identifier })),
      },
    ];
  });
}

/** Reads the demo's directories for one simulated day and writes that day's catalog, as the registry sync does. */
export async function syncDemoCatalog(
  storage: Storage,
  input: { day: string; dayIndex: number; servers: readonly WatchedServer[]; directories: readonly DirectorySetting[] },
): Promise<void> {
  const merged = await mergeDayCatalog({
    storage,
    day: input.day,
    official: officialEntriesOf(input.servers),
    directories: input.directories,
    network: demoNetwork({ dayIndex: input.dayIndex }),
  });
  const memberOf = new Map([...DEMO_REGISTRY_FACTS].map(([id, facts]) => [facts.registryId, id]));
  const checkedAs = checkedAsOf(merged.servers, input.servers, (name) => memberOf.get(name) ?? null);
  await writeCatalog(storage, catalogFileOf(input.day, merged, checkedAs));
}
