// Data for the page tests. Two sources, both read back through the real buildView:
// - the demo: the 14-server loopback fleet probed over a simulated month, folded and sealed by the real
//   code, then a few hours of "today" on top (agents' reports sent through POST /api/reports, and the hourly
//   file the scheduler writes), so the pages have stars, a live incident and a held-back failure to show;
// - small hand-written observatories (servers, catalogs and day files written as the scan writes them) for
//   the rules that need exact inputs: the distribution's appear date, hostile tool names, ranking marks.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shiftDay } from '@mcp-atlas/base';
import { hashTool, hashToolList } from '@mcp-atlas/findings';
import { generateKeyPair, type KeyPair } from '@mcp-atlas/history';
import { IDENTITY_RULES } from '@mcp-atlas/probe/rules';
import type { SeriesDay } from '@mcp-atlas/reliability';
import { classifyTools } from '@mcp-atlas/risk';
import type { Hono } from 'hono';
import { writeDaySeries } from '../src/data/day-series-file.js';
import {
  dayCatalogPath,
  dayChangesPath,
  dayIndexPath,
  dayShardPath,
  HOURLY_PATH,
  SERVERS_PATH,
  serverStatePath,
} from '../src/data/paths.js';
import type { Catalog, Change, ServerDayResult, ServerState } from '../src/data/schemas.js';
import { type DemoOutcome, runDemo } from '../src/demo/run-demo.js';
import { createHttpApp } from '../src/http/app.js';
import type { SiteAddress } from '../src/http/site-address.js';
import { createLogger } from '../src/log.js';
import { APP_VERSION, METHODOLOGY_VERSION } from '../src/methodology.js';
import { emptyServerState } from '../src/scan/fold-day.js';
import { DEMO_LICENSE_KEYS, demoLicenseValidator } from '../src/serve/serve-atlas.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { type AtlasView, buildView } from '../src/view/build-view.js';

/** The demo's clock: noon of the day after the simulated month, so "today" is not sealed yet. */
export const DEMO_NOW = new Date('2026-11-30T12:00:00Z');

/**
 * Simulated days. 31 rather than 30 so that the newest day has a change on the state page: the flaky file
 * share stops answering on it (it is down every fourth day, starting with the third).
 */
export const DEMO_DAYS = 31;

/** The demo site the page tests read. */
export interface DemoSite {
  outcome: DemoOutcome;
  storage: Storage;
  app: Hono;
  view(): AtlasView;
  /** Another app over the same data and read model, reached at `site` (its pages and snippets name it). */
  appAt(site: SiteAddress): Hono;
}

const HOUR_BEFORE = '2026-11-30T10:05:00.000Z';
const THIS_HOUR = '2026-11-30T11:05:00.000Z';

/** What "today" adds to the month, so every part of the server page has something real to show. */
export const DEMO_TODAY = {
  /** Stars: two paying agents (the demo's license keys) and one anonymous one report calls that worked. */
  rated: 'notes',
  /** A single failed hourly check after a good one: held back by the second-failure rule. */
  heldBack: 'weather',
  /** Two failed hourly checks in a row and two agents' failures: shown as down, with a live incident. */
  incident: 'files',
} as const;

async function sendReport(app: Hono, body: object, headers: Record<string, string>): Promise<void> {
  const response = await app.request('/api/reports', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`report refused: ${response.status} ${await response.text()}`);
}

/** Runs the demo month into a fresh folder and adds today's reports and hourly checks. */
export async function buildDemoSite(days: number = DEMO_DAYS): Promise<DemoSite> {
  const storage = createFsStorage(await mkdtemp(join(tmpdir(), 'atlas-pages-')));
  const outcome = await runDemo({ days, storage, now: DEMO_NOW, log: createLogger('silent') });
  // The month is probed; the fleet is not needed to serve what it left behind.
  await outcome.fleet.close();
  const failure = { letter: 'd', reason: 'timeout', notMcp: false, httpStatus: null };
  const answered = { letter: 'o', reason: 'ok', notMcp: false, httpStatus: null };
  await putJson(storage, HOURLY_PATH, {
    hour: '2026-11-30T11',
    results: {
      [DEMO_TODAY.heldBack]: { ...failure, at: THIS_HOUR, previous: { ...answered, at: HOUR_BEFORE } },
      [DEMO_TODAY.incident]: { ...failure, at: THIS_HOUR, previous: { ...failure, at: HOUR_BEFORE } },
    },
  });
  let view = await buildView(storage, DEMO_NOW);
  const appAt = (site?: SiteAddress) =>
    createHttpApp({
      ...(site !== undefined ? { site } : {}),
      getView: () => view,
      storage,
      publicKey: outcome.keys.publicKey,
      now: () => DEMO_NOW,
      appVersion: APP_VERSION,
      methodologyVersion: METHODOLOGY_VERSION,
      botUserAgent: IDENTITY_RULES.userAgent,
      validateLicense: demoLicenseValidator,
      reporterSecret: new Uint8Array(32).fill(9),
      // Anonymous agents are told apart by network; the tests name their networks in X-Forwarded-For.
      trustedProxyHops: 1,
    });
  const app = appAt();
  const [paidOne, paidTwo] = [...DEMO_LICENSE_KEYS];
  const worked = { server: DEMO_TODAY.rated, tool: 'list_notes', ok: true, ms: 420 };
  await sendReport(app, worked, { 'x-mcp-atlas-license': paidOne!, 'x-forwarded-for': '192.0.2.10' });
  await sendReport(app, worked, { 'x-mcp-atlas-license': paidTwo!, 'x-forwarded-for': '192.0.2.11' });
  await sendReport(app, worked, { 'x-forwarded-for': '198.51.100.7' });
  const failed = { server: DEMO_TODAY.incident, tool: 'list_files', ok: false, reason: 'timeout' };
  await sendReport(app, failed, { 'x-forwarded-for': '203.0.113.20' });
  await sendReport(app, failed, { 'x-forwarded-for': '198.18.0.30' });
  // Reports count from the next rebuild of the read model, as in the service.
  view = await buildView(storage, DEMO_NOW);
  return { outcome, storage, app, view: () => view, appAt };
}

