// A live incident ends when its 2 hours pass, in the running service, with no report, check or rebuild to
// prompt it: the service sets one alarm for the earliest instant an incident decision changes by time alone,
// and the live update at that instant takes the incident off the API, the page and the route. A real MCP
// server on loopback goes through the schedule's daily check, into a data folder on disk; paid reports come in
// over HTTP; the service's clock and its alarm's timers move only when the test moves them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeHttpClient } from '@mcp-atlas/probe/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { createWakeAlarm, LIVE_UPDATE_MAX_WAIT_SECONDS, type WakeTimers } from '../src/serve/live-update-queue.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { demoLicenseValidator, type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import { manualClock } from './fixtures/manual-clock.js';
import { lookupTestNames, type McpHost, NOTES_TOOLS, startMcpHost } from './fixtures/outside-services.js';

const network = { allowPrivate: true, lookup: lookupTestNames, httpClient: createNodeHttpClient };
const log = createLogger('silent');
/**
 * The live-update window the service runs with: the longest there is, so no update runs by itself during a test.
 * The test runs the pending update when the window would end (flushLiveUpdates), so every count below is the
 * same however long each step takes; the window's own timer is covered in live-updates.test.ts.
 */
const WINDOW_MS = LIVE_UPDATE_MAX_WAIT_SECONDS * 1000;

/** A clock whose timers fire only when the test moves it past their instant, in the order they are due. */
interface TimedClock {
  now(): Date;
  timers: WakeTimers;
  set(iso: string): void;
  /** Timers set and not yet fired or cleared. */
  pending(): number;
  /** Timers fired so far. */
  fired(): number;
}

function timedClock(start: string): TimedClock {
  let now = new Date(start);
  const waiting = new Map<number, { dueMs: number; callback: () => void }>();
  let nextHandle = 1;
  let fired = 0;
  return {
    now: () => now,
    timers: {
      setTimeout(callback, ms) {
        const handle = nextHandle++;
        waiting.set(handle, { dueMs: now.getTime() + ms, callback });
        return handle;
      },
      clearTimeout(handle) {
        waiting.delete(handle as number);
      },
    },
    set(iso) {
      now = new Date(iso);
      for (;;) {
        const due = [...waiting].filter(([, t]) => t.dueMs <= now.getTime()).sort((a, b) => a[1].dueMs - b[1].dueMs);
        const first = due[0];
        if (first === undefined) return;
        waiting.delete(first[0]);
        fired++;
        first[1].callback();
      }
    },
    pending: () => waiting.size,
    fired: () => fired,
  };
}

let host: McpHost;
let folder: string;
beforeAll(async () => {
  host = await startMcpHost(() => NOTES_TOOLS);
  folder = await mkdtemp(join(tmpdir(), 'atlas-incident-expiry-'));
});
afterAll(async () => {
  await host.close();
  await rm(folder, { recursive: true, force: true });
});

let running: RunningAtlas | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

/** A data folder after one real daily check of two loopback servers at 09:04 UTC. */
async function checkedWorld(name: string): Promise<Storage> {
  const storage = createFsStorage(join(folder, name));
  await putJson(storage, 'state/servers.json', {
    servers: [
      { id: 'notes-one', url: host.urlFor('notes.one.test'), title: 'Notes one', source: 'registry' },
      { id: 'notes-two', url: host.urlFor('notes.two.test'), title: 'Notes two', source: 'registry' },
    ],
  });
  const clock = manualClock('2026-11-10T09:04:00Z');
  const keys = await loadOrCreateSigningKeys(storage, clock.now());
  const scheduler = new Scheduler({ storage, log, keys, registryUrl: null, network, clock });
  expect(await scheduler.tick()).toContain('daily');
  return storage;
}

async function serve(storage: Storage, clock: TimedClock): Promise<RunningAtlas> {
  running = await serveAtlas({
    storage,
    port: 0,
    log,
    keys: await loadOrCreateSigningKeys(storage, clock.now()),
    now: clock.now,
    timers: clock.timers,
    validateLicense: demoLicenseValidator,
    handleSignals: false,
    liveUpdateDelayMs: WINDOW_MS,
  });
  return running;
}

/** A paying reporter's failed call to notes-one, sent now. */
async function reportTimeout(atlas: RunningAtlas, license: string): Promise<void> {
  const answer = await fetch(`${atlas.url}/api/reports`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mcp-atlas-license': license },
    body: JSON.stringify({ server: 'notes-one', tool: 'list_notes', ok: false, reason: 'timeout', ms: 30_000 }),
  });
  expect(answer.status).toBe(201);
}

