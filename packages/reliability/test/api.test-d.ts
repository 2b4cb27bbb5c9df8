import { describe, expectTypeOf, it } from 'vitest';
import {
  type CategoryRanking,
  checkUptime,
  dailyUptime,
  decideIncident,
  type IncidentDecision,
  type Rating,
  type Report,
  rankMostReliable,
  rateServer,
  reportDecay,
  reporterKey,
  reporterWeight,
  speedScore,
  stability,
  starsFor,
  successChance,
} from '../src/index.js';

describe('public types', () => {
  it('pins the signatures users rely on', () => {
    expectTypeOf(dailyUptime).toEqualTypeOf<(letters: string) => number | null>();
    expectTypeOf(checkUptime).toEqualTypeOf<(answered: number, total: number) => number | null>();
    expectTypeOf(successChance).toEqualTypeOf<(letters: string) => number>();
    expectTypeOf(stability).toEqualTypeOf<(changeDaysLast30: number) => number>();
    expectTypeOf(reporterWeight).parameter(0).toEqualTypeOf<{ paid: boolean; agree: number; disagree: number }>();
    expectTypeOf(reportDecay).toEqualTypeOf<(ageDays: number) => number>();
    expectTypeOf(speedScore).toEqualTypeOf<(medianMs: number | null) => number>();
    expectTypeOf(starsFor)
      .parameter(0)
      .toEqualTypeOf<{ reliability: number; accuracy: number; surpriseShare: number; speed: number }>();
    expectTypeOf(rateServer).parameter(1).toEqualTypeOf<Date>();
    expectTypeOf(rateServer).returns.toEqualTypeOf<Rating>();
    expectTypeOf(rankMostReliable).returns.toEqualTypeOf<CategoryRanking[]>();
    expectTypeOf(reporterKey).toEqualTypeOf<(ip: string) => string>();
    expectTypeOf(decideIncident).returns.toEqualTypeOf<IncidentDecision>();
  });

  it('keeps the report fields of the contract', () => {
    expectTypeOf<Report['reason']>().toEqualTypeOf<
      'unreachable' | 'auth' | 'args' | 'server_error' | 'timeout' | 'rate_limited' | 'wrong_result' | null | undefined
    >();
    expectTypeOf<Report['surprise']>().toEqualTypeOf<
      'side_effect' | 'unexpected_cost' | 'data_leak_suspected' | 'other' | null | undefined
    >();
    expectTypeOf<Report['at']>().toEqualTypeOf<Date | string>();
    expectTypeOf<Report['agrees']>().toEqualTypeOf<boolean | 'half' | null | undefined>();
    expectTypeOf<CategoryRanking['ranked'][number]>().toExtend<{ id: string; rank: number; topTenth: boolean }>();
    expectTypeOf<Rating['visible']>().toEqualTypeOf<boolean>();
  });
});
