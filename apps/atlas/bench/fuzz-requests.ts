// Fuzzed HTTP requests, reproducible from a seed: random methods, odd paths and percent-encodings, control
// characters, oversized query strings, bad Host, Origin, content-type, Authorization and X-Forwarded-For
// headers, malformed and huge bodies, and JSON-RPC messages and batches for /mcp. The run (bench/fuzz-run.ts)
// and the standing test (test/fuzz-routes.test.ts) draw from the same generator, and send through
// `sendFuzzRequest`, which speaks plain node:http (or a raw socket, for bytes no HTTP client would send).
import { type Agent, request } from 'node:http';
import { connect } from 'node:net';
import {
  type FuzzContext,
  type MountedRoute,
  PATH_PARAM_SAMPLES,
  POST_BODY_SHAPES,
  pathParamsOf,
} from './fuzz-plan.js';

/** A seeded pseudo-random source (mulberry32): the same seed gives the same run. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(values: readonly T[]): T;
  chance(p: number): boolean;
}

/** Makes the seeded source. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (values) => values[int(values.length)] as never, chance: (p) => next() < p };
}

/** One request to send. `raw` requests go over a bare socket as the bytes given, path and headers unused. */
export interface FuzzRequest {
  /** The route pattern it was made from (`GET /api/servers/:id`), for the coverage count. */
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
  raw: Uint8Array | null;
}

const encoder = new TextEncoder();

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'PROPFIND', 'get', 'X-FUZZ'];

/** Values of the wrong kind, or strange ones of the right kind. */
const JUNK_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  2 ** 53 + 1,
  '',
  ' ',
  '\u0000',
  '\u001b]0;title\u0007',
  '\u202e',
  '\ud800',
  '<script>alert(1)</script>',
  'https://[::1]/mcp',
  'http://169.254.169.254/latest/meta-data',
  '2026-13-45T99:99:99Z',
  '../../etc/passwd',
  [],
  {},
  [[[[[]]]]],
  JSON.parse('{"__proto__":{"polluted":true}}'),
];

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

/** Pieces of odd text: control characters, percent-encodings good and broken, other scripts. */
const ODD_TEXT = [
  '%00',
  '%1b%5b2K',
  '%07',
  '%0d%0aSet-Cookie:%20x=1',
  '%2e%2e%2f',
  '%2F',
  '%ff%fe',
  '%zz',
  '%',
  '%C0%AE',
  '%E2%80%AE',
  '..',
  '.',
  '~',
  ';x=1',
  '%20',
  '+',
  'ünïcödé',
  '日本語',
  '😀',
  '\'"<>',
];

function junkString(random: Random, maxLength: number): string {
  const length = random.int(maxLength + 1);
  let text = '';
  for (let i = 0; i < length; i++) {
    const kind = random.int(4);
    if (kind === 0) text += String.fromCharCode(random.int(32));
    else if (kind === 1) text += String.fromCharCode(0x20 + random.int(95));
    else if (kind === 2) text += String.fromCharCode(0x80 + random.int(0xff80));
    else text += 'abcxyz0189-_.'[random.int(13)];
  }
  return text;
}

