// Five-minute checks change what a page shows (from the second failure in a row), confirm incidents, and
// alert owners who opted in; hourly checks alert them too. Real MCP hosts on loopback (the SDK's McpServer,
// switched to HTTP 503 by the test), the real schedule on a simulated clock, the read model built from its files.
import { afterEach, describe, expect, it } from 'vitest';
import { readOwnerAlerts } from '../src/data/owner-alerts.js';
import { FIVE_MINUTE_CHECKS_PATH, FIVE_MINUTE_OPT_IN_PATH, OWNER_ALERTS_PATH } from '../src/data/paths.js';
import type { Logger } from '../src/log.js';
import { createLogger } from '../src/log.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { manualClock } from './fixtures/manual-clock.js';
import { type OwnerHost, startOwnerHost } from './fixtures/submission-world.js';

const hosts: OwnerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** A logger that keeps the warnings it is given, so a test can read the alert's log line. */
function recordingLogger(): { log: Logger; warnings: { fields: Record<string, unknown>; message: string }[] } {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const base = createLogger('silent');
  const log = Object.create(base) as Logger;
  (log as { warn: unknown }).warn = (fields: Record<string, unknown>, message: string) => {
    warnings.push({ fields, message });
  };
  return { log, warnings };
}

async function world(start: string, costs?: { fiveMinuteBudgetUsd: number }) {
  const host = await startOwnerHost();
  hosts.push(host);
  const storage = createMemoryStorage();
  await putJson(storage, 'state/servers.json', { servers: [{ id: 'recipes', url: host.url, source: 'registry' }] });
  await putJson(storage, FIVE_MINUTE_OPT_IN_PATH, { servers: ['recipes'] });
  const clock = manualClock(start);
  const keys = await loadOrCreateSigningKeys(storage, clock.now());
  const { log, warnings } = recordingLogger();
  const scheduler = new Scheduler({
    storage,
    log,
    keys,
    registryUrl: null,
    network: { allowPrivate: true },
    outside: CLOSED_OUTSIDE,
    clock,
    ...(costs ? { costs } : {}),
  });
  const tickAt = async (iso: string) => {
    clock.set(iso);
    return scheduler.tick();
  };
  return { host, storage, clock, scheduler, tickAt, warnings };
}

async function alertsOf(storage: Storage) {
  return (await readOwnerAlerts(storage)).servers.recipes?.alerts ?? [];
}

