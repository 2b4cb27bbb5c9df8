// Live updates: a report or a sensor batch changes that server's rating and incident within the live-update
// window, without rebuilding the whole read model. A real MCP server on loopback goes through the schedule's
// daily check; the service then takes paid reports (the demo's license keys) from distinct reporters over HTTP.
import { createNodeHttpClient } from '@mcp-atlas/probe/node';
import { routeTask, searchTools } from '@mcp-atlas/route';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/log.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { createLiveUpdateQueue, LIVE_UPDATE_MAX_WAIT_SECONDS } from '../src/serve/live-update-queue.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { demoLicenseValidator, type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';
import { updateServersLive } from '../src/view/live-update.js';
import { manualClock } from './fixtures/manual-clock.js';
import { lookupTestNames, type McpHost, NOTES_TOOLS, startMcpHost } from './fixtures/outside-services.js';
import { waitFor } from './setup/wait-for.js';

const network = { allowPrivate: true, lookup: lookupTestNames, httpClient: createNodeHttpClient };
const log = createLogger('silent');
/** The window the tests serve with: short, so a test waits little, yet long enough for a burst to coalesce. */
const WINDOW_MS = 600;

let host: McpHost;
beforeAll(async () => {
  host = await startMcpHost(() => NOTES_TOOLS);
});
afterAll(async () => {
  await host.close();
});

let running: RunningAtlas | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

/** A data folder after one real daily check of two loopback servers, and a clock an hour after it. */
async function checkedWorld(): Promise<{ storage: Storage; clock: ReturnType<typeof manualClock> }> {
  const storage = createMemoryStorage();
  await putJson(storage, 'state/servers.json', {
    servers: [
      { id: 'notes-one', url: host.urlFor('notes.one.test'), title: 'Notes one', source: 'registry' },
      { id: 'notes-two', url: host.urlFor('notes.two.test'), title: 'Notes two', source: 'registry' },
    ],
  });
  const clock = manualClock('2026-11-10T00:30:00Z');
  const keys = await loadOrCreateSigningKeys(storage, clock.now());
  const scheduler = new Scheduler({ storage, log, keys, registryUrl: null, network, clock });
  expect(await scheduler.tick()).toContain('daily');
  clock.set('2026-11-10T01:30:00Z');
  return { storage, clock };
}

async function serve(
  storage: Storage,
  clock: ReturnType<typeof manualClock>,
  windowMs = WINDOW_MS,
): Promise<RunningAtlas> {
  const keys = await loadOrCreateSigningKeys(storage, clock.now());
  running = await serveAtlas({
    storage,
    port: 0,
    log,
    keys,
    now: clock.now,
    validateLicense: demoLicenseValidator,
    handleSignals: false,
    liveUpdateDelayMs: windowMs,
  });
  return running;
}

const postReport = (atlas: RunningAtlas, license: string | null, body: Record<string, unknown>) =>
  fetch(`${atlas.url}/api/reports`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(license !== null ? { 'x-mcp-atlas-license': license } : {}) },
    body: JSON.stringify(body),
  });

interface ServerAnswer {
  incident: { shown: boolean; failingReporters: number; confirmedBy: string[] };
  rating: { shown: boolean; stars: number | null; reporters: number };
}
const serverAnswer = async (atlas: RunningAtlas, id: string) =>
  (await (await fetch(`${atlas.url}/api/servers/${id}`)).json()) as ServerAnswer;

