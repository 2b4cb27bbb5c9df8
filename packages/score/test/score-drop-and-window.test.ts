// The score-drop alert (at 9, 10 and 11 points, and with no composite on either side), the reliability window
// and the nearest-rank latency percentile, on hand-computed cases.
import { describe, expect, it } from 'vitest';
import { latencyPercentile, scoreDropOf, scoreDropsOf } from '../src/index.js';
import { GRADE_RULES, RELIABILITY_RULES } from '../src/rules.js';

describe('the score-drop alert', () => {
  it('is 10 points', () => {
    expect(GRADE_RULES.dropAlertPoints).toBe(10);
  });

  it('does not fire at 9 points, fires at 10 and 11', () => {
    expect(scoreDropOf(80, 71)).toBeNull();
    expect(scoreDropOf(80, 70)).toBe(10);
    expect(scoreDropOf(80, 69)).toBe(11);
  });

  it('is no drop when the score rises or stays, or when either day has no composite', () => {
    expect(scoreDropOf(70, 80)).toBeNull();
    expect(scoreDropOf(70, 70)).toBeNull();
    expect(scoreDropOf(null, 0)).toBeNull();
    expect(scoreDropOf(100, null)).toBeNull();
  });
});

describe('scoreDropsOf: the drops in a server’s history', () => {
  const day = (d: string, compositeScore: number | null, grade = 'B') => ({ day: d, compositeScore, grade });

  it('compares each day with the newest scored day before it, in any order given', () => {
    const drops = scoreDropsOf(
      [day('2026-12-03', 70, 'C'), day('2026-12-01', 82), day('2026-12-04', 60, 'C'), day('2026-12-05', 51, 'D')],
      7,
    );
    // 82 -> 70 is 12 (a drop); 70 -> 60 is 10 (a drop, at the threshold); 60 -> 51 is 9 (none).
    expect(drops).toEqual([
      { day: '2026-12-03', previousDay: '2026-12-01', from: 82, to: 70, drop: 12, fromGrade: 'B', toGrade: 'C' },
      { day: '2026-12-04', previousDay: '2026-12-03', from: 70, to: 60, drop: 10, fromGrade: 'C', toGrade: 'C' },
    ]);
  });

  it('looks back at most the days given: 7 days back is compared, 8 is not', () => {
    expect(scoreDropsOf([day('2026-12-01', 90), day('2026-12-08', 50)], 7)).toHaveLength(1);
    expect(scoreDropsOf([day('2026-12-01', 90), day('2026-12-09', 50)], 7)).toEqual([]);
  });

  it('raises nothing across a day without a composite, and skips days that are not days', () => {
    expect(scoreDropsOf([day('2026-12-01', 90), day('2026-12-02', null), day('2026-12-03', 50)], 7)).toEqual([]);
    expect(scoreDropsOf([day('2026-12-01', 90), day('soon', 10), day('2026-12-01', 90)], 7)).toEqual([]);
  });
});

describe('the reliability window', () => {
  it('reads 7 days, the scored day included', () => {
    expect(RELIABILITY_RULES.windowDays).toBe(7);
  });
});

describe('latencyPercentile (nearest rank)', () => {
  it('takes p50 and p95 of four values', () => {
    expect(latencyPercentile([400, 100, 300, 200], 50)).toBe(200);
    expect(latencyPercentile([400, 100, 300, 200], 95)).toBe(400);
    expect(latencyPercentile([400, 100, 300, 200], 75)).toBe(300);
    expect(latencyPercentile([400, 100, 300, 200], 76)).toBe(400);
  });

  it('gives the only value for one value, at any percentile', () => {
    expect(latencyPercentile([7], 0)).toBe(7);
    expect(latencyPercentile([7], 50)).toBe(7);
    expect(latencyPercentile([7], 100)).toBe(7);
  });

  it('takes ranks 10 and 19 of twenty values for p50 and p95', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(latencyPercentile(twenty, 50)).toBe(10);
    expect(latencyPercentile(twenty, 95)).toBe(19);
    expect(latencyPercentile(twenty, 96)).toBe(20);
  });

  it('leaves out values that are not times, and is null when none is left', () => {
    expect(latencyPercentile([], 50)).toBeNull();
    expect(latencyPercentile([Number.NaN, -1, Number.POSITIVE_INFINITY], 50)).toBeNull();
    expect(latencyPercentile([Number.NaN, 300, -5, 100], 50)).toBe(100);
  });
});
