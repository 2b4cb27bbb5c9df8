// The schedule and the read model wired to the pieces around them, against real MCP hosts on loopback:
// the daily check dates its results (and so confirms an incident with one failing reporter), the hourly
// review task queues shown incidents, a person's closure hides the incident, operator marks reach the
// route, `--allow-private` reaches the registry read, and a due day left unsealed is logged.
import { type ServerType, serve } from '@hono/node-server';
import { generateKeyPair } from '@mcp-atlas/history';
import { routeTask } from '@mcp-atlas/route';
import { Hono } from 'hono';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { readDayResults } from '../src/data/day-results.js';
import { dayIndexPath, HOURLY_PATH } from '../src/data/paths.js';
import { closeIncident, listReviewItems } from '../src/data/review-queue.js';
import { setRouteMark } from '../src/data/route-marks.js';
import { serverIdFor } from '../src/data/server-id.js';
import { readWatchedServers } from '../src/data/watched-servers.js';
import type { Logger } from '../src/log.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson } from '../src/storage/storage.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { manualClock } from './fixtures/manual-clock.js';
import { type OwnerHost, startOwnerHost, startWorld, type World } from './fixtures/submission-world.js';

const hosts: OwnerHost[] = [];
const closers: (() => Promise<void>)[] = [];
let world: World | null = null;
afterEach(async () => {
  await world?.close();
  world = null;
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  for (const close of closers.splice(0)) await close();
});

async function report(w: World, server: string, network: string): Promise<void> {
  const response = await fetch(`${w.base}/api/reports`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': network },
    body: JSON.stringify({ server, tool: 'list_recipes', ok: false, reason: 'server_error' }),
  });
  expect(response.status).toBe(201);
}

/** A logger whose lines the test reads. */
function capturedLogger(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log: Logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { log, lines };
}

describe('the daily check and incidents', () => {
  it('dates each result by when its check started; a failed daily check within 2 hours confirms an incident with one failing reporter', async () => {
    const host = await startOwnerHost({ down: true });
    hosts.push(host);
    world = await startWorld('2026-12-10T00:10:00Z');
    await putJson(world.storage, 'state/servers.json', {
      servers: [{ id: 'recipe-box', url: host.url, source: 'registry' }],
    });
    expect(await world.tickAt('2026-12-10T00:10:00Z')).toContain('daily');
    const results = await readDayResults(world.storage, '2026-12-10');
    expect(results.get('recipe-box')).toMatchObject({ letter: 'd', checkedAt: '2026-12-10T00:10:00.000Z' });

    // Only the daily check may confirm here: the hourly file goes, and one anonymous reporter fails.
    await world.storage.delete(HOURLY_PATH);
    world.clock.set('2026-12-10T00:40:00Z');
    await report(world, 'recipe-box', '198.51.100.7');
    world.clock.set('2026-12-10T01:00:00Z');
    await world.refresh();
    expect(world.view().byId.get('recipe-box')!.incident).toMatchObject({
      shown: true,
      confirmedBy: ['own_check'],
      ownCheckFailed: true,
    });

    // Past the 2-hour window the daily check no longer confirms anything.
    world.clock.set('2026-12-10T02:20:00Z');
    await world.refresh();
    expect(world.view().byId.get('recipe-box')!.incident.shown).toBe(false);
  });

  it('the hourly review task queues a shown incident once, and a person’s closure hides it from the read model', async () => {
    const host = await startOwnerHost({ down: true });
    hosts.push(host);
    world = await startWorld('2026-12-10T00:10:00Z');
    await putJson(world.storage, 'state/servers.json', {
      servers: [{ id: 'recipe-box', url: host.url, source: 'registry' }],
    });
    await world.tickAt('2026-12-10T00:10:00Z');
    expect(await listReviewItems(world.storage)).toEqual([]);
    world.clock.set('2026-12-10T00:30:00Z');
    await report(world, 'recipe-box', '198.51.100.7');
    await report(world, 'recipe-box', '203.0.113.9');
    expect(await world.tickAt('2026-12-10T01:10:00Z')).toContain('review');
    const items = await listReviewItems(world.storage);
    expect(items.map((i) => [i.kind, i.server])).toEqual([['incident', 'recipe-box']]);
    expect(world.view().byId.get('recipe-box')!.incident.shown).toBe(true);
    // The same hour adds nothing; the next hour finds the same episode already queued.
    expect(await world.tickAt('2026-12-10T01:40:00Z')).not.toContain('review');
    await world.tickAt('2026-12-10T02:10:00Z');
    expect(await listReviewItems(world.storage)).toHaveLength(1);

    await closeIncident(
      world.storage,
      'recipe-box',
      'host under maintenance, checked',
      new Date('2026-12-10T02:15:00Z'),
    );
    world.clock.set('2026-12-10T02:20:00Z');
    await world.refresh();
    expect(world.view().byId.get('recipe-box')!.incident.shown).toBe(false);
  });
});