describe('live updates after reports and sensor batches', () => {
  it('show a confirmed incident and a visible rating within the window, from one coalesced update and no rebuild', async () => {
    const { storage, clock } = await checkedWorld();
    // The longest window there is, ended below by the test: the three reports land in one window however long
    // each takes, so the counts cannot depend on the machine's load.
    const atlas = await serve(storage, clock, LIVE_UPDATE_MAX_WAIT_SECONDS * 1000);
    const before = await serverAnswer(atlas, 'notes-one');
    expect(before.incident.shown).toBe(false);
    expect(before.rating).toMatchObject({ shown: false, stars: null, reporters: 0 });

    // Three distinct reporters, two of them paying, all failing at once: a paying reporter confirms the
    // incident, two failing reporters give it its two signals, and 2 x 0.75 of paid weight shows the stars.
    const failed = { server: 'notes-one', tool: 'list_notes', ok: false, reason: 'server_error', ms: 900 };
    const answers = await Promise.all([
      postReport(atlas, 'demo-paid-license-1', failed),
      postReport(atlas, 'demo-paid-license-2', failed),
      postReport(atlas, null, failed),
    ]);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    // Not yet: the update waits for the window, so a burst of reports is one update.
    expect((await serverAnswer(atlas, 'notes-one')).incident.shown).toBe(false);

    // The window's end, now: one update for the burst.
    await atlas.flushLiveUpdates();
    const after = await serverAnswer(atlas, 'notes-one');
    expect(after.incident).toMatchObject({ shown: true, failingReporters: 3 });
    expect(after.incident.confirmedBy).toContain('paid_reporter');
    expect(after.rating).toMatchObject({ shown: true, reporters: 3 });
    expect(after.rating.stars).not.toBeNull();
    // The other server is untouched.
    expect((await serverAnswer(atlas, 'notes-two')).incident.shown).toBe(false);
    expect(atlas.viewStats()).toEqual({ fullBuilds: 1, liveUpdates: 1, serversUpdated: 1, indexUpdates: 1 });

    // The route reads the new incident: the server is set aside for it.
    const route = (await (
      await fetch(`${atlas.url}/api/route?task=${encodeURIComponent('list my notes')}`)
    ).json()) as {
      picks: { serverId: string }[];
      setAside: { serverId: string; reason: string }[];
    };
    expect(route.picks.map((p) => p.serverId)).not.toContain('notes-one');
    expect(route.setAside.find((s) => s.serverId === 'notes-one')?.reason).toContain('live incident');

    // And the update agrees with a full rebuild at the same moment.
    const rebuilt = (await buildView(storage, clock.now())).byId.get('notes-one');
    expect(after.incident.shown).toBe(rebuilt?.incident.shown);
    expect(after.rating.reporters).toBe(rebuilt?.rating.reporters);
  });

  it('count a sensor batch in that server’s rating (a sensor is one reporter) within the window', async () => {
    const { storage, clock } = await checkedWorld();
    const atlas = await serve(storage, clock);
    expect((await serverAnswer(atlas, 'notes-two')).rating.reporters).toBe(0);
    const batch = await fetch(`${atlas.url}/api/sensors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sensor: 'gw-live',
        outcomes: [{ server: 'notes-two', ok: true, at: '2026-11-10T01:20:00Z' }],
      }),
    });
    expect(batch.status).toBe(201);
    // The window's own timer runs this update.
    await waitFor(
      'the sensor counts in the rating',
      async () => (await serverAnswer(atlas, 'notes-two')).rating.reporters === 1,
    );
    expect(atlas.viewStats().fullBuilds).toBe(1);
    expect(atlas.viewStats().serversUpdated).toBe(1);
  });

  it('let a refresh and a live update never overwrite each other (both run one at a time)', async () => {
    const { storage, clock } = await checkedWorld();
    const atlas = await serve(storage, clock);
    await postReport(atlas, 'demo-paid-license-1', { server: 'notes-one', tool: 'list_notes', ok: true, ms: 200 });
    await Promise.all([atlas.refresh(), atlas.flushLiveUpdates()]);
    expect(atlas.viewStats().fullBuilds).toBe(2);
    expect((await serverAnswer(atlas, 'notes-one')).rating.reporters).toBe(1);
  });
});

describe('live updates after one of our checks', () => {
  it('show two failed hourly checks as the server’s status through updateServers, without a rebuild', async () => {
    const { storage, clock } = await checkedWorld();
    const atlas = await serve(storage, clock);
    const status = async () =>
      ((await (await fetch(`${atlas.url}/api/servers/notes-two`)).json()) as { status: { state: string | null } })
        .status.state;
    const answered = await status();
    const failed = (at: string) => ({ letter: 'd', reason: 'timeout', notMcp: false, httpStatus: null, at });
    // What the hourly check writes after two failed rounds (the second-failure rule shows the second).
    await putJson(storage, 'state/hourly.json', {
      hour: '2026-11-10T01',
      results: { 'notes-two': { ...failed('2026-11-10T01:05:00.000Z'), previous: failed('2026-11-10T00:50:00.000Z') } },
    });
    atlas.updateServers(['notes-two']);
    await atlas.flushLiveUpdates();
    expect(answered).toBe('answering');
    expect(await status()).toBe('down');
    expect(atlas.viewStats()).toMatchObject({ fullBuilds: 1, liveUpdates: 1, indexUpdates: 1 });
    // The route no longer sends tasks to a server that stopped answering.
    const route = (await (
      await fetch(`${atlas.url}/api/route?task=${encodeURIComponent('list my notes')}`)
    ).json()) as { picks: { serverId: string }[] };
    expect(route.picks.map((p) => p.serverId)).not.toContain('notes-two');
    expect(route.picks.map((p) => p.serverId)).toContain('notes-one');
  });
});

describe('the live update itself', () => {
  it('gives the same incident and rating as a full rebuild, and leaves the old view as it was', async () => {
    const { storage, clock } = await checkedWorld();
    const view = await buildView(storage, clock.now());
    const lines = ['paid:a', 'paid:b', 'anon:c'].map((reporter, i) =>
      JSON.stringify({
        server: 'notes-two',
        tool: 'get_note',
        ok: false,
        reason: 'timeout',
        reporter,
        paid: reporter.startsWith('paid'),
        at: `2026-11-10T01:2${i}:00.000Z`,
      }),
    );
    await storage.append('days/2026-11-10/reports.jsonl', new TextEncoder().encode(`${lines.join('\n')}\n`));
    const result = await updateServersLive(view, storage, ['notes-two', 'no-such-server'], clock.now());
    const rebuilt = await buildView(storage, clock.now());
    const full = rebuilt.byId.get('notes-two');
    expect(result.updated).toEqual(['notes-two']);
    expect(result.view.byId.get('notes-two')?.incident).toEqual(full?.incident);
    expect(result.view.byId.get('notes-two')?.rating).toEqual(full?.rating);
    expect(result.indexUpdated).toBe(true);
    // The updated tool index answers every search and route as the rebuilt one does: the incident is seen.
    for (const task of ['read a note', 'get a note', 'list notes']) {
      const routed = routeTask(result.view.toolIndex, task, { now: clock.now() });
      expect(routed).toEqual(routeTask(rebuilt.toolIndex, task, { now: clock.now() }));
      expect(searchTools(result.view.toolIndex, task)).toEqual(searchTools(rebuilt.toolIndex, task));
    }
    expect(JSON.stringify(routeTask(result.view.toolIndex, 'get a note', { now: clock.now() }))).not.toBe(
      JSON.stringify(routeTask(view.toolIndex, 'get a note', { now: clock.now() })),
    );
    // The old view is never edited.
    expect(view.byId.get('notes-two')?.incident.shown).toBe(false);
    expect(result.view.servers.find((s) => s.id === 'notes-one')).toBe(view.servers.find((s) => s.id === 'notes-one'));
  });

  it('keeps the tool index when nothing the index reads changed', async () => {
    const { storage, clock } = await checkedWorld();
    const view = await buildView(storage, clock.now());
    const result = await updateServersLive(view, storage, ['notes-one'], clock.now());
    expect(result.indexUpdated).toBe(false);
    expect(result.view.toolIndex).toBe(view.toolIndex);
    expect(result.view.rankings).toBe(view.rankings);
  });
});

describe('the live update queue', () => {
  it('runs one update for a burst, at most the window after the first event', async () => {
    vi.useFakeTimers();
    try {
      const runs: string[][] = [];
      const queue = createLiveUpdateQueue({ delayMs: 200, run: async (ids) => void runs.push([...ids].sort()) });
      queue.enqueue(['a']);
      queue.enqueue(['a', 'b']);
      await vi.advanceTimersByTimeAsync(100);
      queue.enqueue(['a']);
      // 199 ms after the first event: nothing yet.
      await vi.advanceTimersByTimeAsync(99);
      expect(runs).toEqual([]);
      // 200 ms after the first event (100 after the last): one run for the burst. A window pushed back by the
      // later event would run at 300 ms.
      await vi.advanceTimersByTimeAsync(1);
      expect(runs).toEqual([['a', 'b']]);
      await queue.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a window longer than the promised minute', () => {
    expect(() =>
      createLiveUpdateQueue({ delayMs: LIVE_UPDATE_MAX_WAIT_SECONDS * 1000 + 1, run: async () => undefined }),
    ).toThrow(TypeError);
    expect(() =>
      createLiveUpdateQueue({ delayMs: LIVE_UPDATE_MAX_WAIT_SECONDS * 1000, run: async () => undefined }),
    ).not.toThrow();
  });

  it('keeps going after a failed run', async () => {
    const runs: string[][] = [];
    const warnings: object[] = [];
    const queue = createLiveUpdateQueue({
      delayMs: 10,
      logger: { warn: (fields) => void warnings.push(fields) },
      run: async (ids) => {
        runs.push([...ids]);
        if (runs.length === 1) throw new Error('disk gone');
      },
    });
    queue.enqueue(['a']);
    await queue.flush();
    queue.enqueue(['b']);
    await queue.flush();
    expect(runs).toEqual([['a'], ['b']]);
    expect(warnings).toHaveLength(1);
    await queue.close();
  });
});
