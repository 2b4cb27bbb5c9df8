import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import {
  CAP_RESERVATION_STALE_MS,
  CHECK_COST_PER_CHECK_USD,
  CHECK_COST_PER_SECOND_USD,
  CHECK_WALL_MS_WITHOUT_HISTORY,
  DAILY_CHECK_BUDGET_USD,
  DEFAULT_CHECK_COST_MODEL,
  estimateCheckWallMs,
  FIVE_MINUTE_BUDGET_USD,
  MICRO_USD_PER_USD,
  microUsdToUsd,
} from '../src/cost-cap.js';
import {
  chargeSpend,
  decideCapStart,
  estimateChecksCost,
  isReservationLive,
  outstandingEstimate,
  planShardOrder,
  priceCheck,
  usdToMicroUsd,
} from '../src/index.js';

const DAILY_BUDGET = 100_000; // $0.10 in micro-dollars
const FIVE_MINUTE_BUDGET = 250_000; // $0.25

describe('the cost-cap constants', () => {
  it('are the methodology numbers: $0.10 a day for daily checks, $0.25 by default for five-minute checks', () => {
    expect(DAILY_CHECK_BUDGET_USD).toBe(0.1);
    expect(FIVE_MINUTE_BUDGET_USD).toBe(0.25);
    expect(MICRO_USD_PER_USD).toBe(1_000_000);
    expect(usdToMicroUsd(DAILY_CHECK_BUDGET_USD)).toBe(DAILY_BUDGET);
    expect(usdToMicroUsd(FIVE_MINUTE_BUDGET_USD)).toBe(FIVE_MINUTE_BUDGET);
  });

  it('default to $0.00001 per check plus $0.00001 per second, and 8 s for a server never timed', () => {
    expect([CHECK_COST_PER_CHECK_USD, CHECK_COST_PER_SECOND_USD, CHECK_WALL_MS_WITHOUT_HISTORY]).toEqual([
      0.00001, 0.00001, 8000,
    ]);
    expect(DEFAULT_CHECK_COST_MODEL).toEqual({ perCheckUsd: 0.00001, perSecondUsd: 0.00001 });
    expect(Object.isFrozen(DEFAULT_CHECK_COST_MODEL)).toBe(true);
  });
});

describe('dollars and micro-dollars', () => {
  it('round dollars to the nearest whole micro-dollar', () => {
    expect(usdToMicroUsd(0)).toBe(0);
    expect(usdToMicroUsd(0.00001)).toBe(10);
    expect(usdToMicroUsd(0.003)).toBe(3000);
    expect(usdToMicroUsd(0.0000004)).toBe(0);
    expect(usdToMicroUsd(0.0000015)).toBe(2);
    expect(microUsdToUsd(100_000)).toBe(0.1);
    expect(microUsdToUsd(16)).toBe(0.000016);
  });

  it('refuse negative, infinite and non-numeric amounts with a typed error naming the field', () => {
    for (const bad of [-0.01, Number.NaN, Number.POSITIVE_INFINITY, '0.1' as unknown as number]) {
      expect(() => usdToMicroUsd(bad, 'budget')).toThrow(ReliabilityInputError);
    }
    expect(() => usdToMicroUsd(-1, 'budget')).toThrow('budget: expected a finite number >= 0, received -1');
    expect(() => microUsdToUsd(1.5)).toThrow('microUsd: expected a whole number >= 0, received 1.5');
  });
});

