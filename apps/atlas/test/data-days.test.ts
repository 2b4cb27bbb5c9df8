// The app's day arithmetic counts with @mcp-atlas/base: across a leap day and a year end, and a day that is not
// real is a bug that throws instead of a NaN that would slip into a page.
import { daysBetween } from '@mcp-atlas/base';
import { describe, expect, it } from 'vitest';
import { daysOfLetters } from '../src/data/days.js';

describe('daysBetween', () => {
  it('counts whole days across a leap day and a year end, negative backwards', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2026-02-28', '2026-03-01')).toBe(1);
    expect(daysBetween('2025-12-31', '2026-01-01')).toBe(1);
    expect(daysBetween('2026-01-01', '2025-12-31')).toBe(-1);
    expect(daysBetween('2026-10-03', '2026-10-03')).toBe(0);
  });

  it('throws a RangeError naming both days when one is not a real day', () => {
    expect(() => daysBetween('2026-02-30', '2026-03-01')).toThrow(RangeError);
    expect(() => daysBetween('2026-03-01', 'soon')).toThrow('2026-03-01 and soon');
  });
});

describe('daysOfLetters', () => {
  it('puts the last letter on the last day and each earlier one a day before', () => {
    expect(daysOfLetters('oad', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(daysOfLetters('o', null)).toEqual([]);
  });
});
