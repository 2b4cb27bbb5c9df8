// The retention job over real files on disk (a temp folder), with a simulated clock: each short-lived store
// loses exactly the day folders past its limit (raw sensor batches and demand records only once their day's
// aggregate exists; daily-call markers never within the current month), and nothing else is touched.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair } from '@mcp-atlas/history';
import { needsAggregateBeforeDelete } from '@mcp-atlas/operations';
import { RETENTION_RULES } from '@mcp-atlas/operations/rules';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemandRecorder } from '../src/demand/recorder.js';
import { createLogger } from '../src/log.js';
import { createRateCounters } from '../src/owners/rate-counters.js';
import { enforceRetention, RETENTION_STORES } from '../src/serve/retention.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { manualClock } from './fixtures/submission-world.js';

const folders: string[] = [];

afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function diskStorage(): Promise<Storage> {
  const folder = await mkdtemp(join(tmpdir(), 'atlas-retention-'));
  folders.push(folder);
  return createFsStorage(folder);
}

async function writeAll(storage: Storage, paths: readonly string[]): Promise<void> {
  for (const path of paths) await putJson(storage, path, { path });
}

/** Files that no store may ever delete, dated far in the past so that any limit would reach them. */
const NEVER_DELETED = [
  'days/2020-01-01/index.json',
  'days/2020-01-01/summary.json',
  'days/2020-01-01/reports.jsonl',
  'roots/2020-01-01.json',
  'aggregates/demand/2020-01-01.json',
  'aggregates/sensors/2020-01-01.json',
  'aggregates/sensors/2026-10-16.json',
  'aggregates/demand/2026-10-16.json',
  'state/reporters.json',
  'state/servers.json',
  'state/servers/notes-hub.json',
  'state/hourly.json',
  'state/opted-out.json',
  'state/owners/notes-hub.json',
  'state/submissions/sub-00000000000000000000.json',
  'state/submitted-servers.json',
  'state/five-minute-opt-in.json',
  'keys/signing-key.json',
  // In a store's folder but not named after a day: not the job's to judge.
  'sensors/README.json',
  'markers/ask/not-a-day/notes-hub.json',
];

describe('enforceRetention on 2026-11-20', () => {
  it('deletes exactly the day folders past each limit, and nothing else', async () => {
    const storage = await diskStorage();
    const kept = [
      // Raw sensor batches, 35 days: 2026-10-17 is the oldest day kept; 2026-10-15 is past it but has no aggregate.
      'sensors/2026-10-17/gw-one/000000.json',
      'sensors/2026-10-15/gw-one/000000.json',
      // Raw demand records, 35 days, the same way.
      'demand/2026-10-17/w-a.json',
      'demand/2026-09-01/w-a.json',
      'sensors-refused/2026-10-17/000000.json',
      // Ask markers and badge sightings, 30 days: 2026-10-22 is the oldest day kept.
      'markers/ask/2026-10-22/notes-hub.json',
      'badge-sightings/2026-10-22/notes-hub.json',
      // Page and widget view counts, 90 days: 2026-08-23 is the oldest day kept.
      'views/2026-08-23/pages.json',
      // Daily-call markers, 7 days (2026-11-14 the oldest), but never within the current month.
      'markers/daily-calls/2026-11-14/a.json',
      'markers/daily-calls/2026-11-13/a.json',
      'markers/daily-calls/2026-11-01/a.json',
      // Rate counters, 7 days.
      'state/rate-counters/2026-11-14.json',
      // October's daily-call markers past 7 days, but October's monthly report (below) is missing: kept.
      'markers/daily-calls/2026-09-30/a.json',
      // The MCP call log, 30 days: 2026-10-22 is the oldest day kept.
      'mcp-calls/2026-10-22.jsonl',
    ];
    const deleted = [
      'sensors/2026-10-16/gw-one/000000.json',
      'sensors/2026-10-16/gw-two/000003.json',
      'demand/2026-10-16/w-a.json',
      'demand/2026-10-16/w-b.json',
      'sensors-refused/2026-10-16/000000.json',
      'markers/ask/2026-10-21/notes-hub.json',
      'badge-sightings/2026-10-21/notes-hub.json',
      'views/2026-08-22/pages.json',
      'markers/daily-calls/2026-10-31/a.json',
      'state/rate-counters/2026-11-13.json',
      'mcp-calls/2026-10-21.jsonl',
    ];
    // October's monthly report exists, so October's daily-call markers may go; September's does not.
    await writeAll(storage, [...NEVER_DELETED, 'aggregates/monthly/2026-10.json', ...kept, ...deleted]);
    const removed = await enforceRetention(storage, '2026-11-20');
    expect([...removed].sort()).toEqual([...deleted].sort());
    expect(await storage.list('')).toEqual([...NEVER_DELETED, 'aggregates/monthly/2026-10.json', ...kept].sort());
    // Run again the same day: nothing more goes.
    expect(await enforceRetention(storage, '2026-11-20')).toEqual([]);
  });

  it('deletes daily-call markers of the previous month after 7 days only, once its monthly report exists', async () => {
    const storage = await diskStorage();
    await writeAll(storage, ['markers/daily-calls/2026-10-28/a.json', 'markers/daily-calls/2026-10-27/a.json']);
    expect(await enforceRetention(storage, '2026-11-03')).toEqual([]);
    await writeAll(storage, ['aggregates/monthly/2026-10.json']);
    expect(await enforceRetention(storage, '2026-11-03')).toEqual(['markers/daily-calls/2026-10-27/a.json']);
  });

  it('covers every store of the methodology’s list with its published limit', () => {
    expect(
      RETENTION_STORES.map((s) => [
        s.name,
        s.prefix,
        s.keepDays,
        s.aggregateOf !== undefined,
        (RETENTION_RULES.keepsCurrentMonth as readonly string[]).includes(s.store),
      ]),
    ).toEqual([
      ['raw sensor batches', 'sensors/', 35, true, false],
      ['raw demand records', 'demand/', 35, true, false],
      ['refused sensor requests', 'sensors-refused/', 35, false, false],
      ['per-server ask markers', 'markers/ask/', 30, false, false],
      ['badge sightings', 'badge-sightings/', 30, false, false],
      ['page and widget view counts', 'views/', 90, false, false],
      ['daily-call markers', 'markers/daily-calls/', 7, true, true],
      ['rate counters for submissions and ownership checks', 'state/rate-counters/', 7, false, false],
      ['MCP call log', 'mcp-calls/', 30, false, false],
    ]);
    // One location per store of the package's policy, and an aggregate path wherever the policy waits for one.
    expect(RETENTION_STORES.map((s) => s.store)).toEqual(Object.keys(RETENTION_RULES.days));
    for (const s of RETENTION_STORES)
      expect(s.aggregateOf !== undefined, s.store).toBe(needsAggregateBeforeDelete(s.store));
  });
});