describe('five-minute checks', () => {
  it('keep the newest two observations, change the shown status from the second failure, and alert the owner once per run', async () => {
    const w = await world('2026-12-10T00:10:00Z');
    // The day's daily check first: a five-minute check is counted in the server's state, which its first daily
    // check makes, and the daily scan runs beside the five-minute checks rather than before them.
    expect(await w.scheduler.runDaily('2026-12-10')).toBe(true);
    expect(await w.tickAt('2026-12-10T00:10:00Z')).toEqual(expect.arrayContaining(['hourly', 'five-minute']));
    let view = await buildView(w.storage, w.clock.now());
    expect(view.byId.get('recipes')).toMatchObject({ shown: { state: 'answering' }, answeringNow: true });

    // First failure: recorded, held back on the page, no alert.
    w.host.state.down = true;
    expect(await w.tickAt('2026-12-10T00:15:00Z')).toContain('five-minute');
    const file = (await getJson(w.storage, FIVE_MINUTE_CHECKS_PATH)) as {
      results: Record<string, { letter: string; at: string; httpStatus: number | null }[]>;
    };
    expect(file.results.recipes!.map((o) => [o.letter, o.at, o.httpStatus])).toEqual([
      ['o', '2026-12-10T00:10:00.000Z', null],
      ['d', '2026-12-10T00:15:00.000Z', 503],
    ]);
    view = await buildView(w.storage, w.clock.now());
    expect(view.byId.get('recipes')).toMatchObject({
      shown: { state: 'answering', heldBack: true, failuresInARow: 1 },
      answeringNow: true,
    });
    expect(await alertsOf(w.storage)).toEqual([]);
    expect(w.warnings.filter((x) => x.message.startsWith('owner alert'))).toEqual([]);

    // Second failure in a row: shown as down, out of the route's answering servers, and the owner is alerted.
    await w.tickAt('2026-12-10T00:20:00Z');
    view = await buildView(w.storage, w.clock.now());
    expect(view.byId.get('recipes')).toMatchObject({
      shown: { state: 'down', heldBack: false, failuresInARow: 2 },
      answeringNow: false,
    });
    expect(await alertsOf(w.storage)).toEqual([
      {
        at: '2026-12-10T00:20:00.000Z',
        kind: 'five_minute',
        letter: 'd',
        reason: 'http-error',
        httpStatus: 503,
        failuresInARow: 2,
      },
    ]);
    expect(w.warnings.filter((x) => x.message.startsWith('owner alert')).map((x) => x.fields)).toEqual([
      {
        server: 'recipes',
        kind: 'five_minute',
        at: '2026-12-10T00:20:00.000Z',
        reason: 'http-error',
        failuresInARow: 2,
      },
    ]);

    // A third failure is the same run: no second alert.
    await w.tickAt('2026-12-10T00:25:00Z');
    expect(await alertsOf(w.storage)).toHaveLength(1);

    // Back up closes the alert; the next run of two failures alerts again.
    w.host.state.down = false;
    await w.tickAt('2026-12-10T00:30:00Z');
    expect((await readOwnerAlerts(w.storage)).servers.recipes!.open).toBe(false);
    w.host.state.down = true;
    await w.tickAt('2026-12-10T00:35:00Z');
    expect(await alertsOf(w.storage)).toHaveLength(1);
    await w.tickAt('2026-12-10T00:40:00Z');
    expect((await alertsOf(w.storage)).map((a) => a.at)).toEqual([
      '2026-12-10T00:20:00.000Z',
      '2026-12-10T00:40:00.000Z',
    ]);
  });

  it('confirm a live incident with one failing agent', async () => {
    const w = await world('2026-12-10T00:10:00Z');
    await w.tickAt('2026-12-10T00:10:00Z');
    w.host.state.down = true;
    await w.tickAt('2026-12-10T00:15:00Z');
    const line = JSON.stringify({
      server: 'recipes',
      tool: 'list_recipes',
      ok: false,
      reason: 'server_error',
      reporter: 'anon:a',
      paid: false,
      at: '2026-12-10T00:16:00Z',
    });
    await w.storage.put('days/2026-12-10/reports.jsonl', new TextEncoder().encode(`${line}\n`));
    const incident = (await buildView(w.storage, new Date('2026-12-10T00:17:00Z'))).byId.get('recipes')!.incident;
    expect(incident).toMatchObject({
      shown: true,
      confirmedBy: ['own_check'],
      ownCheckSawServerError: true,
      failingReporters: ['anon:a'],
    });
  });
});

describe('hourly checks of an opted-in server', () => {
  it('alert the owner on the second failure in a row, not the first', async () => {
    // No five-minute budget: only the hourly checks run.
    const w = await world('2026-12-10T00:10:00Z', { fiveMinuteBudgetUsd: 0 });
    await w.tickAt('2026-12-10T00:10:00Z');
    w.host.state.down = true;
    expect(await w.tickAt('2026-12-10T01:10:00Z')).toContain('hourly');
    expect(await getJson(w.storage, FIVE_MINUTE_CHECKS_PATH)).toBeNull();
    expect(await alertsOf(w.storage)).toEqual([]);
    await w.tickAt('2026-12-10T02:10:00Z');
    expect(await alertsOf(w.storage)).toEqual([
      {
        at: '2026-12-10T02:10:00.000Z',
        kind: 'hourly',
        letter: 'd',
        reason: 'http-error',
        httpStatus: 503,
        failuresInARow: 2,
      },
    ]);
  });

  it('send nothing for a server whose owner did not opt in', async () => {
    const w = await world('2026-12-10T00:10:00Z', { fiveMinuteBudgetUsd: 0 });
    await putJson(w.storage, FIVE_MINUTE_OPT_IN_PATH, { servers: [] });
    await w.tickAt('2026-12-10T00:10:00Z');
    w.host.state.down = true;
    await w.tickAt('2026-12-10T01:10:00Z');
    await w.tickAt('2026-12-10T02:10:00Z');
    expect(await getJson(w.storage, OWNER_ALERTS_PATH)).toBeNull();
  });
});
