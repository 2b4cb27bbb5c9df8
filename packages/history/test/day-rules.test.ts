// The UTC day of a moment, and the two calendar rules of the seal: the 14-day chaining window and the 7-day
// catch-up. Day strings themselves (isDay, shiftDay) are tested in @mcp-atlas/base.
import { shiftDay } from '@mcp-atlas/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATCH_UP_DAYS, PREVIOUS_ROOT_WINDOW_DAYS } from '../src/constants.js';
import { dayFromTime, daysToSign, HistoryError, previousRootFor } from '../src/index.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

function thrown(action: () => unknown): HistoryError {
  try {
    action();
  } catch (error) {
    if (error instanceof HistoryError) return error;
    throw error;
  }
  throw new Error('expected a HistoryError');
}

describe('dayFromTime', () => {
  it('gives the UTC day of a moment, at and around midnight', () => {
    expect(dayFromTime(Date.UTC(2026, 9, 3, 1, 5))).toBe('2026-10-03');
    expect(dayFromTime(Date.UTC(2026, 9, 3, 0, 0, 0, 0))).toBe('2026-10-03');
    expect(dayFromTime(Date.UTC(2026, 9, 3) - 1)).toBe('2026-10-02');
    expect(dayFromTime(0)).toBe('1970-01-01');
    expect(dayFromTime(-1)).toBe('1969-12-31');
    expect(dayFromTime(new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999)))).toBe('2024-02-29');
  });

  it('refuses times that are not finite or not Dates', () => {
    const invalid = thrown(() => dayFromTime(Number.NaN));
    expect(invalid.code).toBe('invalid-time');
    expect(invalid.message).toBe('time must be finite milliseconds since 1970-01-01 or a valid Date, got number NaN');
    expect(thrown(() => dayFromTime(new Date('not a date'))).message).toBe(
      'time must be finite milliseconds since 1970-01-01 or a valid Date, got "Invalid Date"',
    );
    expect(thrown(() => dayFromTime('2026-10-02' as unknown as number)).code).toBe('invalid-time');
  });
});

describe('previousRootFor: the newest root in the 14 days before', () => {
  it('uses a 14-day window', () => {
    expect(PREVIOUS_ROOT_WINDOW_DAYS).toBe(14);
  });

  it('takes the root of the day before when there is one', () => {
    expect(previousRootFor('2026-10-02', new Map([['2026-10-01', A]]))).toBe(A);
  });

  it('takes a root exactly 14 days back, and not one 15 days back', () => {
    const roots = new Map([['2026-09-18', A]]);
    expect(previousRootFor('2026-10-02', roots)).toBe(A);
    expect(previousRootFor('2026-10-03', roots)).toBeNull();
  });

  it('prefers the newest root in the window', () => {
    const roots = new Map([
      ['2026-09-20', A],
      ['2026-09-29', B],
    ]);
    expect(previousRootFor('2026-10-02', roots)).toBe(B);
  });

  it('never uses the day itself or a later day', () => {
    const roots = new Map([
      ['2026-10-02', A],
      ['2026-10-05', B],
    ]);
    expect(previousRootFor('2026-10-02', roots)).toBeNull();
  });

  it('counts across a month end in a common year (28 February) at 14 and 15 days', () => {
    const roots = new Map([['2026-02-28', A]]);
    expect(previousRootFor('2026-03-14', roots)).toBe(A);
    expect(previousRootFor('2026-03-15', roots)).toBeNull();
  });

  it('counts across a leap day (29 February 2024) at 14 and 15 days', () => {
    const roots = new Map([['2024-02-29', A]]);
    expect(previousRootFor('2024-03-14', roots)).toBe(A);
    expect(previousRootFor('2024-03-15', roots)).toBeNull();
  });

  it('counts across a year end at 14 and 15 days', () => {
    const roots = new Map([['2025-12-18', A]]);
    expect(previousRootFor('2026-01-01', roots)).toBe(A);
    expect(previousRootFor('2026-01-02', roots)).toBeNull();
  });

  it('gives null with no roots at all, and at the first representable day', () => {
    expect(previousRootFor('2026-10-02', new Map())).toBeNull();
    expect(previousRootFor('0000-01-01', new Map([['2026-01-01', A]]))).toBeNull();
  });

  it('refuses a bad day, a non-map and a malformed root it would return', () => {
    expect(thrown(() => previousRootFor('2026-10-32', new Map())).message).toBe(
      'day must be a real calendar date written YYYY-MM-DD, got "2026-10-32"',
    );
    expect(thrown(() => previousRootFor('2026-10-02', {} as Map<string, string>)).message).toBe(
      'roots must be a Map from day to root, got an object',
    );
    const bad = thrown(() => previousRootFor('2026-10-02', new Map([['2026-10-01', 'ABC']])));
    expect(bad.code).toBe('invalid-root');
    expect(bad.message).toBe('root of 2026-10-01 must be 64 lowercase hex characters, got "ABC"');
  });
});

