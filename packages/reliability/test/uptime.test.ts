import { describe, expect, it } from 'vitest';
import {
  checkUptime,
  dailyUptime,
  decideUptimeDistribution,
  describeUptime,
  labelUptimePeriod,
  ReliabilityInputError,
} from '../src/index.js';
import { usesFiveMinuteFigure } from '../src/uptime.js';

describe('dailyUptime', () => {
  it('is null when no day was observed', () => {
    expect(dailyUptime('')).toBeNull();
    expect(dailyUptime('nnn')).toBeNull();
  });

  it('is 100 x (observed days not d) / observed days, with n days left out', () => {
    expect(dailyUptime('o')).toBe(100);
    expect(dailyUptime('ooood')).toBe(80);
    expect(dailyUptime('od')).toBe(50);
    expect(dailyUptime('ond')).toBe(50);
    expect(dailyUptime('nnnnd')).toBe(0);
    expect(dailyUptime('o'.repeat(30))).toBe(100);
  });

  it('counts sign-in and payment days as up', () => {
    expect(dailyUptime('oap')).toBe(100);
    expect(dailyUptime('apd')).toBe(66.7);
  });

  it('rounds to one decimal, halves upward', () => {
    expect(dailyUptime(`${'o'.repeat(29)}d`)).toBe(96.7); // 96.666...
    expect(dailyUptime('odd')).toBe(33.3); // 33.333...
    expect(dailyUptime(`o${'d'.repeat(7)}`)).toBe(12.5); // exact
    expect(dailyUptime(`o${'d'.repeat(15)}`)).toBe(6.3); // 6.25 rounds up
    expect(dailyUptime(`${'o'.repeat(15)}d`)).toBe(93.8); // 93.75 rounds up
  });

  it('throws on letters it cannot read', () => {
    expect(() => dailyUptime('oxo')).toThrow(ReliabilityInputError);
    expect(() => dailyUptime('o'.repeat(31))).toThrow(/at most 30/);
  });
});

describe('checkUptime', () => {
  it('is null with no checks', () => {
    expect(checkUptime(0, 0)).toBeNull();
  });

  it('is 100 only when every check answered', () => {
    expect(checkUptime(12, 12)).toBe(100);
    expect(checkUptime(8640, 8640)).toBe(100);
  });

  it('never rounds a missed check up to 100: the cap is 99.9', () => {
    expect(checkUptime(1999, 2000)).toBe(99.9); // 99.95 would round to 100.0
    expect(checkUptime(8639, 8640)).toBe(99.9); // 99.988...
    expect(checkUptime(19_999, 20_000)).toBe(99.9); // 99.995
    expect(checkUptime(25_919, 25_920)).toBe(99.9); // 90 days of five-minute checks, one missed
  });

  it('rounds normally just below the cap', () => {
    expect(checkUptime(1998, 2000)).toBe(99.9); // exactly 99.9
    expect(checkUptime(1997, 2000)).toBe(99.9); // 99.85 rounds up
    expect(checkUptime(1996, 2000)).toBe(99.8);
    expect(checkUptime(11, 12)).toBe(91.7);
    expect(checkUptime(0, 5)).toBe(0);
  });

  it('throws a typed error on impossible counts', () => {
    expect(() => checkUptime(13, 12)).toThrow(/must not exceed total/);
    expect(() => checkUptime(-1, 12)).toThrow(ReliabilityInputError);
    expect(() => checkUptime(1.5, 12)).toThrow(/whole number/);
    expect(() => checkUptime(1, Number.NaN)).toThrow(/total/);
  });
});

describe('uptime labels', () => {
  it('calls a figure a 30-day uptime only from 14 observed days', () => {
    expect(labelUptimePeriod(13)).toBe('over 13 days observed');
    expect(labelUptimePeriod(14)).toBe('30-day uptime');
    expect(labelUptimePeriod(15)).toBe('30-day uptime');
    expect(labelUptimePeriod(30)).toBe('30-day uptime');
  });

  it('says one day in the singular and no days when none', () => {
    expect(labelUptimePeriod(1)).toBe('over 1 day observed');
    expect(labelUptimePeriod(2)).toBe('over 2 days observed');
    expect(labelUptimePeriod(0)).toBe('no days observed');
  });

  it('uses the five-minute figure from 12 checks (one hour)', () => {
    expect(usesFiveMinuteFigure(11)).toBe(false);
    expect(usesFiveMinuteFigure(12)).toBe(true);
    expect(usesFiveMinuteFigure(13)).toBe(true);
    expect(() => usesFiveMinuteFigure(-1)).toThrow(ReliabilityInputError);
  });
});