interface IncidentAnswer {
  shown: boolean;
  failingReporters: number;
  since: string | null;
}
const incidentOf = async (atlas: RunningAtlas): Promise<IncidentAnswer> =>
  ((await (await fetch(`${atlas.url}/api/servers/notes-one`)).json()) as { incident: IncidentAnswer }).incident;

/** Why the route sets notes-one aside for a notes task, or null when it does not. */
async function setAsideReason(atlas: RunningAtlas): Promise<string | null> {
  const route = (await (await fetch(`${atlas.url}/api/route?task=${encodeURIComponent('list my notes')}`)).json()) as {
    setAside: { serverId: string; reason: string }[];
  };
  return route.setAside.find((s) => s.serverId === 'notes-one')?.reason ?? null;
}

/** Runs the pending live update, as the end of its window does, and reads the incident it leaves. */
async function readIncidentAfterUpdate(atlas: RunningAtlas): Promise<IncidentAnswer> {
  await atlas.flushLiveUpdates();
  return incidentOf(atlas);
}

describe('a live incident in the running service', () => {
  it('ends when its 2 hours pass, on the API, the page and the route, with no other event', async () => {
    const storage = await checkedWorld('two-paid');
    const clock = timedClock('2026-11-10T09:05:00Z');
    const atlas = await serve(storage, clock);
    // Two paying reporters fail at 09:05: a paying reporter confirms, two reporters are the two signals.
    await reportTimeout(atlas, 'demo-paid-license-1');
    await reportTimeout(atlas, 'demo-paid-license-2');
    expect((await readIncidentAfterUpdate(atlas)).shown).toBe(true);
    expect(atlas.viewStats()).toMatchObject({ fullBuilds: 1, liveUpdates: 1 });

    // 11:04: still within the 2 hours. Shown on the API, the page and the route.
    clock.set('2026-11-10T11:04:00Z');
    expect(await incidentOf(atlas)).toMatchObject({
      shown: true,
      failingReporters: 2,
      since: '2026-11-10T09:05:00.000Z',
      until: '2026-11-10T11:05:00.001Z',
    });
    expect(await setAsideReason(atlas)).toContain('live incident');
    expect(await (await fetch(`${atlas.url}/servers/notes-one`)).text()).toContain('data-incident');

    // 11:05:00.000: the failures are exactly 2 hours old and still count; the alarm has not fired.
    clock.set('2026-11-10T11:05:00.000Z');
    expect(clock.fired()).toBe(0);

    // 11:05:01: the alarm fires and hands the server to the live update, which takes the incident away with no
    // report, check or rebuild.
    clock.set('2026-11-10T11:05:01Z');
    expect((await readIncidentAfterUpdate(atlas)).shown).toBe(false);
    expect(clock.fired()).toBe(1);
    expect(await incidentOf(atlas)).toMatchObject({ shown: false, failingReporters: 0, since: null, until: null });
    expect(atlas.viewStats()).toEqual({ fullBuilds: 1, liveUpdates: 2, serversUpdated: 2, indexUpdates: 2 });
    // The route no longer sets the server aside for a live incident, and the page has no banner.
    expect(await setAsideReason(atlas)).toBeNull();
    expect(await (await fetch(`${atlas.url}/servers/notes-one`)).text()).not.toContain('data-incident');
    // Nothing is left to expire, so no alarm is pending.
    expect(clock.pending()).toBe(0);
  });

  it('sets the alarm again after each update, so an incident that outlives its oldest failure ends at its own end', async () => {
    const storage = await checkedWorld('three-paid');
    const clock = timedClock('2026-11-10T09:05:00Z');
    const atlas = await serve(storage, clock);
    await reportTimeout(atlas, 'demo-paid-license-1');
    await atlas.flushLiveUpdates();
    clock.set('2026-11-10T09:30:00Z');
    await reportTimeout(atlas, 'demo-paid-license-2');
    expect((await readIncidentAfterUpdate(atlas)).failingReporters).toBe(2);

    // The first failure leaves the 2 hours at 11:05: decided again, the second one alone is confirmed (paid)
    // but lacks its second signal.
    clock.set('2026-11-10T11:05:01Z');
    expect((await readIncidentAfterUpdate(atlas)).failingReporters).toBe(1);
    expect((await incidentOf(atlas)).shown).toBe(false);
    // The second one leaves at 11:30, and the alarm was set again for it.
    expect(clock.pending()).toBe(1);
    clock.set('2026-11-10T11:30:00.000Z');
    expect(clock.fired()).toBe(1);
    clock.set('2026-11-10T11:30:01Z');
    expect(clock.fired()).toBe(2);
    expect((await readIncidentAfterUpdate(atlas)).failingReporters).toBe(0);
    expect(atlas.viewStats()).toMatchObject({ fullBuilds: 1, liveUpdates: 4 });
    expect(clock.pending()).toBe(0);
  });

  it('sets the alarm after a full rebuild, and clears it on close', async () => {
    const storage = await checkedWorld('rebuild');
    const clock = timedClock('2026-11-10T09:05:00Z');
    const atlas = await serve(storage, clock);
    expect(clock.pending()).toBe(0);
    // Reports written to the day's log behind the intake's back: only a rebuild reads them.
    const lines = ['paid:a', 'paid:b'].map((reporter) =>
      JSON.stringify({
        server: 'notes-one',
        tool: 'list_notes',
        ok: false,
        reason: 'timeout',
        reporter,
        paid: true,
        at: '2026-11-10T09:05:00.000Z',
      }),
    );
    await storage.append('days/2026-11-10/reports.jsonl', new TextEncoder().encode(`${lines.join('\n')}\n`));
    await atlas.refresh();
    expect((await incidentOf(atlas)).shown).toBe(true);
    expect(clock.pending()).toBe(1);
    // The page says when the incident ends if nothing new comes in.
    expect(await (await fetch(`${atlas.url}/servers/notes-one`)).text()).toMatch(
      /it ends at <time datetime="2026-11-10T11:05:00.001Z">2026-11-10 11:05 UTC<\/time>/,
    );
    clock.set('2026-11-10T11:05:01Z');
    expect((await readIncidentAfterUpdate(atlas)).shown).toBe(false);
    expect(atlas.viewStats()).toMatchObject({ fullBuilds: 2, liveUpdates: 1 });

    // A new incident, then shutdown: no wake is left behind.
    await reportTimeout(atlas, 'demo-paid-license-1');
    await reportTimeout(atlas, 'demo-paid-license-2');
    await atlas.flushLiveUpdates();
    expect(clock.pending()).toBe(1);
    await atlas.close();
    running = null;
    expect(clock.pending()).toBe(0);
  });
});

