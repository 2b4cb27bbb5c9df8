// The short-lived stores of the methodology's retention list, filled by the service through its real HTTP
// surface (badge sightings, page and widget views, refused sensor requests, ask and daily-call markers, the
// MCP call log), the state and monthly reports written by the aggregates, and each store's retention at its
// limit. Nothing personal may be in any of them: no address, user agent, referrer or license key.

import { RETENTION_RULES } from '@mcp-atlas/operations/rules';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  askMarkersPath,
  badgeSightingsPath,
  dailyCallMarkersPath,
  mcpCallLogPath,
  monthlyReportPath,
  refusedSensorRequestsPath,
  viewCountsPath,
} from '../src/data/paths.js';
import { aggregateStateDay, writeDueAggregates } from '../src/demand/aggregates.js';
import { createDayCounter, DAY_COUNT_MAX_KEYS, OVERFLOW_KEY, sumDayCounts } from '../src/demand/day-counts.js';
import { clientNameOf, countryOf, McpCallLineSchema } from '../src/http/mcp-call-log.js';
import { createLogger } from '../src/log.js';
import { pageSightingOf } from '../src/pages/routes.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { enforceRetention } from '../src/serve/retention.js';
import { type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { dumpStorage, FIXTURE_NOW, TODAY, writeFixture } from './fixtures/http-atlas.js';
import { waitFor } from './setup/wait-for.js';

const log = createLogger('silent');
const SECRET_AGENT = 'probe-agent/7.1 (contains-a-secret-detail-xyz)';
const REFERRER = 'https://referrer.example.test/secret-page';
/** Strings that must never be stored by these stores. */
const PERSONAL = [
  '127.0.0.1',
  '203.0.113.',
  'contains-a-secret-detail-xyz',
  'referrer.example.test',
  'demo-paid-license',
];
const STORE_PREFIXES = ['badge-sightings/', 'views/', 'sensors-refused/', 'markers/', 'mcp-calls/'];

let running: RunningAtlas | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

async function serveFixture(
  options: { trustedProxyHops?: number } = {},
): Promise<{ atlas: RunningAtlas; storage: Storage }> {
  const { storage } = await writeFixture();
  const keys = await loadOrCreateSigningKeys(storage, FIXTURE_NOW);
  running = await serveAtlas({ storage, port: 0, log, keys, now: () => FIXTURE_NOW, handleSignals: false, ...options });
  return { atlas: running, storage };
}

/** The one writer file of a store's day folder, parsed. */
async function countsIn(storage: Storage, folder: string): Promise<Record<string, number>> {
  return (await sumDayCounts(storage, folder)).counts;
}

/** The text of every file of the listed stores, for the "nothing personal" checks. */
async function storeTexts(storage: Storage): Promise<string> {
  const files = await dumpStorage(storage);
  return [...files]
    .filter(([path]) => STORE_PREFIXES.some((prefix) => path.startsWith(prefix)))
    .map(([, text]) => text)
    .join('\n');
}

const get = (atlas: RunningAtlas, path: string) =>
  fetch(`${atlas.url}${path}`, { headers: { 'user-agent': SECRET_AGENT, referer: REFERRER } });

describe('badge sightings and page and widget views', () => {
  it('are counted per day and page or server from answers with status 200, batched, and hold nothing personal', async () => {
    const { atlas, storage } = await serveFixture();
    for (const path of [
      '/badge/notes-hub.svg',
      '/badge/notes-hub.svg',
      '/badge/weather-desk.svg',
      '/badge/nobody.svg',
      '/',
      '/',
      '/servers/notes-hub',
      '/widget/notes-hub',
      '/widget/nobody',
      '/reliable',
    ]) {
      await (await get(atlas, path)).arrayBuffer();
    }
    // Batched: nothing is written per request; the counts wait for the minute's flush (or shutdown).
    expect(await storage.list('badge-sightings/')).toEqual([]);
    expect(await storage.list('views/')).toEqual([]);
    await atlas.close();
    running = null;
    expect(await countsIn(storage, `badge-sightings/${TODAY}/`)).toEqual({ 'notes-hub': 2, 'weather-desk': 1 });
    expect(await countsIn(storage, `views/${TODAY}/`)).toEqual({
      state: 2,
      'server:notes-hub': 1,
      'widget:notes-hub': 1,
      reliable: 1,
    });
    const [badgeFile] = await storage.list(`badge-sightings/${TODAY}/`);
    expect(badgeFile).toMatch(new RegExp(`^${badgeSightingsPath(TODAY, 'w-[0-9a-f]{12}').replace(/[.]/g, '\\.')}$`));
    expect((await storage.list(`views/${TODAY}/`))[0]).toMatch(/^views\/2026-12-01\/w-[0-9a-f]{12}\.json$/);
    const texts = await storeTexts(storage);
    for (const personal of PERSONAL) expect(texts).not.toContain(personal);
    expect(viewCountsPath(TODAY, 'w')).toBe('views/2026-12-01/w.json');
  });

  it('read only the path of a page', () => {
    expect(pageSightingOf('/badge/notes-hub.svg')).toEqual({ kind: 'badge', key: 'notes-hub' });
    expect(pageSightingOf('/badge/notes-hub.png')).toBeNull();
    expect(pageSightingOf('/widget/notes-hub')).toEqual({ kind: 'view', key: 'widget:notes-hub' });
    expect(pageSightingOf('/servers')).toEqual({ kind: 'view', key: 'servers' });
    expect(pageSightingOf('/api/servers/notes-hub')).toBeNull();
    expect(pageSightingOf('/servers/Not%20An%20Id')).toBeNull();
  });
});

describe('refused sensor requests', () => {
  it('are counted per day by refusal reason, with no address', async () => {
    const { atlas, storage } = await serveFixture({ trustedProxyHops: 1 });
    const post = (body: unknown) =>
      fetch(`${atlas.url}/api/sensors`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
        body: JSON.stringify(body),
      });
    expect((await post({ sensor: 'gw-one', outcomes: [], extra: 'field' })).status).toBe(400);
    expect(
      (await post({ sensor: 'Bad Id!', outcomes: [{ server: 'notes-hub', ok: true, at: '2026-12-01T09:00:00Z' }] }))
        .status,
    ).toBe(400);
    expect(
      (await post({ sensor: 'gw-one', outcomes: [{ server: 'notes-hub', ok: true, at: '2026-12-01T09:00:00Z' }] }))
        .status,
    ).toBe(201);
    await atlas.close();
    running = null;
    expect(await countsIn(storage, refusedSensorRequestsPath(TODAY, 'x').replace(/x\.json$/, ''))).toEqual({
      invalid_body: 2,
    });
    const texts = await storeTexts(storage);
    for (const personal of PERSONAL) expect(texts).not.toContain(personal);
  });
});