// ------------------------------------------------------------------------------------------------
// Hand-written observatories
// ------------------------------------------------------------------------------------------------

/** One server of a hand-written observatory. */
export interface HandServer {
  id: string;
  title?: string;
  /** Where it is watched; https://<id>.example.test/mcp unless given. */
  url?: string;
  /** Daily letters, oldest first; the last one is the newest day's. */
  letters: string;
  tools?: unknown[];
  category?: string | null;
  notStandardMcp?: boolean;
  findings?: ServerDayResult['findings'];
  handshakeMs?: number;
}

/** The newest letter that is not `n`, which is what the day's result records. */
function newestLetter(letters: string): 'o' | 'a' | 'p' | 'd' | null {
  const last = letters.at(-1);
  return last === 'o' || last === 'a' || last === 'p' || last === 'd' ? last : null;
}

function resultOf(server: HandServer, url: string): ServerDayResult | null {
  const letter = newestLetter(server.letters);
  if (letter === null) return null;
  const tools = server.tools ?? [];
  return {
    id: server.id,
    url,
    letter,
    reason: letter === 'o' ? 'ok' : 'http-error',
    message: letter === 'o' ? 'answered with tools' : 'did not answer with tools',
    notStandardMcp: server.notStandardMcp === true,
    protocolVersion: letter === 'o' ? '2025-06-18' : null,
    serverName: server.title ?? server.id,
    serverVersion: '1.0.0',
    elapsedMs: server.handshakeMs ?? 200,
    steps: [],
    toolCount: tools.length,
    toolsHash: letter === 'o' ? hashToolList(tools) : null,
    tokens: letter === 'o' ? Math.round(JSON.stringify(tools).length / 4) : null,
    findings: server.findings ?? [],
    highRiskTools: classifyTools(tools).filter((v) => v.level === 'high-risk').length,
    paymentAddress: null,
    redirect: null,
    category: letter === 'o' ? (server.category ?? null) : null,
  };
}

function catalogOf(server: HandServer, day: string): Catalog {
  const tools = server.tools ?? [];
  const verdicts = classifyTools(tools);
  return {
    id: server.id,
    day,
    toolsHash: hashToolList(tools),
    serverVersion: '1.0.0',
    tools,
    verdicts: tools.map((tool, i) => ({
      name: String((tool as { name: unknown }).name),
      hash: hashTool(tool),
      level: verdicts[i]!.level,
      rule: verdicts[i]!.rule,
      raised: verdicts[i]!.raised,
      reason: verdicts[i]!.reason,
    })),
  };
}

/**
 * Writes `servers` as one scanned day (index, shard, catalogs, changes) with their rolling states, the way
 * the scan and the fold leave them, and returns the storage.
 */
export async function writeHandObservatory(
  day: string,
  servers: readonly HandServer[],
  changes: Change[] = [],
  storage: Storage = createMemoryStorage(),
): Promise<Storage> {
  const byId = new Map(servers.map((s) => [s.id, s]));
  const urlOf = (id: string) => byId.get(id)?.url ?? `https://${id}.example.test/mcp`;
  await putJson(storage, SERVERS_PATH, {
    servers: servers.map((s) => ({
      id: s.id,
      url: urlOf(s.id),
      ...(s.title !== undefined ? { title: s.title } : {}),
      source: 'registry',
    })),
  });
  await putJson(storage, dayIndexPath(day), {
    day,
    methodologyVersion: METHODOLOGY_VERSION,
    shards: 1,
    servers: servers.map((s) => ({ id: s.id, url: urlOf(s.id), shard: 0 })),
  });
  const results = servers.flatMap((s) => {
    const result = resultOf(s, urlOf(s.id));
    return result === null ? [] : [result];
  });
  await putJson(storage, dayShardPath(day, 0), { day, shard: 0, results });
  await putJson(storage, dayChangesPath(day), { day, changes });
  for (const server of servers) {
    const letter = newestLetter(server.letters);
    const withTools = letter === 'o' && server.tools !== undefined;
    if (withTools) await putJson(storage, dayCatalogPath(day, server.id), catalogOf(server, day));
    const state: ServerState = {
      ...emptyServerState({
        id: server.id,
        url: urlOf(server.id),
        ...(server.title !== undefined ? { title: server.title } : {}),
      }),
      letters: server.letters,
      lastDay: server.letters.length > 0 ? day : null,
      lastLetter: letter,
      lastHandshakeMs: server.handshakeMs ?? 200,
      lastCatalogDay: withTools ? day : null,
      toolsHash: withTools ? hashToolList(server.tools!) : null,
    };
    await putJson(storage, serverStatePath(server.id), state);
  }
  return storage;
}

