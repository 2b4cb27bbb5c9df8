/**
 * The latency curve of the reliability score. Pure module: no I/O, no clock.
 *
 * A handshake time maps to 0-100 along straight lines between fixed anchors, so 150 ms and 190 ms
 * get different scores instead of falling into the same step.
 */

import { truncateScore } from './rounding.js';

/** One point of the latency curve: at `ms` milliseconds the score is `score`. */
export interface LatencyAnchor {
  readonly ms: number;
  readonly score: number;
}

/**
 * The latency curve's anchors, fastest first (engine 0.9.0): 100 ms or less scores 100, 200 ms 90,
 * 500 ms 70, 1,000 ms 50, 2,000 ms 25, and 5,000 ms or more 10 (the floor). Between two anchors the
 * score is interpolated on a straight line and truncated to an integer.
 */
export const LATENCY_ANCHORS: readonly LatencyAnchor[] = Object.freeze([
  Object.freeze({ ms: 100, score: 100 }),
  Object.freeze({ ms: 200, score: 90 }),
  Object.freeze({ ms: 500, score: 70 }),
  Object.freeze({ ms: 1000, score: 50 }),
  Object.freeze({ ms: 2000, score: 25 }),
  Object.freeze({ ms: 5000, score: 10 }),
]);

/**
 * Scores a latency in milliseconds on the curve of {@link LATENCY_ANCHORS}: `scoreLatency(150)` is 95,
 * `scoreLatency(750)` is 60, `scoreLatency(9000)` is 10. The interpolated value is truncated, as the
 * engine does, so 101 ms gives 99 (99.9 truncated).
 */
export function scoreLatency(ms: number): number {
  const first = LATENCY_ANCHORS[0] as LatencyAnchor;
  const last = LATENCY_ANCHORS[LATENCY_ANCHORS.length - 1] as LatencyAnchor;
  if (ms <= first.ms) return first.score;
  if (ms >= last.ms) return last.score;
  for (let i = 0; i < LATENCY_ANCHORS.length - 1; i++) {
    const lo = LATENCY_ANCHORS[i] as LatencyAnchor;
    const hi = LATENCY_ANCHORS[i + 1] as LatencyAnchor;
    if (ms <= hi.ms) {
      const ratio = (ms - lo.ms) / (hi.ms - lo.ms);
      return truncateScore(lo.score + ratio * (hi.score - lo.score));
    }
  }
  // Unreachable for finite input (the last anchor returned above); NaN lands here.
  return last.score;
}
