import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import {
  decideRetention,
  isDayClosed,
  isPastRetentionLimit,
  needsAggregateBeforeDelete,
  type RetentionStore,
} from '../src/index.js';
import {
  AGGREGATE_GRACE_MINUTES,
  oldestKeptDay,
  RETENTION_DAYS,
  RETENTION_KEEPS_CURRENT_MONTH,
  RETENTION_NEEDS_AGGREGATE,
  RETENTION_STORES,
} from '../src/retention.js';

// A today late in its month, so that limit - 1, limit and limit + 1 days back all fall in earlier months for
// every store but the 7-day ones (the current-month rule is tested on its own below).
const TODAY = '2026-12-31';
const dayAgo = (age: number, today = TODAY) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - age * 86_400_000).toISOString().slice(0, 10);

describe('the retention policy', () => {
  it("covers the stores of the methodology's list, in its order, with their limits", () => {
    expect(RETENTION_STORES).toEqual([
      'rawSensorBatches',
      'rawDemandRecords',
      'refusedSensorRequests',
      'askMarkers',
      'badgeSightings',
      'viewCounts',
      'dailyCallMarkers',
      'rateCounters',
      'mcpCallLog',
    ]);
    expect(RETENTION_NEEDS_AGGREGATE).toEqual(['rawSensorBatches', 'rawDemandRecords', 'dailyCallMarkers']);
    expect(RETENTION_KEEPS_CURRENT_MONTH).toEqual(['dailyCallMarkers']);
    expect(RETENTION_STORES.filter(needsAggregateBeforeDelete)).toEqual([
      'rawSensorBatches',
      'rawDemandRecords',
      'dailyCallMarkers',
    ]);
  });

  // Hand-computed: a limit of N keeps today and the N - 1 days before; a day N days old goes.
  const cases: [RetentionStore, number, string][] = [
    ['rawSensorBatches', 35, '2026-11-27'],
    ['rawDemandRecords', 35, '2026-11-27'],
    ['refusedSensorRequests', 35, '2026-11-27'],
    ['askMarkers', 30, '2026-12-02'],
    ['badgeSightings', 30, '2026-12-02'],
    ['viewCounts', 90, '2026-10-03'],
    ['dailyCallMarkers', 7, '2026-12-25'],
    ['rateCounters', 7, '2026-12-25'],
    ['mcpCallLog', 30, '2026-12-02'],
  ];

  for (const [store, limit, oldestKept] of cases) {
    it(`${store}: ${limit} days; age ${limit - 1} kept, ${limit} and ${limit + 1} deleted`, () => {
      expect(RETENTION_DAYS[store]).toBe(limit);
      expect(oldestKeptDay(store, TODAY)).toBe(oldestKept);
      expect(dayAgo(limit - 1)).toBe(oldestKept);
      const at = (age: number) => decideRetention({ store, day: dayAgo(age), today: TODAY, aggregateExists: true });
      // dailyCallMarkers: 7 days before 31 December is still December, so the current-month rule keeps it.
      const pastLimit =
        store === 'dailyCallMarkers' ? { action: 'keep', reason: 'current-month' } : { action: 'delete' };
      expect(at(0)).toEqual({ action: 'keep', reason: 'within-limit' });
      expect(at(limit - 1)).toEqual({ action: 'keep', reason: 'within-limit' });
      expect(at(limit)).toEqual(pastLimit);
      expect(at(limit + 1)).toEqual(pastLimit);
      expect(isPastRetentionLimit(store, dayAgo(limit - 1), TODAY)).toBe(false);
      expect(isPastRetentionLimit(store, dayAgo(limit), TODAY)).toBe(store !== 'dailyCallMarkers');
    });
  }

  it("a raw store waits for its day's aggregate; the others never ask", () => {
    for (const store of ['rawSensorBatches', 'rawDemandRecords'] as const) {
      expect(decideRetention({ store, day: dayAgo(35), today: TODAY, aggregateExists: false })).toEqual({
        action: 'keep',
        reason: 'no-aggregate',
      });
      expect(decideRetention({ store, day: dayAgo(400), today: TODAY, aggregateExists: false })).toEqual({
        action: 'keep',
        reason: 'no-aggregate',
      });
      expect(decideRetention({ store, day: dayAgo(35), today: TODAY, aggregateExists: true })).toEqual({
        action: 'delete',
      });
      // Within its limit the aggregate changes nothing.
      expect(decideRetention({ store, day: dayAgo(34), today: TODAY, aggregateExists: true })).toEqual({
        action: 'keep',
        reason: 'within-limit',
      });
    }
    expect(
      decideRetention({ store: 'refusedSensorRequests', day: dayAgo(35), today: TODAY, aggregateExists: false }),
    ).toEqual({ action: 'delete' });
  });

  it('daily-call markers: never a day of the current UTC month, however old; the month before goes at 7 days, once its monthly report exists', () => {
    // Today 2026-12-31: 1 December is 30 days old and kept; 30 November (31 days) goes once November's report exists.
    expect(
      decideRetention({ store: 'dailyCallMarkers', day: '2026-12-01', today: TODAY, aggregateExists: true }),
    ).toEqual({ action: 'keep', reason: 'current-month' });
    expect(
      decideRetention({ store: 'dailyCallMarkers', day: '2026-11-30', today: TODAY, aggregateExists: true }),
    ).toEqual({ action: 'delete' });
    // Without the month's report the markers stay: its count of distinct agents is read from them.
    expect(
      decideRetention({ store: 'dailyCallMarkers', day: '2026-11-30', today: TODAY, aggregateExists: false }),
    ).toEqual({ action: 'keep', reason: 'no-aggregate' });
    // Today 2027-01-07: 31 December is 7 days old and in the month before: gone; 1 January is 6 days old: kept.
    expect(
      decideRetention({ store: 'dailyCallMarkers', day: '2026-12-31', today: '2027-01-07', aggregateExists: true }),
    ).toEqual({ action: 'delete' });
    expect(
      decideRetention({ store: 'dailyCallMarkers', day: '2027-01-01', today: '2027-01-07', aggregateExists: true }),
    ).toEqual({ action: 'keep', reason: 'within-limit' });
    expect(
      decideRetention({ store: 'dailyCallMarkers', day: '2027-01-01', today: '2027-01-08', aggregateExists: true }),
    ).toEqual({ action: 'keep', reason: 'current-month' });
    // Same month number a year earlier is not the current month.
    expect(
      decideRetention({ store: 'dailyCallMarkers', day: '2025-12-31', today: TODAY, aggregateExists: true }),
    ).toEqual({ action: 'delete' });
    // The rate counters have the same 7 days but no month rule and no aggregate.
    expect(decideRetention({ store: 'rateCounters', day: '2026-12-01', today: TODAY, aggregateExists: false })).toEqual(
      { action: 'delete' },
    );
  });

  it('the MCP call log: 30 days, no aggregate', () => {
    // Today 2026-12-31: 2 December is 29 days old (kept); 1 December is 30 days old (deleted).
    expect(decideRetention({ store: 'mcpCallLog', day: '2026-12-02', today: TODAY, aggregateExists: false })).toEqual({
      action: 'keep',
      reason: 'within-limit',
    });
    expect(decideRetention({ store: 'mcpCallLog', day: '2026-12-01', today: TODAY, aggregateExists: false })).toEqual({
      action: 'delete',
    });
    expect(decideRetention({ store: 'mcpCallLog', day: '2026-11-30', today: TODAY, aggregateExists: false })).toEqual({
      action: 'delete',
    });
  });

  it("the methodology's example: with 35 days, the folder of 1 November goes on 6 December", () => {
    expect(
      decideRetention({
        store: 'refusedSensorRequests',
        day: '2026-11-01',
        today: '2026-12-05',
        aggregateExists: false,
      }).action,
    ).toBe('keep');
    expect(
      decideRetention({
        store: 'refusedSensorRequests',
        day: '2026-11-01',
        today: '2026-12-06',
        aggregateExists: false,
      }).action,
    ).toBe('delete');
  });

  it('a day after today is kept', () => {
    expect(decideRetention({ store: 'rateCounters', day: '2027-02-01', today: TODAY, aggregateExists: false })).toEqual(
      { action: 'keep', reason: 'within-limit' },
    );
  });

  it('refuses an unknown store, a bad day and a missing aggregate answer', () => {
    expect(() =>
      decideRetention({ store: 'roots' as never, day: dayAgo(1), today: TODAY, aggregateExists: true }),
    ).toThrow(ReliabilityInputError);
    expect(() =>
      decideRetention({ store: 'toString' as never, day: dayAgo(1), today: TODAY, aggregateExists: true }),
    ).toThrow(/store/);
    expect(() =>
      decideRetention({ store: 'viewCounts', day: '2026-02-30', today: TODAY, aggregateExists: true }),
    ).toThrow(/day/);
    expect(() =>
      decideRetention({ store: 'viewCounts', day: dayAgo(1), today: 'today', aggregateExists: true }),
    ).toThrow(/today/);
    expect(() => decideRetention({ store: 'viewCounts', day: dayAgo(1), today: TODAY } as never)).toThrow(
      /aggregateExists/,
    );
  });
});

