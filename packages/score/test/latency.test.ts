import { describe, expect, it } from 'vitest';
import { LATENCY_ANCHORS, scoreLatency } from '../src/latency.js';

describe('LATENCY_ANCHORS', () => {
  it('holds the engine 0.9.0 anchors', () => {
    expect(LATENCY_ANCHORS.map((a) => [a.ms, a.score])).toEqual([
      [100, 100],
      [200, 90],
      [500, 70],
      [1000, 50],
      [2000, 25],
      [5000, 10],
    ]);
    expect(Object.isFrozen(LATENCY_ANCHORS)).toBe(true);
  });
});

describe('scoreLatency', () => {
  it('gives each anchor its own score', () => {
    for (const { ms, score } of LATENCY_ANCHORS) expect(scoreLatency(ms), `${ms} ms`).toBe(score);
  });

  it('is 100 at or below 100 ms and 10 at or above 5000 ms', () => {
    expect(scoreLatency(0)).toBe(100);
    expect(scoreLatency(99)).toBe(100);
    expect(scoreLatency(5001)).toBe(10);
    expect(scoreLatency(60_000)).toBe(10);
  });

  it('interpolates on a straight line between anchors and truncates', () => {
    expect(scoreLatency(101)).toBe(99); // 99.9
    expect(scoreLatency(150)).toBe(95);
    expect(scoreLatency(199)).toBe(90); // 90.1
    expect(scoreLatency(201)).toBe(89); // 89.93
    expect(scoreLatency(350)).toBe(80);
    expect(scoreLatency(600)).toBe(66);
    expect(scoreLatency(640)).toBe(64); // 64.4
    expect(scoreLatency(750)).toBe(60);
    expect(scoreLatency(1500)).toBe(37); // 37.5
    expect(scoreLatency(3500)).toBe(17); // 17.5
    expect(scoreLatency(4999)).toBe(10); // 10.005
  });
});
