// The shared day helpers, on hand-computed cases: month ends, leap days (divisible by 4, by 100, by 400), year
// ends, the years 0000 and 9999 at the edges, and every way a value can fail to be a day.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dayNumberOf,
  dayOfNumber,
  dayOfTime,
  dayStartMs,
  daysBetween,
  daysSince,
  isDay,
  MS_PER_DAY,
  shiftDay,
} from '../src/index.js';

describe('MS_PER_DAY', () => {
  it('is 24 hours of milliseconds', () => {
    expect(MS_PER_DAY).toBe(24 * 60 * 60 * 1000);
  });
});

describe('dayNumberOf and dayOfNumber', () => {
  it.each([
    ['1970-01-01', 0],
    ['1970-01-02', 1],
    ['1969-12-31', -1],
    ['2000-03-01', 11_017],
    ['2026-10-03', 20_729],
  ])('%s is day %i, both ways', (day, dayNumber) => {
    expect(dayNumberOf(day)).toBe(dayNumber);
    expect(dayOfNumber(dayNumber)).toBe(day);
  });

  it('agrees with Date.UTC on every day of 1999 to 2001', () => {
    for (let n = dayNumberOf('1999-01-01') as number; n <= (dayNumberOf('2001-12-31') as number); n++)
      expect(dayOfNumber(n)).toBe(new Date(n * MS_PER_DAY).toISOString().slice(0, 10));
  });

  it('reads years below 100 as themselves, not as 19xx', () => {
    expect(dayOfNumber(dayNumberOf('0050-06-15') as number)).toBe('0050-06-15');
    expect(dayOfNumber(dayNumberOf('0000-01-01') as number)).toBe('0000-01-01');
  });

  it('is null outside the years 0000 to 9999 and for a fraction', () => {
    const last = dayNumberOf('9999-12-31') as number;
    const first = dayNumberOf('0000-01-01') as number;
    expect(dayOfNumber(last)).toBe('9999-12-31');
    expect(dayOfNumber(last + 1)).toBeNull();
    expect(dayOfNumber(first - 1)).toBeNull();
    expect(dayOfNumber(0.5)).toBeNull();
    expect(dayOfNumber(Number.NaN)).toBeNull();
  });
});

describe('isDay', () => {
  it.each(['2024-02-29', '2000-02-29', '2026-12-31', '0000-01-01', '9999-12-31'])('%s is a day', (day) => {
    expect(isDay(day)).toBe(true);
  });
  it.each([
    '2026-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-1-01',
    '26-10-02',
    '2026/10/02',
    '2026-01-01T00:00:00Z',
    ' 2026-01-01',
    '',
    20260101,
    null,
    undefined,
    new Date(0),
  ])('%j is not', (value) => {
    expect(isDay(value)).toBe(false);
    expect(dayNumberOf(value)).toBeNull();
    expect(dayStartMs(value)).toBeNull();
  });
});

describe('shiftDay', () => {
  it.each([
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-02-29', 1, '2024-03-01'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2026-01-01', -1, '2025-12-31'],
    ['2025-12-31', 1, '2026-01-01'],
    ['2026-10-03', 0, '2026-10-03'],
    ['2026-10-03', -30, '2026-09-03'],
    ['2026-03-01', 365, '2027-03-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2024-01-01', 366, '2025-01-01'],
  ] as const)('%s moved by %i is %s', (day, offset, expected) => {
    expect(shiftDay(day, offset)).toBe(expected);
  });

  it('agrees with Date arithmetic for any day from 1970 to 2199 and any offset within a year', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 83_000 }), fc.integer({ min: -366, max: 366 }), (start, offset) => {
        const day = new Date(start * MS_PER_DAY).toISOString().slice(0, 10);
        const expected = new Date((start + offset) * MS_PER_DAY).toISOString().slice(0, 10);
        expect(shiftDay(day, offset)).toBe(expected);
        expect(isDay(day)).toBe(true);
      }),
    );
  });

  it('throws a RangeError for a day that is not real, a fractional offset, or a result outside 0000 to 9999', () => {
    expect(() => shiftDay('2026-02-29', 1)).toThrow(
      new RangeError('shiftDay needs a real YYYY-MM-DD day, got "2026-02-29"'),
    );
    expect(() => shiftDay(20260101 as unknown as string, 1)).toThrow(
      new RangeError('shiftDay needs a real YYYY-MM-DD day, got number'),
    );
    expect(() => shiftDay('2026-01-01', 0.5)).toThrow(new RangeError('shiftDay needs a whole number of days, got 0.5'));
    expect(() => shiftDay('9999-12-31', 1)).toThrow(
      new RangeError('9999-12-31 moved by 1 day falls outside the years 0000 to 9999'),
    );
    expect(() => shiftDay('0000-01-01', -2)).toThrow(
      new RangeError('0000-01-01 moved by -2 days falls outside the years 0000 to 9999'),
    );
  });
});

describe('daysBetween', () => {
  it.each([
    ['2024-02-28', '2024-03-01', 2],
    ['2026-02-28', '2026-03-01', 1],
    ['2025-12-31', '2026-01-01', 1],
    ['2026-01-01', '2025-12-31', -1],
    ['2026-10-03', '2026-10-03', 0],
    ['2000-01-01', '2001-01-01', 366],
    ['1900-01-01', '1901-01-01', 365],
  ] as const)('%s to %s is %i', (earlier, later, days) => {
    expect(daysBetween(earlier, later)).toBe(days);
  });

  it('throws a RangeError naming both days when either is not a real day', () => {
    expect(() => daysBetween('2026-02-30', '2026-03-01')).toThrow(
      new RangeError('daysBetween needs two real YYYY-MM-DD days, got 2026-02-30 and 2026-03-01'),
    );
    expect(() => daysBetween('2026-03-01', 'soon')).toThrow(RangeError);
    expect(() => daysBetween('2026-03-01', 'soon')).toThrow('2026-03-01 and soon');
  });
});

describe('dayOfTime, dayStartMs and daysSince', () => {
  it('puts an instant on its UTC day, the last millisecond included', () => {
    expect(dayOfTime(Date.UTC(2026, 9, 3, 1, 5))).toBe('2026-10-03');
    expect(dayOfTime(Date.UTC(2026, 9, 3) - 1)).toBe('2026-10-02');
    expect(dayOfTime(Date.UTC(2026, 9, 3))).toBe('2026-10-03');
    expect(dayOfTime(-1)).toBe('1969-12-31');
    expect(dayOfTime(Number.NaN)).toBeNull();
    expect(dayOfTime(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('gives midnight UTC of a day', () => {
    expect(dayStartMs('1970-01-02')).toBe(MS_PER_DAY);
    expect(dayStartMs('2026-10-03')).toBe(Date.UTC(2026, 9, 3));
  });

  it('counts days between instants as a fraction, negative when the start is later', () => {
    expect(daysSince(0, 1.5 * MS_PER_DAY)).toBe(1.5);
    expect(daysSince(MS_PER_DAY, 0)).toBe(-1);
    expect(daysSince(5, 5)).toBe(0);
  });
});
