// The score-drop alert (at 9, 10 and 11 points, and with no composite on either side), the reliability window
// and the nearest-rank latency percentile, on hand-computed cases.
import { describe, expect, it } from 'vitest';
import { latencyPercentile, scoreDropOf } from '../src/index.js';
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
