// Resuming an answer's event stream, as the MCP spec's Streamable HTTP transport asks: a raw node:http server
// answers initialize and tools/list by opening an event stream, sending an event id and a retry field, and
// closing it; the answer only comes on the GET that carries Last-Event-ID. The checks run on a clock twenty
// times faster, so the waits the server asks for are read from the timers the probe set, never from wall time.
import type http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FIVE_MINUTE_CHECK_DEADLINE_MS,
  INITIALIZE_TIMEOUT_MS,
  MAX_SSE_RESUMPTIONS,
  SSE_DEFAULT_RETRY_MS,
  SSE_MAX_RETRY_WAIT_MS,
} from '../src/constants.js';
import { resumeWaitMs } from '../src/handshake.js';
import { checkSite, probeServer } from '../src/index.js';
import { SseParser } from '../src/sse.js';
import { CLIENTS, scaledClock } from './fixtures/env.js';
import { fixtureTool, INIT_RESULT, type LocalServer, rpc, startRawServer } from './fixtures/servers.js';

const SCALE = 20;
/** The scale of the case whose wait fills most of a step's limit: 4x leaves it about 750 ms of real time. */
const LONG_WAIT_SCALE = 4;
const SESSION = 'resume-session-1';
const TOOLS = [fixtureTool(1), fixtureTool(2)];

const servers: LocalServer[] = [];
afterAll(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** How the test server treats the GET that resumes a stream. */
type ResumeBehaviour = 'answer' | 'close-again' | 'refuse' | 'hang';

interface ResumingServerOptions {
  /** The `retry:` field sent before closing; null sends none. */
  retryMs?: number | null;
  onResume?: ResumeBehaviour;
}

function openStream(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'mcp-session-id': SESSION });
}

/** A server that closes every answer's stream after a priming event, and answers on the resuming GET. */
async function startResumingServer(options: ResumingServerOptions = {}): Promise<LocalServer> {
  const retry = options.retryMs === undefined ? 700 : options.retryMs;
  const behaviour = options.onResume ?? 'answer';
  const pending = new Map<string, unknown>();
  let counter = 0;
  const prime = (res: http.ServerResponse, answer: unknown): void => {
    const id = `event-${++counter}`;
    pending.set(id, answer);
    openStream(res);
    res.end(`id: ${id}\n${retry === null ? '' : `retry: ${retry}\n`}data: \n\n`);
  };
  const server = await startRawServer((req, res, body) => {
    if (req.method === 'DELETE') return void res.writeHead(204).end();
    if (req.method === 'GET') {
      const last = req.headers['last-event-id'];
      if (typeof last !== 'string' || behaviour === 'refuse') return void res.writeHead(405).end();
      if (behaviour === 'hang') return void openStream(res);
      const answer = pending.get(last);
      if (behaviour === 'close-again' || answer === undefined) return prime(res, answer);
      openStream(res);
      res.end(`event: message\nid: event-${++counter}\ndata: ${JSON.stringify(answer)}\n\n`);
      return;
    }
    const message = rpc(body);
    if (message?.method === 'notifications/initialized') return void res.writeHead(202).end();
    if (message?.method === 'initialize') return prime(res, { jsonrpc: '2.0', id: message.id, result: INIT_RESULT });
    if (message?.method === 'tools/list')
      return prime(res, { jsonrpc: '2.0', id: message.id, result: { tools: TOOLS } });
    res.writeHead(400).end();
  });
  servers.push(server);
  return server;
}

function resumingGets(server: LocalServer): LocalServer['requests'] {
  return server.requests.filter((request) => request.method === 'GET');
}

describe('the event stream parser keeps what a resumption needs', () => {
  it('takes the id at the blank line, even of an event without data, and only a numeric retry', () => {
    const parser = new SseParser();
    expect(parser.push('id: a-1\nretry: 250\n')).toEqual([]);
    expect(parser.lastEventId).toBe('');
    parser.push('\n');
    expect(parser.lastEventId).toBe('a-1');
    expect(parser.retryMs).toBe(250);
    parser.push('retry: soon\nid: b\u0000c\ndata: x\n\n');
    expect(parser.retryMs).toBe(250);
    expect(parser.lastEventId).toBe('a-1');
  });
});

describe('the wait before a resumption', () => {
  it("is the server's retry up to the maximum, and the default without one", () => {
    expect(resumeWaitMs(null)).toBe(SSE_DEFAULT_RETRY_MS);
    expect(resumeWaitMs(0)).toBe(0);
    expect(resumeWaitMs(SSE_MAX_RETRY_WAIT_MS - 1)).toBe(SSE_MAX_RETRY_WAIT_MS - 1);
    expect(resumeWaitMs(SSE_MAX_RETRY_WAIT_MS)).toBe(SSE_MAX_RETRY_WAIT_MS);
    expect(resumeWaitMs(SSE_MAX_RETRY_WAIT_MS + 1)).toBe(SSE_MAX_RETRY_WAIT_MS);
  });
});

