/**
 * Compute caps: what one check costs, whether the next shard (or check) may start within a day's
 * budget, and in which order a day's shards run after a capped day. Pure module: no I/O, no clock;
 * the caller keeps the day's spend and passes it in.
 *
 * Money is counted in whole micro-dollars (millionths of a US dollar) so that sums of many small
 * charges are exact and a comparison with the budget never depends on floating-point rounding.
 */

import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { assertCount, assertNonNegative, describeValue, instantOf } from './validate.js';

/** Micro-dollars in one US dollar. Spend is counted in whole micro-dollars so that sums are exact. */
export const MICRO_USD_PER_USD = 1_000_000;

/** What the daily checks may spend per UTC day, in US dollars; past it the remaining shards wait. */
export const DAILY_CHECK_BUDGET_USD = 0.1;

/** What the five-minute checks may spend per UTC day by default, in US dollars; an operator may set another. */
export const FIVE_MINUTE_BUDGET_USD = 0.25;

/**
 * Our choice (the source rules give no cost model): the fixed part of one check's cost, in US dollars,
 * standing for a function invocation and the requests around the check.
 */
export const CHECK_COST_PER_CHECK_USD = 0.00001;

/** Our choice: the part of one check's cost per second of its wall time, in US dollars. */
export const CHECK_COST_PER_SECOND_USD = 0.00001;

/** The cost model used unless an operator configures another: fixed part plus a part per second. */
export const DEFAULT_CHECK_COST_MODEL = Object.freeze({
  perCheckUsd: CHECK_COST_PER_CHECK_USD,
  perSecondUsd: CHECK_COST_PER_SECOND_USD,
});

/**
 * Our choice: the wall time assumed, when a check's cost is estimated before it starts, for a server
 * never timed before. It is the probe's initialize timeout, so an unknown server is costed as one that
 * makes us wait the longest single step.
 */
export const CHECK_WALL_MS_WITHOUT_HISTORY = 8_000;

/**
 * Our choice: how long a running shard's reservation of its estimate stays counted after its worker's last sign
 * of life (the shard's start, or a charge of one of its checks), when several workers share a day's ledger. Past
 * it the worker is taken for dead and the reservation no longer counts, so a crashed worker cannot hold the day's
 * budget. A live shard charges after every check, and every step of a check has its own timeout (a couple of
 * minutes at worst), so a live worker is never silent this long.
 */
export const CAP_RESERVATION_STALE_MS = 15 * 60 * 1000;

/** What one check costs: a fixed part, plus a part for every second of its wall time (US dollars). */
export interface CheckCostModel {
  perCheckUsd: number;
  perSecondUsd: number;
}

/** Spend so far on one UTC day: micro-dollars charged and the checks they paid for. */
export interface SpendTally {
  spentMicroUsd: number;
  checks: number;
}

/** Input of {@link decideCapStart}, all amounts in whole micro-dollars. */
export interface CapStartInput {
  /**
   * Charged so far today, plus what work already started may still cost: the part of each running unit's
   * estimate its charges have not yet used ({@link outstandingEstimate}).
   */
  spentMicroUsd: number;
  /** The estimated cost of the shard or check that would start. */
  estimateMicroUsd: number;
  /** The day's budget. */
  budgetMicroUsd: number;
  /** True once a start was refused today: from then on nothing more starts until the next UTC day. */
  refusedToday?: boolean;
}

/** Whether the next unit of work may start, and the spend it would bring the day to. */
export type CapDecision =
  | { start: true; afterMicroUsd: number; budgetMicroUsd: number }
  | { start: false; reason: 'over_budget' | 'stopped_for_the_day'; afterMicroUsd: number; budgetMicroUsd: number };

/** How the previous scanned day ran its shards, for {@link planShardOrder}. */
export interface PreviousShardRun {
  /** Shards that day's scan was split into. */
  shards: number;
  /** The order it ran them in. */
  order: readonly number[];
  /** Shards it did not run (the cap stopped the day, or the scan never finished). */
  skipped: readonly number[];
}

/**
 * US dollars to whole micro-dollars, rounded to the nearest one. Throws {@link ReliabilityInputError}
 * (`invalid-number`) unless `usd` is a finite number >= 0.
 *
 * @example
 * usdToMicroUsd(0.1);     // 100000
 * usdToMicroUsd(0.00001); // 10
 */
export function usdToMicroUsd(usd: number, field = 'usd'): number {
  return Math.round(assertNonNegative(usd, field) * MICRO_USD_PER_USD);
}

/**
 * Whole micro-dollars to US dollars, for display.
 *
 * @example
 * microUsdToUsd(100000); // 0.1
 */
export function microUsdToUsd(microUsd: number): number {
  return assertCount(microUsd, 'microUsd') / MICRO_USD_PER_USD;
}