describe('describeUptime', () => {
  it('falls back to the daily figure, labelled daily, with 11 five-minute checks', () => {
    expect(describeUptime({ letters: `${'o'.repeat(13)}d`, fiveMinute: { answered: 11, total: 11 } })).toEqual({
      percent: 92.9,
      source: 'daily',
      daysObserved: 14,
      isThirtyDay: true,
      label: '30-day uptime',
      sourceLabel: 'daily checks',
      longPercent: null,
    });
  });

  it('uses the five-minute figure from 12 checks, labelled by observed days', () => {
    expect(describeUptime({ letters: `${'o'.repeat(13)}n`, fiveMinute: { answered: 11, total: 12 } })).toEqual({
      percent: 91.7,
      source: 'five_minute',
      daysObserved: 13,
      isThirtyDay: false,
      label: 'over 13 days observed',
      sourceLabel: 'five-minute checks',
      longPercent: null,
    });
  });

  it('adds the 90-day figure only when older checks exist', () => {
    const base = { letters: 'o'.repeat(20), fiveMinute: { answered: 12, total: 12 } };
    expect(describeUptime({ ...base, fiveMinuteLong: { answered: 20, total: 24 } }).longPercent).toBe(83.3);
    expect(describeUptime({ ...base, fiveMinuteLong: { answered: 12, total: 12 } }).longPercent).toBeNull();
    expect(describeUptime({ ...base, fiveMinuteLong: null }).longPercent).toBeNull();
  });

  it('leaves the 90-day figure out while the daily figure is used', () => {
    const summary = describeUptime({
      letters: 'oooo',
      fiveMinute: { answered: 5, total: 5 },
      fiveMinuteLong: { answered: 9, total: 10 },
    });
    expect(summary.source).toBe('daily');
    expect(summary.longPercent).toBeNull();
  });

  it('has no figure when nothing was observed', () => {
    expect(describeUptime({ letters: 'nn' })).toMatchObject({
      percent: null,
      source: 'daily',
      label: 'no days observed',
    });
  });

  it('keeps the 99.9 cap on the five-minute figure', () => {
    expect(describeUptime({ letters: 'o', fiveMinute: { answered: 2879, total: 2880 } }).percent).toBe(99.9);
  });

  it('throws on counters that cannot be', () => {
    expect(() => describeUptime({ letters: 'o', fiveMinute: { answered: 13, total: 12 } })).toThrow(
      ReliabilityInputError,
    );
  });
});

describe('decideUptimeDistribution', () => {
  it('is not shown, with no date, when there are no servers', () => {
    expect(decideUptimeDistribution([], '2025-06-01')).toEqual({
      shown: false,
      medianDaysObserved: null,
      appearsOn: null,
    });
  });

  it('is shown once the median server has 14 observed days', () => {
    expect(decideUptimeDistribution([14], '2025-06-01')).toEqual({ shown: true, medianDaysObserved: 14 });
    expect(decideUptimeDistribution([0, 14, 30], '2025-06-01')).toEqual({ shown: true, medianDaysObserved: 14 });
  });

  it('gives the median and the day it appears until then', () => {
    expect(decideUptimeDistribution([13], '2025-06-01')).toEqual({
      shown: false,
      medianDaysObserved: 13,
      appearsOn: '2025-06-02',
    });
    expect(decideUptimeDistribution([20, 3, 9], '2025-06-01')).toEqual({
      shown: false,
      medianDaysObserved: 9,
      appearsOn: '2025-06-06',
    });
    expect(decideUptimeDistribution([0], '2025-06-01')).toEqual({
      shown: false,
      medianDaysObserved: 0,
      appearsOn: '2025-06-15',
    });
    expect(decideUptimeDistribution([12], '2025-02-27')).toEqual({
      shown: false,
      medianDaysObserved: 12,
      appearsOn: '2025-03-01',
    });
  });

  it('takes the lower middle server when the count is even', () => {
    expect(decideUptimeDistribution([13, 14], '2025-06-01')).toEqual({
      shown: false,
      medianDaysObserved: 13,
      appearsOn: '2025-06-02',
    });
    expect(decideUptimeDistribution([14, 14], '2025-06-01').shown).toBe(true);
    expect(decideUptimeDistribution([10, 14, 15, 16], '2025-06-01')).toEqual({ shown: true, medianDaysObserved: 14 });
  });

  it('throws on impossible day counts or days', () => {
    expect(() => decideUptimeDistribution([31], '2025-06-01')).toThrow(/at most 30/);
    expect(() => decideUptimeDistribution([-1], '2025-06-01')).toThrow(/observedDays\[0\]/);
    expect(() => decideUptimeDistribution([1.5], '2025-06-01')).toThrow(ReliabilityInputError);
    expect(() => decideUptimeDistribution([3], '2025-02-30')).toThrow(/YYYY-MM-DD/);
    expect(() => decideUptimeDistribution([3], '2025-6-1')).toThrow(/YYYY-MM-DD/);
  });
});
