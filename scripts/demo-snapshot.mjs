#!/usr/bin/env node
// A snapshot of everything the demo serves at a fixed clock, to show that a refactoring changed no answer, page or
// sealed file. It builds nothing: it runs the checkout's built `apps/atlas/dist/cli.js`.
//
//   node scripts/demo-snapshot.mjs OUT [--root DIR] [--now ISO] [--port-base N] [--days N] [--keep]
//       runs `mcp-atlas demo --data TMP --port N` in a fresh temporary folder and writes to OUT (which must not
//       exist, or be empty):
//         data/...                 every file of the data folder once the demo serves, byte for byte, before any
//                                  request (the sealed days, roots, state, the signing key)
//         http/<path>/@<query>     the body of each GET answer; `@` alone for no query (`/` is http/@,
//                                  `/servers?page=2` is http/servers/@page%3D2)
//         http/<path>/@<query>.head  its status and headers (all but date, connection, keep-alive,
//                                  transfer-encoding and content-length)
//         mcp/<name>               the MCP endpoint's answers to initialize, tools/list and read-only tool calls
//         demo-stdout.txt          what the demo printed (letters, highlights, chain)
//         urls.txt                 every URL asked, in the order asked
//       The URLs: every GET path of the OpenAPI document the service publishes, each path parameter filled with
//       every server id, submission id or badge file there is (else with the values its schema lists); each enum
//       value of a query parameter; tool searches and routes for a few tasks; the roots of every sealed day; a
//       few refusals (unknown ids, bad queries); then every same-site link found in the pages and answers, and
//       each paged list's next page, followed until none is new.
//       --root: the checkout to run (default: the one this script is in). --now: the clock
//       (default 2026-11-30T12:00:00.000Z). --port-base: the service's port; the fleet takes the next ones
//       (default 47300). --keep: leave the temporary folder in place.
//
//   node scripts/demo-snapshot.mjs --compare A B [--verbose]
//       lists every file missing from B, extra in B or changed, with the first lines that differ, and exits 1
//       on any difference not allowed (0 when none). Allowed: an answer whose only difference is the
//       methodology's links (`/methodology`, `/methodology/<area>`, with or without `#anchor`), and a
//       methodology page itself (`/methodology` and `/methodology/...`), present, missing or changed; the OpenAPI
//       document's methodology paths; and the methodology's URLs in urls.txt. All are listed by name (with their
//       first differing lines under --verbose).
//
// How the run is made repeatable (two runs of one checkout compare equal, file for file):
// - The clock: the demo reads MCP_ATLAS_DEMO_NOW (apps/atlas/src/commands/demo.ts): it simulates the month up to
//   that instant and serves at it, instead of at the real time.
// - The rest is pinned in the demo's process by a small module loaded before the app (node --import), so that the
//   app needs no other setting: the signing key (the only 32-byte draw from crypto.getRandomValues, which the
//   key generator makes) is a fixed test key; the fleet's servers, which ask for any free port, get the ports after
//   the service's, in the order they start; and performance.now, which the probe times each step with, stands
//   still, so every measured latency is 0 ms (a real latency differs from run to run and is sealed into the
//   day's results). Both snapshots of a comparison must use the same --now, --port-base and --days.
// A checkout whose demo does not read MCP_ATLAS_DEMO_NOW is refused: its snapshot would differ everywhere.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The clock the snapshot runs at unless --now names another. */
const DEFAULT_NOW = '2026-11-30T12:00:00.000Z';

/** The service's port unless --port-base names another; the fleet takes the ports after it. */
const DEFAULT_PORT_BASE = 47300;

/** How many ports from the base the run may take (the service and every fleet member). */
const PORT_SPAN = 64;

/** How long the demo may take to start serving before the snapshot gives up. */
const DEMO_START_LIMIT_MS = 20 * 60_000;

/** How many URLs the link following may reach, so that a page linking to endless new URLs cannot run forever. */
const MAX_URLS = 5000;