/** Tool names, a title and texts that would run script or break out of an attribute if written raw. */
export const HOSTILE_SERVER: HandServer = {
  id: 'hostile',
  title: '<img src=x onerror=alert(1)>Hostile & Co',
  letters: 'o'.repeat(20),
  category: 'search',
  tools: [
    {
      name: '<script>alert(2)</script>',
      description: '"><svg onload=alert(3)>',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'x" onmouseover="alert(4)',
      description: '</textarea></code><script>alert(5)</script> finds things',
      inputSchema: { type: 'object' },
    },
  ],
  findings: [{ id: 'missing-schema', message: '<b onclick=alert(6)>bold</b>', tools: ['<script>alert(2)</script>'] }],
};

/** The hostile server's change of the day, with hostile tool names in its diff. */
export const HOSTILE_CHANGES: Change[] = [
  {
    serverId: 'hostile',
    kind: 'tools',
    detail: '<script>alert(7)</script>',
    diff: {
      added: ['<script>alert(2)</script>'],
      removed: [],
      changed: [],
      rewritten: [],
      riskRises: [{ name: '<iframe src=javascript:alert(8)>', from: null, to: 'high-risk' }],
      renamed: [{ from: '<marquee>', to: '<blink>' }],
      silent: false,
    },
  },
];

let sharedKeys: Promise<KeyPair> | null = null;

/** The app over `storage`, its view built at `now`. */
export async function appOver(storage: Storage, now: Date): Promise<{ app: Hono; view: AtlasView }> {
  sharedKeys ??= generateKeyPair();
  const view = await buildView(storage, now);
  const app = createHttpApp({
    getView: () => view,
    storage,
    publicKey: (await sharedKeys).publicKey,
    now: () => now,
    appVersion: APP_VERSION,
    methodologyVersion: METHODOLOGY_VERSION,
    botUserAgent: IDENTITY_RULES.userAgent,
    validateLicense: async () => false,
    reporterSecret: new Uint8Array(32).fill(5),
  });
  return { app, view };
}

/** GETs a path from the app and returns the status, headers and text. */
export async function getPage(app: Hono, path: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await app.request(path);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/**
 * Bytes a page may weigh: 100 KB for every page, lists, server pages and each methodology page alike (the
 * methodology is one page per area, so no page carries the whole text).
 */
export const PAGE_BUDGET_BYTES = 100 * 1024;

/** The day the series observatory's server was last folded. */
export const SERIES_DAY = '2026-11-29';

/**
 * One server with a full 90-day day series file, as 90 daily folds would leave it (the same shape and rules:
 * every day before the newest closed, the newest open), and five-minute pairs on its last 10 days. Its days, by
 * how many days before SERIES_DAY they are: 75 to 71 are missing (the server was off the map), 40 and 12 are
 * down, 30 is `n` (the cost cap), the rest answer. Handshake times follow a weekly wave; the newest ten days'
 * five-minute checks make day 3 partial (280 of 288) and the others whole.
 */
export async function writeSeriesObservatory(storage: Storage = createMemoryStorage()): Promise<Storage> {
  await writeHandObservatory(
    SERIES_DAY,
    [{ id: 'steady', title: 'Steady Notes', letters: 'o'.repeat(30), handshakeMs: 180 }],
    [],
    storage,
  );
  const series: SeriesDay[] = [];
  for (let back = 89; back >= 0; back--) {
    if (back >= 71 && back <= 75) continue;
    const day = shiftDay(SERIES_DAY, -back);
    const letter = back === 40 || back === 12 ? 'd' : back === 30 ? 'n' : 'o';
    const wave = Math.round(60 * Math.sin((back / 7) * Math.PI));
    const dailyMs = letter === 'o' ? 180 + wave : null;
    const handshake =
      letter === 'n' ? null : { p50Ms: 160 + wave, p95Ms: 420 + 2 * wave + (back % 5) * 30, samples: 25 };
    series.push(back === 0 ? { day, letter, dailyMs } : { day, letter, dailyMs, handshake });
  }
  const fiveMinute = Array.from({ length: 10 }, (_, i) => {
    const back = 9 - i;
    return { day: shiftDay(SERIES_DAY, -back), answered: back === 3 ? 280 : 288, checks: 288 };
  });
  const path = serverStatePath('steady');
  const state = (await getJson(storage, path)) as ServerState;
  await putJson(storage, path, { ...state, fiveMinute });
  await writeDaySeries(storage, 'steady', series);
  return storage;
}
