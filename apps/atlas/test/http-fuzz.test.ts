// A standing fuzz property: generated bodies (10,000 and more) against every POST route and the MCP endpoint,
// in-process through app.request so they run fast. Route-shaped bodies with junk values, wrong types, extra
// and missing keys, prototype keys (__proto__, constructor, prototype), deep nesting, huge strings, invalid
// UTF-8, non-JSON text and wrong media types; JSON-RPC messages with junk params and batches. Two
// properties: no answer is a 5xx, and a refused body stores nothing (a failed token-file read stores only
// its rate counter, which is the point of counting it). "Stores nothing" is checked two ways: every write
// call (put, append, delete) the store receives during a request is recorded, and every 250 requests the
// whole store (paths and bytes) is compared with a snapshot updated only by the writes of accepted bodies.
// The owner forms read token files from a real host on loopback, so ownership checks run for real.
import { generateKeyPair } from '@mcp-atlas/history';
import { readOwnerToken } from '@mcp-atlas/probe';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemandRecorder } from '../src/demand/recorder.js';
import { createHttpApp } from '../src/http/app.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import type { Storage } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';
import { FIXTURE_NOW, fixtureDeps, writeFixture } from './fixtures/http-atlas.js';
import { type OwnerHost, startOwnerHost } from './fixtures/submission-world.js';

/** Bodies per run; FUZZ_RUNS raises it for a longer hunt. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);

type App = ReturnType<typeof createHttpApp>;

let host: OwnerHost;
let storage: Storage;
let app: App;
/** Every write the store received, in order, as `put path`, `append path` or `delete path`. */
const writes: string[] = [];

/** The memory store, with every write call recorded before it is passed on. */
function recordingWrites(inner: Storage): Storage {
  return {
    get: (path) => inner.get(path),
    list: (prefix) => inner.list(prefix),
    put: (path, bytes) => (writes.push(`put ${path}`), inner.put(path, bytes)),
    append: (path, bytes) => (writes.push(`append ${path}`), inner.append(path, bytes)),
    delete: (path) => (writes.push(`delete ${path}`), inner.delete(path)),
    createIfAbsent: (path, bytes) => (writes.push(`create ${path}`), inner.createIfAbsent(path, bytes)),
    createRoot: (day, makeRoot) => (writes.push(`root ${day}`), inner.createRoot(day, makeRoot)),
  };
}

beforeAll(async () => {
  host = await startOwnerHost();
  storage = recordingWrites((await writeFixture(createMemoryStorage())).storage);
  writes.length = 0;
  const view = await buildView(storage, FIXTURE_NOW);
  const keys = await generateKeyPair();
  app = createHttpApp({
    ...fixtureDeps(storage, view, keys.publicKey),
    // Every form's host stands for the loopback host, so token-file reads are real reads.
    readOwnerToken: (_origin, kind, token) => readOwnerToken(host.origin, kind, token, { allowPrivate: true }),
    // Demand counts go to their own store: they are written after a good answer, on the recorder's schedule.
    demand: createDemandRecorder({ storage: createMemoryStorage(), now: () => FIXTURE_NOW }),
  });
});

afterAll(async () => {
  await host.close();
});

// ---------------------------------------------------------------------------------------------------------
// What is sent
// ---------------------------------------------------------------------------------------------------------

/** The POST routes and a body each would take, which the generators below break. */
const ROUTE_SHAPES: Record<string, Record<string, unknown>> = {
  '/api/reports': {
    server: 'notes-hub',
    tool: 'list_notes',
    ok: false,
    reason: 'timeout',
    ms: 120,
    matched: true,
    resultTokens: 40,
    charged: 0,
    surprise: 'other',
  },
  '/api/sensors': { sensor: 'gw-fuzz', outcomes: [{ server: 'notes-hub', ok: true, at: '2026-12-01T09:30:00Z' }] },
  '/api/submissions': { url: 'https://mcp.fuzz.example/mcp', proveOwnership: true },
  '/api/optout': { host: 'mcp.fuzz.example' },
  '/api/optout/confirm': { host: 'mcp.fuzz.example' },
  '/api/owners/token': { server: 'notes-hub' },
  '/api/owners/verify': { server: 'weather-desk' },
  '/api/owners/settings': { server: 'notes-hub', note: 'Maintained by the fuzz team.', fiveMinuteChecks: true },
};
const ROUTES = [...Object.keys(ROUTE_SHAPES), '/mcp'];
const TOOLS = ['find_tool', 'route', 'report_road', 'submit_mcp_server', 'no_such_tool'];
const TOOL_ARGS: Record<string, Record<string, unknown>> = {
  find_tool: { query: 'list notes', risk: 'read-only', limit: 5 },
  route: { task: 'read my notes', limit: 3 },
  report_road: ROUTE_SHAPES['/api/reports']!,
  submit_mcp_server: ROUTE_SHAPES['/api/submissions']!,
  no_such_tool: {},
};
const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];

