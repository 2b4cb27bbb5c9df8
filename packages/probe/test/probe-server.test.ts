import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PROTOCOL_VERSION,
  DEFAULT_USER_AGENT,
  DELETE_TIMEOUT_MS,
  DNS_TIMEOUT_MS,
  INITIALIZE_TIMEOUT_MS,
  INITIALIZED_TIMEOUT_MS,
  TOOLS_LIST_PAGE_TIMEOUT_MS,
} from '../src/constants.js';
import type { ProbeOptions, ProbeResult } from '../src/index.js';
import { ProbeInputError, ProbeReasonSchema, ProbeResultSchema, probeServer } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { letterForReason } from '../src/probe-server.js';
import { CLIENTS, scaledClock, tableLookup } from './fixtures/env.js';
import {
  fixtureTool,
  INIT_RESULT,
  rpc,
  sendJson,
  startPagedSdkServer,
  startRawServer,
  startScriptedServer,
  startSdkServer,
  trackServersPerFile,
} from './fixtures/servers.js';

const track = trackServersPerFile();

/** The probe's options, where `httpClient: undefined` drops the tests' default Node client (the `fetch` path). */
type TestProbeOptions = Omit<ProbeOptions, 'httpClient'> & { httpClient?: ProbeOptions['httpClient'] | undefined };

async function probe(url: string, options: TestProbeOptions = {}): Promise<ProbeResult> {
  const { httpClient, ...rest } = options;
  const client = 'httpClient' in options ? httpClient : createNodeHttpClient;
  const result = await probeServer(url, {
    allowPrivate: true,
    ...rest,
    ...(client === undefined ? {} : { httpClient: client }),
  });
  // Every result, whatever happened, has the published shape.
  expect(ProbeResultSchema.parse(result)).toEqual(result);
  return result;
}

function initOnly(
  status: number,
  headers: Record<string, string> = {},
  body: unknown = { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'no' } },
) {
  return startRawServer((_req, res) => sendJson(res, status, body, headers));
}

describe('letterForReason', () => {
  it('gives o, a, p, n for their reasons and d for every other reason', () => {
    expect(letterForReason('ok')).toBe('o');
    expect(letterForReason('auth-required')).toBe('a');
    expect(letterForReason('payment-required')).toBe('p');
    expect(letterForReason('rate-limited')).toBe('n');
    const lettered = ['ok', 'auth-required', 'payment-required', 'rate-limited'];
    const others = ProbeReasonSchema.options.filter((r) => !lettered.includes(r));
    expect(others.length).toBeGreaterThan(20);
    for (const reason of others) expect(letterForReason(reason)).toBe('d');
  });
});

describe.each(CLIENTS)('o: a well-behaved SDK server (%s)', (_name, httpClient) => {
  it('stateful, answering with event streams: o, with session, steps and a closing DELETE', async () => {
    const server = await track(startSdkServer({ toolCount: 3 }));
    const result = await probe(server.url, { httpClient });
    expect(result).toMatchObject({
      letter: 'o',
      reason: 'ok',
      failedStep: null,
      notStandardMcp: false,
      protocolVersion: '2025-06-18',
      serverInfo: { name: 'sdk-fixture', version: '2.0.0' },
      toolCount: 3,
      pages: 1,
      sessionIssued: true,
      redirect: null,
    });
    expect(result.steps.map((s) => [s.name, s.httpStatus, s.outcome])).toEqual([
      ['initialize', 200, 'ok'],
      ['initialized', 202, 'ok'],
      ['tools/list', 200, 'ok'],
      ['delete', 200, 'ok'],
    ]);
    expect(result.steps[0]?.contentType).toBe('text/event-stream');
    expect(result.tools.map((t) => (t as { name: string }).name)).toEqual([
      'lookup_item_0',
      'lookup_item_1',
      'lookup_item_2',
    ]);
    expect(JSON.parse(result.toolsJson ?? '')).toEqual(result.tools);
  });

  it('stateless, answering with JSON: o, no session, no DELETE', async () => {
    const server = await track(startSdkServer({ toolCount: 2, stateless: true, json: true }));
    const result = await probe(server.url, { httpClient });
    expect(result).toMatchObject({ letter: 'o', toolCount: 2, sessionIssued: false });
    expect(result.steps.map((s) => s.name)).toEqual(['initialize', 'initialized', 'tools/list']);
    expect(result.steps[0]?.contentType).toContain('application/json');
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
  });

  it('pages through an SDK server that pages its tools', async () => {
    const server = await track(startPagedSdkServer(7, 3));
    const result = await probe(server.url, { httpClient });
    expect(result).toMatchObject({ letter: 'o', pages: 3, toolCount: 7, toolsTruncated: false });
    expect(result.warnings).toEqual([]);
    expect((JSON.parse(result.toolsJson ?? '[]') as unknown[]).length).toBe(7);
  });
});

