// The daily compute cap, end to end: real loopback MCP servers (the demo fleet), the schedule driven by a
// simulated clock, a file-system data folder, and the signed chain checked by the `verify` command.
import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { priceCheck } from '@mcp-atlas/operations';
import { probeServer } from '@mcp-atlas/probe';
import { dailyUptime } from '@mcp-atlas/reliability';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_OK, EXIT_USAGE, runCommand } from '../src/commands.js';
import { readCostFlags, resolveCosts } from '../src/costs/cost-settings.js';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import { createLogger } from '../src/log.js';
import { METHODOLOGY_VERSION } from '../src/methodology.js';
import { scanDay, shardOf } from '../src/scan/scan-day.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { buildView, lastCheckedDayOf } from '../src/view/build-view.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { manualClock } from './fixtures/manual-clock.js';

let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet(30);
});

afterAll(async () => {
  await fleet.close();
});

// Eight members spread over the default 8 shards by the hash of their ids (checked below):
// shard 0 maps, notes; 3 vault, weather; 4 codehost; 5 files; 6 calendar, homepage; 1, 2 and 7 empty.
const MEMBERS = ['notes', 'maps', 'weather', 'vault', 'codehost', 'files', 'calendar', 'homepage'];
const SHARD_OF = { notes: 0, maps: 0, weather: 3, vault: 3, codehost: 4, files: 5, calendar: 6, homepage: 6 };

// A flat model makes every check cost exactly 1,000 micro-dollars, whatever its wall time, so the cap's
// decisions can be worked out by hand; $0.004 a day then pays for exactly 4 checks.
const FLAT = { perCheckUsd: 0.001, perSecondUsd: 0 };
const FOUR_CHECKS = { dailyBudgetUsd: 0.004, model: FLAT };

async function watch(storage: Storage, ids: readonly string[]): Promise<void> {
  const servers = ids.map((id) => ({
    id,
    url: fleet.members.find((m) => m.id === id)!.url,
    source: 'registry' as const,
  }));
  await putJson(storage, 'state/servers.json', { servers });
}

async function lettersOf(storage: Storage, id: string): Promise<string | null> {
  const state = (await getJson(storage, `state/servers/${id}.json`)) as { letters: string } | null;
  return state?.letters ?? null;
}

async function lettersOfAll(storage: Storage): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const id of MEMBERS) out[id] = await lettersOf(storage, id);
  return out;
}

