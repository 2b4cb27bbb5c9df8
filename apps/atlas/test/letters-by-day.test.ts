// The state page's letters-by-day chart counts, for each day of the 30-day letter window, the servers that got
// each letter: a server's letters end on its lettersThrough day, one a day going back. Hand-computed cases at the
// window's edges.
import { describe, expect, it } from 'vitest';
import { lettersByDay } from '../src/pages/letters-by-day-chart.js';

const counts = (over: Partial<Record<'o' | 'a' | 'p' | 'd' | 'n', number>> = {}) => ({
  o: 0,
  a: 0,
  p: 0,
  d: 0,
  n: 0,
  ...over,
});

describe('lettersByDay', () => {
  it('covers the 30 days ending the given day, oldest first', () => {
    const days = lettersByDay([], '2026-12-02');
    expect(days).toHaveLength(30);
    expect(days[0]?.day).toBe('2026-11-03');
    expect(days[29]?.day).toBe('2026-12-02');
    expect(days.every((day) => Object.values(day.counts).every((count) => count === 0))).toBe(true);
  });

  it('puts each letter on its day, for servers ending on the last day or earlier', () => {
    const days = lettersByDay(
      [
        { letters: 'oad', lettersThrough: '2026-12-02' },
        { letters: 'on', lettersThrough: '2026-12-01' },
        { letters: 'ooo', lettersThrough: null },
      ],
      '2026-12-02',
    );
    expect(days[29]).toEqual({ day: '2026-12-02', counts: counts({ d: 1 }) });
    expect(days[28]).toEqual({ day: '2026-12-01', counts: counts({ a: 1, n: 1 }) });
    expect(days[27]).toEqual({ day: '2026-11-30', counts: counts({ o: 2 }) });
    expect(days[26]).toEqual({ day: '2026-11-29', counts: counts() });
  });

  it('drops letters older than the window and ignores a server whose letters end after the last day', () => {
    const days = lettersByDay(
      [
        { letters: `d${'o'.repeat(30)}`, lettersThrough: '2026-12-02' },
        { letters: 'p', lettersThrough: '2026-12-03' },
      ],
      '2026-12-02',
    );
    expect(days.map((day) => day.counts.o)).toEqual(Array(30).fill(1));
    expect(days.reduce((sum, day) => sum + day.counts.d + day.counts.p, 0)).toBe(0);
  });
});