describe('priceCheck', () => {
  it('is the fixed part plus the per-second part of the wall time, rounded up (default model)', () => {
    expect(priceCheck(0)).toBe(10);
    expect(priceCheck(1)).toBe(11); // 10 + ceil(0.01)
    expect(priceCheck(100)).toBe(11); // 10 + ceil(1.00)
    expect(priceCheck(101)).toBe(12); // 10 + ceil(1.01)
    expect(priceCheck(600)).toBe(16); // 10 + 6
    expect(priceCheck(8000)).toBe(90); // 10 + 80
    expect(priceCheck(0.2)).toBe(11); // 0.2 ms rounds up to 1 ms
  });

  it('follows a configured model at its per-second boundaries', () => {
    const flat = { perCheckUsd: 0.001, perSecondUsd: 0 };
    expect(priceCheck(0, flat)).toBe(1000);
    expect(priceCheck(30_000, flat)).toBe(1000);
    const timed = { perCheckUsd: 0, perSecondUsd: 0.000003 }; // 3 micro-dollars a second
    expect(priceCheck(333, timed)).toBe(1); // ceil(0.999)
    expect(priceCheck(334, timed)).toBe(2); // ceil(1.002)
    expect(priceCheck(1000, timed)).toBe(3);
    expect(priceCheck(1001, timed)).toBe(4); // ceil(3.003)
  });

  it('refuses a negative wall time or a model without numbers', () => {
    expect(() => priceCheck(-1)).toThrow('wallMs: expected a finite number >= 0, received -1');
    expect(() => priceCheck(10, { perCheckUsd: 0.00001 } as never)).toThrow(
      'model.perSecondUsd: expected a finite number >= 0, received undefined',
    );
  });
});

describe('estimates before a check starts', () => {
  it('use the last measured wall time, or 8 s for a server never timed', () => {
    expect(estimateCheckWallMs(420)).toBe(420);
    expect(estimateCheckWallMs(0)).toBe(0);
    expect(estimateCheckWallMs(null)).toBe(8000);
    expect(estimateCheckWallMs(undefined)).toBe(8000);
    expect(() => estimateCheckWallMs(-5)).toThrow(ReliabilityInputError);
  });

  it('sum the price of each server', () => {
    expect(estimateChecksCost([])).toBe(0);
    expect(estimateChecksCost([600, null])).toBe(106); // 16 + 90
    expect(estimateChecksCost([0, 0, 0], { perCheckUsd: 0.001, perSecondUsd: 0 })).toBe(3000);
    expect(() => estimateChecksCost('600' as never)).toThrow(ReliabilityInputError);
  });
});

describe('decideCapStart (start when spend + estimate <= budget)', () => {
  it('starts at exactly the budget and not one micro-dollar past it', () => {
    expect(decideCapStart({ spentMicroUsd: 70_000, estimateMicroUsd: 30_000, budgetMicroUsd: DAILY_BUDGET })).toEqual({
      start: true,
      afterMicroUsd: 100_000,
      budgetMicroUsd: 100_000,
    });
    expect(
      decideCapStart({ spentMicroUsd: 69_999, estimateMicroUsd: 30_000, budgetMicroUsd: DAILY_BUDGET }).start,
    ).toBe(true);
    expect(decideCapStart({ spentMicroUsd: 70_001, estimateMicroUsd: 30_000, budgetMicroUsd: DAILY_BUDGET })).toEqual({
      start: false,
      reason: 'over_budget',
      afterMicroUsd: 100_001,
      budgetMicroUsd: 100_000,
    });
    expect(
      decideCapStart({ spentMicroUsd: 70_000, estimateMicroUsd: 30_001, budgetMicroUsd: DAILY_BUDGET }).start,
    ).toBe(false);
  });

  it('lets free work start while the spend is at the budget, not once it is past it', () => {
    expect(decideCapStart({ spentMicroUsd: 100_000, estimateMicroUsd: 0, budgetMicroUsd: DAILY_BUDGET }).start).toBe(
      true,
    );
    expect(decideCapStart({ spentMicroUsd: 100_001, estimateMicroUsd: 0, budgetMicroUsd: DAILY_BUDGET }).start).toBe(
      false,
    );
  });

  it('with a zero budget starts only free work', () => {
    expect(decideCapStart({ spentMicroUsd: 0, estimateMicroUsd: 0, budgetMicroUsd: 0 }).start).toBe(true);
    expect(decideCapStart({ spentMicroUsd: 0, estimateMicroUsd: 1, budgetMicroUsd: 0 }).start).toBe(false);
  });

  it('starts nothing more on a day once a start was refused, even work that would fit', () => {
    expect(
      decideCapStart({ spentMicroUsd: 10, estimateMicroUsd: 10, budgetMicroUsd: DAILY_BUDGET, refusedToday: true }),
    ).toEqual({
      start: false,
      reason: 'stopped_for_the_day',
      afterMicroUsd: 20,
      budgetMicroUsd: 100_000,
    });
  });

  it('fits 6,250 checks of 600 ms in the default daily budget and 15,625 in the five-minute one', () => {
    const daily = estimateChecksCost(new Array<number>(6250).fill(600));
    expect(daily).toBe(100_000);
    expect(decideCapStart({ spentMicroUsd: 0, estimateMicroUsd: daily, budgetMicroUsd: DAILY_BUDGET }).start).toBe(
      true,
    );
    expect(
      decideCapStart({ spentMicroUsd: 0, estimateMicroUsd: daily + priceCheck(600), budgetMicroUsd: DAILY_BUDGET })
        .start,
    ).toBe(false);
    expect(estimateChecksCost(new Array<number>(15_625).fill(600))).toBe(FIVE_MINUTE_BUDGET);
  });

  it('refuses amounts that are not whole micro-dollars', () => {
    expect(() => decideCapStart({ spentMicroUsd: 0.5, estimateMicroUsd: 0, budgetMicroUsd: 1 })).toThrow(
      'spentMicroUsd: expected a whole number >= 0, received 0.5',
    );
    expect(() => decideCapStart({ spentMicroUsd: 0, estimateMicroUsd: -1, budgetMicroUsd: 1 })).toThrow(
      ReliabilityInputError,
    );
    expect(() => decideCapStart({ spentMicroUsd: 0, estimateMicroUsd: 0, budgetMicroUsd: Number.NaN })).toThrow(
      ReliabilityInputError,
    );
  });
});

