// The access log keeps no address and ties no page view or sensor batch to a network: the running service
// (serveAtlas with its operator endpoints, over the HTTP fixture in a real folder) is asked from a few addresses
// on two UTC days, and every line it logs is captured. Sensor posts and page, widget and badge views carry no
// client field at all; API requests carry a keyed id of the client's network (IPv4 /24, IPv6 /48) under a key
// drawn at random each UTC day, so one network gets one id within a day and another id the next day; and no line
// holds an address or any part of one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { writeFixture } from './fixtures/http-atlas.js';

const DAY_ONE = new Date('2026-12-01T10:00:00.000Z');
const DAY_TWO = new Date('2026-12-02T10:00:00.000Z');
/** One client, another address in its /24, and a client of another network. */
const CLIENT = '203.0.113.7';
const SAME_NETWORK = '203.0.113.200';
const OTHER_NETWORK = '198.51.100.23';
/** The same for IPv6, whose network is the /48. */
const CLIENT_V6 = '2001:db8:abcd:12::1';
const SAME_NETWORK_V6 = '2001:db8:abcd:ff00::9';
const OTHER_NETWORK_V6 = '2001:db8:abce::1';

let folder: string | null = null;
let running: RunningAtlas | null = null;
/** Every line the service logged, and the access lines of each day's requests. */
const lines: string[] = [];
let dayOne: AccessLine[] = [];
let dayTwo: AccessLine[] = [];
let ipv6: AccessLine[] = [];

const from = (address: string): Record<string, string> => ({ 'x-forwarded-for': address });

async function get(atlas: RunningAtlas, path: string, address: string): Promise<number> {
  const response = await fetch(`${atlas.url}${path}`, { headers: from(address) });
  await response.arrayBuffer();
  return response.status;
}

async function postSensors(atlas: RunningAtlas, address: string, body: unknown): Promise<number> {
  const response = await fetch(`${atlas.url}/api/sensors`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...from(address) },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

/** The page, widget and badge paths a person or a README loads, and their route patterns. */
const VIEWS = [
  ['/', '/'],
  ['/servers', '/servers'],
  ['/servers/notes-hub', '/servers/:id'],
  ['/widget/notes-hub', '/widget/:id'],
  ['/badge/notes-hub.svg', '/badge/:file'],
  ['/badge/notes-hub/grade.svg', '/badge/:id/grade.svg'],
] as const;

type AccessLine = Record<string, unknown> & { route: string; status: number };

/** The access lines logged from index `start` of `lines` on, in order. */
function accessLinesOf(start: number): AccessLine[] {
  return lines
    .slice(start)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record): record is AccessLine => record.event === 'access');
}

/**
 * One day's requests: an accepted and a refused sensor batch and the views from CLIENT, then /api/servers from
 * CLIENT, SAME_NETWORK and OTHER_NETWORK. Returns their access lines.
 */
async function askOneDay(atlas: RunningAtlas, day: Date): Promise<AccessLine[]> {
  const start = lines.length;
  const outcome = { server: 'notes-hub', ok: true, at: day.toISOString() };
  expect(await postSensors(atlas, CLIENT, { sensor: 'gw-one', outcomes: [outcome] })).toBe(201);
  expect(await postSensors(atlas, CLIENT, { sensor: 'gw-one', outcomes: [outcome], extra: 'field' })).toBe(400);
  for (const [path] of VIEWS) expect(await get(atlas, path, CLIENT), path).toBe(200);
  for (const address of [CLIENT, SAME_NETWORK, OTHER_NETWORK])
    expect(await get(atlas, '/api/servers', address)).toBe(200);
  const access = accessLinesOf(start);
  expect(access.map((line) => [line.route, line.status])).toEqual([
    ['/api/sensors', 201],
    ['/api/sensors', 400],
    ...VIEWS.map(([, route]) => [route, 200]),
    ['/api/servers', 200],
    ['/api/servers', 200],
    ['/api/servers', 200],
  ]);
  return access;
}

