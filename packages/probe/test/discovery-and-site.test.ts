import { afterAll, describe, expect, it } from 'vitest';
import { SITE_CHECK_PROTOCOL_VERSION, SITE_SESSION_BUDGET_MS } from '../src/constants.js';
import { catalogCardUrls, findLinkElements, parseLinkHeader, rejectCandidate, signalsMcp } from '../src/discovery.js';
import type { CheckSiteOptions, SiteCheckResult } from '../src/index.js';
import {
  checkSite,
  discoverEndpoint,
  readSiteDocuments,
  readWellKnown,
  SiteCheckResultSchema,
  WellKnownResultSchema,
} from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { scaledClock, tableLookup } from './fixtures/env.js';
import {
  fixtureTool,
  INIT_RESULT,
  type LocalServer,
  rpc,
  sendJson,
  startRawServer,
  startScriptedServer,
  startSdkServer,
} from './fixtures/servers.js';

const network = { allowPrivate: true, httpClient: createNodeHttpClient };
const servers: LocalServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});
async function track(server: Promise<LocalServer>): Promise<LocalServer> {
  const started = await server;
  servers.push(started);
  return started;
}

describe('reading endpoint hints', () => {
  it('parseLinkHeader keeps only rel mcp and mcp-server targets', () => {
    expect(
      parseLinkHeader(
        '<https://a.example.com/mcp>; rel="mcp", </style.css>; rel=stylesheet, </x>; rel="preload MCP-Server"; as=fetch',
      ),
    ).toEqual(['https://a.example.com/mcp', '/x']);
    expect(parseLinkHeader('</a>; title="rel=mcp"')).toEqual([]);
  });

  it('findLinkElements reads <link> tags with those relations, skipping comments', () => {
    const html = `<html><head><!-- <link rel="mcp" href="/commented"> -->
      <link rel=stylesheet href="/s.css"><LINK REL="MCP" HREF="/mcp?a=1&amp;b=2"><link href='/second' rel='alternate mcp-server'></head>`;
    expect(findLinkElements(html)).toEqual(['/mcp?a=1&b=2', '/second']);
  });

  it('catalogCardUrls keeps entries typed as MCP server cards', () => {
    expect(
      catalogCardUrls({
        entries: [
          { type: 'application/mcp-server-card+json', url: 'https://e.example.com/mcp/server-card' },
          { type: 'application/a2a-agent-card+json', url: 'https://e.example.com/agent' },
          { type: 'application/mcp-server-card+json' },
        ],
      }),
    ).toEqual(['https://e.example.com/mcp/server-card']);
    expect(catalogCardUrls('nonsense')).toEqual([]);
  });

  it.each([
    [{ url: 'https://example.com/mcp', source: 'link-header', transport: null }, null],
    [{ url: 'https://mcp.example.com/mcp', source: 'link-header', transport: null }, null],
    [{ url: 'https://example.com.evil.io/mcp', source: 'link-header', transport: null }, 'on another site'],
    [{ url: 'https://other.com/mcp', source: 'link-header', transport: null }, 'on another site'],
    [{ url: 'http://example.com/mcp', source: 'link-header', transport: null }, 'plain http on an https site'],
    [{ url: 'https://example.com:8443/mcp', source: 'link-header', transport: null }, 'on another port'],
    [{ url: 'https://u:p@example.com/mcp', source: 'link-header', transport: null }, 'carries a user name or password'],
    [{ url: 'https://example.com/{t}/mcp', source: 'link-header', transport: null }, 'a URL template'],
    [{ url: 'https://example.com/sse', source: 'server-card', transport: 'sse' }, 'an sse remote'],
    [{ url: 'https://example.com/mcp', source: 'server-card', transport: 'streamable-http' }, null],
  ] as const)('rejectCandidate(%j)', (candidate, expected) => {
    const reason = rejectCandidate(candidate, 'https://example.com');
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toContain(expected);
  });

  it.each([
    [405, 'GET, POST', null, null, true],
    [405, 'GET', null, null, false],
    [400, null, 'application/json', '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"bad"}}', true],
    [200, null, 'text/event-stream', null, true],
    [401, 'POST', 'text/event-stream', '{"jsonrpc":"2.0"}', false],
    [200, null, 'text/html', '<html></html>', false],
    [404, null, 'application/json', '{"error":"not found"}', false],
  ])('signalsMcp(%i, %j, %j)', (status, allow, contentType, body, expected) => {
    expect(signalsMcp(status, allow, contentType, body)).toBe(expected);
  });
});

