// The site check against the letter of the site scanner's rule, each case on a real loopback server: the plain GET
// of /mcp decided from its status and headers (an endless event stream, a stateless SDK server), every 3xx
// left unfollowed and not measured, the session's 12 s with no per-step limit, pass only for named tools, and
// an HTML error page called a defect. probeServer keeps its own letters and step limits.
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckSiteOptions, SiteCheckResult } from '../src/index.js';
import { checkSite, discoverEndpoint, probeServer, SiteCheckResultSchema } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { scaledClock } from './fixtures/env.js';
import {
  fixtureTool,
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

/** The Accept header of the site scanner's own GET of /mcp: a browser's, not MCP's. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.7';

/** The site check with the endpoint named by a Link header, so only the session decides. */
async function site(server: LocalServer, options: CheckSiteOptions = {}): Promise<SiteCheckResult> {
  const result = await checkSite(server.origin, {
    ...network,
    documents: { home: { linkHeader: '</mcp>; rel="mcp"' } },
    ...options,
  });
  expect(SiteCheckResultSchema.parse(result)).toEqual(result);
  return result;
}

/** A scripted MCP server whose answer to one method is replaced by `answer`. */
function answering(method: string, answer: Parameters<typeof startRawServer>[0]): Promise<LocalServer> {
  return startScriptedServer({
    override: async (req, res, message, body) => {
      if (message?.method !== method) return false;
      await answer(req, res, body);
      return true;
    },
  });
}

function methodsOf(server: LocalServer): (string | undefined)[] {
  return server.requests.map((r) => (r.method === 'POST' ? rpc(r.body)?.method : r.method));
}

describe('GET /mcp is decided from its status and headers before any body', () => {
  it('an event stream that never ends counts at once, and the stream is closed', async () => {
    const server = await track(
      startRawServer((req, res) => {
        if (req.method !== 'GET') return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': ping\n\n'); // and never ends
      }),
    );
    const found = await discoverEndpoint(server.origin, {}, network);
    expect(found).toMatchObject({
      endpoint: server.url,
      source: 'mcp-path',
      mcpPath: { httpStatus: 200, contentType: 'text/event-stream', signalsMcp: true, failure: null },
    });
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([['GET', '/mcp']]);
    expect(await server.waitForNoSockets()).toBe(0);
  });

  it('a 405 naming POST counts without waiting for a body that never ends', async () => {
    const server = await track(
      startRawServer((_req, res) => {
        res.writeHead(405, { allow: 'GET, POST', 'content-type': 'text/plain' });
        res.write('method not allowed'); // and never ends
      }),
    );
    const found = await discoverEndpoint(server.origin, {}, network);
    expect(found).toMatchObject({ source: 'mcp-path', mcpPath: { httpStatus: 405, signalsMcp: true, failure: null } });
  });

  it('sends a plain browser Accept, as the site scanner does, not the MCP one', async () => {
    const server = await track(startRawServer((_req, res) => res.writeHead(404).end()));
    await discoverEndpoint(server.origin, {}, network);
    expect(server.requests[0]?.headers.accept).toBe(BROWSER_ACCEPT);
  });

  it('a body is still read for a JSON-RPC message: an HTML page at /mcp does not signal MCP', async () => {
    const server = await track(
      startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>shop</html>')),
    );
    const result = await checkSite(server.origin, { ...network, documents: {} });
    expect(result).toMatchObject({
      verdict: 'out-of-scope',
      discovery: { mcpPath: { httpStatus: 200, signalsMcp: false, failure: null } },
    });
  });

  it('a stateless SDK server at /mcp with no documents is discovered and passes', async () => {
    const server = await track(startSdkServer({ stateless: true, toolCount: 1 }));
    const result = await checkSite(server.origin, { ...network, documents: {} });
    expect(result).toMatchObject({
      verdict: 'pass',
      reason: 'lists-tools',
      endpoint: server.url,
      source: 'mcp-path',
      toolCount: 1,
      toolNames: ['lookup_item_0'],
      posts: 3,
    });
    // Asked plainly, the SDK answers 406 with a JSON-RPC error instead of opening its event stream.
    expect(result.discovery.mcpPath).toMatchObject({ httpStatus: 406, signalsMcp: true, failure: null });
    expect(methodsOf(server)).toEqual(['GET', 'initialize', 'notifications/initialized', 'tools/list']);
  });
});

