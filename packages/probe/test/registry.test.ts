import { afterAll, describe, expect, it } from 'vitest';
import type { RegistryEntry } from '../src/index.js';
import { listRegistryServers, pickRemote, RegistryEntrySchema, RegistryReadError } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { isListedEntry } from '../src/registry.js';
import { type LocalServer, sendJson, startRawServer } from './fixtures/servers.js';

const network = { allowPrivate: true, httpClient: createNodeHttpClient };
const META = 'io.modelcontextprotocol.registry/official';

function item(
  name: string,
  meta: Record<string, unknown> = { status: 'active', isLatest: true },
  remotes: unknown[] = [{ type: 'streamable-http', url: `https://${name}.example.com/mcp` }],
) {
  return { server: { name, version: '1.0.0', remotes, description: 'kept as is' }, _meta: { [META]: meta } };
}

const servers: LocalServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});
async function registry(pages: Record<string, unknown>): Promise<LocalServer> {
  const server = await startRawServer((req, res) => {
    const cursor = new URL(req.url ?? '/', 'http://x').searchParams.get('cursor') ?? 'first';
    const page = pages[cursor];
    if (page === undefined) return sendJson(res, 404, { error: 'no page' });
    if (typeof page === 'number') return sendJson(res, page, {});
    sendJson(res, 200, page);
  }, '/v0.1/servers');
  servers.push(server);
  return server;
}

async function collect(iterator: AsyncIterable<RegistryEntry>): Promise<RegistryEntry[]> {
  const out: RegistryEntry[] = [];
  for await (const entry of iterator) out.push(entry);
  return out;
}

describe('listRegistryServers', () => {
  it('pages through metadata.nextCursor, keeping latest versions and leaving deleted entries out', async () => {
    const server = await registry({
      first: {
        servers: [
          item('alpha'),
          item('beta', { status: 'active', isLatest: false }),
          item('gamma', { status: 'deleted', isLatest: true }),
        ],
        metadata: { nextCursor: 'c2', count: 3 },
      },
      c2: {
        servers: [item('delta', { status: 'deprecated', isLatest: true }), item('epsilon', {})],
        metadata: { count: 2 },
      },
    });
    const entries = await collect(listRegistryServers(`${server.origin}/`, network));
    expect(entries.map((e) => e.server.name)).toEqual(['alpha', 'delta', 'epsilon']);
    for (const entry of entries) expect(RegistryEntrySchema.parse(entry)).toEqual(entry);
    expect(entries[0]?.server).toMatchObject({ description: 'kept as is' });
    expect(server.requests.map((r) => r.path)).toEqual([
      '/v0.1/servers?limit=100&version=latest',
      '/v0.1/servers?limit=100&version=latest&cursor=c2',
    ]);
  });

  it('stops on a repeated cursor', async () => {
    const server = await registry({
      first: { servers: [item('a')], metadata: { nextCursor: 'loop' } },
      loop: { servers: [item('b')], metadata: { nextCursor: 'loop' } },
    });
    expect((await collect(listRegistryServers(server.origin, network))).map((e) => e.server.name)).toEqual(['a', 'b']);
    expect(server.requests).toHaveLength(2);
  });

  it('reports unusable items through onSkip and goes on', async () => {
    const server = await registry({ first: { servers: [{ server: { version: '1' } }, 'junk', item('ok')] } });
    const skipped: string[] = [];
    const entries = await collect(
      listRegistryServers(server.origin, { ...network, onSkip: (_item, why) => skipped.push(why) }),
    );
    expect(entries.map((e) => e.server.name)).toEqual(['ok']);
    expect(skipped).toHaveLength(2);
  });

  it('throws RegistryReadError on a page that cannot be read, after yielding the earlier pages', async () => {
    const server = await registry({ first: { servers: [item('a')], metadata: { nextCursor: 'broken' } }, broken: 503 });
    const names: string[] = [];
    const run = async (): Promise<void> => {
      for await (const entry of listRegistryServers(server.origin, network)) names.push(entry.server.name);
    };
    await expect(run()).rejects.toMatchObject({ name: 'RegistryReadError', page: 2, status: 503 });
    expect(names).toEqual(['a']);
  });

  it('throws RegistryReadError on a page that is not a registry page', async () => {
    const server = await registry({ first: { items: [] } });
    await expect(collect(listRegistryServers(server.origin, network))).rejects.toBeInstanceOf(RegistryReadError);
  });
});

describe('isListedEntry', () => {
  it('drops deleted and non-latest entries, keeps the rest', () => {
    expect(isListedEntry({ server: { name: 'a' }, meta: { status: 'deleted', isLatest: true } })).toBe(false);
    expect(isListedEntry({ server: { name: 'a' }, meta: { status: 'active', isLatest: false } })).toBe(false);
    expect(isListedEntry({ server: { name: 'a' }, meta: { status: 'deprecated', isLatest: true } })).toBe(true);
    expect(isListedEntry({ server: { name: 'a' }, meta: {} })).toBe(true);
  });
});

describe('pickRemote', () => {
  it('prefers the first streamable-http remote', () => {
    const remotes = [
      { type: 'sse', url: 'https://a.example.com/sse' },
      { type: 'streamable-http', url: 'https://a.example.com/mcp' },
      { type: 'streamable-http', url: 'https://a.example.com/mcp2' },
    ];
    expect(pickRemote({ server: { name: 'a', remotes } })).toEqual(remotes[1]);
    expect(pickRemote({ remotes })).toEqual(remotes[1]);
  });

  it('else takes the first remote, else null', () => {
    expect(
      pickRemote({
        server: {
          remotes: [
            { type: 'sse', url: 'https://a/sse' },
            { type: 'websocket', url: 'wss://a' },
          ],
        },
      }),
    ).toEqual({ type: 'sse', url: 'https://a/sse' });
    expect(pickRemote({ server: { remotes: [] } })).toBeNull();
    expect(pickRemote({ server: { name: 'stdio only' } })).toBeNull();
    expect(pickRemote(null)).toBeNull();
    expect(pickRemote({ remotes: [{ type: 'streamable-http' }, 7] })).toBeNull();
  });
});