describe('daysToSign: the previous day and any unsealed day of the 7 before it, oldest first', () => {
  it('looks back 7 days beyond the previous day', () => {
    expect(CATCH_UP_DAYS).toBe(7);
  });

  it('signs only the previous day when the week before is sealed', () => {
    const sealed = new Set([
      '2026-10-02',
      '2026-10-03',
      '2026-10-04',
      '2026-10-05',
      '2026-10-06',
      '2026-10-07',
      '2026-10-08',
    ]);
    expect(daysToSign('2026-10-10', sealed)).toEqual(['2026-10-09']);
  });

  it('signs nothing when the previous day and the week before are sealed', () => {
    const sealed = new Set([
      '2026-10-02',
      '2026-10-03',
      '2026-10-04',
      '2026-10-05',
      '2026-10-06',
      '2026-10-07',
      '2026-10-08',
      '2026-10-09',
    ]);
    expect(daysToSign('2026-10-10', sealed)).toEqual([]);
  });

  it('includes an unsealed day 8 days back (7 before the previous day) but not 9 days back', () => {
    expect(daysToSign('2026-10-10', new Set())).toEqual([
      '2026-10-02',
      '2026-10-03',
      '2026-10-04',
      '2026-10-05',
      '2026-10-06',
      '2026-10-07',
      '2026-10-08',
      '2026-10-09',
    ]);
    const sealed = new Set([
      '2026-10-03',
      '2026-10-04',
      '2026-10-05',
      '2026-10-06',
      '2026-10-07',
      '2026-10-08',
      '2026-10-09',
    ]);
    expect(daysToSign('2026-10-10', sealed)).toEqual(['2026-10-02']);
    expect(daysToSign('2026-10-11', sealed)).toEqual(['2026-10-10']);
  });

  it('skips sealed days in the middle and keeps the order oldest first', () => {
    expect(daysToSign('2026-10-10', new Set(['2026-10-03', '2026-10-05', '2026-10-09']))).toEqual([
      '2026-10-02',
      '2026-10-04',
      '2026-10-06',
      '2026-10-07',
      '2026-10-08',
    ]);
  });

  it('never signs a sealed previous day again', () => {
    expect(daysToSign('2026-10-10', new Set(['2026-10-09']))).not.toContain('2026-10-09');
  });

  it('crosses the end of February in a common year', () => {
    expect(daysToSign('2026-03-01', new Set(['2026-02-25']))).toEqual([
      '2026-02-21',
      '2026-02-22',
      '2026-02-23',
      '2026-02-24',
      '2026-02-26',
      '2026-02-27',
      '2026-02-28',
    ]);
  });

  it('crosses a leap day', () => {
    expect(daysToSign('2024-03-02', new Set())).toEqual([
      '2024-02-23',
      '2024-02-24',
      '2024-02-25',
      '2024-02-26',
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
  });

  it('crosses a year end', () => {
    expect(daysToSign('2026-01-02', new Set(['2025-12-31']))).toEqual([
      '2025-12-25',
      '2025-12-26',
      '2025-12-27',
      '2025-12-28',
      '2025-12-29',
      '2025-12-30',
      '2026-01-01',
    ]);
    expect(daysToSign('2026-01-01', new Set())).toEqual([
      '2025-12-24',
      '2025-12-25',
      '2025-12-26',
      '2025-12-27',
      '2025-12-28',
      '2025-12-29',
      '2025-12-30',
      '2025-12-31',
    ]);
  });

  it('stops at the first representable day', () => {
    expect(daysToSign('0000-01-03', new Set())).toEqual(['0000-01-01', '0000-01-02']);
  });

  it('always returns unsealed days within the 8 days before today, oldest first', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60_000 }), fc.array(fc.integer({ min: 1, max: 10 })), (start, back) => {
        const today = new Date(start * 86_400_000).toISOString().slice(0, 10);
        const sealed = new Set(back.map((n) => shiftDay(today, -n)));
        const days = daysToSign(today, sealed);
        expect([...days].sort()).toEqual(days);
        for (const day of days) expect(sealed.has(day)).toBe(false);
        expect(days.length).toBe(8 - back.filter((n, i) => n <= 8 && back.indexOf(n) === i).length);
      }),
    );
  });

  it('refuses a bad today and a non-set', () => {
    const error = thrown(() => daysToSign('2026-1-01', new Set()));
    expect(error.code).toBe('invalid-day');
    expect(error.message).toBe('today must be a real calendar date written YYYY-MM-DD, got "2026-1-01"');
    expect(thrown(() => daysToSign('2026-01-01', ['2025-12-31'] as unknown as Set<string>)).message).toBe(
      'sealed must be a Set of days, got an array',
    );
  });
});
