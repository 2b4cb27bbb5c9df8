// Reliability from every hourly check. A real MCP host on loopback, checked by the real schedule on a simulated
// clock for a week of hourly checks and no five-minute checks: the daily score counts all of them (the hourly
// file keeps only two observations, but a tally of every check per day), so reliability is scored and the uptime
// badge and the dimension read the same numbers. Then records made by the schedule's own entry builder with set
// wall times: hand-computed uptime, p50 and p95, and the score's gate at 9 and 10 checks.
import { type ProbeResult, probeServer } from '@mcp-atlas/probe';
import { scoreServer } from '@mcp-atlas/score';
import { RELIABILITY_RULES } from '@mcp-atlas/score/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDayResults } from '../src/data/day-results.js';
import { HOURLY_PATH } from '../src/data/paths.js';
import { HourlyFileSchema, type ServerDayResult } from '../src/data/schemas.js';
import { readDayScores } from '../src/score/day-scores.js';
import { scoreInputsOf } from '../src/score/score-inputs.js';
import { type HourlyEntry, nextHourlyEntry, writeHourlyFile } from '../src/serve/hourly-entry.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { getJson, putJson, type Storage } from '../src/storage/storage.js';
import { loopbackScheduler } from './fixtures/loopback-scheduler.js';
import { manualClock } from './fixtures/manual-clock.js';
import { type OwnerHost, startOwnerHost } from './fixtures/submission-world.js';

/** Nearest-rank percentile, written out here so the test does not lean on the code it checks. */
function nearestRank(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1] as number;
}

async function hourlyEntryOf(storage: Storage, id: string): Promise<HourlyEntry | undefined> {
  return HourlyFileSchema.parse(await getJson(storage, HOURLY_PATH)).results[id];
}

describe('a week of hourly checks through the schedule, no five-minute checks', () => {
  let host: OwnerHost;
  const storage = createMemoryStorage();
  /** The wall time of every hourly check of the window that answered, read from its observation as it was made. */
  const hourlyTimes: number[] = [];
  let hourlyChecks = 0;

  beforeAll(async () => {
    host = await startOwnerHost();
    await putJson(storage, 'state/servers.json', { servers: [{ id: 'recipes', url: host.url, source: 'registry' }] });
    const clock = manualClock('2026-12-01T00:30:00Z');
    const scheduler = await loopbackScheduler(storage, clock);
    // 2026-12-01 00:30 to 2026-12-07 23:30: a daily check on each day's first tick, an hourly check every hour.
    for (let hour = 0; hour < 7 * 24; hour++) {
      const at = new Date(Date.parse('2026-12-01T00:30:00Z') + hour * 3_600_000);
      clock.set(at.toISOString());
      // One hourly check fails: 2026-12-04 at 10:30 the host answers 503.
      host.state.down = at.toISOString() === '2026-12-04T10:30:00.000Z';
      const done = await scheduler.tick();
      expect(done).toContain('hourly');
      const entry = await hourlyEntryOf(storage, 'recipes');
      // The window of the 2026-12-08 score is 2026-12-02 to 2026-12-08.
      if (at.toISOString() < '2026-12-02') continue;
      hourlyChecks += 1;
      if (entry?.letter === 'o') hourlyTimes.push(entry.elapsedMs as number);
    }
    host.state.down = false;
    // The daily check of 2026-12-08, run as the schedule runs it, folds and scores the day.
    clock.set('2026-12-08T00:10:00Z');
    expect(await scheduler.runDaily('2026-12-08')).toBe(true);
  }, 600_000);

  afterAll(async () => {
    await host.close();
  });

  it('counts every check of the window: 7 daily and 144 hourly, one of them failed', async () => {
    expect(hourlyChecks).toBe(144);
    expect(hourlyTimes).toHaveLength(143);
    const results = [...(await readDayResults(storage, '2026-12-08')).values()];
    const [gathered] = await scoreInputsOf(storage, { day: '2026-12-08', results, servers: [] });
    const dailyTimes: number[] = [];
    for (let d = 2; d <= 8; d++) {
      const daily = (await readDayResults(storage, `2026-12-0${d}`)).get('recipes') as ServerDayResult;
      expect(daily.letter).toBe('o');
      dailyTimes.push(daily.elapsedMs);
    }
    const times = [...dailyTimes, ...hourlyTimes];
    console.info(`a week of hourly checks: ${JSON.stringify(gathered?.input.reliability)}`);
    // 151 checks, 150 answered: 99.337...%. The percentiles are those of the 150 wall times, each check once (the
    // tally rounds to whole milliseconds, as the hourly observation does; the daily times are kept whole).
    expect(gathered?.input.reliability).toEqual({
      uptimePct: (150 * 100) / 151,
      latencyP50Ms: nearestRank(times, 50),
      latencyP95Ms: nearestRank(times, 95),
      probeCount: 151,
    });
  });

  it('scores reliability in the day file, and the uptime badge reads the same uptime', async () => {
    const score = (await readDayScores(storage, '2026-12-08')).get('recipes');
    console.info(
      `a week of hourly checks: reliability ${score?.categories.reliability}, tier ${score?.visibilityLevel}`,
    );
    expect(score?.categories.reliability).toEqual(expect.any(Number));
    // Uptime weighs 75%: 99.34 * 0.75 = 74.5; latency adds at least 2.5 (the curve's floor of 10, weighted 25%).
    expect(score?.categories.reliability).toBeGreaterThanOrEqual(77);
    // Schema quality, protocol, reliability and security scored; docs and maintenance pending (no repository reader).
    expect(score?.dimensionsScored).toBe(4);
    expect(score?.dimensionsApplicable).toBe(5);
    expect(score?.badges.reliability.map((b) => b.key)).toContain('high_uptime');
  });

  it('keeps the 24-hour, 7-day and 30-day uptime with the score, the 7-day one the score’s own', async () => {
    const score = (await readDayScores(storage, '2026-12-08')).get('recipes');
    expect(score?.uptime).toEqual({
      // 2026-12-08 has only its daily check so far.
      last24h: { uptimePct: 100, checks: 1 },
      // The reliability window's 151 checks, 150 answered, as above.
      last7d: { uptimePct: (150 * 100) / 151, checks: 151 },
      // Every check since 2026-12-01: 8 daily and 168 hourly, one failed.
      last30d: { uptimePct: (175 * 100) / 176, checks: 176 },
    });
  });
});