describe('the MCP call log, ask markers and daily-call markers', () => {
  async function callTools(atlas: RunningAtlas, headers: Record<string, string>): Promise<void> {
    const client = new Client({ name: 'probe-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${atlas.url}/mcp`), {
      requestInit: { headers: { 'user-agent': SECRET_AGENT, ...headers } },
    });
    await client.connect(transport);
    try {
      await client.callTool({ name: 'find_tool', arguments: { query: 'list notes' } });
      await client.callTool({ name: 'route', arguments: { task: 'list my tickets' } });
    } finally {
      await client.close();
    }
  }

  /** The day's MCP call log once it holds `count` lines: it is appended as calls come, not awaited by the answer. */
  async function readCallLog(storage: Storage, count: number): Promise<string> {
    let text = '';
    await waitFor(`the call log holds ${count} lines`, async () => {
      text = new TextDecoder().decode((await storage.get(mcpCallLogPath(TODAY))) ?? new Uint8Array());
      return text.split('\n').filter(Boolean).length >= count;
    });
    return text;
  }

  it('log each tool call (tool, time, client name, country unknown without a trusted proxy, keyed agent) and count markers', async () => {
    const { atlas, storage } = await serveFixture();
    await callTools(atlas, { 'cf-ipcountry': 'DE' });
    const text = await readCallLog(storage, 2);
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((line) => McpCallLineSchema.parse(JSON.parse(line)));
    expect(lines.map((l) => l.tool)).toEqual(['find_tool', 'route']);
    for (const line of lines) {
      expect(line).toMatchObject({ at: FIXTURE_NOW.toISOString(), client: 'probe-agent', country: 'unknown' });
      expect(line.agent).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(lines[0]?.agent).toBe(lines[1]?.agent);
    await atlas.close();
    running = null;
    // One ask marker per server named in an answer; one daily-call marker count per call of the agent.
    const asks = await countsIn(storage, askMarkersPath(TODAY, 'x').replace(/x\.json$/, ''));
    expect(asks['notes-hub']).toBeGreaterThanOrEqual(1);
    expect(asks['ticket-yard']).toBeGreaterThanOrEqual(1);
    expect(await countsIn(storage, dailyCallMarkersPath(TODAY, 'x').replace(/x\.json$/, ''))).toEqual({
      [lines[0]!.agent]: 2,
    });
    const texts = await storeTexts(storage);
    for (const personal of PERSONAL) expect(texts).not.toContain(personal);
  });

  it('take the country from the CDN header only behind a trusted proxy', async () => {
    const { atlas, storage } = await serveFixture({ trustedProxyHops: 1 });
    await callTools(atlas, { 'cf-ipcountry': 'de', 'x-forwarded-for': '203.0.113.7' });
    const text = await readCallLog(storage, 2);
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).country),
    ).toEqual(['DE', 'DE']);
    expect(text).not.toContain('203.0.113.7');
  });

  it('name the client from clientInfo first, else the User-Agent product, and keep countries to two letters', () => {
    expect(clientNameOf('claude-code', 'other/1.0')).toBe('claude-code');
    expect(clientNameOf(undefined, 'cursor/0.42 (Macintosh; secret)')).toBe('cursor');
    expect(clientNameOf('<script>', null)).toBe('script');
    expect(clientNameOf(undefined, null)).toBe('unknown');
    expect(countryOf(new Headers({ 'cf-ipcountry': 'fr' }), 0)).toBe('unknown');
    expect(countryOf(new Headers({ 'cf-ipcountry': 'fr' }), 1)).toBe('FR');
    expect(countryOf(new Headers({ 'cf-ipcountry': 'France' }), 1)).toBe('unknown');
  });
});