describe('chargeSpend', () => {
  it('adds one check and its cost, leaving the input as it was', () => {
    const before = { spentMicroUsd: 16, checks: 1 };
    expect(chargeSpend(before, 90)).toEqual({ spentMicroUsd: 106, checks: 2 });
    expect(before).toEqual({ spentMicroUsd: 16, checks: 1 });
    expect(chargeSpend({ spentMicroUsd: 0, checks: 0 }, 0)).toEqual({ spentMicroUsd: 0, checks: 1 });
    expect(() => chargeSpend(before, 1.5)).toThrow('costMicroUsd: expected a whole number >= 0, received 1.5');
  });
});

describe('planShardOrder', () => {
  it('runs 0, 1, 2, ... with no previous day', () => {
    expect(planShardOrder(4, null)).toEqual([0, 1, 2, 3]);
    expect(planShardOrder(1, null)).toEqual([0]);
  });

  it('starts with the first shard the previous day left undone, then goes round', () => {
    expect(planShardOrder(8, { shards: 8, order: [0, 1, 2, 3, 4, 5, 6, 7], skipped: [5, 6, 7] })).toEqual([
      5, 6, 7, 0, 1, 2, 3, 4,
    ]);
    expect(planShardOrder(8, { shards: 8, order: [5, 6, 7, 0, 1, 2, 3, 4], skipped: [2, 3, 4] })).toEqual([
      2, 3, 4, 5, 6, 7, 0, 1,
    ]);
    // The first undone shard in the previous day's order, not the lowest number.
    expect(planShardOrder(8, { shards: 8, order: [5, 6, 7, 0, 1, 2, 3, 4], skipped: [7, 0, 1, 2, 3, 4] })).toEqual([
      7, 0, 1, 2, 3, 4, 5, 6,
    ]);
  });

  it('keeps the previous start after a day that ran every shard', () => {
    expect(planShardOrder(4, { shards: 4, order: [2, 3, 0, 1], skipped: [] })).toEqual([2, 3, 0, 1]);
  });

  it('starts again from 0 when the number of shards changed', () => {
    expect(planShardOrder(4, { shards: 8, order: [5, 6, 7, 0, 1, 2, 3, 4], skipped: [7] })).toEqual([0, 1, 2, 3]);
  });

  it('refuses a shard count below 1 and shard numbers outside the previous count', () => {
    expect(() => planShardOrder(0, null)).toThrow('shards: expected at least 1 shard, received 0');
    expect(() => planShardOrder(4, { shards: 4, order: [0, 1, 2, 4], skipped: [] })).toThrow(
      'previous.order[3]: expected a shard below 4, received 4',
    );
    expect(() => planShardOrder(4, { shards: 4, order: [0, 1, 2, 3], skipped: 'all' as never })).toThrow(
      ReliabilityInputError,
    );
  });

  it('starves no shard: with room for 5 of 8 equal shards a day, every shard runs at least every other day', () => {
    const shardCost = 20_000;
    let previous: { shards: number; order: number[]; skipped: number[] } | null = null;
    const lastRun = new Map<number, number>();
    for (let day = 0; day < 12; day++) {
      const order = planShardOrder(8, previous);
      let spent = 0;
      let refused = false;
      const skipped: number[] = [];
      for (const shard of order) {
        const decision = decideCapStart({
          spentMicroUsd: spent,
          estimateMicroUsd: shardCost,
          budgetMicroUsd: DAILY_BUDGET,
          refusedToday: refused,
        });
        if (!decision.start) {
          refused = true;
          skipped.push(shard);
          continue;
        }
        spent += shardCost;
        lastRun.set(shard, day);
      }
      expect(spent).toBe(100_000);
      expect(skipped).toHaveLength(3);
      for (let shard = 0; shard < 8; shard++)
        if (day >= 1) expect(day - (lastRun.get(shard) ?? -1), `shard ${shard} on day ${day}`).toBeLessThanOrEqual(1);
      previous = { shards: 8, order, skipped };
    }
  });
});