describe('the daily cost cap', () => {
  it('places the test servers in the shards the hand-worked numbers assume', () => {
    for (const [id, shard] of Object.entries(SHARD_OF)) expect(shardOf(id, 8), id).toBe(shard);
  });

  it('records a capped day as n (never d), runs the skipped shards first the next day, and the capped days seal and verify', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'atlas-cost-cap-'));
    const storage = createFsStorage(dir);
    await watch(storage, MEMBERS);
    const clock = manualClock('2026-12-01T00:30:00Z');
    const keys = await loadOrCreateSigningKeys(storage, clock.now());
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
      costs: FOUR_CHECKS,
    });

    // Day 1, order 0..7: shard 0 (2 checks, 2,000), 1 and 2 (empty), shard 3 (2 more: exactly 4,000, at the
    // budget, so it starts); shard 4 would make 5,000 > 4,000: refused, and 4 to 7 wait. Their servers were
    // never checked before, so they get no state: a history starts at its first check.
    expect(await scheduler.tick()).toContain('daily');
    expect(await getJson(storage, 'days/2026-12-01/index.json')).toMatchObject({ order: [0, 1, 2, 3, 4, 5, 6, 7] });
    expect(await getJson(storage, 'state/costs/daily/2026-12-01.json')).toEqual({
      day: '2026-12-01',
      budgetMicroUsd: 4000,
      spentMicroUsd: 4000,
      checks: 4,
      parts: { '0': { spentMicroUsd: 2000, checks: 2 }, '3': { spentMicroUsd: 2000, checks: 2 } },
      stopped: { part: '4', estimateMicroUsd: 1000, spentMicroUsd: 4000 },
    });
    expect(await getJson(storage, 'days/2026-12-01/summary.json')).toMatchObject({
      servers: 4,
      skippedByCap: 4,
      letters: { o: 3, a: 1, p: 0, d: 0 },
    });
    expect(await lettersOfAll(storage)).toEqual({
      notes: 'o',
      maps: 'o',
      weather: 'o',
      vault: 'a',
      codehost: null,
      files: null,
      calendar: null,
      homepage: null,
    });

    // Day 2 starts with the first shard day 1 left undone: 4, 5, 6, 7, then 0. Shards 4, 5 and 6 cost
    // 1,000 + 1,000 + 2,000 = 4,000; shard 7 is empty (estimate 0, still within the budget); shard 0 is refused.
    clock.set('2026-12-02T00:30:00Z');
    expect(await scheduler.tick()).toContain('daily');
    expect(await getJson(storage, 'days/2026-12-02/index.json')).toMatchObject({ order: [4, 5, 6, 7, 0, 1, 2, 3] });
    expect(await getJson(storage, 'state/costs/daily/2026-12-02.json')).toMatchObject({
      spentMicroUsd: 4000,
      checks: 4,
      parts: {
        '4': { spentMicroUsd: 1000, checks: 1 },
        '5': { spentMicroUsd: 1000, checks: 1 },
        '6': { spentMicroUsd: 2000, checks: 2 },
      },
      stopped: { part: '0', estimateMicroUsd: 2000, spentMicroUsd: 4000 },
    });
    expect(await getJson(storage, 'days/2026-12-02/summary.json')).toMatchObject({
      servers: 4,
      skippedByCap: 4,
      letters: { o: 3, d: 1 },
    });
    expect(await lettersOfAll(storage)).toEqual({
      notes: 'on',
      maps: 'on',
      weather: 'on',
      vault: 'an',
      codehost: 'o',
      files: 'o',
      calendar: 'o',
      homepage: 'd',
    });
    // A server the cap skipped today is still shown from its last check (day 1), so it keeps its status,
    // category and place in the lists; its letter for today stays n.
    const dayTwo = await buildView(storage, clock.now());
    const notesView = dayTwo.byId.get('notes')!;
    expect(notesView.letters).toBe('on');
    expect(notesView.latest).toMatchObject({ id: 'notes', letter: 'o' });
    expect(notesView.shown.state).not.toBeNull();
    expect(notesView.category).not.toBeNull();

    // Days 3 and 4 alternate the same way: no shard waits two days in a row.
    clock.set('2026-12-03T00:30:00Z');
    await scheduler.tick();
    expect(await getJson(storage, 'days/2026-12-03/index.json')).toMatchObject({ order: [0, 1, 2, 3, 4, 5, 6, 7] });
    clock.set('2026-12-04T00:30:00Z');
    await scheduler.tick();
    expect(await getJson(storage, 'days/2026-12-04/index.json')).toMatchObject({ order: [4, 5, 6, 7, 0, 1, 2, 3] });
    const letters = await lettersOfAll(storage);
    expect(letters).toEqual({
      notes: 'onon',
      maps: 'onon',
      weather: 'onon',
      vault: 'anan',
      codehost: 'ono',
      files: 'ono',
      calendar: 'ono',
      homepage: 'dnd',
    });

    // An n day counts neither way: homepage is down on both days it was checked (0%, 2 days observed), and
    // codehost up on both (100%, 2 observed); were the capped day a d, they would read 0% of 3 and 66.7% of 3.
    expect(dailyUptime(letters.homepage!)).toBe(0);
    expect(dailyUptime(letters.codehost!)).toBe(100);
    const view = await buildView(storage, clock.now());
    expect(view.byId.get('codehost')!.uptime).toMatchObject({ percent: 100, daysObserved: 2, source: 'daily' });
    expect(view.byId.get('homepage')!.uptime).toMatchObject({ percent: 0, daysObserved: 2 });
    expect(view.byId.get('notes')!.state.currentOutageDays).toBe(0);

    // After 01:05 the next day, the four capped days are sealed, and `verify` passes.
    clock.set('2026-12-05T01:10:00Z');
    expect(await scheduler.tick()).toContain('seal');
    for (const day of ['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04'])
      expect(await storage.get(`roots/${day}.json`), day).not.toBeNull();
    const root = (await getJson(storage, 'roots/2026-12-02.json')) as { files: string[] };
    const sealed = root.files.map((line) => line.split('  ')[1] ?? '');
    expect(sealed).toEqual(
      expect.arrayContaining(['index.json', 'summary.json', 'changes.json', 'results/004.json', 'results/007.json']),
    );
    expect(sealed).not.toContain('results/000.json');
    // The ledgers are rolling state, outside the signed days.
    expect(sealed.some((path) => path.includes('costs'))).toBe(false);
    expect(await runCommand(['verify', '--data', dir], createLogger('silent'))).toBe(EXIT_OK);
  });

  it('charges each check from the wall time its result records, so the ledger reconciles with the shard files', async () => {
    const storage = createMemoryStorage();
    const servers = ['notes', 'weather', 'vault', 'homepage'].map((id) => ({
      id,
      url: fleet.members.find((m) => m.id === id)!.url,
      source: 'registry' as const,
    }));
    const model = { perCheckUsd: 0.00001, perSecondUsd: 0.001 }; // 1 micro-dollar per millisecond started
    const scan = await scanDay({
      day: '2026-12-10',
      servers,
      storage,
      methodologyVersion: METHODOLOGY_VERSION,
      probe: (server) => probeServer(server.url, { allowPrivate: true }),
      shards: 2,
      cap: { budgetMicroUsd: 100_000_000, model },
    });
    expect(scan.shardsSkipped).toEqual([]);
    const expected = scan.results.reduce((sum, result) => sum + priceCheck(result.elapsedMs, model), 0);
    expect(scan.spend).toMatchObject({ spentMicroUsd: expected, checks: 4, stopped: null });
    expect(await getJson(storage, 'state/costs/daily/2026-12-10.json')).toMatchObject({
      spentMicroUsd: expected,
      checks: 4,
    });
    // Each check costs 10 for the check and 1 per millisecond, so the sum is 40 plus the checks' milliseconds.
    expect(expected).toBe(40 + scan.results.reduce((sum, r) => sum + r.elapsedMs, 0));
  });

  it('lets a scan resumed after the stop keep the same stop and skip the same shards', async () => {
    const storage = createMemoryStorage();
    await watch(storage, ['notes', 'weather', 'codehost']);
    const clock = manualClock('2026-12-12T00:30:00Z');
    const keys = await loadOrCreateSigningKeys(storage, clock.now());
    const deps = {
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
    };
    const servers = (await getJson(storage, 'state/servers.json')) as {
      servers: { id: string; url: string; source: 'registry' }[];
    };
    // The scan stops (1 check pays for notes in shard 0; weather's shard 3 is refused) but the fold never ran.
    const first = await scanDay({
      day: '2026-12-12',
      servers: servers.servers,
      storage,
      methodologyVersion: METHODOLOGY_VERSION,
      probe: (server) => probeServer(server.url, { allowPrivate: true }),
      cap: resolveCostsAsCap(0.001),
    });
    expect(first.capStop).toEqual({ shard: 3, estimateMicroUsd: 1000, spentMicroUsd: 1000 });
    // The restart, with a larger budget configured: the day stays stopped, and nothing is charged twice.
    const scheduler = new Scheduler({ ...deps, costs: { dailyBudgetUsd: 1, model: FLAT } });
    expect(await scheduler.runDaily('2026-12-12')).toBe(true);
    expect(await getJson(storage, 'state/costs/daily/2026-12-12.json')).toMatchObject({
      spentMicroUsd: 1000,
      checks: 1,
      stopped: { part: '3' },
    });
    expect(await getJson(storage, 'days/2026-12-12/summary.json')).toMatchObject({ servers: 1, skippedByCap: 2 });
  });
});

