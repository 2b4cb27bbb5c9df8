import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DOCUMENT_RULES } from '@mcp-atlas/probe/rules';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandDemo } from '../src/commands/demo.js';
import { robotsOutDayFor } from '../src/demo/fleet.js';
import { type DemoOutcome, runDemo, simulatedDays } from '../src/demo/run-demo.js';
import { createLogger } from '../src/log.js';
import { type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { createFsStorage } from '../src/storage/fs-storage.js';

const DAYS = 30;
let outcome: DemoOutcome;
let running: RunningAtlas;
let dataDir: string;
// The demo places its live incident, reports and five-minute checks in the hours before the time it serves
// at, and the served read model reads the real clock: the test runs the demo at the real time, as the CLI does.
const startedAt = new Date();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'atlas-demo-'));
  const storage = createFsStorage(dataDir);
  const log = createLogger('silent');
  outcome = await runDemo({ days: DAYS, storage, now: startedAt, log });
  running = await serveAtlas({
    storage,
    port: 0,
    log,
    keys: outcome.keys,
    handleSignals: false,
    onClose: () => outcome.fleet.close(),
  });
});

afterAll(async () => {
  await running?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

const getJson = async <T>(path: string): Promise<T> => (await (await fetch(`${running.url}${path}`)).json()) as T;

describe('mcp-atlas demo, end to end', () => {
  it('simulates the month before the injected clock’s day', () => {
    expect(outcome.days).toHaveLength(DAYS);
    expect(simulatedDays(new Date('2026-11-30T12:00:00Z'), DAYS)[0]).toBe('2026-10-31');
    expect(simulatedDays(new Date('2026-11-30T12:00:00Z'), DAYS).at(-1)).toBe('2026-11-29');
    expect(outcome.days).toEqual(simulatedDays(startedAt, DAYS));
  });

  it('gives every watched fleet member the letter it should have on every day it was checked', () => {
    for (const member of outcome.fleet.members.filter((m) => m.watched)) {
      const expected = outcome.days.map((_, i) => member.expectedLetter(i)).join('');
      expect(outcome.letters.get(member.id), member.id).toBe(expected);
    }
  });

  it('seals every day into a chain that verifies with node:crypto alone', async () => {
    expect(outcome.chain).toMatchObject({ ok: true });
    const wellKnown = (await (await fetch(`${running.url}/.well-known/mcp-atlas.json`)).json()) as {
      integrity: { public_key_pem: string };
    };
    let previous: string | null = null;
    for (const day of outcome.days) {
      const record = (await (await fetch(`${running.url}/api/maps?a=root&day=${day}`)).json()) as {
        root: string;
        previous_root: string | null;
        files: string[];
        signature: string;
      };
      const root = createHash('sha256')
        .update(`${record.previous_root || ''}\n${record.files.join('\n')}`)
        .digest('hex');
      const ok = verify(
        null,
        Buffer.from(record.root, 'hex'),
        createPublicKey(wellKnown.integrity.public_key_pem),
        Buffer.from(record.signature, 'base64'),
      );
      expect(root === record.root && ok ? 'verified' : 'mismatch', day).toBe('verified');
      expect(record.previous_root).toBe(previous);
      previous = record.root;
    }
  });

  it('answers the API with each server on the map, its letters and its findings', async () => {
    const body = (await (await fetch(`${running.url}/api/servers`)).json()) as {
      servers: { id: string; letters: string; letter: string }[];
    };
    const onMap = outcome.fleet.members.filter((m) => m.watched && m.kind !== 'robots-out');
    expect(body.servers.map((s) => s.id).sort()).toEqual(onMap.map((m) => m.id).sort());
    const translate = (await (await fetch(`${running.url}/api/servers/translate`)).json()) as {
      findings: { id: string }[];
    };
    expect(translate.findings.map((f) => f.id)).toContain('slow');
    const tickets = (await (await fetch(`${running.url}/api/servers/tickets`)).json()) as {
      changes: unknown[];
      incident: { shown: boolean };
      rating: { shown: boolean; stars: number | null };
    };
    expect(JSON.stringify(tickets.changes)).toContain('delete_ticket');
    // No agent has reported yet: no incident, and no stars until enough reporters.
    expect(tickets.incident.shown).toBe(false);
    expect(tickets.rating).toMatchObject({ shown: false, stars: null });
  });

  it('never calls a tool and never sends a credential to a server it checks', () => {
    const received = outcome.fleet.received;
    expect(received.length).toBeGreaterThan(DAYS * outcome.fleet.members.length);
    const methods = new Set(received.flatMap((r) => r.rpcMethods));
    for (const method of methods) expect(['initialize', 'notifications/initialized', 'tools/list']).toContain(method);
    expect(methods.has('tools/call')).toBe(false);
    expect(received.filter((r) => r.credentialHeaders.length > 0)).toEqual([]);
    // Nor with robots.txt, the well-known files or an owner's token file.
    expect(outcome.fleet.otherReceived.length).toBeGreaterThan(DAYS * outcome.servers.length);
    expect(outcome.fleet.otherReceived.filter((r) => r.credentialHeaders.length > 0 || r.httpMethod !== 'GET')).toEqual(
      [],
    );
  });

  it('answers a real SDK client on its MCP endpoint', async () => {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['find_tool', 'report_road', 'route', 'submit_mcp_server']);
    await client.close();
  });

  it('shows a live incident on a server whose newest daily letter is o but which failed its last hourly checks', async () => {
    const inbox = await getJson<{
      letter: string;
      letters: string;
      status: { state: string | null };
      incident: { shown: boolean; confirmedBy: string[]; failingReporters: number };
    }>('/api/servers/inbox');
    expect(inbox.letter).toBe('o');
    // Its last two hourly checks failed in a row, after the daily check: shown as down under the second-failure rule.
    expect(inbox.status.state).toBe('down');
    expect(inbox.letters.at(-1)).toBe('o');
    expect(inbox.incident.shown).toBe(true);
    // Confirmed both ways: our hourly checks saw HTTP 503, and a paying agent reported the failure.
    expect([...inbox.incident.confirmedBy].sort()).toEqual(['own_check', 'paid_reporter']);
    expect(inbox.incident.failingReporters).toBe(4);
    // The route sets it aside while the incident lasts.
    const route = await getJson<{ picks: { serverId: string }[]; setAside: { serverId: string; reason: string }[] }>(
      '/api/route?task=read a mail message',
    );
    expect(route.picks.map((p) => p.serverId)).not.toContain('inbox');
    expect(route.setAside.find((s) => s.serverId === 'inbox')?.reason).toMatch(/incident/);
    expect(outcome.highlights.incidents.map((i) => i.id)).toEqual(['inbox']);
  });

  it('shows agents’ ratings on the servers agents reported on over the month', async () => {
    for (const id of ['weather', 'ledger', 'files']) {
      const server = await getJson<{ rating: { shown: boolean; stars: number | null; reporters: number } }>(
        `/api/servers/${id}`,
      );
      expect(server.rating.shown, id).toBe(true);
      expect(server.rating.reporters, id).toBe(4);
      expect(server.rating.stars, id).toBeGreaterThan(1);
    }
    // A server no agent reported on has no visible rating.
    const maps = await getJson<{ rating: { shown: boolean } }>('/api/servers/maps');
    expect(maps.rating.shown).toBe(false);
    expect(outcome.highlights.rated.map((r) => r.id)).toEqual(expect.arrayContaining(['weather', 'ledger', 'files']));
  });

  it('shows the owner who proved control through the token file, with a note and five-minute checks', async () => {
    const maps = await getJson<{
      owner: { note: { text: string } | null; fiveMinuteChecks: boolean; origin: string } | null;
      uptime: { source: string; value: number | null };
    }>('/api/servers/maps');
    expect(maps.owner).not.toBeNull();
    expect(maps.owner?.fiveMinuteChecks).toBe(true);
    expect(maps.owner?.note?.text).toMatch(/demo maps team/);
    expect(maps.owner?.origin).toBe(new URL(outcome.fleet.members.find((m) => m.id === 'maps')!.publicUrl).origin);
    // The token file was really read on the member's origin (twice: verification and the settings change).
    expect(
      outcome.fleet.otherReceived.filter((r) => r.member === 'maps' && r.path === DOCUMENT_RULES.verifyTokenPath),
    ).toHaveLength(2);
    // Real five-minute checks since the owner opted in (yesterday evening), all answered: the uptime counts them.
    expect(maps.uptime).toMatchObject({ source: 'five_minute', value: 100 });
  });

  it('leaves out the server whose robots.txt shuts bots out: off lists, search and route, named with its reason', async () => {
    const list = await getJson<{ servers: { id: string }[] }>('/api/servers');
    expect(list.servers.map((s) => s.id)).not.toContain('recipes');
    const search = await getJson<unknown>('/api/toolsearch?q=recipe ingredient');
    expect(JSON.stringify(search)).not.toMatch(/recipes|search_recipes/);
    const route = await getJson<unknown>('/api/route?task=find a recipe with an ingredient');
    expect(JSON.stringify(route)).not.toMatch(/recipes|search_recipes/);
    const recipes = await getJson<{ leftOut: { reason: string } | null; letters: string }>('/api/servers/recipes');
    expect(recipes.leftOut?.reason).toBe('robots');
    // It answered every day until its robots.txt changed, and was never checked after.
    const member = outcome.fleet.members.find((m) => m.id === 'recipes')!;
    expect(recipes.letters).toBe(outcome.days.map((_, i) => member.expectedLetter(i) ?? '').join(''));
    expect(recipes.letters.length).toBe(robotsOutDayFor(DAYS));
    // Our bot read its robots.txt each day, and never sent it an MCP request from that day on.
    const robotsReads = outcome.fleet.otherReceived.filter((r) => r.member === 'recipes' && r.path === '/robots.txt');
    expect(new Set(robotsReads.map((r) => r.day))).toEqual(new Set(Array.from({ length: DAYS + 1 }, (_, i) => i)));
    expect(outcome.fleet.received.filter((r) => r.member === 'recipes' && r.day >= robotsOutDayFor(DAYS))).toEqual([]);
    expect(outcome.highlights.leftOut).toEqual([{ id: 'recipes', reason: 'robots' }]);
  });

  it('shows the gateway guard and the directory factor in the route’s factors', async () => {
    type RouteAnswer = { picks: { serverId: string; factors: { guard: number; directory: number } }[] };
    const weather = await getJson<RouteAnswer>('/api/route?task=get the weather forecast for a city');
    const weatherPick = weather.picks.find((p) => p.serverId === 'weather');
    expect(weatherPick?.factors.directory).toBe(1.15);
    const calendar = await getJson<RouteAnswer>('/api/route?task=create a calendar event');
    const calendarPick = calendar.picks.find((p) => p.serverId === 'calendar');
    expect(calendarPick?.factors.guard).toBe(0.7);
  });

  it('keeps the submitted server in its observation week, checked by real probes', async () => {
    const [submitted] = outcome.highlights.submitted;
    expect(submitted?.member).toBe('currency');
    const answer = await getJson<{ status: string; soFar: { checks: number; answered: number } | null }>(
      `/api/submissions/${submitted!.id}`,
    );
    expect(answer.status).toBe('observing');
    // Submitted 3.5 days ago, checked every 6 hours: 14 or 15 slots so far, each answered.
    expect(answer.soFar?.checks).toBeGreaterThanOrEqual(14);
    expect(answer.soFar?.answered).toBe(answer.soFar?.checks);
    const currency = outcome.fleet.members.find((m) => m.id === 'currency')!;
    expect(
      outcome.fleet.received.filter((r) => r.member === 'currency' && r.rpcMethods.includes('tools/list')).length,
    ).toBe(answer.soFar?.checks);
    // Not on the map until its observation admits it.
    const list = await getJson<{ servers: { id: string }[] }>('/api/servers');
    expect(list.servers.map((s) => s.id)).not.toContain(currency.id);
  });

  it('lists the submitted server apart, as in observation, in the API and on the pages, and nowhere on the map', async () => {
    const [submitted] = outcome.highlights.submitted;
    const currency = outcome.fleet.members.find((m) => m.id === 'currency')!;
    const detail = await getJson<{ soFar: { checks: number; answered: number } }>(`/api/submissions/${submitted!.id}`);
    const list = await getJson<{
      servers: { id: string; url: string }[];
      observing: {
        id: string;
        url: string;
        name: string | null;
        checks: number;
        answered: number;
        answeredPercent: number | null;
        window: { end: string };
      }[];
    }>('/api/servers');
    expect(list.observing.map((o) => o.id)).toEqual([submitted!.id]);
    const [observing] = list.observing;
    expect(observing).toMatchObject({
      url: currency.publicUrl,
      name: 'demo-currency',
      checks: detail.soFar.checks,
      answered: detail.soFar.answered,
      answeredPercent: 100,
    });
    // Submitted 3.5 days ago: its first week ends in the days ahead.
    expect(Date.parse(observing!.window.end)).toBeGreaterThan(Date.now());
    expect(list.servers.map((s) => s.url)).not.toContain(currency.publicUrl);
    for (const path of ['/servers', '/']) {
      const html = await (await fetch(`${running.url}${path}`)).text();
      expect(html, path).toContain('In observation');
      expect(html, path).toContain(`data-submission="${submitted!.id}"`);
      expect(html, path).toContain('demo-currency');
    }
    // Not in the search nor the route, even for a task only its tool fits.
    const search = await getJson<{ results: { serverId: string }[] }>(
      '/api/toolsearch?q=convert an amount between currencies',
    );
    expect(search.results.map((hit) => hit.serverId)).not.toContain(currency.id);
    expect(JSON.stringify(search)).not.toContain('convert_currency');
    const route = await getJson<{ picks: { serverId: string }[]; setAside: { serverId: string }[] }>(
      '/api/route?task=convert an amount between two currencies',
    );
    expect([...route.picks, ...route.setAside].map((pick) => pick.serverId)).not.toContain(currency.id);
    expect(JSON.stringify(route)).not.toContain('convert_currency');
  });
});

describe('mcp-atlas demo --once', () => {
  it('prints the letters, names what the demo shows, and prints a verified chain', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'atlas-demo-once-'));
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    let code: number;
    try {
      code = await commandDemo(['--once', '--days', '2', '--data', dir], createLogger('silent'));
    } finally {
      spy.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
    expect(code).toBe(0);
    const text = out.join('');
    expect(text).toContain('chain: verified');
    expect(text).toMatch(/^left out: +recipes \(robots\)$/m);
    expect(text).toMatch(/^live incident: +inbox \(confirmed by own_check and paid_reporter, 4 failing reporters\)$/m);
    expect(text).toMatch(/^agents' ratings: .*\bweather [\d.]+ stars from 4 reporters/m);
    expect(text).toMatch(/^owner-verified: +maps \(note, five-minute checks\)$/m);
    expect(text).toMatch(/^route marks: +gateway calendar; directory weather$/m);
    expect(text).toMatch(/^submitted: +currency \(in its observation week, \d+ checks so far\)$/m);
  });
});