describe('what the probe sends', () => {
  it('initialize offers 2025-06-18 as the bot, with Accept naming JSON and event streams and a user agent with a URL', async () => {
    const server = await track(startScriptedServer({ sessionId: 'sess-1' }));
    await probe(server.url);
    const [init, notified, listed, deleted] = server.requests;
    expect(rpc(init?.body ?? '')).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: DEFAULT_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'mcp-atlas-bot', version: '0.1.0' },
      },
    });
    for (const request of server.requests) {
      expect(request.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
      expect(request.headers['user-agent']).toMatch(/^mcp-atlas-bot\/\S+ \(\+https:\/\/\S+\)$/);
    }
    for (const request of [init, notified, listed]) {
      expect(request?.headers.accept).toBe('application/json, text/event-stream');
      expect(request?.headers['content-type']).toBe('application/json');
    }
    expect(init?.headers['mcp-session-id']).toBeUndefined();
    expect(init?.headers['mcp-protocol-version']).toBeUndefined();
    for (const request of [notified, listed, deleted]) {
      expect(request?.headers['mcp-session-id']).toBe('sess-1');
      expect(request?.headers['mcp-protocol-version']).toBe('2025-06-18');
    }
    expect(rpc(notified?.body ?? '')).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(rpc(listed?.body ?? '')).toEqual({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    expect(deleted?.method).toBe('DELETE');
  });

  it('takes the protocol version, client info and user agent from the options', async () => {
    const server = await track(startScriptedServer());
    await probe(server.url, {
      protocolVersion: '2025-03-26',
      clientInfo: { name: 'ci-check', version: '9.9.9' },
      userAgent: 'ci-check/9 (+https://ci.example.com/bot)',
    });
    expect(rpc(server.requests[0]?.body ?? '')?.params).toMatchObject({
      protocolVersion: '2025-03-26',
      clientInfo: { name: 'ci-check', version: '9.9.9' },
    });
    expect(server.requests[0]?.headers['user-agent']).toBe('ci-check/9 (+https://ci.example.com/bot)');
  });

  it('echoes the version the server answered, even one newer than it knows', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'initialize') return false;
          sendJson(res, 200, { jsonrpc: '2.0', id: 1, result: { ...INIT_RESULT, protocolVersion: '2026-07-01' } });
          return true;
        },
      }),
    );
    const result = await probe(server.url);
    expect(result).toMatchObject({ letter: 'o', protocolVersion: '2026-07-01' });
    expect(server.requests[2]?.headers['mcp-protocol-version']).toBe('2026-07-01');
  });

  it('does not echo a session id that is not visible ASCII, and says so', async () => {
    const server = await track(startScriptedServer({ sessionId: 'has space' }));
    const result = await probe(server.url);
    expect(result).toMatchObject({ letter: 'o', sessionIssued: false });
    expect(result.warnings.join(' ')).toContain('session id');
    expect(server.requests[1]?.headers['mcp-session-id']).toBeUndefined();
  });

  it('asks for each step with its own limit: initialize 8 s, initialized 5 s, tools/list 8 s, DELETE 2 s', async () => {
    const server = await track(startScriptedServer({ sessionId: 'limits' }));
    const clock = scaledClock(1);
    await probe(server.url, { clock });
    expect(clock.requested).toEqual([
      INITIALIZE_TIMEOUT_MS,
      INITIALIZED_TIMEOUT_MS,
      TOOLS_LIST_PAGE_TIMEOUT_MS,
      DELETE_TIMEOUT_MS,
    ]);
    expect([INITIALIZE_TIMEOUT_MS, INITIALIZED_TIMEOUT_MS, TOOLS_LIST_PAGE_TIMEOUT_MS, DELETE_TIMEOUT_MS]).toEqual([
      8_000, 5_000, 8_000, 2_000,
    ]);
  });

  it('gives each step only what is left of the deadline', async () => {
    const server = await track(startScriptedServer());
    const clock = scaledClock(1);
    await probe(server.url, { clock, deadlineMs: 6_000 });
    expect(clock.requested[0]).toBeLessThanOrEqual(6_000);
    expect(clock.requested[0]).toBeGreaterThan(5_000);
    expect(clock.requested[1]).toBe(INITIALIZED_TIMEOUT_MS);
    expect(clock.requested[2]).toBeLessThanOrEqual(6_000);
  });
});

