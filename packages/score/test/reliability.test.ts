import { describe, expect, it } from 'vitest';
import {
  computeReliabilityScore,
  MINIMUM_PROBE_COUNT,
  RELIABILITY_WEIGHTS,
  RELIABILITY_WEIGHTS_WITHOUT_P95,
} from '../src/reliability.js';

const full = { uptimePct: 99.5, latencyP50Ms: 150, latencyP95Ms: 600, probeCount: 200 };

describe('reliability constants', () => {
  it('are the engine 0.9.0 numbers, not the Scoreboard page ones', () => {
    expect(MINIMUM_PROBE_COUNT).toBe(10);
    expect(RELIABILITY_WEIGHTS).toEqual({ uptime: 0.75, p50: 0.15, p95: 0.1 });
    expect(RELIABILITY_WEIGHTS_WITHOUT_P95).toEqual({ uptime: 0.8, p50: 0.2 });
  });
});

describe('computeReliabilityScore', () => {
  it('has no score without data, or with neither uptime nor p50', () => {
    expect(computeReliabilityScore(null)).toBeNull();
    expect(computeReliabilityScore(undefined)).toBeNull();
    expect(
      computeReliabilityScore({ uptimePct: null, latencyP50Ms: null, latencyP95Ms: 300, probeCount: 50 }),
    ).toBeNull();
  });

  it('blends uptime 75%, p50 15%, p95 10%', () => {
    // 99.5 * 0.75 + 95 * 0.15 + 66 * 0.10 = 95.475
    expect(computeReliabilityScore(full)).toBe(95);
    expect(computeReliabilityScore({ uptimePct: 100, latencyP50Ms: 100, latencyP95Ms: 100, probeCount: 10 })).toBe(100);
  });

  it('adds in the engine order, so float error truncates as it does there', () => {
    // Python: 99.6 * 0.75 + 92 * 0.15 + 75 * 0.1 == 95.99999999999999, int() gives 95, not 96.
    expect(computeReliabilityScore({ uptimePct: 99.6, latencyP50Ms: 180, latencyP95Ms: 420, probeCount: 96 })).toBe(95);
  });

  it('blends uptime 80%, p50 20% without p95', () => {
    // 97.2 * 0.8 + 64 * 0.2 = 90.56
    expect(computeReliabilityScore({ uptimePct: 97.2, latencyP50Ms: 640, latencyP95Ms: null, probeCount: 50 })).toBe(
      90,
    );
  });

  it('uses the uptime alone (truncated) without latency, and the p50 score alone without uptime', () => {
    expect(computeReliabilityScore({ uptimePct: 62.5, latencyP50Ms: null, latencyP95Ms: null, probeCount: 40 })).toBe(
      62,
    );
    expect(computeReliabilityScore({ uptimePct: null, latencyP50Ms: 150, latencyP95Ms: null, probeCount: 0 })).toBe(95);
  });

  describe('the probe-count gate', () => {
    it('gives no score with 1 to 9 probes', () => {
      for (const probeCount of [1, 5, MINIMUM_PROBE_COUNT - 1])
        expect(computeReliabilityScore({ ...full, probeCount }), `${probeCount}`).toBeNull();
    });

    it('scores from 10 probes on', () => {
      expect(computeReliabilityScore({ ...full, probeCount: MINIMUM_PROBE_COUNT })).toBe(95);
      expect(computeReliabilityScore({ ...full, probeCount: 11 })).toBe(95);
    });

    it('is skipped at 0 probes (single-run mode)', () => {
      expect(computeReliabilityScore({ ...full, probeCount: 0 })).toBe(95);
      expect(computeReliabilityScore({ uptimePct: 80, latencyP50Ms: null, latencyP95Ms: null, probeCount: 0 })).toBe(
        80,
      );
    });
  });
});