/** Headers that differ by the moment or the connection, not by what was answered. */
const VOLATILE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** Tool searches asked of both the API and the search page. */
const SEARCHES = [
  { q: 'weather forecast' },
  { q: 'send an email message' },
  { q: 'create invoice', risk: 'read' },
  { q: 'delete', risk: 'change' },
  { q: 'translate text', risk: 'any', limit: '3' },
  { q: 'zzzz nothing matches this' },
];

/** Tasks asked of the route. */
const TASKS = [
  'get the weather forecast for Paris',
  'send an email to my team',
  'delete an old ticket',
  'translate a document into French',
  'refund a payment',
  'find a recipe with tomatoes',
];

/** Unusual requests: unknown ids, bad or repeated queries, paged lists past their end, paths nothing serves. */
const REFUSALS = [
  '/api/servers/no-such-server',
  '/api/servers/UPPER_CASE',
  '/api/servers?limit=abc',
  '/api/servers?limit=1&limit=2',
  '/api/leaderboard?limit=5&offset=3',
  '/api/leaderboard?limit=0',
  '/api/toolsearch',
  '/api/toolsearch?q=',
  '/api/toolsearch?q=weather&risk=nope',
  '/api/route',
  '/api/route?task=weather&limit=999',
  '/api/maps?a=root&day=2026-13-45',
  '/api/maps?a=root&day=2001-01-01',
  '/api/maps',
  '/api/submissions/sub-00000000000000000000',
  '/api/submissions/nope',
  '/servers?page=999',
  '/servers?page=abc',
  '/leaderboard?page=0',
  '/servers/no-such-server',
  '/badge/no-such-server.svg',
  '/badge/no-such-server/grade.svg',
  '/badge/readme.txt',
  '/widget/no-such-server',
  '/search?q=&risk=any',
  '/search?risk=nope&q=weather',
  '/mcp',
  '/healthz',
  '/readyz',
  '/metrics',
  '/robots.txt',
  '/no/such/page',
];

/** JSON-RPC messages sent to the MCP endpoint, by the file their answer goes to. Only reads: no report, no submission. */
const MCP_MESSAGES = [
  [
    'initialize',
    {
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'demo-snapshot', version: '1.0.0' },
      },
    },
  ],
  ['tools-list', { method: 'tools/list', params: {} }],
  ['find-tool-weather', { method: 'tools/call', params: { name: 'find_tool', arguments: { query: 'weather' } } }],
  [
    'find-tool-delete-change',
    { method: 'tools/call', params: { name: 'find_tool', arguments: { query: 'delete', risk: 'change' } } },
  ],
  ['route-forecast', { method: 'tools/call', params: { name: 'route', arguments: { task: 'weather forecast' } } }],
  ['route-refund', { method: 'tools/call', params: { name: 'route', arguments: { task: 'refund a payment' } } }],
  ['resources-list', { method: 'resources/list', params: {} }],
  ['unknown-method', { method: 'no/such/method', params: {} }],
];

class UsageError extends Error {}

function parseArgs(argv) {
  const options = {
    compare: false,
    now: DEFAULT_NOW,
    portBase: DEFAULT_PORT_BASE,
    days: null,
    keep: false,
    root: null,
    verbose: false,
  };
  const words = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--compare') options.compare = true;
    else if (arg === '--now') options.now = value();
    else if (arg === '--port-base') options.portBase = Number(value());
    else if (arg === '--days') options.days = value();
    else if (arg === '--root') options.root = resolve(value());
    else if (arg === '--keep') options.keep = true;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else words.push(arg);
  }
  if (!Number.isInteger(options.portBase) || options.portBase < 1024 || options.portBase + PORT_SPAN > 65_535)
    throw new UsageError('--port-base must be a port from 1024 with room for the fleet after it');
  if (Number.isNaN(Date.parse(options.now))) throw new UsageError('--now must be an ISO time');
  return { options, words };
}

