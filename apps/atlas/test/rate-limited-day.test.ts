// A server that limits our rate, checked for real on loopback (the SDK's McpServer behind a 429 gate): the daily
// check waits what the server asked and asks again within the day, so a server that lets us in after one wait
// gets its o; one that never does gets n, never d, and the fold counts that day neither up nor down. The hourly
// check does not ask again, and its n leaves the hourly entry as it was.
import { probeServer } from '@mcp-atlas/probe';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerDayResult, ServerState, Summary, WatchedServer } from '../src/data/schemas.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { foldDay } from '../src/scan/fold-day.js';
import { scanDay } from '../src/scan/scan-day.js';
import { nextHourlyEntry } from '../src/serve/hourly-entry.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, type Storage } from '../src/storage/storage.js';
import { type RunningServer, type SdkServerOptions, startSdkServer } from './fixtures/check-sdk-http.js';

const DAY = '2026-12-10';
const running: RunningServer[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

async function start(rateLimit: NonNullable<SdkServerOptions['rateLimit']>): Promise<RunningServer> {
  const server = await startSdkServer({ rateLimit });
  running.push(server);
  return server;
}

/** The daily check of one server at `at` (DAY at 10:00 UTC by default), then the fold of that day. */
async function checkDay(
  storage: Storage,
  server: WatchedServer,
  at = `${DAY}T10:00:00.000Z`,
  signal?: AbortSignal,
): Promise<{ result: ServerDayResult; summary: Summary }> {
  const day = at.slice(0, 10);
  const common = { storage, day, servers: [server], methodologyVersion: METHODOLOGY_VERSION };
  const scan = await scanDay({
    ...common,
    probe: (s) => probeServer(s.url, { allowPrivate: true }),
    now: () => new Date(at),
    ...(signal !== undefined ? { signal } : {}),
  });
  const [result] = scan.results;
  if (result === undefined) throw new Error('the scan returned no result');
  const { summary } = await foldDay({ ...common, results: scan.results });
  return { result, summary };
}

const watched = (url: string): WatchedServer => ({ id: 'notes', url, source: 'registry', allowPrivate: true });

describe('the daily check of a rate-limited server', () => {
  it('waits the 2 s a 429 asked for, asks again, and gets o with the wait recorded', async () => {
    const server = await start({ times: 1, retryAfter: '2' });
    const storage = createMemoryStorage();
    const { result, summary } = await checkDay(storage, watched(server.url));
    expect(result).toMatchObject({ letter: 'o', reason: 'ok', rateLimitWaitsMs: [2000] });
    expect(summary.letters).toEqual({ o: 1, a: 0, p: 0, d: 0, n: 0 });
    const state = (await getJson(storage, 'state/servers/notes.json')) as ServerState;
    expect(state).toMatchObject({ letters: 'o', lastLetter: 'o' });
  });

  it('gets n, never d, from a server that limits every try: two waits of its 1 s, then the day is n', async () => {
    const server = await start({ times: Number.POSITIVE_INFINITY, retryAfter: '1' });
    const storage = createMemoryStorage();
    const { result, summary } = await checkDay(storage, watched(server.url));
    expect(result).toMatchObject({ letter: 'n', reason: 'rate-limited', rateLimitWaitsMs: [1000, 1000] });
    // The first try and two tries again: each one's initialize was refused.
    expect(server.seen).toHaveLength(3);
    expect(summary.letters).toEqual({ o: 0, a: 0, p: 0, d: 0, n: 1 });
  });

  it('folds an n day as a day without data: nothing but the letters moves', async () => {
    const storage = createMemoryStorage();
    const up = await start({ times: 0, retryAfter: null });
    await checkDay(storage, watched(up.url), `${DAY}T08:00:00.000Z`);
    const limited = await start({ times: Number.POSITIVE_INFINITY, retryAfter: '400' });
    const before = (await getJson(storage, 'state/servers/notes.json')) as ServerState;
    expect(before.lastDay).toBe(DAY);
    // The next day: a wait over 300 s is not taken, so the day is n after one try.
    const next = '2026-12-11';
    const { result } = await checkDay(storage, watched(limited.url), `${next}T10:00:00.000Z`);
    expect(result).toMatchObject({
      letter: 'n',
      message: 'initialize answered 429: rate-limited (asks to wait 400 s)',
    });
    expect(result.rateLimitWaitsMs).toBeUndefined();
    expect(limited.seen).toHaveLength(1);
    const after = (await getJson(storage, 'state/servers/notes.json')) as ServerState;
    expect(after).toMatchObject({
      letters: 'on',
      lastDay: next,
      lastLetter: 'o',
      currentOutageDays: 0,
      toolsHash: before.toolsHash,
    });
  });

  it('does not ask again when the wait would end after the day does', async () => {
    const server = await start({ times: 1, retryAfter: '2' });
    const { result } = await checkDay(createMemoryStorage(), watched(server.url), `${DAY}T23:59:58.500Z`);
    expect(result).toMatchObject({ letter: 'n', reason: 'rate-limited' });
    expect(result.rateLimitWaitsMs).toBeUndefined();
    expect(server.seen).toHaveLength(1);
  });

  it('stops waiting when the service stops, and keeps the n it had', async () => {
    const server = await start({ times: 1, retryAfter: '300' });
    const stop = new AbortController();
    stop.abort();
    const { result } = await checkDay(createMemoryStorage(), watched(server.url), `${DAY}T10:00:00.000Z`, stop.signal);
    expect(result).toMatchObject({ letter: 'n', reason: 'rate-limited' });
    expect(server.seen).toHaveLength(1);
  });
});

describe('the hourly check of a rate-limited server', () => {
  it('asks once, and its n leaves the hourly entry as it was', async () => {
    const up = await start({ times: 0, retryAfter: null });
    const first = await probeServer(up.url, { allowPrivate: true });
    const entry = nextHourlyEntry(undefined, first, `${DAY}T09:00:00.000Z`);
    expect(entry).toMatchObject({ letter: 'o', at: `${DAY}T09:00:00.000Z` });
    const limited = await start({ times: 1, retryAfter: '2' });
    const refused = await probeServer(limited.url, { allowPrivate: true });
    expect(refused).toMatchObject({ letter: 'n', retryAfterMs: 2000 });
    expect(nextHourlyEntry(entry, refused, `${DAY}T10:00:00.000Z`)).toBe(entry);
    expect(nextHourlyEntry(undefined, refused, `${DAY}T10:00:00.000Z`)).toBeUndefined();
  });
});