function resolveCostsAsCap(dailyBudgetUsd: number): { budgetMicroUsd: number; model: typeof FLAT } {
  const costs = resolveCosts({ dailyBudgetUsd, model: FLAT });
  return { budgetMicroUsd: costs.dailyBudgetMicroUsd, model: FLAT };
}

describe('the cost options of serve and scan', () => {
  it('read budgets and the cost model in US dollars, leaving the rest at the defaults', () => {
    expect(readCostFlags({})).toEqual({});
    expect(readCostFlags({ 'daily-budget-usd': '0.20', 'five-minute-budget-usd': '0' })).toEqual({
      dailyBudgetUsd: 0.2,
      fiveMinuteBudgetUsd: 0,
    });
    expect(readCostFlags({ 'check-cost-per-second-usd': '0.00002' })).toEqual({
      model: { perCheckUsd: 0.00001, perSecondUsd: 0.00002 },
    });
    expect(resolveCosts({})).toEqual({
      dailyBudgetMicroUsd: 100_000,
      fiveMinuteBudgetMicroUsd: 250_000,
      model: { perCheckUsd: 0.00001, perSecondUsd: 0.00001 },
    });
    expect(resolveCosts({ dailyBudgetUsd: 0.004, model: FLAT })).toMatchObject({
      dailyBudgetMicroUsd: 4000,
      model: FLAT,
    });
  });

  it('refuse a bad amount with a usage error before touching the data folder', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'atlas-cost-flags-')), 'never-made');
    for (const args of [
      ['scan', '--data', dir, '--daily-budget-usd', 'ten'],
      ['scan', '--data', dir, '--daily-budget-usd', '-1'],
      ['scan', '--data', dir, '--check-cost-usd', '1e-5'],
      ['scan', '--data', dir, '--five-minute-budget-usd', '0.25'],
      ['serve', '--data', dir, '--five-minute-budget-usd', '1001'],
    ]) {
      expect(await runCommand(args, createLogger('silent')), args.join(' ')).toBe(EXIT_USAGE);
    }
    await expect(stat(dir)).rejects.toThrow();
    expect(() => readCostFlags({ 'daily-budget-usd': '.5' })).toThrow(
      '--daily-budget-usd must be an amount in US dollars from 0 to 1000, written like 0.10',
    );
  });

  it('scan --daily-budget-usd 0 checks nobody and records every server as skipped by the cap', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'atlas-cost-scan-'));
    const storage = createFsStorage(dir);
    await watch(storage, ['notes', 'weather']);
    const before = fleet.received.length;
    expect(
      await runCommand(
        ['scan', '--data', dir, '--day', '2026-12-20', '--daily-budget-usd', '0'],
        createLogger('silent'),
      ),
    ).toBe(EXIT_OK);
    expect(fleet.received.length).toBe(before);
    expect(await getJson(storage, 'days/2026-12-20/summary.json')).toMatchObject({ servers: 0, skippedByCap: 2 });
    expect(await getJson(storage, 'state/costs/daily/2026-12-20.json')).toMatchObject({
      budgetMicroUsd: 0,
      spentMicroUsd: 0,
      stopped: { part: '0' },
    });
  });
});

describe('the last day a server was really checked', () => {
  it('is the day of the newest letter that is not n', () => {
    expect(lastCheckedDayOf({ letters: 'oon', lastDay: '2026-12-03' })).toBe('2026-12-02');
    expect(lastCheckedDayOf({ letters: 'onn', lastDay: '2026-12-01' })).toBe('2026-11-29');
    expect(lastCheckedDayOf({ letters: 'od', lastDay: '2026-12-03' })).toBe('2026-12-03');
    expect(lastCheckedDayOf({ letters: 'nn', lastDay: '2026-12-03' })).toBeNull();
    expect(lastCheckedDayOf({ letters: '', lastDay: null })).toBeNull();
  });
});