/**
 * The cost of one check in whole micro-dollars: the fixed part plus the per-second part for its wall
 * time, each first rounded to whole micro-dollars (the model's precision), the wall time rounded up to
 * a whole millisecond and the per-second part rounded up, so a check never costs less than the model
 * says. Throws {@link ReliabilityInputError} (`invalid-number`) on a negative or non-finite input.
 *
 * @example
 * priceCheck(600);  // 16 with the default model: 10 + ceil(10 x 600 / 1000)
 * priceCheck(8000); // 90: 10 + 80
 * priceCheck(1);    // 11: 10 + ceil(0.01)
 */
export function priceCheck(wallMs: number, model: CheckCostModel = DEFAULT_CHECK_COST_MODEL): number {
  const ms = Math.ceil(assertNonNegative(wallMs, 'wallMs'));
  const fixed = usdToMicroUsd(model?.perCheckUsd, 'model.perCheckUsd');
  const perSecond = usdToMicroUsd(model?.perSecondUsd, 'model.perSecondUsd');
  // perSecond x ms is an exact integer, so the one division and its ceiling are exact too.
  return fixed + Math.ceil((perSecond * ms) / 1000);
}

/**
 * The wall time to assume for a check before it starts: the server's last measured check, or
 * CHECK_WALL_MS_WITHOUT_HISTORY (8,000 ms) for a server never timed.
 *
 * @example
 * estimateCheckWallMs(420);  // 420
 * estimateCheckWallMs(null); // 8000
 */
export function estimateCheckWallMs(lastWallMs: number | null | undefined): number {
  if (lastWallMs === null || lastWallMs === undefined) return CHECK_WALL_MS_WITHOUT_HISTORY;
  return assertNonNegative(lastWallMs, 'lastWallMs');
}

/**
 * The estimated cost, in whole micro-dollars, of checking servers whose last wall times are given
 * (null for a server never timed): the sum of {@link priceCheck} over {@link estimateCheckWallMs}.
 *
 * @example
 * estimateChecksCost([600, null]); // 106: 16 + 90
 */
export function estimateChecksCost(
  lastWallMs: readonly (number | null)[],
  model: CheckCostModel = DEFAULT_CHECK_COST_MODEL,
): number {
  if (!Array.isArray(lastWallMs)) {
    throw new ReliabilityInputError(
      'invalid-number',
      'lastWallMs',
      `expected an array of wall times or nulls, received ${describeValue(lastWallMs)}`,
    );
  }
  let total = 0;
  for (const ms of lastWallMs) total += priceCheck(estimateCheckWallMs(ms), model);
  return total;
}

/**
 * The cap rule. A shard (or a five-minute check) starts only when the day's spend plus its estimated
 * cost stays at or under the budget: exactly at the budget it starts, one micro-dollar over it does
 * not. Work is never cut short once started, so the day can end past the budget only by what a
 * started shard cost beyond its estimate. The first refusal stops the day: nothing else starts
 * before the next UTC day, even work that would fit (`refusedToday`), so the shards left over are
 * exactly the ones after the stop and tomorrow can start with them. Amounts must be whole
 * micro-dollars >= 0, or {@link ReliabilityInputError} (`invalid-number`) is thrown.
 *
 * @example
 * decideCapStart({ spentMicroUsd: 70000, estimateMicroUsd: 30000, budgetMicroUsd: 100000 });
 * // { start: true, afterMicroUsd: 100000, budgetMicroUsd: 100000 }
 * decideCapStart({ spentMicroUsd: 70001, estimateMicroUsd: 30000, budgetMicroUsd: 100000 });
 * // { start: false, reason: 'over_budget', afterMicroUsd: 100001, budgetMicroUsd: 100000 }
 */
export function decideCapStart(input: CapStartInput): CapDecision {
  const spent = assertCount(input?.spentMicroUsd, 'spentMicroUsd');
  const estimate = assertCount(input.estimateMicroUsd, 'estimateMicroUsd');
  const budget = assertCount(input.budgetMicroUsd, 'budgetMicroUsd');
  const afterMicroUsd = spent + estimate;
  if (input.refusedToday === true)
    return { start: false, reason: 'stopped_for_the_day', afterMicroUsd, budgetMicroUsd: budget };
  if (afterMicroUsd > budget) return { start: false, reason: 'over_budget', afterMicroUsd, budgetMicroUsd: budget };
  return { start: true, afterMicroUsd, budgetMicroUsd: budget };
}