describe('timings', () => {
  it('records each step and the handshake wall time, without the closing DELETE', async () => {
    const server = await track(
      startScriptedServer({
        sessionId: 'slow-delete',
        override: async (req, res, message) => {
          if (req.method === 'DELETE') {
            await new Promise((r) => setTimeout(r, 1_000));
            res.writeHead(204).end();
            return true;
          }
          if (message?.method === 'tools/list') await new Promise((r) => setTimeout(r, 120));
          return false;
        },
      }),
    );
    const result = await probe(server.url);
    const byName = Object.fromEntries(result.steps.map((s) => [s.name, s.elapsedMs]));
    expect(byName['tools/list']).toBeGreaterThanOrEqual(115);
    expect(byName.delete).toBeGreaterThanOrEqual(980);
    expect(result.elapsedMs).toBeGreaterThanOrEqual((byName.initialize ?? 0) + (byName['tools/list'] ?? 0));
    // The DELETE alone took a second; the handshake time does not include it.
    expect(result.elapsedMs).toBeLessThan(byName.delete ?? 0);
  });
});

describe('a: sign-in needed', () => {
  it('401 on initialize is a, with the challenge kept', async () => {
    const server = await track(
      initOnly(401, {
        'www-authenticate': 'Bearer resource_metadata="https://x.example.com/.well-known/oauth-protected-resource"',
      }),
    );
    const result = await probe(server.url);
    expect(result).toMatchObject({
      letter: 'a',
      reason: 'auth-required',
      failedStep: 'initialize',
      notStandardMcp: false,
    });
    expect(result.authChallenge).toContain('Bearer');
  });

  it('403 on initialize is a', async () => {
    const server = await track(initOnly(403));
    expect(await probe(server.url)).toMatchObject({ letter: 'a', reason: 'auth-required', authChallenge: null });
  });

  it('401 on tools/list before any tool is a', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          sendJson(res, 401, {}, { 'www-authenticate': 'Bearer' });
          return true;
        },
      }),
    );
    const result = await probe(server.url);
    expect(result).toMatchObject({ letter: 'a', failedStep: 'tools/list', protocolVersion: '2025-06-18' });
  });

  it('401 on a later page after tools were listed keeps o, with a warning', async () => {
    const server = await track(
      startScriptedServer({
        tools: [fixtureTool(1), fixtureTool(2), fixtureTool(3)],
        pageSize: 2,
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list' || message.params?.cursor === undefined) return false;
          sendJson(res, 401, {});
          return true;
        },
      }),
    );
    const result = await probe(server.url);
    expect(result).toMatchObject({ letter: 'o', pages: 1, toolCount: 2 });
    expect(result.warnings.join(' ')).toContain('page 2 not read');
  });
});

