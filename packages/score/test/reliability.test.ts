import { describe, expect, it } from 'vitest';
import {
  computeReliabilityScore,
  MINIMUM_PROBE_COUNT,
  RELIABILITY_WEIGHTS,
  RELIABILITY_WEIGHTS_WITHOUT_P95,
  uptimeWindowsOf,
} from '../src/reliability.js';
import { RELIABILITY_RULES } from '../src/rules.js';

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

describe('uptimeWindowsOf: the 24-hour, 7-day and 30-day uptime', () => {
  const count = (day: string, answered: number, checks: number) => ({ day, answered, checks });

  it('counts the scored day in all three, 6 days back in two, 29 days back in one, 30 back in none', () => {
    const windows = uptimeWindowsOf('2026-12-31', [
      count('2026-12-31', 24, 24), // 0 days back
      count('2026-12-30', 0, 24), // 1 back: out of the 24 hours
      count('2026-12-25', 12, 24), // 6 back: the 7 days' last
      count('2026-12-24', 0, 10), // 7 back: out of the 7 days
      count('2026-12-02', 5, 10), // 29 back: the 30 days' last
      count('2026-12-01', 0, 100), // 30 back: out of everything
    ]);
    expect(windows.last24h).toEqual({ uptimePct: 100, checks: 24 });
    // (24 + 0 + 12) / (24 + 24 + 24) = 36 / 72
    expect(windows.last7d).toEqual({ uptimePct: 50, checks: 72 });
    // (36 + 0 + 5) / (72 + 10 + 10) = 41 / 92
    expect(windows.last30d).toEqual({ uptimePct: (41 * 100) / 92, checks: 92 });
  });

  it('adds the kinds of check of one day together', () => {
    const windows = uptimeWindowsOf('2026-12-04', [count('2026-12-04', 1, 1), count('2026-12-04', 20, 24)]);
    // (1 + 20) / (1 + 24) = 84%
    expect(windows.last24h).toEqual({ uptimePct: 84, checks: 25 });
  });

  it('has no uptime without a check, and leaves out later days and counts that cannot be', () => {
    const windows = uptimeWindowsOf('2026-12-04', [
      count('2026-12-05', 1, 1),
      count('yesterday', 1, 1),
      count('2026-12-04', 3, 2),
      count('2026-12-04', -1, 2),
      count('2026-12-04', 1.5, 2),
    ]);
    for (const window of Object.values(windows)) expect(window).toEqual({ uptimePct: null, checks: 0 });
  });

  it('reads its windows from RELIABILITY_RULES.uptimeWindowDays', () => {
    expect(RELIABILITY_RULES.uptimeWindowDays).toEqual({ last24h: 1, last7d: 7, last30d: 30 });
  });
});