describe('the schedule’s retention over simulated days', () => {
  it('aggregates a day once it is over, and deletes its raw files 35 days on; rate counters go after 7', async () => {
    const storage = await diskStorage();
    const clock = manualClock('2026-10-01T12:00:00.000Z');
    await putJson(storage, 'state/servers.json', { servers: [] });
    const demand = createDemandRecorder({ storage, now: clock.now, writer: 'w-sim' });
    demand.record('notes-hub');
    await demand.flush();
    await putJson(storage, 'sensors/2026-10-01/gw-one/000000.json', {
      sensor: 'gw-one',
      day: '2026-10-01',
      received: '2026-10-01T12:00:00.000Z',
      outcomes: [{ server: 'notes-hub', ok: true, at: '2026-10-01T11:59:00.000Z' }],
    });
    expect(await createRateCounters(storage, clock.now).takeSubmission('requester-a', 'mcp.example', false)).toEqual({
      admitted: true,
    });
    const keys = await generateKeyPair();
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
    });
    const raw = ['demand/2026-10-01/w-sim.json', 'sensors/2026-10-01/gw-one/000000.json'];
    const has = async (path: string) => (await storage.get(path)) !== null;

    clock.set('2026-10-02T01:10:00.000Z');
    expect(await scheduler.tick()).toContain('aggregates');
    // The day's state report waits for the day to be over; demand and sensor aggregates for 1 October are due.
    expect(await storage.list('aggregates/')).toEqual([
      'aggregates/demand/2026-10-01.json',
      'aggregates/sensors/2026-10-01.json',
    ]);
    for (const path of raw) expect(await has(path), path).toBe(true);

    clock.set('2026-10-07T01:10:00.000Z');
    await scheduler.tick();
    expect(await has('state/rate-counters/2026-10-01.json')).toBe(true);
    clock.set('2026-10-08T01:10:00.000Z');
    await scheduler.tick();
    expect(await has('state/rate-counters/2026-10-01.json')).toBe(false);

    clock.set('2026-11-04T01:10:00.000Z');
    await scheduler.tick();
    for (const path of raw) expect(await has(path), path).toBe(true);
    clock.set('2026-11-05T01:10:00.000Z');
    await scheduler.tick();
    for (const path of raw) expect(await has(path), path).toBe(false);
    // What the methodology keeps stays: the aggregates, and every signed day and root the schedule wrote.
    expect(await storage.list('aggregates/demand/')).toEqual(['aggregates/demand/2026-10-01.json']);
    expect(await storage.list('aggregates/sensors/')).toEqual(['aggregates/sensors/2026-10-01.json']);
    // The state reports of the days the schedule checked, and October's monthly report once October was over.
    expect(await storage.list('aggregates/state/')).toEqual(
      ['2026-10-02', '2026-10-07', '2026-10-08', '2026-11-04'].map((d) => `aggregates/state/${d}.json`),
    );
    expect(await storage.list('aggregates/monthly/')).toEqual(['aggregates/monthly/2026-10.json']);
    expect(await has('days/2026-10-02/summary.json')).toBe(true);
    expect(await has('roots/2026-10-02.json')).toBe(true);
  });
});