/** A value of the wrong kind, or a strange one of the right kind. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1e308,
    -0,
    2 ** 53 + 1,
    '',
    ' ',
    '\u0000',
    '\u202e',
    '<script>',
    'https://[::1]/mcp',
    '2026-13-45T99:99:99Z',
    [],
    {},
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
);

/** A route-shaped object with one or more fields changed, dropped or added. */
function mutatedShape(shape: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(shape);
  return fc
    .record({
      replace: fc.subarray(keys),
      drop: fc.subarray(keys, { maxLength: Math.min(2, keys.length) }),
      extra: fc.dictionary(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 12 })), junk, {
        maxKeys: 2,
      }),
      values: fc.array(junk, { minLength: keys.length, maxLength: keys.length }),
    })
    .map(({ replace, drop, extra, values }) => {
      const out: Record<string, unknown> = {};
      keys.forEach((key, i) => {
        if (drop.includes(key)) return;
        out[key] = replace.includes(key) ? values[i] : shape[key];
      });
      // Own properties, even for __proto__: defineProperty never touches the prototype.
      for (const [key, value] of Object.entries(extra))
        Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
      return out;
    });
}

/** JSON text that names a prototype key at the top and deep inside, written out by hand so it stays an own key. */
function prototypeText(shape: Record<string, unknown>): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS), fc.jsonValue({ maxDepth: 2 })).map(([key, value]) => {
    const inner = JSON.stringify(value) ?? 'null';
    const base = JSON.stringify(shape).slice(1, -1);
    return `{"${key}":{"polluted":true,"admin":true},${base},"nested":{"${key}":${inner}}}`;
  });
}

/** Deeply nested arrays or objects, up to 20,000 levels. */
const deepText: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean())
  .map(([depth, objects]) =>
    objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`,
  );

/** A route-shaped body with one field holding a huge string (past every body limit, or just under one). */
function hugeText(shape: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = Object.keys(shape);
  return fc
    .tuple(
      fc.constantFrom(...keys),
      fc.constantFrom(900, 4_000, 4_200, 60_000, 70_000, 300_000),
      fc.constantFrom('x', 'é', '\u{1F600}', '\\u0000'),
    )
    .map(([key, length, unit]) =>
      JSON.stringify({ ...shape, [key]: '' }).replace(`"${key}":""`, `"${key}":"${unit.repeat(length)}"`),
    );
}

/** Bytes that are not valid UTF-8: lone continuation bytes, overlong forms, encoded surrogates, truncated sequences. */
function invalidUtf8(shape: Record<string, unknown>): fc.Arbitrary<Uint8Array<ArrayBuffer>> {
  const bad = fc.constantFrom(
    [0xff],
    [0xfe, 0xff],
    [0xc0, 0xaf],
    [0xe0, 0x80, 0xaf],
    [0xed, 0xa0, 0x80],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
    [0xe2, 0x82],
    [0x80],
  );
  return fc.tuple(fc.constantFrom(...Object.keys(shape)), bad, fc.boolean()).map(([key, bytes, inside]) => {
    const text = JSON.stringify({ ...shape, [key]: 'MARK' });
    const [before, after] = text.split('MARK') as [string, string];
    const encoder = new TextEncoder();
    const head = inside ? encoder.encode(before) : new Uint8Array();
    const tail = inside ? encoder.encode(after) : encoder.encode(text);
    return new Uint8Array([...head, ...bytes, ...tail]);
  });
}

/** One JSON-RPC message: known and unknown methods, tool calls with broken arguments, junk ids and versions. */
const jsonRpcMessage: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({
    jsonrpc: fc.oneof(fc.constant('2.0'), junk),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), junk),
    method: fc.constant('tools/call'),
    params: fc.oneof(
      fc
        .constantFrom(...TOOLS)
        .chain((name) =>
          fc.record(
            { name: fc.constant(name), arguments: fc.oneof(mutatedShape(TOOL_ARGS[name]!), junk) },
            { requiredKeys: ['name'] },
          ),
        ),
      junk,
    ),
  }),
  fc.record(
    {
      jsonrpc: fc.constant('2.0'),
      id: fc.integer(),
      method: fc.oneof(
        fc.constantFrom(
          'initialize',
          'tools/list',
          'ping',
          'resources/list',
          'prompts/get',
          'notifications/initialized',
          'logging/setLevel',
        ),
        fc.string({ maxLength: 20 }),
      ),
      params: junk,
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  ),
  junk,
);

/** A request as the fuzz sends it: a route, its body text or bytes, and the declared media type. */
interface FuzzRequest {
  route: string;
  body: string | Uint8Array<ArrayBuffer>;
  contentType: string | null;
}

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      null,
      'text/plain',
      'application/json; charset=utf-16',
      'multipart/form-data; boundary=x',
      'APPLICATION/JSON',
      'application/x-www-form-urlencoded',
    ),
  },
);

function bodyFor(route: string): fc.Arbitrary<string | Uint8Array<ArrayBuffer>> {
  if (route === '/mcp') {
    const message = fc
      .oneof(jsonRpcMessage, fc.array(jsonRpcMessage, { minLength: 1, maxLength: 4 }))
      .map((value) => JSON.stringify(value) ?? 'null');
    const args = TOOL_ARGS.report_road!;
    return fc.oneof(
      { weight: 6, arbitrary: message },
      { weight: 1, arbitrary: deepText },
      {
        weight: 1,
        arbitrary: prototypeText({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'report_road', arguments: args },
        }),
      },
      { weight: 1, arbitrary: hugeText({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: '' }) },
      { weight: 1, arbitrary: invalidUtf8({ jsonrpc: '2.0', id: 1, method: 'ping' }) },
      { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
    );
  }
  const shape = ROUTE_SHAPES[route]!;
  return fc.oneof(
    { weight: 6, arbitrary: mutatedShape(shape).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: prototypeText(shape) },
    { weight: 1, arbitrary: deepText },
    { weight: 1, arbitrary: hugeText(shape) },
    { weight: 1, arbitrary: invalidUtf8(shape) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  );
}

const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .constantFrom(...ROUTES)
  .chain((route) => fc.record({ route: fc.constant(route), body: bodyFor(route), contentType }));

// ---------------------------------------------------------------------------------------------------------
// What is checked
// ---------------------------------------------------------------------------------------------------------

const decoder = new TextDecoder();

/** Every stored path and its bytes as text: cheap with the memory store. */
async function snapshot(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const path of await storage.list('')) files.set(path, decoder.decode((await storage.get(path))!));
  return files;
}

/** Brings a snapshot up to date with the paths a taken body wrote. */
async function applyWrites(files: Map<string, string>, written: string[]): Promise<void> {
  for (const path of new Set(written.map((entry) => entry.slice(entry.indexOf(' ') + 1)))) {
    const bytes = await storage.get(path);
    if (bytes === null) files.delete(path);
    else files.set(path, decoder.decode(bytes));
  }
}

/** Whether an answer refused the body: an HTTP error, or an MCP answer whose every message is an error. */
function refusedAnswer(route: string, status: number, text: string): { refused: boolean; code: string | null } {
  if (status >= 400) {
    let code: string | null = null;
    try {
      code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
    } catch {
      code = null;
    }
    return { refused: true, code };
  }
  if (route !== '/mcp') return { refused: false, code: null };
  if (text.trim() === '') return { refused: true, code: null };
  const messages = ([] as unknown[]).concat(JSON.parse(text) as unknown) as {
    error?: unknown;
    result?: { isError?: boolean; content?: { text?: string }[] };
  }[];
  const refused = messages.every((m) => m.error !== undefined || m.result?.isError === true);
  const tokenRead = messages.some(
    (m) => m.result?.isError === true && (m.result.content?.[0]?.text ?? '').includes('token_not_found'),
  );
  return { refused, code: tokenRead ? 'token_not_found' : null };
}

async function send(request: FuzzRequest, network: number): Promise<Response> {
  const headers: Record<string, string> = {
    host: '127.0.0.1',
    'x-forwarded-for': `198.18.${network}.1`,
    accept: 'application/json, text/event-stream',
  };
  if (request.contentType !== null) headers['content-type'] = request.contentType;
  return app.request(`http://127.0.0.1${request.route}`, { method: 'POST', headers, body: request.body });
}