describe('p: payment needed', () => {
  it('402 with an x402 body records accepts[].payTo', async () => {
    const body = {
      x402Version: 1,
      error: 'pay first',
      accepts: [{ scheme: 'exact', network: 'base', payTo: '0xA11CE0000000000000000000000000000000BEEF' }],
    };
    const server = await track(initOnly(402, {}, body));
    expect(await probe(server.url)).toMatchObject({
      letter: 'p',
      reason: 'payment-required',
      paymentAddress: '0xA11CE0000000000000000000000000000000BEEF',
    });
  });

  it('402 with a base64 PAYMENT-REQUIRED header records its payTo', async () => {
    const header = Buffer.from(
      JSON.stringify({ x402Version: 2, accepts: [{ scheme: 'exact', payTo: 'addr_test1payto' }] }),
    ).toString('base64');
    const server = await track(initOnly(402, { 'payment-required': header }, {}));
    expect(await probe(server.url)).toMatchObject({ letter: 'p', paymentAddress: 'addr_test1payto' });
  });

  it('402 without any address is still p', async () => {
    const server = await track(initOnly(402, {}, { message: 'subscribe' }));
    expect(await probe(server.url)).toMatchObject({ letter: 'p', paymentAddress: null });
  });

  it('402 on tools/list is not p but d', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          sendJson(res, 402, { accepts: [{ payTo: 'x' }] });
          return true;
        },
      }),
    );
    expect(await probe(server.url)).toMatchObject({
      letter: 'd',
      reason: 'http-error',
      failedStep: 'tools/list',
      paymentAddress: null,
    });
  });
});

describe('n: the server limited our rate', () => {
  it('429 with Retry-After in seconds on initialize is n, with the wait it asked for', async () => {
    const server = await track(initOnly(429, { 'retry-after': '2' }, { error: 'slow down' }));
    expect(await probe(server.url)).toMatchObject({
      letter: 'n',
      reason: 'rate-limited',
      failedStep: 'initialize',
      retryAfterMs: 2000,
      notStandardMcp: false,
      message: 'initialize answered 429: rate-limited (asks to wait 2 s)',
    });
  });

  it('429 without Retry-After is still n, with no wait named', async () => {
    const server = await track(initOnly(429));
    expect(await probe(server.url)).toMatchObject({ letter: 'n', reason: 'rate-limited', retryAfterMs: null });
  });

  it("503 with a Retry-After date is n, counted from the answer's own Date", async () => {
    const headers = { date: 'Wed, 21 Oct 2026 07:27:00 GMT', 'retry-after': 'Wed, 21 Oct 2026 07:28:30 GMT' };
    const server = await track(initOnly(503, headers));
    expect(await probe(server.url)).toMatchObject({ letter: 'n', reason: 'rate-limited', retryAfterMs: 90_000 });
  });

  it('503 with an unreadable Retry-After is d like any other 5xx', async () => {
    const server = await track(initOnly(503, { 'retry-after': 'later' }));
    expect(await probe(server.url)).toMatchObject({ letter: 'd', reason: 'http-error', retryAfterMs: null });
  });

  it('429 on the first tools/list page is n; on a later page the tools read so far stand', async () => {
    const first = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          sendJson(res, 429, {}, { 'retry-after': '5' });
          return true;
        },
      }),
    );
    expect(await probe(first.url)).toMatchObject({
      letter: 'n',
      reason: 'rate-limited',
      failedStep: 'tools/list',
      retryAfterMs: 5000,
    });
    const later = await track(
      startScriptedServer({
        pageSize: 1,
        override: (_req, res, message) => {
          const params = message?.params as { cursor?: unknown } | undefined;
          if (message?.method !== 'tools/list' || params?.cursor === undefined) return false;
          sendJson(res, 429, {}, { 'retry-after': '5' });
          return true;
        },
      }),
    );
    const result = await probe(later.url);
    expect(result).toMatchObject({ letter: 'o', reason: 'ok', toolCount: 1, retryAfterMs: null });
    expect(result.warnings).toContain(
      'tools/list page 2 not read: tools/list answered 429: rate-limited (asks to wait 5 s)',
    );
  });
});

