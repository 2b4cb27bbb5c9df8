// The five-minute checks' own cost cap, and what a five-minute check counts as answered, with real loopback
// MCP servers (the demo fleet) and the schedule driven by a simulated clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIVE_MINUTE_OPT_IN_PATH } from '../src/data/paths.js';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import { createLogger } from '../src/log.js';
import { loadOrCreateSigningKeys } from '../src/seal/keys.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { CLOSED_OUTSIDE } from './fixtures/closed-outside.js';
import { manualClock } from './fixtures/manual-clock.js';

let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet(30);
});

afterAll(async () => {
  await fleet.close();
});

// notes lists tools (o), vault asks for sign-in (a), paywall for payment (p), homepage is not MCP (d).
const MEMBERS = ['notes', 'vault', 'paywall', 'homepage'];

async function counters(
  storage: Storage,
  day: string,
): Promise<Record<string, { answered: number; checks: number } | null>> {
  const out: Record<string, { answered: number; checks: number } | null> = {};
  for (const id of MEMBERS) {
    const state = (await getJson(storage, `state/servers/${id}.json`)) as {
      fiveMinute: { day: string; answered: number; checks: number }[];
    };
    const pair = state.fiveMinute.find((p) => p.day === day);
    out[id] = pair === undefined ? null : { answered: pair.answered, checks: pair.checks };
  }
  return out;
}

// One initialize request per check, whatever the server answers.
function checksReceivedBy(ids: readonly string[]): number {
  return fleet.received.filter((r) => ids.includes(r.member) && r.rpcMethods.includes('initialize')).length;
}

