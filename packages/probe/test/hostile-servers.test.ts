// Every kind of hostile server we guard against, as a real raw node:http server on 127.0.0.1, probed with each HTTP
// client under the five-minute check's 30 s deadline on a clock running 20 times faster. For each: the
// probe returns a result (never throws), the letter and reason are the expected ones, the check ends
// within the deadline, and no socket is left open on the server.
import { once } from 'node:events';
import type http from 'node:http';
import { createGzip } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIVE_MINUTE_CHECK_DEADLINE_MS, INITIALIZE_TIMEOUT_MS, MAX_TOOLS_KEPT } from '../src/constants.js';
import type { ProbeResult } from '../src/index.js';
import { probeServer } from '../src/index.js';
import { CLIENTS, scaledClock } from './fixtures/env.js';
import {
  fixtureTool,
  INIT_RESULT,
  type LocalServer,
  rpc,
  sendJson,
  startRawServer,
  startScriptedServer,
  trackServersPerFile,
} from './fixtures/servers.js';

const SCALE = 20;
const DEADLINE = FIVE_MINUTE_CHECK_DEADLINE_MS;
// Real milliseconds a check may take: the deadline on the scaled clock, plus room for a busy machine.
const WALL_LIMIT_MS = DEADLINE / SCALE + 1_500;

let gzipBomb: Buffer;

beforeAll(async () => {
  // 100 MB of JSON whitespace after an opening brace, gzip-compressed to about 100 KB.
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => parts.push(chunk));
  const block = Buffer.alloc(1024 * 1024, 0x20);
  gzip.write('{"jsonrpc":"2.0","id":1,"result":');
  for (let i = 0; i < 100; i++) if (!gzip.write(block)) await once(gzip, 'drain');
  gzip.end();
  await once(gzip, 'end');
  gzipBomb = Buffer.concat(parts);
});

const track = trackServersPerFile();

function drainOrClose(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Streams `total` bytes of spaces, respecting backpressure, and counts what it managed to write. */
async function streamSpaces(res: http.ServerResponse, total: number, counter: { written: number }): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  while (counter.written < total && !res.destroyed) {
    counter.written += chunk.length;
    if (!res.write(chunk)) await drainOrClose(res);
  }
  if (!res.destroyed) res.end();
}