describe('d: down or not MCP', () => {
  it.each([400, 405, 406, 415, 422])('HTTP %i is d and shown as not a standard MCP endpoint', async (status) => {
    const server = await track(initOnly(status));
    expect(await probe(server.url)).toMatchObject({
      letter: 'd',
      reason: 'http-error',
      notStandardMcp: true,
      failedStep: 'initialize',
    });
  });

  it.each([404, 410, 500, 502, 503])('HTTP %i is d and not flagged as non-standard', async (status) => {
    const server = await track(initOnly(status));
    expect(await probe(server.url)).toMatchObject({ letter: 'd', reason: 'http-error', notStandardMcp: false });
  });

  it('a server of a newer generation that rejects initialize is recorded, with the versions it supports', async () => {
    const server = await track(
      initOnly(
        200,
        {},
        {
          jsonrpc: '2.0',
          id: 1,
          error: {
            code: -32602,
            message: 'Unsupported protocol version',
            data: { supported: ['2026-06-30'], requested: '2025-06-18' },
          },
        },
      ),
    );
    const result = await probe(server.url);
    expect(result).toMatchObject({
      letter: 'd',
      reason: 'jsonrpc-error',
      supportedVersions: ['2026-06-30'],
      protocolVersion: null,
    });
  });

  it('the same rejection as HTTP 400 is d, not standard, with the supported versions read from the body', async () => {
    const server = await track(
      initOnly(
        400,
        {},
        {
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32602, message: 'Unsupported protocol version', data: { supported: ['2026-06-30'] } },
        },
      ),
    );
    const result = await probe(server.url);
    expect(result).toMatchObject({
      letter: 'd',
      reason: 'http-error',
      notStandardMcp: true,
      supportedVersions: ['2026-06-30'],
    });
    expect(result.message).toContain('Unsupported protocol version');
  });

  it('an initialize result without a protocol version is not MCP', async () => {
    const server = await track(initOnly(200, {}, { jsonrpc: '2.0', id: 1, result: { capabilities: {} } }));
    expect(await probe(server.url)).toMatchObject({ letter: 'd', reason: 'not-mcp', notStandardMcp: true });
  });

  it('a JSON-RPC error on tools/list is d: initialize worked, no tool list', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          sendJson(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
          return true;
        },
      }),
    );
    expect(await probe(server.url)).toMatchObject({
      letter: 'd',
      reason: 'jsonrpc-error',
      failedStep: 'tools/list',
      protocolVersion: '2025-06-18',
    });
  });

  it('a tools/list result with no tools array is not MCP', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          sendJson(res, 200, { jsonrpc: '2.0', id: message.id, result: { items: [] } });
          return true;
        },
      }),
    );
    expect(await probe(server.url)).toMatchObject({
      letter: 'd',
      reason: 'not-mcp',
      failedStep: 'tools/list',
      notStandardMcp: true,
    });
  });

  it('no connection at all is d/no-connection', async () => {
    const server = await startRawServer(() => undefined);
    const url = server.url;
    await server.close();
    expect(await probe(url)).toMatchObject({ letter: 'd', reason: 'no-connection', failedStep: 'initialize' });
  });

  it('an aborted check is d/aborted, promptly', async () => {
    const server = await track(startRawServer(() => undefined));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const result = await probe(server.url, { signal: controller.signal });
    expect(result).toMatchObject({ letter: 'd', reason: 'aborted' });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('answers that are unusual but fine', () => {
  it('an empty tool list counts as o', async () => {
    const server = await track(startScriptedServer({ tools: [] }));
    expect(await probe(server.url)).toMatchObject({ letter: 'o', toolCount: 0, pages: 1, toolsJson: '[]' });
  });

  it('a tool without an input schema is kept, with a schema warning', async () => {
    const server = await track(startScriptedServer({ tools: [{ name: 'bare_tool' }, fixtureTool(2)] }));
    const result = await probe(server.url);
    expect(result).toMatchObject({ letter: 'o', toolCount: 2 });
    expect(result.tools[0]).toEqual({ name: 'bare_tool' });
    expect(result.warnings.join(' ')).toContain('does not match the MCP schema');
  });

  it('a serverInfo without a version is tolerated', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'initialize') return false;
          sendJson(res, 200, {
            jsonrpc: '2.0',
            id: 1,
            result: { protocolVersion: '2025-03-26', capabilities: {}, serverInfo: { name: 'plain' } },
          });
          return true;
        },
      }),
    );
    const result = await probe(server.url);
    expect(result).toMatchObject({
      letter: 'o',
      serverInfo: { name: 'plain', version: '' },
      protocolVersion: '2025-03-26',
    });
    expect(result.warnings[0]).toContain('initialize result');
  });

  it('a batch answer holding the response is read, and toolsJson still comes from the raw text', async () => {
    const server = await track(
      startRawServer((_req, res, body) => {
        const message = rpc(body);
        if (message?.method === 'initialize')
          return sendJson(res, 200, [{ jsonrpc: '2.0', id: 1, result: INIT_RESULT }]);
        if (message?.method === 'tools/list') {
          const text =
            '[{"jsonrpc":"2.0","method":"notifications/progress","params":{}}, {"jsonrpc":"2.0","id":2,"result":{"tools":[ {"name":"t\\u0031"} ]}}]';
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(text);
        }
        res.writeHead(202).end();
      }),
    );
    const result = await probe(server.url);
    expect(result).toMatchObject({ letter: 'o', toolsJson: '[ {"name":"t\\u0031"} ]' });
    expect(result.tools).toEqual([{ name: 't1' }]);
  });
});

