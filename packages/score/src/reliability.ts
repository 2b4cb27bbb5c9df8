/**
 * The reliability category: uptime blended with handshake latency. Pure module: no I/O, no clock.
 */

import { scoreLatency } from './latency.js';
import { truncateScore } from './rounding.js';
import type { ReliabilityInput } from './types.js';

/**
 * Fewest probes a reliability score may rest on (engine 0.9.0: 10). With 1 to 9 probes there is no
 * score, so one lucky check cannot claim 100% uptime. A probe count of 0 skips the gate: that is the
 * engine's single-run mode, where only a latency from one check is known.
 */
export const MINIMUM_PROBE_COUNT = 10;

/**
 * The blend when uptime, p50 and p95 are all known (engine 0.9.0): uptime 75%, p50 latency 15%,
 * p95 latency 10%. Uptime dominates because latency depends on where the probe stands; the Scoreboard's
 * page says 60/25/15, the engine (which we follow) says 75/15/10.
 */
export const RELIABILITY_WEIGHTS = Object.freeze({ uptime: 0.75, p50: 0.15, p95: 0.1 });

/**
 * The blend when p95 is unknown (engine 0.9.0): uptime 80%, p50 latency 20% (the Scoreboard's page says 70/30).
 */
export const RELIABILITY_WEIGHTS_WITHOUT_P95 = Object.freeze({ uptime: 0.8, p50: 0.2 });

/**
 * Days of checks the reliability category reads, the scored day included: the Scoreboard takes a 7-day uptime
 * and the p50 and p95 latency of the same 7 days.
 */
export const SCORE_RELIABILITY_WINDOW_DAYS = 7;

/**
 * The uptime windows the Scoreboard tracks, in UTC days ending the scored day (the day included): 24 hours, 7 days
 * and 30 days. A day is scored at its last second, so its 24 hours are the day itself. Only the 7-day figure
 * enters the composite.
 */
export const UPTIME_WINDOW_DAYS = Object.freeze({ last24h: 1, last7d: SCORE_RELIABILITY_WINDOW_DAYS, last30d: 30 });

/** One window's name, as the API gives it. */
export type UptimeWindowName = keyof typeof UPTIME_WINDOW_DAYS;

/** How many checks of one kind ran on one UTC day, and how many of them answered. */
export interface DayCheckCount {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  answered: number;
  checks: number;
}

/** One uptime window: answering checks over all checks in percent (null with no check), and the checks counted. */
export interface UptimeWindow {
  uptimePct: number | null;
  checks: number;
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const MS_PER_DAY = 86_400_000;

/** Whole UTC days from `day` back to `count.day`, or null when either is not a day. */
function daysBefore(day: string, countDay: string): number | null {
  if (!DAY_PATTERN.test(day) || !DAY_PATTERN.test(countDay)) return null;
  const back = (Date.parse(`${day}T00:00:00Z`) - Date.parse(`${countDay}T00:00:00Z`)) / MS_PER_DAY;
  return Number.isFinite(back) ? back : null;
}

/**
 * The 24-hour, 7-day and 30-day uptime ending `day`, over every check counted (daily, hourly, five-minute: pass
 * one count per kind and day, in any order). Counts of later days, of days that are not days, or with answered
 * above checks, are left out.
 *
 * @example
 * uptimeWindowsOf('2026-12-04', [
 *   { day: '2026-12-04', answered: 24, checks: 24 },
 *   { day: '2026-11-20', answered: 0, checks: 24 },
 * ]);
 * // { last24h: { uptimePct: 100, checks: 24 }, last7d: { uptimePct: 100, checks: 24 }, last30d: { uptimePct: 50, checks: 48 } }
 */
export function uptimeWindowsOf(day: string, counts: readonly DayCheckCount[]): Record<UptimeWindowName, UptimeWindow> {
  const windows = {} as Record<UptimeWindowName, UptimeWindow>;
  for (const [name, length] of Object.entries(UPTIME_WINDOW_DAYS) as [UptimeWindowName, number][]) {
    let answered = 0;
    let checks = 0;
    for (const count of counts) {
      const back = daysBefore(day, count.day);
      if (back === null || back < 0 || back >= length) continue;
      if (!(Number.isInteger(count.checks) && Number.isInteger(count.answered))) continue;
      if (count.answered < 0 || count.answered > count.checks) continue;
      answered += count.answered;
      checks += count.checks;
    }
    windows[name] = { uptimePct: checks === 0 ? null : (answered * 100) / checks, checks };
  }
  return windows;
}

/**
 * The nearest-rank percentile (`p` from 0 to 100) of handshake times: the smallest value with at least `p`% of
 * the values at or below it. Values that are not finite or are negative are left out; null when none is left.
 *
 * @example
 * latencyPercentile([400, 100, 300, 200], 50) // 200
 * latencyPercentile([400, 100, 300, 200], 95) // 400
 */
export function latencyPercentile(values: readonly number[], p: number): number | null {
  const sorted = values.filter((v) => Number.isFinite(v) && v >= 0).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/**
 * Scores the reliability category (0-100), or null when there is nothing to score or too few probes.
 *
 * - no data, or neither uptime nor p50: null;
 * - 1 to {@link MINIMUM_PROBE_COUNT} - 1 probes: null (0 probes skips the gate);
 * - uptime and p50 (and p95): the weighted blend of uptime (a percentage) and the latency curve's
 *   scores, truncated;
 * - uptime alone: the uptime, truncated; p50 alone: the p50 latency score.
 *
 * Example: `computeReliabilityScore({ uptimePct: 99.5, latencyP50Ms: 150, latencyP95Ms: 600, probeCount: 200 })`
 * is `trunc(99.5 * 0.75 + 95 * 0.15 + 66 * 0.10)` = 95.
 */
export function computeReliabilityScore(data: ReliabilityInput | null | undefined): number | null {
  if (!data) return null;
  const { uptimePct, latencyP50Ms, latencyP95Ms, probeCount } = data;
  if (uptimePct == null && latencyP50Ms == null) return null;
  if (probeCount > 0 && probeCount < MINIMUM_PROBE_COUNT) return null;

  const p50 = latencyP50Ms == null ? null : scoreLatency(latencyP50Ms);
  const p95 = latencyP95Ms == null ? null : scoreLatency(latencyP95Ms);

  if (uptimePct != null && p50 != null) {
    if (p95 != null) {
      const w = RELIABILITY_WEIGHTS;
      return truncateScore(uptimePct * w.uptime + p50 * w.p50 + p95 * w.p95);
    }
    const w = RELIABILITY_WEIGHTS_WITHOUT_P95;
    return truncateScore(uptimePct * w.uptime + p50 * w.p50);
  }
  if (uptimePct != null) return truncateScore(uptimePct);
  return p50;
}