describe('a day closes for its aggregates 5 minutes after midnight UTC', () => {
  it('at, just before and after the grace', () => {
    expect(AGGREGATE_GRACE_MINUTES).toBe(5);
    expect(isDayClosed('2026-11-10', new Date('2026-11-10T23:59:59Z'))).toBe(false);
    expect(isDayClosed('2026-11-10', new Date('2026-11-11T00:00:00Z'))).toBe(false);
    expect(isDayClosed('2026-11-10', new Date('2026-11-11T00:04:59.999Z'))).toBe(false);
    expect(isDayClosed('2026-11-10', new Date('2026-11-11T00:05:00Z'))).toBe(true);
    expect(isDayClosed('2026-11-10', new Date('2026-11-11T00:06:00Z'))).toBe(true);
    // Offsets do not matter: the instant does.
    expect(isDayClosed('2026-11-10', new Date('2026-11-11T02:04:00+02:00'))).toBe(false);
    expect(isDayClosed('2026-11-10', new Date('2026-11-11T02:05:00+02:00'))).toBe(true);
  });

  it('refuses a bad day or time', () => {
    expect(() => isDayClosed('2026-11-31', new Date('2026-12-02T00:00:00Z'))).toThrow(ReliabilityInputError);
    expect(() => isDayClosed('2026-11-10', new Date('nope'))).toThrow(/now/);
  });
});

describe('the retention limits', () => {
  it('delete short-lived stores after their published limits', () => {
    expect(RETENTION_DAYS).toEqual({
      rawSensorBatches: 35,
      rawDemandRecords: 35,
      refusedSensorRequests: 35,
      askMarkers: 30,
      badgeSightings: 30,
      viewCounts: 90,
      dailyCallMarkers: 7,
      rateCounters: 7,
      mcpCallLog: 30,
    });
    expect(Object.isFrozen(RETENTION_DAYS)).toBe(true);
  });
});