/** The client values of a day's three /api/servers lines: CLIENT, SAME_NETWORK, OTHER_NETWORK. */
const apiClientsOf = (day: readonly AccessLine[]): unknown[] => day.slice(-3).map((line) => line.client);

// The service over the fixture in a real folder, with one trusted proxy hop (so X-Forwarded-For names the
// client), logging every level into `lines`; asked on two UTC days.
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'atlas-access-log-'));
  const { storage, keys } = await writeFixture(createFsStorage(join(folder, 'data')));
  const clock = { now: DAY_ONE };
  running = await serveAtlas({
    storage,
    port: 0,
    trustedProxyHops: 1,
    log: createLogger('debug', { destination: { write: (line) => void lines.push(line) } }),
    keys,
    now: () => clock.now,
    handleSignals: false,
    operator: { metricsToken: null, budgetsMicroUsd: { daily: 100_000, fiveMinute: 250_000 } },
  });
  dayOne = await askOneDay(running, DAY_ONE);
  clock.now = DAY_TWO;
  dayTwo = await askOneDay(running, DAY_TWO);
  const start = lines.length;
  for (const address of [CLIENT_V6, SAME_NETWORK_V6, OTHER_NETWORK_V6])
    expect(await get(running, '/api/servers', address)).toBe(200);
  ipv6 = accessLinesOf(start);
});

afterAll(async () => {
  await running?.close();
  if (folder !== null) await rm(folder, { recursive: true, force: true });
});

describe('the access log of a running service', () => {
  it('writes no client field for sensor posts, accepted or refused, on either day', () => {
    for (const line of [...dayOne, ...dayTwo].filter((l) => l.route === '/api/sensors'))
      expect(line).not.toHaveProperty('client');
  });

  it('writes no client field for page, widget and badge views, on either day', () => {
    const views = [...dayOne, ...dayTwo].filter((l) => !l.route.startsWith('/api/'));
    expect(views).toHaveLength(2 * VIEWS.length);
    for (const line of views) expect(line, line.route).not.toHaveProperty('client');
  });

  it('keys an API request by its network: one id for one /24 within a day, another for another /24', () => {
    for (const day of [dayOne, dayTwo]) {
      const [client, sameNetwork, otherNetwork] = apiClientsOf(day);
      expect(client).toMatch(/^[0-9a-f]{32}$/);
      expect(sameNetwork).toBe(client);
      expect(otherNetwork).toMatch(/^[0-9a-f]{32}$/);
      expect(otherNetwork).not.toBe(client);
    }
  });

  it('keys an IPv6 client by its /48', () => {
    const [client, sameNetwork, otherNetwork] = ipv6.map((line) => line.client);
    expect(ipv6).toHaveLength(3);
    expect(client).toMatch(/^[0-9a-f]{32}$/);
    expect(sameNetwork).toBe(client);
    expect(otherNetwork).toMatch(/^[0-9a-f]{32}$/);
    expect(otherNetwork).not.toBe(client);
  });

  it('gives the same network another id the next UTC day, so two days cannot be linked', () => {
    const [one, , oneOther] = apiClientsOf(dayOne);
    const [two, , twoOther] = apiClientsOf(dayTwo);
    expect(two).not.toBe(one);
    expect(twoOther).not.toBe(oneOther);
    expect(new Set([one, oneOther, two, twoOther]).size).toBe(4);
  });

  it('writes no address, nor the network part of one, in any line', () => {
    expect(lines.length).toBeGreaterThan(dayOne.length + dayTwo.length);
    for (const line of lines)
      for (const fragment of ['203.0.113', '198.51.100', '2001:db8']) expect(line, line).not.toContain(fragment);
    // The "serving" line names the loopback address the service bound; no access line names the socket's.
    for (const line of [...dayOne, ...dayTwo, ...ipv6]) expect(JSON.stringify(line)).not.toContain('127.0.0.1');
  });
});