/** The module the demo's process loads first: it pins the signing key, the fleet's ports and the probe's timer. */
function pinningModule(portBase) {
  const key = createHash('sha256').update('mcp-atlas demo snapshot signing key').digest('hex');
  return `// Written by scripts/demo-snapshot.mjs: loaded before the app, so that a run can be repeated byte for byte.
import net from 'node:net';

// Every server asking for any free port (the fleet's members, in the order they start) gets the next fixed one.
let nextPort = ${portBase + 1};
const lastPort = ${portBase + PORT_SPAN - 1};
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const wantsAnyPort = args[0] === 0 || (typeof args[0] === 'object' && args[0] !== null && args[0].port === 0);
  if (wantsAnyPort) {
    if (nextPort > lastPort) throw new Error('demo-snapshot: the fleet needs more ports than --port-base leaves');
    const port = nextPort++;
    args[0] = typeof args[0] === 'object' ? { ...args[0], port } : port;
  }
  return listen.apply(this, args);
};

// The signing key is the one 32-byte draw (the key generator's); every other draw stays random.
const key = Uint8Array.from(Buffer.from('${key}', 'hex'));
const getRandomValues = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
globalThis.crypto.getRandomValues = (array) => {
  if (array instanceof Uint8Array && array.length === key.length) {
    array.set(key);
    return array;
  }
  return getRandomValues(array);
};

// The probe times each step with performance.now: standing still, every measured latency is 0 ms.
globalThis.performance.now = () => 0;
`;
}

/** Fails unless every port the run will take is free now, so that a busy port is named rather than guessed around. */
async function checkPortsFree(portBase) {
  for (let port = portBase; port < portBase + PORT_SPAN; port++) {
    await new Promise((done, fail) => {
      const server = createServer();
      server.once('error', () =>
        fail(new UsageError(`port ${port} is taken: pass another --port-base (the same for both snapshots)`)),
      );
      server.listen(port, '127.0.0.1', () => server.close(() => done()));
    });
  }
}

/** Every file under `dir`, as paths relative to it with `/` separators, sorted. */
async function listFiles(dir) {
  const found = [];
  async function walk(current) {
    const entries = await readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) found.push(relative(dir, path).split(sep).join('/'));
    }
  }
  if (existsSync(dir)) await walk(dir);
  return found.sort();
}

async function writeOut(out, path, bytes) {
  const target = join(out, ...path.split('/'));
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, bytes);
}

/**
 * Where the answer to a URL is kept: one folder per path segment, and `@` plus the encoded query as the file, so
 * that `/servers` and `/servers/maps` can both be kept.
 */
function fileOfUrl(url) {
  const parsed = new URL(url, 'http://snapshot.invalid');
  const segments = parsed.pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      const name = encodeURIComponent(decodeSegment(s));
      return name === '.' || name === '..' || name.startsWith('@') ? `%${name}` : name;
    });
  const query = parsed.search === '' ? '' : encodeURIComponent(parsed.search.slice(1));
  return ['http', ...segments, `@${query}`].join('/');
}

/** A path segment decoded, or as it is when it is not valid percent-encoding. */
function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Starts the demo in `dataDir`; resolves once it serves, with the child, its URL and what it printed. */
async function startDemo({ root, dataDir, options, preloadPath }) {
  const cli = join(root, 'apps', 'atlas', 'dist', 'cli.js');
  if (!existsSync(cli)) throw new UsageError(`${cli} is missing: build the checkout first`);
  // Without the clock setting the demo would run at the real time, and every file would differ from the last run.
  if (!(await readFile(cli, 'utf8')).includes('MCP_ATLAS_DEMO_NOW'))
    throw new UsageError(`${cli} does not read MCP_ATLAS_DEMO_NOW: give its demo the fixed clock first`);
  const args = ['--import', pathToFileURL(preloadPath).href, cli, 'demo', '--data', dataDir];
  args.push('--port', String(options.portBase));
  if (options.days !== null) args.push('--days', options.days);
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, MCP_ATLAS_DEMO_NOW: options.now, MCP_ATLAS_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const url = await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error('the demo did not start serving in time')), DEMO_START_LIMIT_MS);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /mcp-atlas demo is serving at (\S+)\n/.exec(stdout);
      if (match !== null) {
        clearTimeout(timer);
        done(match[1]);
      }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`the demo exited (${code ?? signal}) before serving:\n${stdout}\n${stderr}`));
    });
  });
  return { child, url, exited, stdout: () => stdout, stderr: () => stderr };
}

