import { describe, expectTypeOf, it } from 'vitest';
import {
  type CapDecision,
  type CheckCostModel,
  decideCapStart,
  estimateChecksCost,
  type PreviousShardRun,
  planShardOrder,
  priceCheck,
} from '../src/index.js';

describe('public types of the compute caps', () => {
  it('pins the cap rule and the cost model', () => {
    expectTypeOf(priceCheck).toEqualTypeOf<(wallMs: number, model?: CheckCostModel) => number>();
    expectTypeOf(estimateChecksCost).parameter(0).toEqualTypeOf<readonly (number | null)[]>();
    expectTypeOf(decideCapStart).returns.toEqualTypeOf<CapDecision>();
    expectTypeOf<Extract<CapDecision, { start: false }>['reason']>().toEqualTypeOf<
      'over_budget' | 'stopped_for_the_day'
    >();
    expectTypeOf(planShardOrder).toEqualTypeOf<(shards: number, previous: PreviousShardRun | null) => number[]>();
    expectTypeOf<CheckCostModel>().toEqualTypeOf<{ perCheckUsd: number; perSecondUsd: number }>();
  });
});