describe('hourly records with set wall times, scored as the day score reads them', () => {
  const DAY = '2026-12-08';
  let host: OwnerHost;
  let daily: ServerDayResult;
  /** Real probe results of the loopback host: answering, and answering 503. */
  let up: ProbeResult;
  let down: ProbeResult;

  beforeAll(async () => {
    host = await startOwnerHost();
    const storage = createMemoryStorage();
    await putJson(storage, 'state/servers.json', { servers: [{ id: 'recipes', url: host.url, source: 'registry' }] });
    const clock = manualClock(`${DAY}T00:05:00Z`);
    const scheduler = await loopbackScheduler(storage, clock);
    expect(await scheduler.runDaily(DAY)).toBe(true);
    daily = (await readDayResults(storage, DAY)).get('recipes') as ServerDayResult;
    up = await probeServer(host.url, { allowPrivate: true });
    host.state.down = true;
    down = await probeServer(host.url, { allowPrivate: true });
    host.state.down = false;
    expect([up.letter, down.letter]).toEqual(['o', 'd']);
  }, 120_000);

  afterAll(async () => {
    await host.close();
  });

  /**
   * A store holding `daily` (at 300 ms) as the day's check and the hourly file the schedule's entry builder leaves
   * after one check per hour, the real probe results with these wall times set (`null`: the 503 answer), then the
   * day's score input.
   */
  async function reliabilityAfter(times: readonly (number | null)[]) {
    const storage = createMemoryStorage();
    let entry: HourlyEntry | undefined;
    times.forEach((ms, hour) => {
      const at = `${DAY}T${String(hour + 1).padStart(2, '0')}:00:00.000Z`;
      const result: ProbeResult = ms === null ? down : { ...up, elapsedMs: ms };
      entry = nextHourlyEntry(entry, result, at);
    });
    if (entry !== undefined) await writeHourlyFile(storage, `${DAY}T23`, { recipes: entry });
    const [gathered] = await scoreInputsOf(storage, {
      day: DAY,
      results: [{ ...daily, elapsedMs: 300 }],
      servers: [],
    });
    return gathered?.input ?? null;
  }

  it('gives the hand-computed uptime and percentiles of 21 checks, of which two failed', async () => {
    // The daily check at 300 ms, and 20 hourly checks: 10 at 100 ms, 6 at 250 ms, 2 at 1,200 ms, 2 failed.
    const hourly = [...Array(10).fill(100), ...Array(6).fill(250), 1200, 1200, null, null];
    const input = await reliabilityAfter(hourly);
    // 21 checks, 19 answered. Times fastest first: 10 x 100, 6 x 250, 300, 2 x 1,200. p50 is the ceil(9.5) = 10th
    // (100); p95 the ceil(18.05) = 19th (1,200).
    expect(input?.reliability).toEqual({
      uptimePct: (19 * 100) / 21,
      latencyP50Ms: 100,
      latencyP95Ms: 1200,
      probeCount: 21,
    });
    const reliability = scoreServer(input as NonNullable<typeof input>).categories.reliability;
    // 1,200 ms on the latency curve: 50 + (200 / 1,000) * (25 - 50) = 45. trunc(90.476 * 0.75 + 100 * 0.15 +
    // 45 * 0.10) = trunc(87.357) = 87.
    expect(reliability).toBe(87);
  });

  it('stays pending at 9 checks (the daily and 8 hourly) and is scored at 10', async () => {
    expect(RELIABILITY_RULES.minimumProbeCount).toBe(10);
    const nine = await reliabilityAfter(Array(8).fill(150));
    expect(nine?.reliability?.probeCount).toBe(9);
    const pending = scoreServer(nine as NonNullable<typeof nine>);
    expect(pending.categories.reliability).toBeNull();
    // The badge reads the same input: 100% uptime, though the dimension waits for its tenth check.
    expect(pending.badges.reliability.map((b) => b.key)).toContain('high_uptime');

    const ten = await reliabilityAfter(Array(9).fill(150));
    expect(ten?.reliability).toEqual({ uptimePct: 100, latencyP50Ms: 150, latencyP95Ms: 300, probeCount: 10 });
    // 150 ms scores 95 and 300 ms 83 on the latency curve: trunc(100 * 0.75 + 95 * 0.15 + 83 * 0.10) = trunc(97.55) = 97.
    expect(scoreServer(ten as NonNullable<typeof ten>).categories.reliability).toBe(97);
  });
});