describe.each(CLIENTS)('a stream closed after an event id, probed with the %s', (_name, httpClient) => {
  it('is resumed with GET and Last-Event-ID after the retry wait: letter o, every tool listed', async () => {
    const server = await startResumingServer({ retryMs: 700 });
    const clock = scaledClock(SCALE);
    const result = await probeServer(server.url, { allowPrivate: true, httpClient, clock });
    expect(result).toMatchObject({ letter: 'o', reason: 'ok', toolCount: TOOLS.length });
    const detail = (name: string) => result.steps.find((step) => step.name === name)?.detail;
    expect(detail('initialize')).toBe(`protocol ${INIT_RESULT.protocolVersion}; resumed 1x`);
    expect(detail('tools/list')).toBe(`${TOOLS.length} tools; resumed 1x`);
    const gets = resumingGets(server);
    expect(gets.map((get) => get.headers['last-event-id'])).toEqual(['event-1', 'event-3']);
    // The initialize GET carries the session the stream's answer issued, with the version offered.
    expect(gets.every((get) => get.headers['mcp-session-id'] === SESSION)).toBe(true);
    expect(gets.every((get) => get.headers.accept === 'text/event-stream')).toBe(true);
    expect(clock.requested.filter((ms) => ms === 700)).toHaveLength(2);
  });

  it('waits at most the longest retry honoured, and the default when none is sent', async () => {
    const long = await startResumingServer({ retryMs: SSE_MAX_RETRY_WAIT_MS * 10 });
    // The longest wait takes most of the step's limit, so this case runs at a gentler scale: at 20x the rest of
    // the step had about 150 ms of real time, which a loaded machine overran (a d instead of o).
    const clock = scaledClock(LONG_WAIT_SCALE);
    expect(await probeServer(long.url, { allowPrivate: true, httpClient, clock })).toMatchObject({ letter: 'o' });
    expect(clock.requested).toContain(SSE_MAX_RETRY_WAIT_MS);
    expect(clock.requested).not.toContain(SSE_MAX_RETRY_WAIT_MS * 10);

    const none = await startResumingServer({ retryMs: null });
    const other = scaledClock(LONG_WAIT_SCALE);
    expect(await probeServer(none.url, { allowPrivate: true, httpClient, clock: other })).toMatchObject({
      letter: 'o',
    });
    expect(other.requested.filter((ms) => ms === SSE_DEFAULT_RETRY_MS)).toHaveLength(2);
  });

  it('a server that closes every resumed stream too is a d with a clear reason, after the last resumption', async () => {
    const server = await startResumingServer({ retryMs: 10, onResume: 'close-again' });
    const result = await probeServer(server.url, { allowPrivate: true, httpClient, clock: scaledClock(SCALE) });
    expect(result).toMatchObject({ letter: 'd', reason: 'not-mcp', failedStep: 'initialize' });
    expect(result.message).toBe(
      `initialize: the event stream closed without the answer ${MAX_SSE_RESUMPTIONS + 1} times (resumed ${MAX_SSE_RESUMPTIONS}x with Last-Event-ID)`,
    );
    expect(resumingGets(server)).toHaveLength(MAX_SSE_RESUMPTIONS);
  });

  it('a resumption refused (405) is a d that says so', async () => {
    const server = await startResumingServer({ onResume: 'refuse' });
    const result = await probeServer(server.url, { allowPrivate: true, httpClient, clock: scaledClock(SCALE) });
    expect(result).toMatchObject({ letter: 'd', reason: 'not-mcp', failedStep: 'initialize' });
    expect(result.message).toContain('resuming the event stream (GET with Last-Event-ID) answered 405');
  });

  it('a resumed stream that never answers ends at the step limit, inside the deadline', async () => {
    const server = await startResumingServer({ retryMs: 10, onResume: 'hang' });
    const result = await probeServer(server.url, {
      allowPrivate: true,
      httpClient,
      clock: scaledClock(SCALE),
      deadlineMs: FIVE_MINUTE_CHECK_DEADLINE_MS,
    });
    expect(result).toMatchObject({ letter: 'd', reason: 'timeout', failedStep: 'initialize' });
    expect(result.message).toBe(`initialize got no answer within ${INITIALIZE_TIMEOUT_MS} ms`);
    expect(result.elapsedMs).toBeLessThanOrEqual(FIVE_MINUTE_CHECK_DEADLINE_MS);
  });
});

describe('the site check', () => {
  it('resumes the same way and passes with the tools', async () => {
    const server = await startResumingServer({ retryMs: 50 });
    const result = await checkSite(server.origin, {
      allowPrivate: true,
      clock: scaledClock(SCALE),
      documents: { home: { linkHeader: '</mcp>; rel="mcp"' } },
    });
    expect(result).toMatchObject({ toolCount: TOOLS.length });
    const details = result.steps.map((step) => step.detail ?? '');
    expect(details.filter((detail) => detail.endsWith('; resumed 1x'))).toHaveLength(2);
  });
});