describe('discoverEndpoint takes the first endpoint on the measured site, in order', () => {
  const origin = 'https://example.com';

  it('server card, then legacy card, then ai-catalog card, then Link header, then <link>', async () => {
    const documents = {
      serverCard: {
        remotes: [
          { type: 'sse', url: 'https://example.com/sse' },
          { type: 'streamable-http', url: 'https://elsewhere.net/mcp' },
        ],
      },
      legacyServerCards: [{ remotes: [{ type: 'streamable-http', url: 'https://example.com/legacy-mcp' }] }],
      aiCatalog: { entries: [{ type: 'application/mcp-server-card+json', url: 'https://example.com/card' }] },
      catalogCards: {
        'https://example.com/card': { remotes: [{ type: 'streamable-http', url: 'https://example.com/catalog-mcp' }] },
      },
      home: { linkHeader: '</header-mcp>; rel=mcp', html: '<link rel="mcp" href="/html-mcp">' },
    };
    const found = await discoverEndpoint(origin, documents, { skipMcpPath: true });
    expect(found).toMatchObject({
      endpoint: 'https://example.com/legacy-mcp',
      source: 'legacy-server-card',
      optedOut: false,
    });
    expect(found.candidates.map((c) => [c.source, c.rejected === null])).toEqual([
      ['server-card', false],
      ['server-card', false],
      ['legacy-server-card', true],
    ]);
    const withoutLegacy = await discoverEndpoint(
      origin,
      { ...documents, legacyServerCards: [] },
      { skipMcpPath: true },
    );
    expect(withoutLegacy).toMatchObject({ endpoint: 'https://example.com/catalog-mcp', source: 'ai-catalog' });
    const headerOnly = await discoverEndpoint(origin, { home: documents.home }, { skipMcpPath: true });
    expect(headerOnly).toMatchObject({ endpoint: 'https://example.com/header-mcp', source: 'link-header' });
    const htmlOnly = await discoverEndpoint(origin, { home: { html: documents.home.html } }, { skipMcpPath: true });
    expect(htmlOnly).toMatchObject({ endpoint: 'https://example.com/html-mcp', source: 'link-element' });
  });

  it('marks an endpoint on an opted-out subdomain, so it is not requested', async () => {
    const found = await discoverEndpoint(
      origin,
      { home: { linkHeader: '<https://mcp.example.com/mcp>; rel=mcp' } },
      { skipMcpPath: true, optedOut: ['mcp.example.com'] },
    );
    expect(found).toMatchObject({ endpoint: 'https://mcp.example.com/mcp', optedOut: true });
  });

  it('falls back to one plain GET of /mcp, which counts on 405 with Allow: POST', async () => {
    const server = await track(startRawServer((_req, res) => res.writeHead(405, { allow: 'POST, DELETE' }).end()));
    const found = await discoverEndpoint(server.origin, {}, network);
    expect(found).toMatchObject({
      endpoint: server.url,
      source: 'mcp-path',
      mcpPath: { httpStatus: 405, signalsMcp: true },
    });
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([['GET', '/mcp']]);
  });

  it('a 401 from /mcp does not count, whatever its challenge', async () => {
    const server = await track(
      startRawServer((_req, res) => res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"' }).end()),
    );
    const found = await discoverEndpoint(server.origin, {}, network);
    expect(found).toMatchObject({ endpoint: null, source: null, mcpPath: { httpStatus: 401, signalsMcp: false } });
  });
});

describe('readWellKnown', () => {
  it('reads the OAuth metadata and falls back from agent-card.json to agent.json', async () => {
    const server = await track(
      startRawServer((req, res) => {
        if (req.url === '/.well-known/oauth-protected-resource')
          return sendJson(res, 200, { resource: 'https://x', authorization_servers: ['https://auth'] });
        if (req.url === '/.well-known/agent.json') return sendJson(res, 200, { name: 'agent' });
        res.writeHead(404).end();
      }),
    );
    const docs = await readWellKnown(server.origin, network);
    expect(WellKnownResultSchema.parse(docs)).toEqual(docs);
    expect(docs.oauthProtectedResource).toMatchObject({
      found: true,
      httpStatus: 200,
      document: { resource: 'https://x' },
    });
    expect(docs.agentCard).toMatchObject({ found: true, url: `${server.origin}/.well-known/agent.json` });
    expect(server.requests.map((r) => r.path)).toEqual([
      '/.well-known/oauth-protected-resource',
      '/.well-known/agent-card.json',
      '/.well-known/agent.json',
    ]);
  });

  it('says why a document is missing: status, not JSON, or no answer in 4 s', async () => {
    const server = await track(
      startRawServer((req, res) => {
        if (req.url === '/.well-known/oauth-protected-resource') {
          res.writeHead(200, { 'content-type': 'text/html' });
          return res.end('<html>');
        }
        if (req.url === '/.well-known/agent-card.json') return undefined; // hangs
        res.writeHead(404).end();
      }),
    );
    const clock = scaledClock(20);
    const docs = await readWellKnown(server.origin, { ...network, clock });
    expect(docs.oauthProtectedResource).toMatchObject({ found: false, detail: 'not JSON' });
    expect(docs.agentCard).toMatchObject({ found: false, httpStatus: 404 });
    expect(clock.requested).toEqual([4_000, 4_000, 4_000]);
  });
});

describe('checkSite verdicts', () => {
  async function site(server: LocalServer, options: CheckSiteOptions = {}): Promise<SiteCheckResult> {
    const result = await checkSite(server.origin, {
      ...network,
      documents: { home: { linkHeader: '</mcp>; rel="mcp"' } },
      ...options,
    });
    expect(SiteCheckResultSchema.parse(result)).toEqual(result);
    return result;
  }

  function initAnswer(status: number, headers: Record<string, string> = {}, body: unknown = {}): Promise<LocalServer> {
    return startRawServer((_req, res) => sendJson(res, status, body, headers));
  }

  it('pass: an SDK server that lists tools, in at most 3 POSTs, offering 2025-11-25, without DELETE', async () => {
    const server = await track(startSdkServer({ toolCount: 30 }));
    const result = await site(server);
    expect(result).toMatchObject({
      verdict: 'pass',
      reason: 'lists-tools',
      toolCount: 30,
      posts: 3,
      endpoint: server.url,
      source: 'link-header',
      defect: false,
    });
    expect(result.toolNames).toHaveLength(25);
    expect(result.protocolVersion).toBe(SITE_CHECK_PROTOCOL_VERSION);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    const firstParams = rpc(server.requests[0]?.body ?? '')?.params as { protocolVersion: string } | undefined;
    expect(firstParams?.protocolVersion).toBe('2025-11-25');
  });

  it('accepts the version the server answers', async () => {
    const server = await track(startScriptedServer());
    const result = await site(server);
    expect(result).toMatchObject({ verdict: 'pass', protocolVersion: '2025-06-18' });
  });

  /** /mcp answers every POST with 401 and a challenge naming this origin's metadata; `documents` answer GETs. */
  async function signInSite(documents: Record<string, (origin: string) => unknown>): Promise<LocalServer> {
    let origin = '';
    const server = await track(
      startRawServer((req, res) => {
        const document = req.method === 'GET' ? documents[req.url ?? ''] : undefined;
        if (document !== undefined) return sendJson(res, 200, document(origin));
        if (req.method !== 'POST') return void res.writeHead(404).end();
        const challenge = `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"`;
        sendJson(res, 401, { error: 'unauthorized' }, { 'www-authenticate': challenge });
      }),
    );
    origin = server.origin;
    return server;
  }

  it('partial: 401 with a WWW-Authenticate challenge, and discovery records that nothing was found', async () => {
    const server = await signInSite({});
    const result = await site(server);
    expect(result).toMatchObject({ verdict: 'partial', reason: 'auth-challenge', posts: 1 });
    expect(result.authDiscovery).toMatchObject({ protectedResource: null, authorizationServerMetadata: null });
    expect(result.authDiscovery?.reads[0]).toEqual({
      url: `${server.origin}/.well-known/oauth-protected-resource`,
      httpStatus: 404,
      found: false,
      detail: 'answered 404',
    });
  });

  it('a sign-in site: the challenge names the metadata, which names the authorization server, read in order', async () => {
    const server = await signInSite({
      '/.well-known/oauth-protected-resource': (origin) => ({
        resource: `${origin}/mcp`,
        authorization_servers: [origin],
      }),
      '/.well-known/oauth-authorization-server': (origin) => ({ issuer: origin, token_endpoint: `${origin}/token` }),
    });
    const result = await site(server);
    expect(result).toMatchObject({ verdict: 'partial', reason: 'auth-challenge', posts: 1 });
    expect(result.authDiscovery).toMatchObject({
      protectedResource: { url: `${server.origin}/.well-known/oauth-protected-resource`, source: 'www-authenticate' },
      authorizationServer: { issuer: `${server.origin}/`, source: 'protected-resource' },
      authorizationServerMetadata: { url: `${server.origin}/.well-known/oauth-authorization-server`, kind: 'oauth' },
    });
    // Discovery only reads: one POST (initialize), then GETs of the two documents and nothing else.
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /mcp',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-authorization-server',
    ]);
  });

  it('no sign-in request, no discovery: a server that lists its tools has a null record', async () => {
    const server = await track(startScriptedServer());
    expect((await site(server)).authDiscovery).toBeNull();
  });

  it('partial: no tools capability, and then tools/list is not sent', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'initialize') return false;
          sendJson(res, 200, { jsonrpc: '2.0', id: 1, result: { ...INIT_RESULT, capabilities: { prompts: {} } } });
          return true;
        },
      }),
    );
    const result = await site(server);
    expect(result).toMatchObject({ verdict: 'partial', reason: 'no-tools-capability', posts: 2 });
    expect(server.requests.some((r) => rpc(r.body)?.method === 'tools/list')).toBe(false);
  });

  it('partial: the tools capability but an empty list', async () => {
    const server = await track(startScriptedServer({ tools: [] }));
    expect(await site(server)).toMatchObject({ verdict: 'partial', reason: 'no-tools-listed' });
  });

  it.each([
    [401, {}, 'auth-no-challenge'],
    [403, {}, 'forbidden'],
    [429, {}, 'rate-limited'],
    [500, {}, 'server-error'],
    [503, {}, 'server-error'],
    [503, { 'retry-after': '30' }, 'server-error'],
    [307, { location: '/elsewhere' }, 'redirect'],
  ])('not measured: HTTP %i (%s)', async (status, headers, reason) => {
    const server = await track(initAnswer(status, headers as Record<string, string>));
    const result = await site(server);
    expect(result).toMatchObject({ verdict: 'not-measured', reason });
    if (status === 307) {
      expect(result.message).toBe('redirects; not followed');
      expect(server.requests).toHaveLength(1);
    }
  });

  it('not measured: no answer within the 12 s session, which is the only limit on initialize', async () => {
    const server = await track(startRawServer(() => undefined));
    const clock = scaledClock(40);
    const result = await site(server, { clock });
    expect(result).toMatchObject({ verdict: 'not-measured', reason: 'session-limit' });
    expect(clock.requested).toHaveLength(1);
    expect(clock.requested[0]).toBeGreaterThan(SITE_SESSION_BUDGET_MS - 1_000);
    expect(clock.requested[0]).toBeLessThanOrEqual(SITE_SESSION_BUDGET_MS);
  });

  it('not measured: the session limit, when steps together pass 12 s', async () => {
    // Each answer takes 4.5 s on a clock running 20 times faster: 13.5 s in all, past the 12 s budget.
    const server = await track(
      startScriptedServer({
        override: async () => {
          await new Promise((r) => setTimeout(r, 4_500 / 20));
          return false;
        },
      }),
    );
    const result = await site(server, { clock: scaledClock(20) });
    expect(result).toMatchObject({ verdict: 'not-measured', reason: 'session-limit' });
    expect(result.steps.at(-1)).toMatchObject({ name: 'tools/list', outcome: 'deadline' });
  });

  it('not measured: too little time left in the scan, and nothing is sent', async () => {
    const server = await track(startScriptedServer());
    const result = await site(server, { scanTimeLeftMs: SITE_SESSION_BUDGET_MS - 1 });
    expect(result).toMatchObject({ verdict: 'not-measured', reason: 'too-little-time', posts: 0 });
    expect(server.requests).toEqual([]);
  });

  it('exactly 12 s left is enough', async () => {
    const server = await track(startScriptedServer());
    expect(await site(server, { scanTimeLeftMs: SITE_SESSION_BUDGET_MS })).toMatchObject({ verdict: 'pass' });
  });

  it('fail: an HTML page is a defect', async () => {
    const server = await track(
      startRawServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>hello</body></html>');
      }),
    );
    expect(await site(server)).toMatchObject({ verdict: 'fail', reason: 'html-answer', defect: true });
  });

  it('fail: JSON without a JSON-RPC answer is a defect', async () => {
    const server = await track(initAnswer(200, {}, { status: 'ok' }));
    expect(await site(server)).toMatchObject({ verdict: 'fail', reason: 'no-jsonrpc-answer', defect: true });
  });

  it('fail: a JSON-RPC error, not a defect', async () => {
    const server = await track(
      initAnswer(200, {}, { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'nope' } }),
    );
    expect(await site(server)).toMatchObject({ verdict: 'fail', reason: 'jsonrpc-error', defect: false });
  });

  it.each([400, 404, 405, 402])('fail: another error status (%i)', async (status) => {
    const server = await track(initAnswer(status));
    expect(await site(server)).toMatchObject({ verdict: 'fail', reason: 'error-status' });
  });

  it('a tools/list answer over 64 KB is not measured rather than failed', async () => {
    const tools = Array.from({ length: 1_200 }, (_, i) => fixtureTool(i)); // about 100 KB of JSON
    const server = await track(startScriptedServer({ tools }));
    expect(await site(server)).toMatchObject({ verdict: 'not-measured', reason: 'answer-too-large' });
  });

  it('out of scope: no document names an endpoint and /mcp does not signal MCP', async () => {
    const server = await track(startRawServer((_req, res) => res.writeHead(404).end()));
    const result = await checkSite(server.origin, { ...network, documents: {} });
    expect(result).toMatchObject({ verdict: 'out-of-scope', endpoint: null, posts: 0 });
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([['GET', '/mcp']]);
  });

  it('an endpoint on a subdomain the removal list names is not requested', async () => {
    const server = await track(startScriptedServer());
    const dns = tableLookup({ 'shop.test': ['127.0.0.1'], 'mcp.shop.test': ['127.0.0.1'] });
    const result = await checkSite(`http://shop.test:${server.port}`, {
      ...network,
      lookup: dns.lookup,
      optedOut: ['mcp.shop.test'],
      documents: { home: { linkHeader: `<http://mcp.shop.test:${server.port}/mcp>; rel=mcp` } },
    });
    expect(result).toMatchObject({
      verdict: 'not-measured',
      reason: 'opted-out',
      endpoint: `http://mcp.shop.test:${server.port}/mcp`,
    });
    expect(server.requests).toEqual([]);
  });

  it('reads the site documents itself when the scan has none: the card names the endpoint', async () => {
    const server = await track(
      startScriptedServer({
        override: (req, res) => {
          if (req.method !== 'GET') return false;
          if (req.url === '/.well-known/mcp/server-card.json') {
            sendJson(res, 200, {
              name: 'com.example/fixture',
              remotes: [{ type: 'streamable-http', url: `http://127.0.0.1:${String(req.socket.localPort)}/mcp` }],
            });
          } else res.writeHead(404).end();
          return true;
        },
      }),
    );
    const documents = await readSiteDocuments(server.origin, network);
    expect(documents.serverCard).toMatchObject({ name: 'com.example/fixture' });
    const result = await checkSite(server.origin, network);
    expect(result).toMatchObject({ verdict: 'pass', source: 'server-card' });
  });
});