/** Every byte of the text's UTF-8 as %XX (a lone surrogate becomes U+FFFD's bytes, where encodeURIComponent throws). */
function percentEncoded(text: string): string {
  return [...encoder.encode(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

function junkValue(random: Random): unknown {
  return random.chance(0.6) ? random.pick(JUNK_VALUES) : junkString(random, 40);
}

/** Bytes a header value may carry through node:http (no control characters but tab; those go raw). */
function headerSafe(text: string): string {
  return text.replace(/[^\t\x20-\x7e]/g, '');
}

/** A route-shaped body with fields swapped for junk, dropped, or joined by prototype keys. */
function mutatedShape(random: Random, shape: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(shape)) {
    if (random.chance(0.15)) continue;
    out[key] = random.chance(0.35) ? junkValue(random) : value;
  }
  if (random.chance(0.3))
    Object.defineProperty(out, random.pick(PROTOTYPE_KEYS), { value: junkValue(random), enumerable: true });
  if (random.chance(0.2)) out[junkString(random, 12)] = junkValue(random);
  return out;
}

const TOOLS = ['find_tool', 'route', 'report_road', 'submit_mcp_server', 'no_such_tool'];
const MCP_METHODS = [
  'initialize',
  'tools/list',
  'tools/call',
  'ping',
  'resources/list',
  'prompts/get',
  'notifications/initialized',
  'x/fuzz',
];

function toolArguments(random: Random, tool: string, context: FuzzContext): Record<string, unknown> {
  const good: Record<string, Record<string, unknown>> = {
    find_tool: { query: 'list notes', risk: 'read-only', limit: 5 },
    route: { task: 'read my notes', limit: 3 },
    report_road: POST_BODY_SHAPES['/api/reports']!(context),
    submit_mcp_server: POST_BODY_SHAPES['/api/submissions']!(context),
  };
  return mutatedShape(random, good[tool] ?? {});
}

/** One JSON-RPC message, well-formed or not. */
function mcpMessage(random: Random, context: FuzzContext, id: number): unknown {
  if (random.chance(0.08)) return junkValue(random);
  const method = random.pick(MCP_METHODS);
  const message: Record<string, unknown> = { jsonrpc: random.chance(0.9) ? '2.0' : junkValue(random), method };
  if (!method.startsWith('notifications/')) message.id = random.chance(0.9) ? id : junkValue(random);
  if (method === 'tools/call') {
    const name = random.pick(TOOLS);
    message.params = { name, arguments: toolArguments(random, name, context) };
  } else if (method === 'initialize') {
    message.params = {
      protocolVersion: random.pick(['2025-06-18', '2025-03-26', '1999-01-01', '']),
      capabilities: {},
      clientInfo: { name: random.chance(0.5) ? 'fuzz-client' : junkString(random, 80), version: '1.0.0' },
    };
  } else if (random.chance(0.3)) message.params = junkValue(random);
  return message;
}

/** A JSON-RPC body: one message, or a batch on either side of the batch limit. */
function mcpBody(random: Random, context: FuzzContext): unknown {
  if (random.chance(0.5)) return mcpMessage(random, context, 1);
  const size = random.int(13);
  return Array.from({ length: size }, (_, i) => mcpMessage(random, context, i + 1));
}

/** A body as bytes: the route's shape broken, malformed JSON, a huge or deeply nested body, or binary. */
function fuzzBody(random: Random, routePath: string, context: FuzzContext): Uint8Array {
  const kind = random.int(10);
  if (kind <= 4) {
    const value =
      routePath === '/mcp'
        ? mcpBody(random, context)
        : mutatedShape(random, (POST_BODY_SHAPES[routePath] ?? (() => ({})))(context));
    return encoder.encode(JSON.stringify(value));
  }
  if (kind === 5) {
    // Malformed JSON: a cut-off, a trailing comma, single quotes, a byte-order mark.
    const text = JSON.stringify(POST_BODY_SHAPES[routePath]?.(context) ?? { a: 1 });
    return encoder.encode(
      random.pick([
        text.slice(0, random.int(text.length)),
        `${text.slice(0, -1)},}`,
        text.replace(/"/g, "'"),
        `\ufeff${text}`,
        'NaN',
        '{"a":1}{"b":2}',
      ]),
    );
  }
  if (kind === 6) {
    // Huge: past every body limit (64 KiB is the largest), up to about a megabyte.
    const size = 60_000 + random.int(1_000_000);
    return encoder.encode(random.chance(0.5) ? JSON.stringify({ pad: 'x'.repeat(size) }) : 'y'.repeat(size));
  }
  if (kind === 7) {
    const depth = 100 + random.int(20_000);
    return encoder.encode(`${'['.repeat(depth)}${']'.repeat(random.chance(0.5) ? depth : 0)}`);
  }
  if (kind === 8) return Uint8Array.from({ length: random.int(2_000) }, () => random.int(256));
  return new Uint8Array(0);
}

/** The route's path with its parameters filled, good values or junk. */
function fillPath(random: Random, route: MountedRoute, context: FuzzContext): string {
  const params = pathParamsOf(route.path);
  if (params.length === 0) return route.path;
  const good = PATH_PARAM_SAMPLES[route.path]?.(context, random.int(1_000)) ?? {};
  let path = route.path;
  for (const name of params) {
    const value = random.chance(0.7)
      ? (good[name] ?? 'x')
      : random.pick([
          percentEncoded(junkString(random, 30)),
          random.pick(ODD_TEXT),
          'x'.repeat(1 + random.int(3_000)),
          `${good[name] ?? 'x'}${random.pick(ODD_TEXT)}`,
        ]);
    path = path.replace(`:${name}`, value);
  }
  return path;
}

/** The path bent: a trailing slash, doubled slashes, dot segments, case, or an odd piece appended. */
function bentPath(random: Random, path: string): string {
  switch (random.int(7)) {
    case 0:
      return `${path}/`;
    case 1:
      return `/${path}`;
    case 2:
      return `${path}/../..${path}`;
    case 3:
      return path.toUpperCase();
    case 4:
      return `${path}${random.pick(ODD_TEXT)}`;
    case 5:
      return `${path.replace(/\//g, '%2F')}`;
    default:
      return `/${random.pick(ODD_TEXT)}${path}`;
  }
}

const QUERY_NAMES = [
  'q',
  'limit',
  'risk',
  'task',
  'day',
  'a',
  'cursor',
  'sort',
  'page',
  'id',
  'category',
  'state',
  'format',
  '__proto__',
];

/** A query string: names the routes read, with junk values, names given twice, or thousands of characters. */
function fuzzQuery(random: Random, context: FuzzContext): string {
  if (random.chance(0.08)) return `?q=${'z'.repeat(2_000 + random.int(40_000))}`;
  const parts: string[] = [];
  const count = 1 + random.int(4);
  for (let i = 0; i < count; i++) {
    const name = random.pick(QUERY_NAMES);
    const value = random.pick([
      percentEncoded(junkString(random, 20)),
      random.pick(ODD_TEXT),
      String(random.int(1_000_000) - 500),
      random.pick(context.days.length > 0 ? context.days : ['2026-12-01']),
      'root',
      'read-only',
      '',
    ]);
    parts.push(`${name}=${value}`);
  }
  return `?${parts.join('&')}`;
}

const BAD_HOSTS = (host: string) => [
  'evil.example',
  `${host}.evil.example`,
  '',
  'localhost',
  host.replace(/:\d+$/, ':1'),
  `${host}, evil.example`,
  'a'.repeat(300),
  host.toUpperCase(),
  '[::1]',
  '0x7f.1',
];
const ORIGINS = (origin: string) => [
  'http://evil.example',
  'null',
  origin,
  `${origin}.evil.example`,
  'file://',
  'http://127.0.0.1:1',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;;;',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json-patch+json',
  '',
  '*/*',
];
const ADDRESSES = [
  '203.0.113.7',
  '198.51.100.20',
  '2001:db8::1',
  '127.0.0.1',
  'not-an-address',
  '999.1.1.1',
  '::ffff:10.0.0.1',
  '',
];

/** The request's headers: mostly the right Host and JSON, often something else. */
function fuzzHeaders(random: Random, host: string, method: string, body: Uint8Array | null): Record<string, string> {
  const headers: Record<string, string> = {};
  headers.host = random.chance(0.8) ? host : random.pick(BAD_HOSTS(host));
  if (random.chance(0.25)) headers.origin = random.pick(ORIGINS(`http://${host}`));
  if (body !== null || method === 'POST') {
    if (random.chance(0.7)) headers['content-type'] = 'application/json';
    else if (random.chance(0.8)) headers['content-type'] = random.pick(CONTENT_TYPES);
  }
  if (random.chance(0.5))
    headers.accept = random.pick([
      'application/json, text/event-stream',
      'text/html',
      '*/*',
      'image/svg+xml',
      'text/event-stream',
    ]);
  if (random.chance(0.1))
    headers.authorization = headerSafe(random.pick(['Bearer ', 'Basic ', 'Bearer', '']) + junkString(random, 200));
  if (random.chance(0.5)) {
    const hops = Array.from({ length: 1 + random.int(3) }, () => random.pick(ADDRESSES));
    headers['x-forwarded-for'] = hops.join(', ');
  }
  if (random.chance(0.05)) headers['x-mcp-atlas-license'] = 'k'.repeat(1 + random.int(1_000));
  if (random.chance(0.05)) headers['if-none-match'] = headerSafe(random.pick(['*', 'W/"x"', junkString(random, 60)]));
  if (random.chance(0.1)) headers['user-agent'] = headerSafe(junkString(random, 120));
  if (random.chance(0.05)) headers['cf-ipcountry'] = headerSafe(junkString(random, 4));
  return headers;
}

/** Bytes no HTTP client sends: control characters in the request line and headers, bad framing, other forms. */
function rawRequest(random: Random, host: string, path: string): Uint8Array {
  const lines = random.pick([
    `GET ${path}\u001b[2K HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nX-Fuzz: a\u0007b\u0000c\r\n\r\n`,
    `GET http://evil.example${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    `GET ${path} HTTP/1.0\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\n\r\n`,
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello`,
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`,
    `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nX-Folded: a\r\n b\r\n\r\n`,
    `GET ${path}?${'%'.repeat(500)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    `\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003`,
    `GET ${path} HTTP/9.9\r\nHost: ${host}\r\n\r\n`,
  ]);
  return encoder.encode(lines);
}

/** What the generator needs: the routes to cover, the data's real values, and the service's `host:port`. */
export interface FuzzPlanInput {
  seed: number;
  routes: readonly MountedRoute[];
  context: FuzzContext;
  host: string;
}

/**
 * Makes the generator. Routes are taken in turn (so every route is reached once per lap), each with a random
 * method a quarter of the time; about one request in twenty is raw bytes over a socket.
 */
export function createFuzzRequests(input: FuzzPlanInput): () => FuzzRequest {
  const random = seededRandom(input.seed);
  let turn = 0;
  return () => {
    const route = input.routes[turn++ % input.routes.length] as MountedRoute;
    const label = `${route.method} ${route.path}`;
    let path = fillPath(random, route, input.context);
    if (random.chance(0.2)) path = bentPath(random, path);
    if (random.chance(0.4)) path += fuzzQuery(random, input.context);
    if (random.chance(0.05))
      return { route: label, method: 'RAW', path, headers: {}, body: null, raw: rawRequest(random, input.host, path) };
    const method = random.chance(0.75) ? route.method : random.pick(METHODS);
    const body = method === 'POST' || random.chance(0.05) ? fuzzBody(random, route.path, input.context) : null;
    return { route: label, method, path, headers: fuzzHeaders(random, input.host, method, body), body, raw: null };
  };
}

/** How one request ended: a status, or the connection's end without one (reset, closed, never answered). */
export type FuzzOutcome = { status: number } | { status: null; error: string };

/** Status classes and connection ends, counted. */
export type OutcomeCounts = Record<string, number>;

/** The class an outcome is counted under: `2xx` … `5xx`, or the error's name. */
export function outcomeClass(outcome: FuzzOutcome): string {
  return outcome.status === null ? outcome.error : `${Math.floor(outcome.status / 100)}xx`;
}

/** A request the service has not answered in this long is counted as never answered (a hang, not a load). */
const NO_ANSWER_MS = 120_000;

function sendRaw(target: { hostname: string; port: number }, bytes: Uint8Array): Promise<FuzzOutcome> {
  return new Promise((resolve) => {
    const socket = connect(target.port, target.hostname);
    let head = '';
    let settled = false;
    const settle = (outcome: FuzzOutcome) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(NO_ANSWER_MS, () => settle({ status: null, error: 'no-answer' }));
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      if (match !== null) settle({ status: Number(match[1]) });
      else if (head.length > 64) settle({ status: null, error: 'not-http' });
    });
    // A parser that drops a bad request closes the socket, with or without a 400 first.
    socket.on('end', () => settle({ status: null, error: 'closed' }));
    socket.on('close', () => settle({ status: null, error: 'closed' }));
    socket.on('error', () => settle({ status: null, error: 'reset' }));
    socket.end(bytes);
  });
}

/** The request written out as HTTP/1.1 bytes, its path as UTF-8, closing the connection after it. */
function asRawBytes(fuzz: FuzzRequest): Uint8Array {
  const body = fuzz.body ?? new Uint8Array(0);
  const headers = Object.entries({ ...fuzz.headers, 'content-length': String(body.length), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const head = encoder.encode(`${fuzz.method} ${fuzz.path} HTTP/1.1\r\n${headers}\r\n`);
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head);
  bytes.set(body, head.length);
  return bytes;
}

/** Sends one fuzzed request to the service at `target` and reads its answer to the end. */
export async function sendFuzzRequest(
  target: { hostname: string; port: number; agent?: Agent },
  fuzz: FuzzRequest,
): Promise<FuzzOutcome> {
  try {
    return await sendOnce(target, fuzz);
  } catch (error) {
    // node:http refused to send it (a header it will not write): the generator's mistake, counted as such.
    return { status: null, error: `client-error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function sendOnce(target: { hostname: string; port: number; agent?: Agent }, fuzz: FuzzRequest): Promise<FuzzOutcome> {
  if (fuzz.raw !== null) return sendRaw(target, fuzz.raw);
  // node:http refuses to send a path with characters outside visible Latin-1: those go as raw UTF-8 bytes.
  if (/[^\u0021-\u00ff]/.test(fuzz.path)) return sendRaw(target, asRawBytes(fuzz));
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: FuzzOutcome) => {
      if (!settled) {
        settled = true;
        resolve(outcome);
      }
    };
    const outgoing = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: fuzz.method,
        path: fuzz.path,
        headers: fuzz.headers,
        setHost: false,
        ...(target.agent !== undefined ? { agent: target.agent } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        response.on('error', () => settle({ status }));
        response.on('end', () => settle({ status }));
        response.resume();
      },
    );
    outgoing.setTimeout(NO_ANSWER_MS, () => {
      settle({ status: null, error: 'no-answer' });
      outgoing.destroy();
    });
    // The service may answer a too-large body before reading it all and close: the write then fails.
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      settle({ status: null, error: error.code === 'EPIPE' || error.code === 'ECONNRESET' ? 'reset' : 'client-error' }),
    );
    outgoing.end(fuzz.body ?? undefined);
  });
}

/** A request described for a report line: method, path and headers cut short, the body's size and start. */
export function describeFuzzRequest(fuzz: FuzzRequest): string {
  const cut = (text: string, max: number) =>
    text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
  if (fuzz.raw !== null)
    return `raw bytes for ${fuzz.route}: ${JSON.stringify(cut(new TextDecoder().decode(fuzz.raw), 300))}`;
  const body =
    fuzz.body === null
      ? 'no body'
      : `${fuzz.body.length} bytes: ${JSON.stringify(cut(new TextDecoder().decode(fuzz.body.slice(0, 400)), 300))}`;
  return `${fuzz.method} ${cut(fuzz.path, 300)} (${fuzz.route}) headers ${JSON.stringify(fuzz.headers, (_k, v) => (typeof v === 'string' ? cut(v, 120) : v))} ${body}`;
}