describe('operator marks in the read model', () => {
  it('a marked gateway gets the 0.7 guard and is set aside for high-risk tasks; a listed server gets 1.15; a broken list is reported', async () => {
    const [gw, listed, plain] = await Promise.all([startOwnerHost(), startOwnerHost(), startOwnerHost()]);
    hosts.push(gw!, listed!, plain!);
    world = await startWorld('2026-12-10T00:10:00Z');
    const highRisk = [
      { name: 'delete_recipe', description: 'Deletes a recipe permanently.', annotations: { destructiveHint: true } },
    ];
    for (const host of [gw!, listed!, plain!]) host.state.tools = [...host.state.tools, ...highRisk];
    await putJson(world.storage, 'state/servers.json', {
      servers: [
        { id: 'gw-box', url: gw!.url, source: 'registry' },
        { id: 'listed-box', url: listed!.url, source: 'registry' },
        { id: 'plain-box', url: plain!.url, source: 'registry' },
      ],
    });
    await setRouteMark(world.storage, 'gateway', 'gw-box', true);
    await setRouteMark(world.storage, 'directory', 'listed-box', true);
    await world.tickAt('2026-12-10T00:10:00Z');
    const view = world.view();
    expect(view.markProblems).toEqual([]);
    const change = routeTask(view.toolIndex, 'create a recipe in my cookbook', { limit: 10 });
    const factorsOf = (id: string) => change.picks.find((p) => p.serverId === id)!.factors;
    expect(factorsOf('gw-box')).toMatchObject({ guard: 0.7, directory: 1 });
    expect(factorsOf('listed-box')).toMatchObject({ guard: 1, directory: 1.15 });
    expect(factorsOf('plain-box')).toMatchObject({ guard: 1, directory: 1 });
    const high = routeTask(view.toolIndex, 'delete a recipe', { limit: 10 });
    expect(high.taskRisk).toBe('high');
    expect(high.setAside).toEqual([
      { serverId: 'gw-box', tool: 'delete_recipe', reason: 'gateway, and the task is high risk' },
    ]);

    await world.storage.put('state/directories.json', new TextEncoder().encode('not json'));
    await world.refresh();
    expect(world.view().markProblems).toEqual([expect.stringMatching(/^state\/directories\.json is not a list/)]);
  });
});

describe('the schedule’s other wiring', () => {
  it('with private addresses allowed, a loopback registry’s loopback servers are watched and checked', async () => {
    const host = await startOwnerHost();
    hosts.push(host);
    const app = new Hono();
    app.get('/v0.1/servers', (c) =>
      c.json({
        servers: [{ server: { name: 'io.example/recipes', remotes: [{ type: 'streamable-http', url: host.url }] } }],
        metadata: {},
      }),
    );
    const registry = await new Promise<{ server: ServerType; url: string }>((resolve) => {
      const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
        resolve({ server, url: `http://127.0.0.1:${info.port}` }),
      );
    });
    closers.push(() => new Promise((resolve) => registry.server.close(() => resolve())));
    const storage = createMemoryStorage();
    const scheduler = new Scheduler({
      storage,
      log: capturedLogger().log,
      keys: await generateKeyPair(),
      registryUrl: registry.url,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock: manualClock('2026-12-10T00:10:00Z'),
    });
    expect(await scheduler.tick()).toContain('daily');
    const id = serverIdFor('io.example/recipes');
    expect((await readWatchedServers(storage)).map((s) => [s.id, s.url])).toEqual([[id, host.url]]);
    const results = await readDayResults(storage, '2026-12-10');
    expect(results.get(id)).toMatchObject({ letter: 'o', toolCount: 2 });
  });

  it('logs each due day it leaves unsealed, with the reason', async () => {
    const storage = createMemoryStorage();
    // The day before: a scan started (its index is there) and never finished.
    await putJson(storage, dayIndexPath('2026-12-09'), {
      day: '2026-12-09',
      methodologyVersion: 'test',
      shards: 1,
      servers: [],
      order: [0],
    });
    const { log, lines } = capturedLogger();
    const scheduler = new Scheduler({
      storage,
      log,
      keys: await generateKeyPair(),
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock: manualClock('2026-12-10T01:10:00Z'),
    });
    expect(await scheduler.tick()).not.toContain('seal');
    const unsealed = lines.filter((line) => line.msg === 'day not sealed: not finished');
    expect(unsealed).toEqual([
      expect.objectContaining({
        level: 40,
        day: '2026-12-09',
        reason: "days/2026-12-09/summary.json is missing or unreadable, so the day's scan has not finished",
      }),
    ]);
  });
});
