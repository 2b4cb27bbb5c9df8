import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorBodySchema,
  RouteAnswerSchema,
  ServerDetailSchema,
  ServerListSchema,
  ToolSearchResultSchema,
} from '../src/http/schemas.js';
import {
  FIXTURE_SERVERS,
  getJsonAt,
  OLDEST_SHOWN_CHANGE_DAY,
  type RunningFixture,
  startFixture,
  TOO_OLD_CHANGE_DAY,
  urlOf,
  VIEW_DAY,
} from './fixtures/http-atlas.js';

let f: RunningFixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f.close();
});

/** Expects a refusal with this status and code, in the one error shape every route uses. */
async function expectRefusal(path: string, status: number, code: string): Promise<string> {
  const response = await getJsonAt(f.base + path);
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toContain('application/json');
  const body = ErrorBodySchema.parse(response.body);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error.message;
}

describe('GET /api/servers', () => {
  it('lists every server with its letters, uptime, success chance, stability and findings', async () => {
    const { status, body } = await getJsonAt(`${f.base}/api/servers`);
    expect(status).toBe(200);
    const list = ServerListSchema.parse(body);
    expect(list.day).toBe(VIEW_DAY);
    expect(list.servers.map((s) => s.id)).toEqual([...FIXTURE_SERVERS.map((s) => s.id)].sort());
    const weather = list.servers.find((s) => s.id === 'weather-desk')!;
    expect(weather.url).toBe(urlOf('weather-desk'));
    expect(weather.title).toBe('Weather Desk');
    expect(weather.letter).toBe('o');
    expect(weather.letters).toBe('ooooodoooonooooo');
    // 15 observed days (one n), 14 of them not d: 14/15 = 93.3%, and 15 observed days earns the 30-day label.
    expect(weather.uptime).toMatchObject({
      value: 93.3,
      label: '30-day uptime',
      daysObserved: 15,
      isThirtyDay: true,
      source: 'daily',
    });
    expect(weather.findings).toEqual([{ id: 'no-annotations', message: 'No tool declares annotations.' }]);
    expect(weather.category).toBe('weather');
    expect(weather.stability).toBe(1);
    expect(weather.successChance).toBeGreaterThan(0.8);
    expect(weather.successChance).toBeLessThan(1);
  });

  it('shows a not-MCP answer as "not a standard MCP endpoint", while the letter stays d', async () => {
    const { body } = await getJsonAt(`${f.base}/api/servers`);
    const odd = ServerListSchema.parse(body).servers.find((s) => s.id === 'odd-endpoint')!;
    expect(odd.letter).toBe('d');
    expect(odd.notStandardMcp).toBe(true);
    expect(odd.status).toEqual({ state: 'non_standard', label: 'answers, but not as a standard MCP endpoint' });
  });

  it('shows sign-in and payment answers as such, with uptime counting them as up', async () => {
    const { body } = await getJsonAt(`${f.base}/api/servers`);
    const servers = ServerListSchema.parse(body).servers;
    expect(servers.find((s) => s.id === 'locked-crm')!.status.state).toBe('sign_in');
    const pay = servers.find((s) => s.id === 'ledger-pay')!;
    expect(pay.status.state).toBe('payment');
    expect(pay.uptime.value).toBe(100);
    expect(pay.uptime.label).toBe('over 5 days observed');
  });

  it('may be read from any origin (CORS)', async () => {
    const response = await fetch(`${f.base}/api/servers`, { headers: { origin: 'https://elsewhere.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /api/servers/:id', () => {
  it('returns the tools with their risk level, rule, raise and reason', async () => {
    const { status, body } = await getJsonAt(`${f.base}/api/servers/notes-hub`);
    expect(status).toBe(200);
    const detail = ServerDetailSchema.parse(body);
    expect(detail.tools.map((t) => [t.name, t.level, t.rule])).toEqual([
      ['list_notes', 'read-only', 3],
      ['create_note', 'changes-data', 5],
      ['delete_note', 'high-risk', 1],
    ]);
    expect(detail.tools[0]).toMatchObject({
      description: 'Lists the notes in a notebook, newest first.',
      raised: false,
    });
    expect(detail.tools[2]!.reason.length).toBeGreaterThan(0);
    expect(detail.toolsDay).toBe(VIEW_DAY);
    expect(detail.check).toMatchObject({
      day: VIEW_DAY,
      protocolVersion: '2025-06-18',
      highRiskTools: 1,
      handshakeMs: 240,
    });
  });

  it('returns the changes of the last 60 days, newest first, and none older', async () => {
    const detail = ServerDetailSchema.parse((await getJsonAt(`${f.base}/api/servers/ticket-yard`)).body);
    expect(detail.changes.map((c) => [c.day, c.kind])).toEqual([
      [VIEW_DAY, 'tools'],
      [OLDEST_SHOWN_CHANGE_DAY, 'started-answering'],
    ]);
    expect(detail.changes.some((c) => c.day === TOO_OLD_CHANGE_DAY)).toBe(false);
    expect(detail.changes[0]!.diff?.riskRises).toEqual([{ name: 'delete_ticket', from: null, to: 'high-risk' }]);
    // One change day in the last 30: stability = 1 / (1 + 0.5 x 1).
    expect(detail.stability).toBeCloseTo(1 / 1.5, 12);
  });

  it('lists only the changes of the server asked for, and its past outages', async () => {
    const detail = ServerDetailSchema.parse((await getJsonAt(`${f.base}/api/servers/odd-endpoint`)).body);
    expect(detail.changes).toEqual([
      { day: '2026-11-29', kind: 'stopped-answering', detail: 'Stopped answering: the answer was not MCP.' },
    ]);
    expect(detail.outages).toEqual([3]);
    expect(detail.tools).toEqual([]);
    expect(detail.toolsDay).toBeNull();
  });

  it('answers 404 JSON for an unknown id and 400 for something that cannot be an id', async () => {
    await expectRefusal('/api/servers/no-such-server', 404, 'unknown_server');
    await expectRefusal('/api/servers/Not_An_Id', 400, 'invalid_path');
  });
});

describe('GET /api/toolsearch', () => {
  it('returns the best tools for a query with server, level and score', async () => {
    const { status, body } = await getJsonAt(`${f.base}/api/toolsearch?q=${encodeURIComponent('list my notes')}`);
    expect(status).toBe(200);
    const { results } = ToolSearchResultSchema.parse(body);
    expect(results[0]).toMatchObject({ serverId: 'notes-hub', tool: 'list_notes', level: 'read-only' });
    expect(results[0]!.description).toBe('Lists the notes in a notebook, newest first.');
    for (let i = 1; i < results.length; i++) expect(results[i]!.score).toBeLessThanOrEqual(results[i - 1]!.score);
  });

  it('keeps to the risk allowance and the limit', async () => {
    const read = ToolSearchResultSchema.parse(
      (await getJsonAt(`${f.base}/api/toolsearch?q=notes&risk=read`)).body,
    ).results;
    expect(read.length).toBeGreaterThan(0);
    expect(read.every((r) => r.level === 'read-only')).toBe(true);
    const change = ToolSearchResultSchema.parse(
      (await getJsonAt(`${f.base}/api/toolsearch?q=note&risk=change`)).body,
    ).results;
    expect(change.some((r) => r.level === 'changes-data')).toBe(true);
    expect(change.every((r) => r.level !== 'high-risk')).toBe(true);
    const one = ToolSearchResultSchema.parse((await getJsonAt(`${f.base}/api/toolsearch?q=note&limit=1`)).body).results;
    expect(one).toHaveLength(1);
  });

  it('accepts the limits at both ends, 1 and 100', async () => {
    expect((await getJsonAt(`${f.base}/api/toolsearch?q=note&limit=1`)).status).toBe(200);
    expect((await getJsonAt(`${f.base}/api/toolsearch?q=note&limit=100`)).status).toBe(200);
  });

  it.each([
    ['a missing q', '/api/toolsearch', 'q'],
    ['an empty q', '/api/toolsearch?q=', 'q'],
    ['a blank q', '/api/toolsearch?q=%20%20', 'q'],
    ['a q over 500 characters', `/api/toolsearch?q=${'a'.repeat(501)}`, 'q'],
    ['an unknown risk', '/api/toolsearch?q=notes&risk=high', 'risk'],
    ['limit 0', '/api/toolsearch?q=notes&limit=0', 'limit'],
    ['limit 101', '/api/toolsearch?q=notes&limit=101', 'limit'],
    ['a limit that is not a number', '/api/toolsearch?q=notes&limit=ten', 'limit'],
    ['a fractional limit', '/api/toolsearch?q=notes&limit=2.5', 'limit'],
    ['an unknown parameter', '/api/toolsearch?q=notes&query=notes', '(query)'],
  ])('refuses %s with a 400 naming the parameter', async (_what, path, field) => {
    const response = await getJsonAt(f.base + path);
    expect(response.status).toBe(400);
    const body = ErrorBodySchema.parse(response.body);
    expect(body.error.code).toBe('invalid_query');
    expect(body.error.issues?.map((i) => i.path)).toContain(field);
    expect(body.error.message).toContain(field);
  });

  it('refuses a parameter given twice', async () => {
    const message = await expectRefusal('/api/toolsearch?q=notes&q=tickets', 400, 'invalid_query');
    expect(message).toContain('q: given 2 times');
  });

  it('accepts a 500-character query, the longest allowed', async () => {
    expect((await getJsonAt(`${f.base}/api/toolsearch?q=${'a'.repeat(500)}`)).status).toBe(200);
  });
});

describe('GET /api/route', () => {
  it('returns picks with every factor, and the servers set aside with why', async () => {
    const { status, body } = await getJsonAt(
      `${f.base}/api/route?task=${encodeURIComponent('create a ticket for the login bug')}`,
    );
    expect(status).toBe(200);
    const route = RouteAnswerSchema.parse(body);
    expect(route.task).toBe('create a ticket for the login bug');
    expect(route.taskRisk).toBe('change');
    expect(route.verb).toBe('create');
    // Ticket Yard's risk rose on the newest day, the day before the fixture's clock, so it is set aside, named,
    // with the reason (its tool list changed that day, which is no longer today).
    const setAside = route.setAside.find((s) => s.serverId === 'ticket-yard');
    expect(setAside?.reason).toContain('risk rose 1 day ago');
    expect(route.picks.some((p) => p.serverId === 'ticket-yard')).toBe(false);
    const pick = route.picks[0]!;
    const product = Object.values(pick.factors).reduce((a, b) => a * b, 1);
    expect(pick.score).toBeCloseTo(product, 12);
  });

  it('refuses a missing or oversize task, a bad limit and unknown parameters with 400', async () => {
    await expectRefusal('/api/route', 400, 'invalid_query');
    await expectRefusal(`/api/route?task=${'b'.repeat(501)}`, 400, 'invalid_query');
    await expectRefusal('/api/route?task=send%20mail&limit=0', 400, 'invalid_query');
    await expectRefusal('/api/route?task=send%20mail&q=x', 400, 'invalid_query');
  });
});

describe('anything else', () => {
  it('answers 404 JSON for a path nothing serves', async () => {
    await expectRefusal('/api/nothing-here', 404, 'not_found');
  });
});