/** The same-site URLs a body names: links and sources in a page, path strings in JSON. */
function linksIn(text, origin) {
  const found = new Set();
  const add = (raw) => {
    const value = raw.replaceAll('&amp;', '&').replaceAll('&#x27;', "'").replaceAll('&quot;', '"');
    if (value.includes('{') || value.startsWith('//')) return;
    let url;
    try {
      url = new URL(value, `${origin}/`);
    } catch {
      return;
    }
    if (url.origin !== origin) return;
    found.add(`${url.pathname}${url.search}`);
  };
  for (const match of text.matchAll(/\b(?:href|src|action)="([^"]*)"/g)) add(match[1]);
  for (const match of text.matchAll(/"((?:\/|https?:\/\/127\.0\.0\.1:\d+\/)[^"\s\\]*)"/g)) add(match[1]);
  return [...found].sort();
}

/** The URLs to ask first, from the OpenAPI document and what the data folder holds. */
function firstUrls(openapi, facts) {
  const urls = [];
  const fill = {
    id: facts.serverIds,
    file: facts.serverIds.map((id) => `${id}.svg`),
  };
  const fillOf = (path, name) => {
    if (path.startsWith('/api/submissions/')) return facts.submissionIds;
    return fill[name];
  };
  for (const [path, operations] of Object.entries(openapi.paths ?? {})) {
    const get = operations.get;
    if (get === undefined) continue;
    let paths = [path];
    for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
      // A parameter the data does not name is filled with the values its schema lists (a methodology area).
      const listed = (get.parameters ?? []).find((p) => p.in === 'path' && p.name === name)?.schema?.enum;
      const values = fillOf(path, name) ?? listed;
      if (values === undefined) throw new Error(`no values to fill {${name}} of ${path} with: teach the snapshot`);
      paths = paths.flatMap((p) => values.map((v) => p.replace(`{${name}}`, encodeURIComponent(v))));
    }
    const query = (get.parameters ?? []).filter((p) => p.in === 'query');
    const required = query.filter((p) => p.required === true).map((p) => p.name);
    for (const p of paths) {
      const bases =
        required.length === 0
          ? [p]
          : path === '/api/maps'
            ? facts.days.map((day) => `${p}?a=root&day=${day}`)
            : path === '/api/toolsearch'
              ? SEARCHES.map((s) => `${p}?${new URLSearchParams(s)}`)
              : path === '/api/route'
                ? TASKS.map((task) => `${p}?${new URLSearchParams({ task })}`)
                : null;
      if (bases === null) throw new Error(`no values for the required query of ${path}: teach the snapshot`);
      urls.push(...bases);
      for (const param of query) {
        for (const value of param.schema?.enum ?? []) {
          const base = bases[0];
          urls.push(`${base}${base.includes('?') ? '&' : '?'}${new URLSearchParams({ [param.name]: value })}`);
        }
      }
    }
  }
  for (const search of SEARCHES) urls.push(`/search?${new URLSearchParams(search)}`);
  urls.push('/api/servers?limit=3', '/api/leaderboard?limit=3&offset=2');
  urls.push(...REFUSALS);
  return urls;
}