describe('toolsJson is the text the server sent', () => {
  const rawTools =
    '[\n  {"name": "search_notes", "description": "Finds notes \\u2014 by word", "inputSchema": {"type":"object"}},\n  {"inputSchema":{"type":"object"},"name":"read_note"}\n]';

  it('from a JSON answer: byte for byte, spacing and escapes kept', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(`{"jsonrpc":"2.0","id":${String(message.id)},"result":{"tools":${rawTools}, "tools_note": 1}}`);
          return true;
        },
      }),
    );
    const result = await probe(server.url);
    expect(result.toolsJson).toBe(rawTools);
    expect(JSON.parse(result.toolsJson ?? '')).toEqual(result.tools);
  });

  it('from an event stream: the data of the answering event', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(': comment\n\n');
          res.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n');
          res.end(
            `event: message\r\ndata: {"jsonrpc":"2.0","id":2,"result":{"tools":${rawTools.replace(/\n/g, ' ')}}}\r\n\r\n`,
          );
          return true;
        },
      }),
    );
    const result = await probe(server.url);
    expect(result.toolsJson).toBe(rawTools.replace(/\n/g, ' '));
  });

  it('over several pages: each element exactly as sent, joined by commas', async () => {
    const pages = ['[ {"name":"a"} ,{"name" : "b"}]', '[{"name":"c"}]'];
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          const second = message.params?.cursor === 'p2';
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            `{"jsonrpc":"2.0","id":${String(message.id)},"result":{"tools":${pages[second ? 1 : 0]}${second ? '' : ',"nextCursor":"p2"'}}}`,
          );
          return true;
        },
      }),
    );
    const result = await probe(server.url);
    expect(result).toMatchObject({ pages: 2, toolCount: 3, toolsJson: '[{"name":"a"},{"name" : "b"},{"name":"c"}]' });
  });
});

describe('redirects and DNS pinning', () => {
  it('a same-site redirect on initialize is followed once, and later requests go to the new URL', async () => {
    const server = await track(
      startScriptedServer({
        override: (req, res, message) => {
          if (req.url === '/old' && message?.method === 'initialize') {
            res.writeHead(308, { location: '/mcp' }).end();
            return true;
          }
          return false;
        },
      }),
    );
    const result = await probe(`${server.origin}/old`);
    expect(result).toMatchObject({
      letter: 'o',
      endpoint: server.url,
      redirect: { location: server.url, followed: true, sameSite: true },
    });
    expect(server.requests.map((r) => r.path)).toEqual(['/old', '/mcp', '/mcp', '/mcp']);
    expect(result.steps[0]).toMatchObject({ name: 'initialize', httpStatus: 308, outcome: 'redirect' });
  });

  it('a redirect to another site is recorded, not followed, and gives d', async () => {
    const server = await track(
      startScriptedServer({
        override: (req, res) => {
          res.writeHead(307, { location: `http://collector.other.test:${String(server.port)}/mcp` }).end();
          void req;
          return true;
        },
      }),
    );
    const dns = tableLookup({ 'mcp.alpha.test': ['127.0.0.1'], 'collector.other.test': ['127.0.0.1'] });
    const result = await probe(`http://mcp.alpha.test:${server.port}/mcp`, { lookup: dns.lookup });
    expect(result).toMatchObject({
      letter: 'd',
      reason: 'redirect-cross-site',
      redirect: { followed: false, sameSite: false },
    });
    expect(server.requests).toHaveLength(1);
    expect(dns.calls).toEqual(['mcp.alpha.test']);
  });

  it('connects to the checked address while the Host header keeps the name', async () => {
    const server = await track(startScriptedServer());
    const dns = tableLookup({ 'pinned.fixture.test': ['127.0.0.1'] });
    const result = await probe(`http://pinned.fixture.test:${server.port}/mcp`, { lookup: dns.lookup });
    expect(result).toMatchObject({ letter: 'o' });
    expect(result.steps[0]).toMatchObject({ name: 'resolve', outcome: 'ok', detail: '127.0.0.1' });
    expect(server.requests.every((r) => r.headers.host === `pinned.fixture.test:${server.port}`)).toBe(true);
  });

  it('resolves once per hop, so a name that changes its answer mid-check cannot move the connection', async () => {
    const server = await track(startScriptedServer({ sessionId: 's' }));
    let calls = 0;
    const rebinding = async (): Promise<string[]> => (++calls === 1 ? ['127.0.0.1'] : ['203.0.113.50']);
    const result = await probe(`http://rebind.fixture.test:${server.port}/mcp`, { lookup: rebinding });
    expect(result.letter).toBe('o');
    expect(calls).toBe(1);
    expect(server.requests).toHaveLength(4);
  });
});

