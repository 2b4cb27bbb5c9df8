// Reporter and sensor agreement: the schedule's hourly task compares every report and sensor outcome of the
// last 30 days with our newest check at its time, writes the reporter records, and the read model weighs
// each reporter and sensor by them. A real MCP host on loopback, the real schedule, hand-checked weights.
import { afterEach, describe, expect, it } from 'vitest';
import { REPORTERS_PATH } from '../src/data/paths.js';
import { createLogger } from '../src/log.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson } from '../src/storage/storage.js';
import { buildView } from '../src/view/build-view.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { manualClock } from './fixtures/manual-clock.js';
import { type OwnerHost, startOwnerHost } from './fixtures/submission-world.js';

const hosts: OwnerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

const report = (reporter: string, paid: boolean, ok: boolean, at: string, reason?: string) =>
  JSON.stringify({
    server: 'recipes',
    tool: 'list_recipes',
    ok,
    ...(reason ? { reason } : {}),
    ms: 300,
    reporter,
    paid,
    at,
  });

describe('reporter and sensor agreement with our checks', () => {
  it('is tallied each hour into the reporter records, and weighs each reporter and sensor in the rating', async () => {
    const host = await startOwnerHost();
    hosts.push(host);
    const storage = createMemoryStorage();
    await putJson(storage, 'state/servers.json', { servers: [{ id: 'recipes', url: host.url, source: 'registry' }] });
    const clock = manualClock('2026-12-10T00:10:00Z');
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
    // 00:10: the daily and hourly checks both see the server answering with tools.
    expect(await scheduler.tick()).toEqual(expect.arrayContaining(['daily', 'hourly', 'agreement']));

    const lines = [
      report('anon:x', false, false, '2026-12-10T06:00:00Z', 'timeout'), // our check saw it answering: disagrees
      report('anon:z', false, false, '2026-12-10T06:00:00Z', 'args'), // a failure our handshake cannot see: agrees
      report('paid:y', true, true, '2026-12-10T06:00:00Z'), // matches: agrees
    ];
    await storage.put('days/2026-12-10/reports.jsonl', new TextEncoder().encode(`${lines.join('\n')}\n`));
    await putJson(storage, 'sensors/2026-12-10/gw-1/000001.json', {
      sensor: 'gw-1',
      day: '2026-12-10',
      received: '2026-12-10T06:06:00Z',
      outcomes: [
        { server: 'recipes', ok: true, at: '2026-12-10T06:00:00Z' },
        { server: 'recipes', ok: false, at: '2026-12-10T06:05:00Z', reason: 'timeout' },
      ],
    });

    clock.set('2026-12-10T12:10:00Z');
    expect(await scheduler.tick()).toContain('agreement');
    expect(await getJson(storage, REPORTERS_PATH)).toEqual({
      computedAt: '2026-12-10T12:10:00.000Z',
      reporters: {
        'anon:x': { agree: 0, disagree: 0.5, compared: 1 },
        'anon:z': { agree: 1, disagree: 0, compared: 1 },
        'paid:y': { agree: 1, disagree: 0, compared: 1 },
      },
      sensors: { 'gw-1': { agree: 1, disagree: 0.5, compared: 2 } },
    });

    // weight = base x (0.5 + 0.5 x (agree + 1) / (agree + disagree + 2)) x 0.5 ^ (age / 7 days).
    const now = clock.now();
    const decay = (at: string) => 0.5 ** ((now.getTime() - Date.parse(at)) / 86_400_000 / 7);
    const factor = (agree: number, disagree: number) => 0.5 + (0.5 * (agree + 1)) / (agree + disagree + 2);
    const reportDecay = decay('2026-12-10T06:00:00Z');
    const expectedReports = (0.3 * factor(0, 0.5) + 0.3 * factor(1, 0) + 1.0 * factor(1, 0)) * reportDecay;
    // A sensor's day entry is as old as the start of its day.
    const expectedSensor = 0.3 * factor(1, 0.5) * decay('2026-12-10T00:00:00Z');
    const rating = (await buildView(storage, now)).byId.get('recipes')!.rating;
    expect(rating.totalWeight).toBeCloseTo(expectedReports + expectedSensor, 12);
    expect(rating.paidWeight).toBeCloseTo(factor(1, 0) * reportDecay, 12);
    // Without the records every reporter and sensor would weigh a new one's 0.75: a different total.
    expect(
      Math.abs(rating.totalWeight - (0.3 * 0.75 * 2 + 0.75) * reportDecay - 0.3 * 0.75 * decay('2026-12-10T00:00:00Z')),
    ).toBeGreaterThan(0.01);
  });
});