describe.each(CLIENTS)('hostile servers, probed with the %s', (clientName, httpClient) => {
  // The pinned client owns its sockets and closes them when the check ends. A plain fetch hands its
  // sockets to the runtime's pool, which (undici) may open a spare idle connection after an aborted
  // request and drops it after its 4 s idle timeout; that client is checked once, at the end.
  const ownsSockets = clientName === 'node pinned client';
  const probed: LocalServer[] = [];

  async function probe(server: LocalServer): Promise<{ result: ProbeResult; wallMs: number }> {
    const started = performance.now();
    const result = await probeServer(server.url, {
      allowPrivate: true,
      httpClient,
      clock: scaledClock(SCALE),
      deadlineMs: DEADLINE,
    });
    const wallMs = performance.now() - started;
    expect(result.elapsedMs).toBeLessThanOrEqual(DEADLINE);
    expect(wallMs).toBeLessThan(WALL_LIMIT_MS);
    if (ownsSockets) expect(await server.waitForNoSockets()).toBe(0);
    probed.push(server);
    return { result, wallMs };
  }

  it('a hang on initialize ends at the 8 s initialize limit with d/timeout', async () => {
    const server = await track(startRawServer(() => undefined));
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'timeout', failedStep: 'initialize' });
    const step = result.steps.find((s) => s.name === 'initialize');
    expect(step?.elapsedMs).toBeGreaterThanOrEqual(INITIALIZE_TIMEOUT_MS - 100);
    expect(step?.elapsedMs).toBeLessThan(INITIALIZE_TIMEOUT_MS + 4_000);
  });

  it('a slowloris body (one byte at a time) ends at the initialize limit with d/timeout', async () => {
    const server = await track(
      startRawServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 25);
        res.on('close', () => clearInterval(timer));
      }),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'timeout', failedStep: 'initialize' });
    expect(result.steps[0]?.httpStatus).toBe(200);
  });

  it('a 100 MB body is cut off at the 64 KB initialize cap: d/answer-too-large, memory bounded', async () => {
    const counter = { written: 0 };
    const server = await track(
      startRawServer(async (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        await streamSpaces(res, 100 * 1024 * 1024, counter);
      }),
    );
    const heapBefore = process.memoryUsage().heapUsed;
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'answer-too-large', failedStep: 'initialize' });
    // The probe stopped reading: the server could only push what the socket buffers hold.
    expect(counter.written).toBeLessThan(32 * 1024 * 1024);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(48 * 1024 * 1024);
  });

  it('a gzip bomb is cut off after 64 KB of decoded bytes: d/answer-too-large', async () => {
    const server = await track(
      startRawServer((_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': gzipBomb.length,
        });
        res.end(gzipBomb);
      }),
    );
    const heapBefore = process.memoryUsage().heapUsed;
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'answer-too-large', failedStep: 'initialize' });
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(48 * 1024 * 1024);
  });

  it('an event stream that never sends the answer ends at the initialize limit with d/timeout', async () => {
    const server = await track(
      startRawServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': opened\n\n');
        const timer = setInterval(() => {
          if (res.destroyed) return clearInterval(timer);
          res.write(
            'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"still here"}}\n\n',
          );
        }, 20);
        res.on('close', () => clearInterval(timer));
      }),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'timeout', failedStep: 'initialize' });
    expect(result.steps[0]?.contentType).toBe('text/event-stream');
  });

  it('an answer with the wrong JSON-RPC id is not MCP: d/not-mcp, shown as not standard', async () => {
    const server = await track(
      startRawServer((_req, res) => sendJson(res, 200, { jsonrpc: '2.0', id: 999, result: INIT_RESULT })),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'not-mcp', notStandardMcp: true });
    expect(result.message).toContain('999');
  });

  it('an HTML page with status 200 is not MCP: d/not-mcp, shown as not standard', async () => {
    const server = await track(
      startRawServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Welcome</title><p>Our site</p>');
      }),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'not-mcp', notStandardMcp: true, failedStep: 'initialize' });
    expect(result.steps[0]).toMatchObject({ httpStatus: 200, contentType: 'text/html; charset=utf-8' });
  });

  it('a JSON-RPC error inside a 200 answer to initialize is d/jsonrpc-error', async () => {
    const server = await track(
      startRawServer((_req, res) =>
        sendJson(res, 200, { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'internal trouble' } }),
      ),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'jsonrpc-error', notStandardMcp: false });
    expect(result.message).toContain('-32603');
  });

  it('a redirect loop is followed once, then ends as d/redirect-limit', async () => {
    const server = await track(
      startRawServer((req, res) => {
        res.writeHead(307, { location: req.url ?? '/mcp' });
        res.end();
      }),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'redirect-limit' });
    expect(result.redirect).toEqual({ location: server.url, followed: false, sameSite: true });
    expect(result.steps.map((s) => [s.name, s.outcome])).toEqual([
      ['initialize', 'redirect'],
      ['initialize', 'redirect-limit'],
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('a cursor loop stops early on the repeated cursor and still answers o', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          sendJson(res, 200, {
            jsonrpc: '2.0',
            id: message.id,
            result: { tools: [fixtureTool(Number(message.id))], nextCursor: 'same-again' },
          });
          return true;
        },
      }),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'o', reason: 'ok', pages: 2, toolCount: 2 });
    expect(result.warnings.join(' ')).toContain('repeats an earlier cursor');
    expect(server.requests.filter((r) => rpc(r.body)?.method === 'tools/list')).toHaveLength(2);
  });

  it('600 tools over 3 pages: 500 kept, all counted, toolsJson holds the kept 500', async () => {
    const tools = Array.from({ length: 600 }, (_, i) => fixtureTool(i));
    const server = await track(startScriptedServer({ tools, pageSize: 200 }));
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'o', pages: 3, toolCount: 600, toolsTruncated: true });
    expect(result.tools).toHaveLength(MAX_TOOLS_KEPT);
    expect(JSON.parse(result.toolsJson ?? 'null')).toEqual(tools.slice(0, MAX_TOOLS_KEPT));
  });

  it('invalid UTF-8 in the initialize answer is not MCP: d/not-mcp', async () => {
    const server = await track(
      startRawServer((_req, res) => {
        const head = Buffer.from(
          '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"',
        );
        const tail = Buffer.from('","version":"1"}}}');
        const body = Buffer.concat([head, Buffer.from([0xff, 0xfe, 0xc3]), tail]);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        res.end(body);
      }),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'not-mcp' });
    expect(result.message).toContain('UTF-8');
  });

  it('huge response headers are refused by the HTTP parser: d/invalid-http', async () => {
    const server = await track(
      startRawServer((_req, res) => {
        res.setHeader('x-padding', 'p'.repeat(96 * 1024));
        sendJson(res, 200, { jsonrpc: '2.0', id: 1, result: INIT_RESULT });
      }),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'd', reason: 'invalid-http', failedStep: 'initialize' });
  });

  it('a server that requires its session id gets it back on every later request: o', async () => {
    const server = await track(
      startScriptedServer({
        sessionId: 'session-7f3a',
        override: (req, res, message) => {
          if (message?.method === 'initialize') return false;
          if (
            req.headers['mcp-session-id'] !== 'session-7f3a' ||
            req.headers['mcp-protocol-version'] !== '2025-06-18'
          ) {
            sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'session id required' } });
            return true;
          }
          return false;
        },
      }),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'o', sessionIssued: true, toolCount: 2 });
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'DELETE']);
    expect(server.requests.slice(1).every((r) => r.headers['mcp-session-id'] === 'session-7f3a')).toBe(true);
  });

  it('a server that rejects notifications/initialized with 400 but lists its tools is o', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'notifications/initialized') return false;
          sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'not expected' } });
          return true;
        },
      }),
    );
    const { result } = await probe(server);
    expect(result).toMatchObject({ letter: 'o', reason: 'ok', toolCount: 2 });
    expect(result.steps.find((s) => s.name === 'initialized')).toMatchObject({ httpStatus: 400, outcome: 'ok' });
  });

  it('leaves no socket open on any of these servers once the client is done', async () => {
    expect(probed.length).toBe(15);
    const left = await Promise.all(probed.map((server) => server.waitForNoSockets(ownsSockets ? 500 : 8_000)));
    expect(left).toEqual(probed.map(() => 0));
  });
});

describe('the deadline itself', () => {
  it.each(CLIENTS)(
    'a server slow on every step is cut off by a short deadline, not by the step limits (%s)',
    async (_name, httpClient) => {
      const server = await track(
        startScriptedServer({
          override: async (_req, _res, message) => {
            if (message?.method !== 'tools/list') return false;
            return true; // never answers tools/list
          },
        }),
      );
      const clock = scaledClock(SCALE);
      const result = await probeServer(server.url, { allowPrivate: true, httpClient, clock, deadlineMs: 3_000 });
      expect(result).toMatchObject({ letter: 'd', reason: 'deadline', failedStep: 'tools/list' });
      // A timer fires a little late on a busy machine; on this clock each real millisecond counts 20.
      expect(result.elapsedMs).toBeLessThanOrEqual(3_000 + 60 * SCALE);
      expect(result.elapsedMs).toBeGreaterThanOrEqual(3_000 - 5 * SCALE);
      expect(await server.waitForNoSockets(8_000)).toBe(0);
    },
  );
});