describe('state and monthly reports', () => {
  it('sum a finished day’s check by letter, tools and findings, and a closed month from its days', async () => {
    const { storage } = await writeFixture();
    expect(await aggregateStateDay(storage, '2026-11-30')).toEqual({
      day: '2026-11-30',
      servers: 6,
      letters: { o: 3, a: 1, p: 1, d: 1, n: 0 },
      tools: 8,
      highRiskTools: 2,
      findings: { 'no-annotations': 1 },
    });
    // 30 November closes at 00:05 on 1 December, and with it November.
    expect(await writeDueAggregates(storage, new Date('2026-12-01T00:04:59.000Z'))).toEqual([
      'aggregates/state/2026-11-28.json',
      'aggregates/state/2026-11-29.json',
    ]);
    expect(await writeDueAggregates(storage, new Date('2026-12-01T00:05:00.000Z'))).toEqual([
      'aggregates/state/2026-11-30.json',
      'aggregates/monthly/2026-11.json',
    ]);
    expect(await getJson(storage, 'aggregates/monthly/2026-11.json')).toEqual({
      month: '2026-11',
      days: 3,
      letters: { o: 9, a: 3, p: 3, d: 3, n: 0 },
      serversAtEnd: 6,
      toolsAtEnd: 8,
      findings: { 'no-annotations': 3 },
      routedTasks: 0,
      sensorOutcomes: 0,
      distinctAgents: 0,
      agentDays: 0,
    });
    // Written once, never rewritten.
    expect(await writeDueAggregates(storage, new Date('2026-12-03T00:00:00.000Z'))).toEqual([]);
  });
});