/** What the data folder says there is to ask about: the servers, the submissions and the sealed days. */
async function factsOf(dataDir) {
  const files = await listFiles(dataDir);
  const serverIds = files
    .filter((f) => /^state\/servers\/[^/]+\.json$/.test(f))
    .map((f) => f.slice('state/servers/'.length, -'.json'.length));
  const submissionIds = files
    .filter((f) => /^state\/submissions\/[^/]+\.json$/.test(f))
    .map((f) => f.slice('state/submissions/'.length, -'.json'.length));
  const days = files.filter((f) => /^roots\/[^/]+\.json$/.test(f)).map((f) => f.slice('roots/'.length, -5));
  return { serverIds, submissionIds, days };
}

function headText(response) {
  const lines = [`${response.status} ${response.statusText}`];
  const names = [...response.headers.keys()].filter((name) => !VOLATILE_HEADERS.has(name)).sort();
  for (const name of names) lines.push(`${name}: ${response.headers.get(name)}`);
  return `${lines.join('\n')}\n`;
}

/** The next page of a paged list answer (its `next` cursor, asked as `cursor`), or null on the last page. */
function nextPageOf(url, text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof body?.next !== 'string') return null;
  const next = new URL(url, 'http://snapshot.invalid');
  next.searchParams.set('cursor', body.next);
  return `${next.pathname}${next.search}`;
}

/** Asks every URL, following same-site links until none is new; writes each answer. Returns the URLs asked. */
async function collectHttp(origin, firstAsked, out) {
  const asked = new Set();
  const queue = [...firstAsked];
  const order = [];
  while (queue.length > 0) {
    const url = queue.shift();
    if (asked.has(url)) continue;
    if (asked.size >= MAX_URLS) throw new Error(`more than ${MAX_URLS} URLs: a page links to endless new ones`);
    asked.add(url);
    order.push(url);
    const response = await fetch(`${origin}${url}`, { redirect: 'manual' });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const file = fileOfUrl(url);
    await writeOut(out, file, bytes);
    await writeOut(out, `${file}.head`, headText(response));
    const type = response.headers.get('content-type') ?? '';
    if (/html|json|svg/.test(type)) {
      const text = new TextDecoder().decode(bytes);
      for (const link of linksIn(text, origin)) if (!asked.has(link)) queue.push(link);
      const next = type.includes('json') ? nextPageOf(url, text) : null;
      if (next !== null && !asked.has(next)) queue.push(next);
    }
  }
  return order;
}

async function collectMcp(origin, out) {
  let id = 1;
  for (const [name, message] of MCP_MESSAGES) {
    const response = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: id++, ...message }),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    await writeOut(out, `mcp/${name}`, bytes);
    await writeOut(out, `mcp/${name}.head`, headText(response));
  }
}

async function takeSnapshot(out, options) {
  const root = options.root ?? resolve(import.meta.dirname, '..');
  if (existsSync(out) && (await readdir(out)).length > 0) throw new UsageError(`${out} is not empty`);
  await checkPortsFree(options.portBase);
  const work = await mkdtemp(join(tmpdir(), 'demo-snapshot-'));
  const dataDir = join(work, 'data');
  const preloadPath = join(work, 'pin.mjs');
  await writeFile(preloadPath, pinningModule(options.portBase));
  process.stderr.write(`demo-snapshot: running the demo of ${root} at ${options.now} in ${work}\n`);
  const demo = await startDemo({ root, dataDir, options, preloadPath });
  let stopped = false;
  try {
    // The data folder as the demo left it, before any request could add a count or a log line.
    for (const file of await listFiles(dataDir))
      await writeOut(out, `data/${file}`, await readFile(join(dataDir, file)));
    const facts = await factsOf(dataDir);
    const openapi = await (await fetch(`${demo.url}/api/openapi.json`)).json();
    const order = await collectHttp(demo.url, ['/api/openapi.json', ...firstUrls(openapi, facts)], out);
    await collectMcp(demo.url, out);
    await writeOut(out, 'urls.txt', `${order.join('\n')}\n`);
    demo.child.kill('SIGINT');
    const { code, signal } = await demo.exited;
    stopped = true;
    if (code !== 0) throw new Error(`the demo exited with ${code ?? signal} when stopped:\n${demo.stderr()}`);
    await writeOut(out, 'demo-stdout.txt', demo.stdout());
    if (!demo.stdout().includes('chain: verified')) throw new Error('the demo did not verify its chain');
    process.stderr.write(
      `demo-snapshot: ${order.length} URLs, ${MCP_MESSAGES.length} MCP messages and the data folder written to ${out}\n`,
    );
  } finally {
    if (!stopped) {
      demo.child.kill('SIGKILL');
      await demo.exited;
    }
    if (options.keep) process.stderr.write(`demo-snapshot: kept ${work}\n`);
    else await rm(work, { recursive: true, force: true });
  }
}

