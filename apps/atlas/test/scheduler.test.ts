import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import { createLogger } from '../src/log.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { manualClock } from './fixtures/manual-clock.js';

let fleet: Fleet;
let closedOrigin: { server: ServerType; url: string; hits: number };

beforeAll(async () => {
  fleet = await startFleet(30);
  // An origin whose robots.txt shuts our bot out: it must never see an MCP request.
  const app = new Hono();
  const state = { hits: 0 };
  app.get('/robots.txt', (c) => c.text('User-agent: mcp-atlas-bot\nDisallow: /\n'));
  app.all('/mcp', (c) => {
    state.hits++;
    return c.text('should not be called', 500);
  });
  closedOrigin = await new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
      resolve({
        server,
        url: `http://127.0.0.1:${info.port}/mcp`,
        get hits() {
          return state.hits;
        },
      }),
    );
  });
});

afterAll(async () => {
  await fleet.close();
  closedOrigin.server.close();
});

describe('the service schedule', () => {
  it('runs the daily and hourly checks, seals the previous day after 01:05 UTC, and honours robots.txt', async () => {
    const storage = createMemoryStorage();
    const notes = fleet.members.find((m) => m.id === 'notes')!;
    const vault = fleet.members.find((m) => m.id === 'vault')!;
    await putJson(storage, 'state/servers.json', {
      servers: [
        { id: 'notes', url: notes.url, source: 'registry' },
        { id: 'vault', url: vault.url, source: 'registry' },
        { id: 'closed', url: closedOrigin.url, source: 'registry' },
      ],
    });
    const clock = manualClock('2026-11-10T00:30:00Z');
    const keys = await loadOrCreateSigningKeys(storage, clock.now());
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
    });

    expect(await scheduler.tick()).toEqual(['daily', 'hourly', 'agreement', 'retention']);
    const summary = (await getJson(storage, 'days/2026-11-10/summary.json')) as {
      letters: Record<string, number>;
      servers: number;
    };
    expect(summary.servers).toBe(2);
    expect(summary.letters).toMatchObject({ o: 1, a: 1 });
    expect(closedOrigin.hits).toBe(0);
    expect(await getJson(storage, 'state/hourly.json')).toMatchObject({ hour: '2026-11-10T00' });

    clock.set('2026-11-10T00:50:00Z');
    expect(await scheduler.tick()).toEqual([]);

    clock.set('2026-11-11T01:04:00Z');
    // 10 November is over and its daily check finished, so its state report is written (the aggregates task).
    expect(await scheduler.tick()).toEqual(['daily', 'hourly', 'agreement', 'aggregates', 'retention']);
    expect(await storage.get('aggregates/state/2026-11-10.json')).not.toBeNull();
    expect(await storage.get('roots/2026-11-10.json')).toBeNull();

    clock.set('2026-11-11T01:05:00Z');
    // Hour 01 was checked at 01:04, so only the seal is due.
    expect(await scheduler.tick()).toEqual(['seal']);
    const root = (await getJson(storage, 'roots/2026-11-10.json')) as { files: string[]; previous_root: string | null };
    expect(root.previous_root).toBeNull();
    expect(root.files.some((line) => line.endsWith('  summary.json'))).toBe(true);
    const state = (await getJson(storage, 'state/servers/notes.json')) as { letters: string };
    expect(state.letters).toBe('oo');
  });

  it('keeps the latest hourly result at each UTC hour across hourly files, and shows the profile from 6 hours', async () => {
    const storage = createMemoryStorage();
    const notes = fleet.members.find((m) => m.id === 'notes')!;
    await putJson(storage, 'state/servers.json', { servers: [{ id: 'notes', url: notes.url, source: 'registry' }] });
    const clock = manualClock('2026-11-10T00:30:00Z');
    const keys = await loadOrCreateSigningKeys(storage, clock.now());
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
    });
    for (const hour of ['00', '01', '02', '03', '04']) {
      clock.set(`2026-11-10T${hour}:30:00Z`);
      expect(await scheduler.tick()).toContain('hourly');
    }
    let view = await buildView(storage, clock.now());
    expect(view.byId.get('notes')!.hourProfile).toMatchObject({ hoursWithResult: 5, shown: false });
    clock.set('2026-11-10T05:30:00Z');
    await scheduler.tick();
    view = await buildView(storage, clock.now());
    const profile = view.byId.get('notes')!.hourProfile;
    expect(profile).toMatchObject({ hoursWithResult: 6, shown: true });
    expect(profile.hours[3]).toEqual({ letter: 'o', at: '2026-11-10T03:30:00.000Z' });
    expect(profile.hours[6]).toBeNull();
    // A new day's check at an hour already held replaces that slot with the newer result.
    clock.set('2026-11-11T03:40:00Z');
    await scheduler.tick();
    view = await buildView(storage, clock.now());
    expect(view.byId.get('notes')!.hourProfile.hours[3]).toEqual({ letter: 'o', at: '2026-11-11T03:40:00.000Z' });
    expect(view.byId.get('notes')!.hourProfile.hoursWithResult).toBe(6);
  });

  it('signs missed days oldest first when the 01:05 run did not happen', async () => {
    const storage = createMemoryStorage();
    const notes = fleet.members.find((m) => m.id === 'notes')!;
    await putJson(storage, 'state/servers.json', { servers: [{ id: 'notes', url: notes.url, source: 'registry' }] });
    const clock = manualClock('2026-11-01T00:10:00Z');
    const keys = await loadOrCreateSigningKeys(storage, clock.now());
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
    });
    await scheduler.runDaily('2026-11-01');
    await scheduler.runDaily('2026-11-02');
    await scheduler.runDaily('2026-11-03');
    clock.set('2026-11-04T15:00:00Z');
    expect(await scheduler.tick()).toContain('seal');
    const roots = await storage.list('roots/');
    expect(roots).toEqual(['roots/2026-11-01.json', 'roots/2026-11-02.json', 'roots/2026-11-03.json']);
    const third = (await getJson(storage, 'roots/2026-11-03.json')) as { previous_root: string };
    const second = (await getJson(storage, 'roots/2026-11-02.json')) as { root: string };
    expect(third.previous_root).toBe(second.root);
    // That tick also ran 11-04's daily check.
    const state = (await getJson(storage, 'state/servers/notes.json')) as { letters: string };
    expect(state.letters).toBe('oooo');
  });

  it('never contacts an opted-out host', async () => {
    const storage = createMemoryStorage();
    const notes = fleet.members.find((m) => m.id === 'notes')!;
    await putJson(storage, 'state/servers.json', { servers: [{ id: 'notes', url: notes.url, source: 'registry' }] });
    await putJson(storage, 'state/opted-out.json', { hosts: ['127.0.0.1'] });
    const before = fleet.received.filter((r) => r.member === 'notes').length;
    const clock = manualClock('2026-11-20T00:10:00Z');
    const keys = await loadOrCreateSigningKeys(storage, clock.now());
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
    });
    await scheduler.tick();
    expect(fleet.received.filter((r) => r.member === 'notes').length).toBe(before);
    // Not checked, so no letter and no state: it is off the map.
    expect(await getJson(storage, 'state/servers/notes.json')).toBeNull();
    expect(((await getJson(storage, 'days/2026-11-20/summary.json')) as { servers: number }).servers).toBe(0);
    // The hourly check leaves it off its list too, rather than recording the guard's refusal as a result.
    expect(((await getJson(storage, 'state/hourly.json')) as { results: object }).results).toEqual({});
  });

  it('takes an opted-out host off the published map at its next daily check, while its past stays signed', async () => {
    const storage = createMemoryStorage();
    const notes = fleet.members.find((m) => m.id === 'notes')!;
    await putJson(storage, 'state/servers.json', { servers: [{ id: 'notes', url: notes.url, source: 'registry' }] });
    const clock = manualClock('2026-11-20T00:10:00Z');
    const keys = await loadOrCreateSigningKeys(storage, clock.now());
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
    });
    await scheduler.runDaily('2026-11-20');
    expect((await buildView(storage, clock.now())).servers.map((s) => s.id)).toEqual(['notes']);
    await putJson(storage, 'state/opted-out.json', { hosts: ['127.0.0.1'] });
    // Not at once: the newest daily check still lists it, so it stays on the map until the next one.
    let view = await buildView(storage, clock.now());
    expect(view.servers.map((s) => s.id)).toEqual(['notes']);
    expect(view.leftOut).toEqual([]);
    clock.set('2026-11-21T00:10:00Z');
    await scheduler.runDaily('2026-11-21');
    view = await buildView(storage, clock.now());
    expect(view.servers).toEqual([]);
    expect(view.rankings).toEqual([]);
    expect(view.leftOut).toEqual([{ id: 'notes', reason: 'opted-out' }]);
    // Its page can still say why; its last letter is kept.
    expect(view.byId.get('notes')).toMatchObject({ leftOut: 'opted-out', letters: 'o' });
    expect(await storage.get('days/2026-11-20/catalogs/notes.json')).not.toBeNull();
  });

  it('deletes short-lived files past their limit and keeps signed days', async () => {
    const storage = createMemoryStorage();
    const clock = manualClock('2026-11-10T00:10:00Z');
    const keys = await loadOrCreateSigningKeys(storage, clock.now());
    await putJson(storage, 'state/servers.json', { servers: [] });
    await putJson(storage, 'sensors/2026-10-06/batch-1.json', {});
    await putJson(storage, 'sensors/2026-10-07/batch-1.json', {});
    await putJson(storage, 'days/2026-01-01/summary.json', {});
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
    });
    await scheduler.tick();
    // 35 days kept: 2026-10-07 through 2026-11-10.
    expect(await storage.list('sensors/')).toEqual(['sensors/2026-10-07/batch-1.json']);
    expect(await storage.get('days/2026-01-01/summary.json')).not.toBeNull();
  });
});