describe('retention of the filled stores at their limits', () => {
  const stores = [
    { name: 'badge sightings', pathOf: badgeSightingsPath, limit: RETENTION_RULES.days.badgeSightings },
    { name: 'page and widget views', pathOf: viewCountsPath, limit: RETENTION_RULES.days.viewCounts },
    {
      name: 'refused sensor requests',
      pathOf: refusedSensorRequestsPath,
      limit: RETENTION_RULES.days.refusedSensorRequests,
    },
    { name: 'ask markers', pathOf: askMarkersPath, limit: RETENTION_RULES.days.askMarkers },
  ];
  const plusDays = (day: string, days: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  for (const store of stores) {
    it(`keeps ${store.name} ${store.limit - 1} days on and deletes them on day ${store.limit}`, async () => {
      const storage = createMemoryStorage();
      const counter = createDayCounter({
        storage,
        now: () => new Date('2026-09-10T12:00:00Z'),
        pathOf: store.pathOf,
        writer: 'w-test',
      });
      counter.add('notes-hub');
      await counter.flush();
      const path = store.pathOf('2026-09-10', 'w-test');
      expect(await storage.list('')).toEqual([path]);
      expect(await enforceRetention(storage, plusDays('2026-09-10', store.limit - 1))).toEqual([]);
      expect(await enforceRetention(storage, plusDays('2026-09-10', store.limit))).toEqual([path]);
    });
  }

  it("keeps daily-call markers 7 days, all of the current month, and until their month's report exists", async () => {
    const storage = createMemoryStorage();
    const counter = createDayCounter({
      storage,
      now: () => new Date('2026-10-01T12:00:00Z'),
      pathOf: dailyCallMarkersPath,
      writer: 'w-test',
    });
    counter.add('agent-a');
    await counter.flush();
    expect(await enforceRetention(storage, '2026-10-07')).toEqual([]);
    expect(await enforceRetention(storage, '2026-10-31')).toEqual([]);
    // October is over, but its monthly report (which counts distinct agents from these markers) is not written yet.
    expect(await enforceRetention(storage, '2026-11-01')).toEqual([]);
    await putJson(storage, monthlyReportPath('2026-10'), { month: '2026-10' });
    expect(await enforceRetention(storage, '2026-11-01')).toEqual(['markers/daily-calls/2026-10-01/w-test.json']);
  });
});

describe('the batched counter', () => {
  it('writes at most once per interval, and caps the keys of a day', async () => {
    const storage = createMemoryStorage();
    let puts = 0;
    const counted: Storage = { ...storage, put: async (path, bytes) => void (puts++, await storage.put(path, bytes)) };
    const counter = createDayCounter({
      storage: counted,
      now: () => new Date('2026-12-01T12:00:00Z'),
      pathOf: viewCountsPath,
      writer: 'w-cap',
      flushIntervalMs: 50,
    });
    for (let i = 0; i < DAY_COUNT_MAX_KEYS + 10; i++) counter.add(`k${i}`);
    expect(puts).toBe(0);
    // One put once the interval has passed, however late the timer fires.
    await waitFor('the counter writes', () => puts > 0);
    expect(puts).toBe(1);
    const counts = await countsIn(storage, 'views/2026-12-01/');
    expect(Object.keys(counts)).toHaveLength(DAY_COUNT_MAX_KEYS + 1);
    expect(counts[OVERFLOW_KEY]).toBe(10);
    await counter.flush();
  });
});