describe('outstandingEstimate (what started work may still cost)', () => {
  it('is the estimate less the charges so far, at and around the estimate', () => {
    expect(outstandingEstimate(30_000, 0)).toBe(30_000);
    expect(outstandingEstimate(30_000, 1)).toBe(29_999);
    expect(outstandingEstimate(30_000, 29_999)).toBe(1);
    expect(outstandingEstimate(30_000, 30_000)).toBe(0);
    expect(outstandingEstimate(30_000, 30_001)).toBe(0);
    expect(outstandingEstimate(0, 0)).toBe(0);
  });

  it('counts a running shard once with the cap rule: its charges plus what is left of its estimate', () => {
    // 60,000 charged today, 20,000 of it by a shard estimated at 30,000 that is still running: 70,000 counted.
    const counted = 60_000 + outstandingEstimate(30_000, 20_000);
    expect(decideCapStart({ spentMicroUsd: counted, estimateMicroUsd: 30_000, budgetMicroUsd: DAILY_BUDGET })).toEqual({
      start: true,
      afterMicroUsd: 100_000,
      budgetMicroUsd: DAILY_BUDGET,
    });
    // One micro-dollar more charged elsewhere, and the next shard no longer fits.
    const over = 60_001 + outstandingEstimate(30_000, 20_000);
    expect(decideCapStart({ spentMicroUsd: over, estimateMicroUsd: 30_000, budgetMicroUsd: DAILY_BUDGET }).start).toBe(
      false,
    );
  });

  it('refuses amounts that are not whole micro-dollars >= 0', () => {
    for (const bad of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => outstandingEstimate(bad, 0)).toThrow(ReliabilityInputError);
      expect(() => outstandingEstimate(0, bad)).toThrow(ReliabilityInputError);
    }
  });
});

describe('isReservationLive (several workers on one ledger)', () => {
  const alive = '2026-12-09T06:00:00.000Z';
  const at = (ms: number) => new Date(Date.parse(alive) + ms);

  it('is 15 minutes, written out', () => {
    expect(CAP_RESERVATION_STALE_MS).toBe(900_000);
  });

  it('counts a reservation up to and exactly at 15 minutes of silence, and not 1 ms past it', () => {
    expect(isReservationLive(alive, at(0))).toBe(true);
    expect(isReservationLive(alive, at(899_999))).toBe(true);
    expect(isReservationLive(alive, at(900_000))).toBe(true);
    expect(isReservationLive(alive, at(900_001))).toBe(false);
    expect(isReservationLive(new Date(alive), at(900_001))).toBe(false);
  });

  it('counts a sign of life later than now (two machines whose clocks differ)', () => {
    expect(isReservationLive(alive, at(-60_000))).toBe(true);
  });

  it('refuses a time that is not one', () => {
    expect(() => isReservationLive('yesterday', at(0))).toThrow(ReliabilityInputError);
    expect(() => isReservationLive(alive, new Date(Number.NaN))).toThrow(/now/);
  });
});