describe('fuzzing every POST route and the MCP endpoint', () => {
  it(`answers ${RUNS.toLocaleString('en-US')} generated bodies without a 5xx, and stores nothing from a refused one`, async () => {
    const statuses = new Map<number, number>();
    const fiveHundreds: string[] = [];
    let n = 0;
    const expected = await snapshot();
    await fc.assert(
      fc.asyncProperty(fuzzRequest, async (request) => {
        n++;
        const first = writes.length;
        const response = await send(request, n % 256);
        const text = await response.text();
        const written = writes.slice(first);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) fiveHundreds.push(`${request.route} ${response.status} ${text.slice(0, 200)}`);
        expect(response.status, `${request.route}: ${text.slice(0, 300)}`).toBeLessThan(500);
        const { refused, code } = refusedAnswer(request.route, response.status, text);
        // A read of a token file that found no token is counted, so that failures are limited; nothing else is kept.
        const counted = (entry: string) =>
          code === 'token_not_found' && entry === `put state/rate-counters/2026-12-01.json`;
        if (refused)
          expect(
            written.filter((entry) => !counted(entry)),
            `${request.route} refused (${response.status} ${code})`,
          ).toEqual([]);
        await applyWrites(expected, written);
        if (n % 250 === 0) expect(await snapshot()).toEqual(expected);
      }),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20_261_202), endOnFailure: true },
    );
    expect(fiveHundreds).toEqual([]);
    expect(await snapshot()).toEqual(expected);
    expect(n).toBe(RUNS);
    // The run must reach past the gates: some bodies are taken, some refused by their schema, some by size or type.
    for (const status of [200, 201, 400, 413, 415])
      expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
    console.log(`fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  });
});