describe('the wake alarm', () => {
  it('wakes once the clock reaches the instant, not a millisecond before, and holds one instant at a time', () => {
    const clock = timedClock('2026-11-10T09:00:00Z');
    let wakes = 0;
    const alarm = createWakeAlarm({ now: clock.now, timers: clock.timers, onWake: () => void wakes++ });
    alarm.set(Date.parse('2026-11-10T11:05:00.001Z'));
    alarm.set(Date.parse('2026-11-10T10:00:00Z'));
    expect(clock.pending()).toBe(1);
    clock.set('2026-11-10T09:59:59.999Z');
    expect(wakes).toBe(0);
    clock.set('2026-11-10T10:00:00Z');
    expect(wakes).toBe(1);
    // An instant already past wakes at the next turn of the timers.
    alarm.set(Date.parse('2026-11-10T09:00:00Z'));
    clock.set('2026-11-10T10:00:00Z');
    expect(wakes).toBe(2);
    alarm.set(Date.parse('2026-11-10T12:00:00Z'));
    alarm.set(null);
    expect(clock.pending()).toBe(0);
    alarm.set(Date.parse('2026-11-10T12:00:00Z'));
    alarm.close();
    alarm.set(Date.parse('2026-11-10T12:00:00Z'));
    clock.set('2026-11-10T13:00:00Z');
    expect(wakes).toBe(2);
    expect(clock.pending()).toBe(0);
  });

  it('sets itself again when its timer fires before the clock reads the instant', () => {
    let nowMs = Date.parse('2026-11-10T10:00:00Z');
    const queued: (() => void)[] = [];
    // Timers that fire whenever the test says, early included (a clock stepped back behaves so).
    const timers: WakeTimers = { setTimeout: (callback) => queued.push(callback), clearTimeout: () => undefined };
    let wakes = 0;
    const alarm = createWakeAlarm({ now: () => new Date(nowMs), timers, onWake: () => void wakes++ });
    alarm.set(Date.parse('2026-11-10T11:00:00Z'));
    queued.shift()?.();
    expect(wakes).toBe(0);
    expect(queued).toHaveLength(1);
    nowMs = Date.parse('2026-11-10T11:00:00Z');
    queued.shift()?.();
    expect(wakes).toBe(1);
  });
});