describe('the five-minute checks', () => {
  it('count sign-in and payment answers as answered, stop at their own cap, never record a skipped check, and resume the next UTC day', async () => {
    const storage = createMemoryStorage();
    const servers = MEMBERS.map((id) => ({
      id,
      url: fleet.members.find((m) => m.id === id)!.url,
      source: 'registry' as const,
    }));
    await putJson(storage, 'state/servers.json', { servers });
    await putJson(storage, FIVE_MINUTE_OPT_IN_PATH, { servers: MEMBERS });
    const clock = manualClock('2026-12-10T00:10:00Z');
    const keys = await loadOrCreateSigningKeys(storage, clock.now());
    // Every check costs exactly 1,000 micro-dollars; $0.006 pays for 6 five-minute checks a day. The daily
    // checks have their own, default budget ($0.10: 100 such checks), untouched by the five-minute ones.
    const costs = { fiveMinuteBudgetUsd: 0.006, model: { perCheckUsd: 0.001, perSecondUsd: 0 } };
    const scheduler = new Scheduler({
      storage,
      log: createLogger('silent'),
      keys,
      registryUrl: null,
      network: { allowPrivate: true },
      outside: CLOSED_OUTSIDE,
      clock,
      costs,
    });

    // The day's daily check first: a five-minute check is counted in the server's state, which its first daily
    // check makes, and the daily scan runs beside the five-minute checks rather than before them.
    expect(await scheduler.runDaily('2026-12-10')).toBe(true);
    // Round 1 (00:10): four checks, 4,000 spent. o, a and p count as answered; d does not.
    expect(await scheduler.tick()).toEqual(expect.arrayContaining(['hourly', 'five-minute']));
    expect(await counters(storage, '2026-12-10')).toEqual({
      notes: { answered: 1, checks: 1 },
      vault: { answered: 1, checks: 1 },
      paywall: { answered: 1, checks: 1 },
      homepage: { answered: 0, checks: 1 },
    });

    // Round 2 (00:15): notes brings the day to 5,000, vault to exactly 6,000 (at the budget: it runs);
    // paywall would make 7,000 and is refused, which stops the five-minute checks for the day.
    clock.set('2026-12-10T00:15:00Z');
    const second = await scheduler.tick();
    expect(second).toContain('five-minute');
    expect(second).not.toContain('daily');
    const capped = await counters(storage, '2026-12-10');
    expect(capped).toEqual({
      notes: { answered: 2, checks: 2 },
      vault: { answered: 2, checks: 2 },
      paywall: { answered: 1, checks: 1 },
      homepage: { answered: 0, checks: 1 },
    });
    expect(await getJson(storage, 'state/costs/five-minute/2026-12-10.json')).toEqual({
      day: '2026-12-10',
      budgetMicroUsd: 6000,
      spentMicroUsd: 6000,
      checks: 6,
      parts: {
        notes: { spentMicroUsd: 2000, checks: 2 },
        vault: { spentMicroUsd: 2000, checks: 2 },
        paywall: { spentMicroUsd: 1000, checks: 1 },
        homepage: { spentMicroUsd: 1000, checks: 1 },
      },
      stopped: { part: 'paywall', estimateMicroUsd: 1000, spentMicroUsd: 6000 },
    });
    // The daily ledger is separate: the day's four daily checks, nothing of the five-minute ones.
    expect(await getJson(storage, 'state/costs/daily/2026-12-10.json')).toMatchObject({
      budgetMicroUsd: 100_000,
      spentMicroUsd: 4000,
      checks: 4,
    });

    // Later rounds that day send nothing and write nothing: a skipped check is not a failure.
    const checksBefore = checksReceivedBy(MEMBERS);
    for (const time of ['00:20', '00:25', '06:00', '23:55']) {
      clock.set(`2026-12-10T${time}:00Z`);
      expect(await scheduler.tick()).not.toContain('five-minute');
    }
    // Only the hourly checks of 06 and 23 reached the servers.
    expect(checksReceivedBy(MEMBERS) - checksBefore).toBe(2 * MEMBERS.length);
    expect(await counters(storage, '2026-12-10')).toEqual(capped);

    // The next UTC day has a fresh budget: the five-minute checks run again.
    clock.set('2026-12-11T00:10:00Z');
    expect(await scheduler.tick()).toContain('five-minute');
    expect(await counters(storage, '2026-12-11')).toEqual({
      notes: { answered: 1, checks: 1 },
      vault: { answered: 1, checks: 1 },
      paywall: { answered: 1, checks: 1 },
      homepage: { answered: 0, checks: 1 },
    });
    expect(await getJson(storage, 'state/costs/five-minute/2026-12-11.json')).toMatchObject({
      spentMicroUsd: 4000,
      checks: 4,
      stopped: null,
    });
    // The capped day's counters stay as they were.
    expect(await counters(storage, '2026-12-10')).toEqual(capped);
  });

  it('keep their counters 92 UTC days, not 92 entries: 91 days back stays, 92 and 93 go', async () => {
    const storage = createMemoryStorage();
    const servers = ['notes'].map((id) => ({
      id,
      url: fleet.members.find((m) => m.id === id)!.url,
      source: 'registry' as const,
    }));
    await putJson(storage, 'state/servers.json', { servers });
    await putJson(storage, FIVE_MINUTE_OPT_IN_PATH, { servers: ['notes'] });
    const clock = manualClock('2026-12-01T00:10:00Z');
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
    await scheduler.runDaily('2026-12-01');
    const state = (await getJson(storage, 'state/servers/notes.json')) as Record<string, unknown>;
    // Three sparse old pairs: far fewer than 92 entries, so only a limit in days drops any of them.
    const old = [
      { day: '2026-08-30', answered: 5, checks: 5 }, // 93 days before 2026-12-01
      { day: '2026-08-31', answered: 5, checks: 5 }, // 92 days before
      { day: '2026-09-01', answered: 5, checks: 5 }, // 91 days before
    ];
    await putJson(storage, 'state/servers/notes.json', { ...state, fiveMinute: old });
    expect(await scheduler.tick()).toContain('five-minute');
    const after = (await getJson(storage, 'state/servers/notes.json')) as { fiveMinute: unknown[] };
    // Today's pair also carries the answering check's wall time, for the quality score's percentiles.
    expect(after.fiveMinute).toEqual([
      { day: '2026-09-01', answered: 5, checks: 5 },
      { day: '2026-12-01', answered: 1, checks: 1, latencyMs: [[expect.any(Number), 1]] },
    ]);
  });

  it('with a budget of zero, runs no five-minute check at all', async () => {
    const storage = createMemoryStorage();
    const servers = ['notes'].map((id) => ({
      id,
      url: fleet.members.find((m) => m.id === id)!.url,
      source: 'registry' as const,
    }));
    await putJson(storage, 'state/servers.json', { servers });
    await putJson(storage, FIVE_MINUTE_OPT_IN_PATH, { servers: ['notes'] });
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
      costs: { fiveMinuteBudgetUsd: 0 },
    });
    // The daily check first, so the server has a state for a five-minute check to be counted in.
    await scheduler.runDaily('2026-12-10');
    await scheduler.tick();
    const state = (await getJson(storage, 'state/servers/notes.json')) as { letters: string; fiveMinute: unknown[] };
    expect(state.letters).toBe('o');
    expect(state.fiveMinute).toEqual([]);
    expect(await getJson(storage, 'state/costs/five-minute/2026-12-10.json')).toMatchObject({
      spentMicroUsd: 0,
      checks: 0,
      stopped: { part: 'notes' },
    });
  });
});
