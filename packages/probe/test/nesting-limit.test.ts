// The nesting limit on everything the probe parses: the linear depth scan at and around MAX_JSON_DEPTH,
// and real loopback servers whose answers (JSON, event stream, error bodies, well-known documents,
// registry pages) nest past it. Each is refused with its own reason, never a crash, and nothing handed
// back is deeper than the limit (so JSON.stringify of any result always works).
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/constants.js';
import type { ProbeOptions, ProbeResult } from '../src/index.js';
import { listRegistryServers, ProbeResultSchema, probeServer, RegistryReadError, readWellKnown } from '../src/index.js';
import { exceedsJsonDepth } from '../src/json-depth.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { CLIENTS } from './fixtures/env.js';
import { fixtureTool, sendJson, startRawServer, startScriptedServer, trackServersPerFile } from './fixtures/servers.js';

const track = trackServersPerFile();

/** JSON text of objects nested `depth` levels (`{"a":{"a":...{}}}`); depth 1 is `{}`. */
function nestedObjects(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
}

/** JSON text of arrays nested `depth` levels; depth 1 is `[]`. */
function nestedArrays(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

async function probe(url: string, options: ProbeOptions = {}): Promise<ProbeResult> {
  const result = await probeServer(url, { allowPrivate: true, httpClient: createNodeHttpClient, ...options });
  expect(ProbeResultSchema.parse(result)).toEqual(result);
  // Whatever the server sent, the result serializes: nothing in it is deeper than the limit.
  expect(() => JSON.stringify(result)).not.toThrow();
  return result;
}

function sendText(
  res: import('node:http').ServerResponse,
  status: number,
  text: string,
  type = 'application/json',
): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

describe('exceedsJsonDepth', () => {
  it('counts the outermost array or object as level 1 and primitives as level 0', () => {
    expect(exceedsJsonDepth('1', 0)).toBe(false);
    expect(exceedsJsonDepth('"text"', 0)).toBe(false);
    expect(exceedsJsonDepth('', 0)).toBe(false);
    expect(exceedsJsonDepth('{}', 0)).toBe(true);
    expect(exceedsJsonDepth('{}', 1)).toBe(false);
    expect(exceedsJsonDepth('{"a":[1,[2]]}', 3)).toBe(false);
    expect(exceedsJsonDepth('{"a":[1,[2]]}', 2)).toBe(true);
  });

  it('measures the deepest path, not the number of brackets', () => {
    // Many siblings at level 2: 1,000 brackets, depth 2.
    expect(exceedsJsonDepth(`[${Array.from({ length: 1000 }, () => '[]').join(',')}]`, 2)).toBe(false);
    expect(exceedsJsonDepth('[[],[[]],[]]', 2)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth('"[[[[{{{{"', 0)).toBe(false);
    expect(exceedsJsonDepth('["\\"[[[[", "\\\\"]', 1)).toBe(false);
    expect(exceedsJsonDepth('["\\\\", [[]]]', 2)).toBe(true);
  });

  it(`refuses exactly past MAX_JSON_DEPTH (${MAX_JSON_DEPTH}) by default`, () => {
    expect(MAX_JSON_DEPTH).toBe(128);
    expect(exceedsJsonDepth(nestedArrays(127))).toBe(false);
    expect(exceedsJsonDepth(nestedArrays(128))).toBe(false);
    expect(exceedsJsonDepth(nestedArrays(129))).toBe(true);
    expect(exceedsJsonDepth(nestedObjects(128))).toBe(false);
    expect(exceedsJsonDepth(nestedObjects(129))).toBe(true);
  });

  it('stays linear: a million levels are refused without recursion', () => {
    const text = nestedArrays(1_000_000);
    const started = performance.now();
    expect(exceedsJsonDepth(text)).toBe(true);
    expect(exceedsJsonDepth(text, 2_000_000)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe.each(CLIENTS)('answers nested past the limit (%s)', (_name, httpClient) => {
  const initWithMeta = (meta: string): string =>
    `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"deep","version":"1"},"_meta":${meta}}}`;

  it('an initialize answer exactly MAX_JSON_DEPTH deep is read; one level more is d/too-deep', async () => {
    // The message is level 1 and its result level 2, so `_meta` of depth k makes the answer 2 + k deep.
    const answerAt = (total: number) =>
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'initialize') return false;
          sendText(res, 200, initWithMeta(nestedObjects(total - 2)));
          return true;
        },
      });
    const atLimit = await track(answerAt(MAX_JSON_DEPTH));
    expect(await probe(atLimit.url, { httpClient })).toMatchObject({ letter: 'o', reason: 'ok' });
    const past = await track(answerAt(MAX_JSON_DEPTH + 1));
    const result = await probe(past.url, { httpClient });
    expect(result).toMatchObject({ letter: 'd', reason: 'too-deep', failedStep: 'initialize', notStandardMcp: false });
    expect(result.message).toBe(`the initialize answer nests deeper than ${MAX_JSON_DEPTH} levels`);
    expect(result.steps.at(-1)).toMatchObject({ name: 'initialize', outcome: 'too-deep', httpStatus: 200 });
  });

  it('a tool whose inputSchema is nested 100,000 deep: d/too-deep on tools/list, no tool kept', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          const tool = `{"name":"deep","description":"A schema 100,000 levels deep.","inputSchema":${nestedObjects(100_000)}}`;
          sendText(res, 200, `{"jsonrpc":"2.0","id":${String(message.id)},"result":{"tools":[${tool}]}}`);
          return true;
        },
      }),
    );
    const result = await probe(server.url, { httpClient });
    expect(result).toMatchObject({
      letter: 'd',
      reason: 'too-deep',
      failedStep: 'tools/list',
      tools: [],
      toolsJson: null,
    });
    expect(result.message).toBe(`tools/list page 1 nests deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('a deep event in an event stream refuses the answer, even before the matching message', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(
            `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":${nestedArrays(6_000)}}\n\n`,
          );
          res.end(
            `data: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { tools: [fixtureTool(1)] } })}\n\n`,
          );
          return true;
        },
      }),
    );
    const result = await probe(server.url, { httpClient });
    expect(result).toMatchObject({ letter: 'd', reason: 'too-deep', failedStep: 'tools/list' });
  });

  it('a deep second page keeps the first page: o, with a warning naming the limit', async () => {
    const server = await track(
      startScriptedServer({
        override: (_req, res, message) => {
          if (message?.method !== 'tools/list') return false;
          if (message.params?.cursor === undefined) {
            sendJson(res, 200, {
              jsonrpc: '2.0',
              id: message.id,
              result: { tools: [fixtureTool(1)], nextCursor: 'two' },
            });
          } else {
            sendText(
              res,
              200,
              `{"jsonrpc":"2.0","id":${String(message.id)},"result":{"tools":${nestedArrays(5_000)}}}`,
            );
          }
          return true;
        },
      }),
    );
    const result = await probe(server.url, { httpClient });
    expect(result).toMatchObject({ letter: 'o', toolCount: 1, pages: 1 });
    expect(result.warnings).toContain(
      `tools/list page 2 not read: tools/list page 2 nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
  });

  it('a deep error body on initialize is an HTTP error, its body left unread', async () => {
    const server = await track(
      startRawServer((_req, res) => sendText(res, 500, `{"jsonrpc":"2.0","id":1,"error":${nestedObjects(50_000)}}`)),
    );
    const result = await probe(server.url, { httpClient });
    expect(result).toMatchObject({
      letter: 'd',
      reason: 'http-error',
      failedStep: 'initialize',
      message: 'initialize answered HTTP 500',
    });
  });

  it('a deep id in an answer for another request is too deep, never a crash while describing the id', async () => {
    const server = await track(
      startRawServer((_req, res) => sendText(res, 200, `{"jsonrpc":"2.0","id":${nestedArrays(10_000)},"result":{}}`)),
    );
    expect(await probe(server.url, { httpClient })).toMatchObject({
      letter: 'd',
      reason: 'too-deep',
      failedStep: 'initialize',
    });
  });
});

describe('documents nested past the limit', () => {
  it('a 6,000-deep oauth-protected-resource document is not found, with a too-deep detail', async () => {
    const server = await track(
      startRawServer((req, res) => {
        if (req.url === '/.well-known/oauth-protected-resource') return sendText(res, 200, nestedObjects(6_000));
        if (req.url === '/.well-known/agent-card.json')
          return sendText(res, 200, `{"name":"card","skills":${nestedArrays(MAX_JSON_DEPTH - 1)}}`);
        return sendText(res, 404, '{}');
      }),
    );
    const read = await readWellKnown(server.origin, { allowPrivate: true, httpClient: createNodeHttpClient });
    expect(read.oauthProtectedResource).toMatchObject({
      found: false,
      httpStatus: 200,
      document: null,
      detail: `too-deep: the document nests deeper than ${MAX_JSON_DEPTH} levels`,
    });
    // The agent card sits exactly at the limit (object 1 + arrays 127) and is read.
    expect(read.agentCard).toMatchObject({ found: true, detail: null });
    expect(() => JSON.stringify(read)).not.toThrow();
  });

  it('a registry page nested past the limit is a RegistryReadError naming the limit', async () => {
    const server = await track(
      startRawServer((_req, res) => sendText(res, 200, `{"servers":[],"metadata":${nestedObjects(4_000)}}`), '/'),
    );
    const listing = listRegistryServers(server.origin, { allowPrivate: true, httpClient: createNodeHttpClient });
    const error = await listing.next().then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(RegistryReadError);
    expect((error as RegistryReadError).message).toBe(
      `registry page 1: the page nests deeper than ${MAX_JSON_DEPTH} levels`,
    );
  });
});

describe('the handshake time', () => {
  it('includes the DNS lookup: elapsedMs covers the resolve step as well as the MCP steps', async () => {
    const server = await track(startScriptedServer());
    const lookupMs = 300;
    const slowLookup = (): Promise<string[]> =>
      new Promise((resolve) => setTimeout(() => resolve(['127.0.0.1']), lookupMs));
    const result = await probe(`http://slow-dns.fixture.test:${server.port}/mcp`, { lookup: slowLookup });
    expect(result.letter).toBe('o');
    const byName = Object.fromEntries(result.steps.map((step) => [step.name, step.elapsedMs]));
    expect(byName.resolve).toBeGreaterThanOrEqual(lookupMs - 5);
    const handshakeSteps =
      (byName.resolve ?? 0) + (byName.initialize ?? 0) + (byName.initialized ?? 0) + (byName['tools/list'] ?? 0);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(handshakeSteps - 2);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(lookupMs - 5);
  });
});