describe('a 3xx is never followed, and the check is not measured', () => {
  it.each([301, 302, 303, 307, 308, 300])(
    'GET /mcp answering %i, with no document naming an endpoint',
    async (status) => {
      const server = await track(
        startRawServer((req, res) => {
          if (req.url === '/mcp') return void res.writeHead(status, { location: '/mcp/' }).end();
          res.writeHead(404).end();
        }),
      );
      const result = await checkSite(server.origin, { ...network, documents: {} });
      expect(result).toMatchObject({
        verdict: 'not-measured',
        reason: 'redirect',
        message: 'redirects; not followed',
        endpoint: null,
        posts: 0,
      });
      expect(server.requests.map((r) => [r.method, r.path])).toEqual([['GET', '/mcp']]);
    },
  );

  it.each([300, 304, 307])('initialize answering %i', async (status) => {
    const server = await track(answering('initialize', (_req, res) => res.writeHead(status, { location: '/x' }).end()));
    const result = await site(server);
    expect(result).toMatchObject({ verdict: 'not-measured', reason: 'redirect', message: 'redirects; not followed' });
    expect(server.requests).toHaveLength(1);
  });

  it('the notification answering 307: the session ends there, tools/list is not sent', async () => {
    const server = await track(
      answering('notifications/initialized', (_req, res) => res.writeHead(307, { location: '/x' }).end()),
    );
    const result = await site(server);
    expect(result).toMatchObject({
      verdict: 'not-measured',
      reason: 'redirect',
      message: 'redirects; not followed',
      posts: 2,
    });
    expect(methodsOf(server)).toEqual(['initialize', 'notifications/initialized']);
  });

  it.each([307, 301, 304])('tools/list answering %i', async (status) => {
    const server = await track(answering('tools/list', (_req, res) => res.writeHead(status, { location: '/x' }).end()));
    const result = await site(server);
    expect(result).toMatchObject({
      verdict: 'not-measured',
      reason: 'redirect',
      message: 'redirects; not followed',
      posts: 3,
    });
    expect(result.steps.at(-1)).toMatchObject({ name: 'tools/list', httpStatus: status });
  });

  it('probeServer keeps its own reading: a 307 on tools/list is an HTTP error (letter d)', async () => {
    const server = await track(answering('tools/list', (_req, res) => res.writeHead(307, { location: '/x' }).end()));
    const result = await probeServer(server.url, network);
    expect(result).toMatchObject({ letter: 'd', reason: 'http-error' });
  });
});

describe('the session has 12 s in all and no per-step limit of its own', () => {
  // Scale 10: 9 s of the probe's clock pass in 900 real ms; the 8 s step limit would fire at 800.
  const SCALE = 10;
  const delay = (probeMs: number): Promise<void> => new Promise((r) => setTimeout(r, probeMs / SCALE));

  it('initialize answering after 9 s passes', async () => {
    const server = await track(
      startScriptedServer({
        override: async (_req, _res, message) => {
          if (message?.method === 'initialize') await delay(9_000);
          return false;
        },
      }),
    );
    const clock = scaledClock(SCALE);
    const result = await site(server, { clock });
    expect(result).toMatchObject({ verdict: 'pass', toolCount: 2, posts: 3 });
    expect(result.steps[0]?.elapsedMs).toBeGreaterThanOrEqual(9_000);
    // Each step is given what is left of the 12 s, never 8 s or 5 s of its own.
    expect(clock.requested[0]).toBeGreaterThan(11_000);
    expect(clock.requested).not.toContain(8_000);
    expect(clock.requested).not.toContain(5_000);
  });

  it('tools/list answering after 9 s, following a 1 s initialize, passes', async () => {
    const server = await track(
      startScriptedServer({
        override: async (_req, _res, message) => {
          if (message?.method === 'initialize') await delay(1_000);
          if (message?.method === 'tools/list') await delay(9_000);
          return false;
        },
      }),
    );
    const result = await site(server, { clock: scaledClock(SCALE) });
    expect(result).toMatchObject({ verdict: 'pass', posts: 3 });
  });

  it('probeServer keeps its 8 s initialize limit', async () => {
    const server = await track(
      startScriptedServer({
        override: async (_req, _res, message) => {
          if (message?.method === 'initialize') await delay(9_000);
          return false;
        },
      }),
    );
    const result = await probeServer(server.url, { ...network, clock: scaledClock(SCALE) });
    expect(result).toMatchObject({ letter: 'd', reason: 'timeout' });
  });
});

describe('pass needs a tool with a name', () => {
  it('a tools array of {}, 1 and null names no tool: partial, no tools listed', async () => {
    const server = await track(startScriptedServer({ tools: [{}, 1, null] }));
    const result = await site(server);
    expect(result).toMatchObject({
      verdict: 'partial',
      reason: 'no-tools-listed',
      toolCount: 0,
      toolNames: [],
    });
  });

  it('only objects with a non-empty string name count', async () => {
    const server = await track(
      startScriptedServer({ tools: [{ name: '' }, { name: 7 }, fixtureTool(1), ['tool_x'], { title: 'x' }] }),
    );
    const result = await site(server);
    expect(result).toMatchObject({
      verdict: 'pass',
      reason: 'lists-tools',
      message: 'tools/list names 1 tool',
      toolCount: 1,
      toolNames: ['tool_1'],
    });
  });
});

describe('an HTML page answering with an error status is a fail and a defect', () => {
  const htmlPage = (status: number) => (_req: unknown, res: import('node:http').ServerResponse) =>
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>Not here</body></html>');

  it.each([404, 400, 402, 405])('initialize answering %i with an HTML page', async (status) => {
    const server = await track(answering('initialize', htmlPage(status)));
    const result = await site(server);
    expect(result).toMatchObject({ verdict: 'fail', reason: 'html-answer', defect: true });
    expect(result.message).toContain(`initialize answered HTTP ${status} with an HTML page`);
  });

  it('tools/list answering 404 with an HTML page', async () => {
    const server = await track(answering('tools/list', htmlPage(404)));
    const result = await site(server);
    expect(result).toMatchObject({ verdict: 'fail', reason: 'html-answer', defect: true });
    expect(result.message).toContain('tools/list answered HTTP 404 with an HTML page');
  });

  it('the same statuses with a JSON body stay a plain error status, not a defect', async () => {
    const server = await track(answering('initialize', (_req, res) => sendJson(res, 404, { error: 'no' })));
    expect(await site(server)).toMatchObject({ verdict: 'fail', reason: 'error-status', defect: false });
  });

  it('a 503 HTML page stays not measured', async () => {
    const server = await track(answering('initialize', htmlPage(503)));
    expect(await site(server)).toMatchObject({ verdict: 'not-measured', reason: 'server-error', defect: false });
  });
});