// --- comparing two snapshots ---

/** A methodology link in any form: `/methodology`, `/methodology/<area>`, with an anchor, absolute or not. */
const METHODOLOGY_LINK = /(?:https?:\/\/[^/"'\s<>]+)?\/methodology(?:\/[A-Za-z0-9._~%-]+)*(?:#[A-Za-z0-9._~%-]*)?/g;

/** Whether a kept answer is a methodology page: `/methodology` itself or one of its areas. */
function isMethodologyPage(file) {
  return /^http\/methodology\/(?:.+\/)?@[^/]*$/.test(file);
}

/** The answer's body file for a head file, or the file itself. */
function bodyFileOf(file) {
  return file.endsWith('.head') ? file.slice(0, -'.head'.length) : file;
}

/** Where two texts first differ, as a few lines of each (a window of a long line). */
function describeDifference(a, b) {
  const linesA = a.split('\n');
  const linesB = b.split('\n');
  let line = 0;
  while (line < linesA.length && line < linesB.length && linesA[line] === linesB[line]) line++;
  const show = [];
  for (let i = line; i < line + 3; i++) {
    const left = linesA[i];
    const right = linesB[i];
    if (left === undefined && right === undefined) break;
    if (left === right) {
      show.push(`    line ${i + 1}  ${clip(left ?? '', 0)}`);
      continue;
    }
    let column = 0;
    while (left !== undefined && right !== undefined && column < left.length && left[column] === right[column])
      column++;
    show.push(`  - line ${i + 1}  ${left === undefined ? '(none)' : clip(left, column)}`);
    show.push(`  + line ${i + 1}  ${right === undefined ? '(none)' : clip(right, column)}`);
  }
  return show.join('\n');
}

/** A line cut to a readable window around `column`. */
function clip(text, column) {
  if (text.length <= 160) return text;
  const start = Math.max(0, column - 60);
  return `${start > 0 ? '…' : ''}${text.slice(start, start + 160)}${start + 160 < text.length ? '…' : ''}`;
}

function looksLikeText(bytes) {
  return !bytes.subarray(0, 4096).includes(0);
}

async function compareSnapshots(a, b, verbose) {
  for (const dir of [a, b]) if (!existsSync(dir)) throw new UsageError(`${dir} does not exist`);
  const filesA = await listFiles(a);
  const filesB = await listFiles(b);
  const inB = new Set(filesB);
  const inA = new Set(filesA);
  const report = { missing: [], extra: [], changed: [], allowed: [] };
  // Whether a served answer's body differs, and only in its methodology links.
  const differsInMethodologyLinksOnly = async (file) => {
    const body = bodyFileOf(file);
    if (!existsSync(join(a, body)) || !existsSync(join(b, body))) return false;
    const textA = await readFile(join(a, body), 'utf8');
    const textB = await readFile(join(b, body), 'utf8');
    return textA !== textB && withoutMethodologyLinks(textA) === withoutMethodologyLinks(textB);
  };
  for (const file of filesA)
    if (!inB.has(file))
      (isMethodologyPage(bodyFileOf(file)) ? report.allowed : report.missing).push({ file, kind: 'missing' });
  for (const file of filesB)
    if (!inA.has(file))
      (isMethodologyPage(bodyFileOf(file)) ? report.allowed : report.extra).push({ file, kind: 'extra' });
  for (const file of filesA) {
    if (!inB.has(file)) continue;
    const bytesA = await readFile(join(a, file));
    const bytesB = await readFile(join(b, file));
    if (bytesA.equals(bytesB)) continue;
    const text = looksLikeText(bytesA) && looksLikeText(bytesB);
    const detail = text
      ? describeDifference(bytesA.toString('utf8'), bytesB.toString('utf8'))
      : `  binary: ${bytesA.length} bytes, now ${bytesB.length}`;
    const served = file.startsWith('http/') || file.startsWith('mcp/');
    let allowed = false;
    // The OpenAPI document may describe the methodology's pages differently, and nothing else.
    if (file === OPENAPI_FILE) allowed = apiWithoutMethodology(bytesA) === apiWithoutMethodology(bytesB);
    // The URLs asked: the methodology's own may come and go, and following its links may change the order.
    else if (file === 'urls.txt') allowed = urlSetOf(bytesA) === urlSetOf(bytesB);
    else if (served && text && isMethodologyPage(bodyFileOf(file))) allowed = true;
    // A head may differ with its body in the ETag alone (content-length is left out), never in another header.
    else if (served && file.endsWith('.head'))
      allowed = withoutEtag(bytesA) === withoutEtag(bytesB) && (await differsInMethodologyLinksOnly(file));
    else if (served && text) allowed = await differsInMethodologyLinksOnly(file);
    (allowed ? report.allowed : report.changed).push({ file, kind: 'changed', detail });
  }
  const line = (entry) => `${entry.kind.padEnd(8)} ${entry.file}${entry.detail ? `\n${entry.detail}` : ''}`;
  for (const entry of [...report.missing, ...report.extra, ...report.changed]) process.stdout.write(`${line(entry)}\n`);
  if (report.allowed.length > 0) {
    process.stdout.write(`\nallowed (methodology links and pages only): ${report.allowed.length}\n`);
    for (const entry of report.allowed)
      process.stdout.write(verbose ? `${line(entry)}\n` : `  ${entry.kind.padEnd(8)} ${entry.file}\n`);
  }
  const notAllowed = report.missing.length + report.extra.length + report.changed.length;
  process.stdout.write(
    `\n${filesA.length} files in ${a}, ${filesB.length} in ${b}: ${report.missing.length} missing, ` +
      `${report.extra.length} extra, ${report.changed.length} changed, ${report.allowed.length} allowed\n`,
  );
  return notAllowed === 0 ? 0 : 1;
}

/** Where the OpenAPI document is kept. */
const OPENAPI_FILE = 'http/api/openapi.json/@';

/** The OpenAPI document without its methodology paths, as text; null when it is not JSON. */
function apiWithoutMethodology(bytes) {
  let doc;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  for (const path of Object.keys(doc.paths ?? {})) if (/^\/methodology(?:\/|$)/.test(path)) delete doc.paths[path];
  return JSON.stringify(doc);
}

function withoutMethodologyLinks(text) {
  return text.replace(METHODOLOGY_LINK, '/methodology');
}

/** A head file without its ETag line. */
function withoutEtag(bytes) {
  return bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => !line.startsWith('etag:'))
    .join('\n');
}

/** The URLs of urls.txt but the methodology's, sorted. */
function urlSetOf(bytes) {
  return bytes
    .toString('utf8')
    .split('\n')
    .filter((url) => url !== '' && !/^\/methodology(?:[/?#]|$)/.test(url))
    .sort()
    .join('\n');
}

async function main() {
  const { options, words } = parseArgs(process.argv.slice(2));
  if (options.compare) {
    if (words.length !== 2) throw new UsageError('--compare takes two snapshot folders');
    return compareSnapshots(resolve(words[0]), resolve(words[1]), options.verbose);
  }
  if (words.length !== 1) throw new UsageError('give the folder to write the snapshot to');
  await takeSnapshot(resolve(words[0]), options);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`demo-snapshot: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