describe.each(CLIENTS)('compressed answers are decoded (%s)', (_name, httpClient) => {
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('%s', async (encoding, compress) => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          const body = compress(
            Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { tools: [fixtureTool(1)] } })),
          );
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-encoding': encoding,
            'content-length': body.length,
          });
          res.end(body);
          return true;
        },
      }),
    );
    const result = await probe(server.url, { httpClient });
    expect(result).toMatchObject({ letter: 'o', toolCount: 1 });
    expect(server.requests[0]?.headers['accept-encoding']).toContain('gzip');
  });

  it('a corrupt gzip body is not MCP or invalid HTTP, never a crash', async () => {
    const server = await track(
      startRawServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(Buffer.from('this is not gzip at all'));
      }),
    );
    const result = await probe(server.url, { httpClient });
    expect(result.letter).toBe('d');
    expect(['invalid-http', 'no-connection', 'not-mcp']).toContain(result.reason);
  });
});

describe('a resolver that hangs', () => {
  it('is given up after the 5 s lookup limit: d/timeout on the resolve step, nothing sent', async () => {
    const clock = scaledClock(50);
    const calls: string[] = [];
    const result = await probe('https://slow-dns.example.com/mcp', {
      allowPrivate: false,
      clock,
      fetch: (async (input: string | URL | Request) => {
        calls.push(String(input));
        return new Response('{}');
      }) as typeof fetch,
      httpClient: undefined,
      lookup: () => new Promise<string[]>(() => undefined),
    });
    expect(result).toMatchObject({ letter: 'd', reason: 'timeout', failedStep: 'resolve' });
    expect(clock.requested).toEqual([DNS_TIMEOUT_MS]);
    expect(calls).toEqual([]);
  });
});

describe('caller mistakes throw ProbeInputError', () => {
  it.each([
    [{ deadlineMs: -1 }, /deadlineMs/],
    [{ deadlineMs: Number.NaN }, /deadlineMs/],
    [{ userAgent: 'bot\r\nX-Evil: 1' }, /userAgent/],
    [{ userAgent: '' }, /userAgent/],
    [{ protocolVersion: '' }, /protocolVersion/],
    [{ clientInfo: { name: '' } }, /clientInfo/],
    [{ lookup: 'dns' }, /lookup must be a function/],
    [{ fetch: {} }, /fetch must be a function/],
    [{ clock: { now: () => 1 } }, /clock/],
    [{ signal: {} }, /signal/],
    [{ optedOut: 'example.com' }, /optedOut/],
  ])('%j', async (options, message) => {
    await expect(probeServer('https://mcp.example.com/mcp', options as unknown as ProbeOptions)).rejects.toThrow(
      message,
    );
    await expect(probeServer('https://mcp.example.com/mcp', options as unknown as ProbeOptions)).rejects.toBeInstanceOf(
      ProbeInputError,
    );
  });

  it('a URL that is not a string', async () => {
    await expect(probeServer(undefined as unknown as string)).rejects.toMatchObject({
      name: 'ProbeInputError',
      code: 'url-not-string',
    });
  });
});