/**
 * What a running unit of work (a shard, a check) may still cost: its estimate less what it has charged so far,
 * never below zero. The cap counts this for work already started, on top of the day's charges, so a running
 * shard's checks are counted once: as charges once made, in its estimate until then. A shard that has charged
 * its whole estimate or more adds nothing more (its charges, already counted, are the best measure of it).
 * Amounts must be whole micro-dollars >= 0, or {@link ReliabilityInputError} (`invalid-number`) is thrown.
 *
 * @example
 * outstandingEstimate(30000, 0);     // 30000: nothing charged yet
 * outstandingEstimate(30000, 29999); // 1
 * outstandingEstimate(30000, 30000); // 0
 * outstandingEstimate(30000, 31000); // 0: it cost more than estimated, and its charges say so
 */
export function outstandingEstimate(estimateMicroUsd: number, chargedMicroUsd: number): number {
  const estimate = assertCount(estimateMicroUsd, 'estimateMicroUsd');
  const charged = assertCount(chargedMicroUsd, 'chargedMicroUsd');
  return Math.max(0, estimate - charged);
}

/**
 * Whether a running shard's reservation still counts at `now`, given its worker's last sign of life `aliveAt` (a
 * Date or an ISO 8601 instant with offset): it does up to and exactly at {@link CAP_RESERVATION_STALE_MS} of
 * silence, and not one millisecond past it. A sign of life later than `now` (two machines' clocks apart) counts.
 * Throws {@link ReliabilityInputError} (`invalid-date`) for a time that is neither.
 *
 * @example
 * isReservationLive('2026-12-09T06:00:00Z', new Date('2026-12-09T06:15:00Z'));     // true
 * isReservationLive('2026-12-09T06:00:00Z', new Date('2026-12-09T06:15:00.001Z')); // false
 */
export function isReservationLive(aliveAt: string | Date, now: Date): boolean {
  return instantOf(now, 'now') - instantOf(aliveAt, 'aliveAt') <= CAP_RESERVATION_STALE_MS;
}

/**
 * Adds one finished check's cost to the day's tally (a new object; the input is left as it was).
 *
 * @example
 * chargeSpend({ spentMicroUsd: 16, checks: 1 }, 90); // { spentMicroUsd: 106, checks: 2 }
 */
export function chargeSpend(tally: SpendTally, costMicroUsd: number): SpendTally {
  return {
    spentMicroUsd: assertCount(tally?.spentMicroUsd, 'tally.spentMicroUsd') + assertCount(costMicroUsd, 'costMicroUsd'),
    checks: assertCount(tally.checks, 'tally.checks') + 1,
  };
}

/**
 * The order to run a day's shards in, so that no shard is starved by the cap day after day. The day
 * starts with the first shard the previous scanned day left undone and goes round from there
 * (5, 6, 7, 0, 1, ... after a day that stopped before shard 5 of 8); after a day that ran every shard
 * it keeps that day's starting shard. With no previous day, or when the number of shards changed, it
 * is 0, 1, 2, ... Throws {@link ReliabilityInputError} (`invalid-number`) on a shard count below 1 or
 * a previous run that names shards outside its own count.
 *
 * @example
 * planShardOrder(4, null);                                             // [0, 1, 2, 3]
 * planShardOrder(4, { shards: 4, order: [0, 1, 2, 3], skipped: [2, 3] }); // [2, 3, 0, 1]
 * planShardOrder(4, { shards: 4, order: [2, 3, 0, 1], skipped: [] });     // [2, 3, 0, 1]
 */
export function planShardOrder(shards: number, previous: PreviousShardRun | null): number[] {
  if (assertCount(shards, 'shards') < 1) {
    throw new ReliabilityInputError('invalid-number', 'shards', `expected at least 1 shard, received ${shards}`);
  }
  const start = previous === null ? 0 : startAfter(previous, shards);
  return Array.from({ length: shards }, (_, i) => (start + i) % shards);
}

function startAfter(previous: PreviousShardRun, shards: number): number {
  const count = assertCount(previous.shards, 'previous.shards');
  const inRange = (list: unknown, field: string): readonly number[] => {
    if (!Array.isArray(list))
      throw new ReliabilityInputError(
        'invalid-number',
        field,
        `expected an array of shard numbers, received ${describeValue(list)}`,
      );
    list.forEach((shard, i) => {
      if (assertCount(shard, `${field}[${i}]`) >= count) {
        throw new ReliabilityInputError(
          'invalid-number',
          `${field}[${i}]`,
          `expected a shard below ${count}, received ${shard}`,
        );
      }
    });
    return list as readonly number[];
  };
  const order = inRange(previous.order, 'previous.order');
  const skipped = new Set(inRange(previous.skipped, 'previous.skipped'));
  // A different shard count puts every server in a new shard, so yesterday's numbers mean nothing today.
  if (count !== shards || order.length === 0) return 0;
  return order.find((shard) => skipped.has(shard)) ?? (order[0] as number);
}
