// Three rules of the daily quality score that @mcp-atlas/score does not export yet: the drop that alerts an
// owner, the reliability window, and how its latency percentiles are taken. They are kept here, named and
// tested, only until the package holds them; each doc comment names the package constant it should become.

/**
 * A fall of the composite by this many points or more from one scored day to the next is an alert in the
 * owner's feed (the Scoreboard's score-drop alerts: 10 points). This belongs in @mcp-atlas/score, next to
 * GRADE_THRESHOLDS, as an exported constant of the same name.
 */
export const SCORE_DROP_ALERT_POINTS = 10;

/**
 * Days of our own checks the reliability category reads, the scored day included: the Scoreboard uses its
 * 7-day uptime and the 7-day window of latency. This belongs in @mcp-atlas/score, next to
 * MINIMUM_PROBE_COUNT in its reliability module, as an exported constant of the same name.
 */
export const SCORE_RELIABILITY_WINDOW_DAYS = 7;

/**
 * How many days back the drop alert looks for a server's previous score: a day the cost cap skipped leaves no
 * entry, and the comparison is then with the newest scored day before it. Same window as the reliability one.
 */
export const SCORE_DROP_LOOKBACK_DAYS = SCORE_RELIABILITY_WINDOW_DAYS;

/**
 * The drop between two composites when it reaches {@link SCORE_DROP_ALERT_POINTS}, else null. A day without a
 * composite (unscored) on either side is no drop: there is no number to fall from or to.
 *
 * @example scoreDropOf(80, 70) // 10
 * @example scoreDropOf(80, 71) // null (9 points)
 */
export function scoreDropOf(previous: number | null, current: number | null): number | null {
  if (previous === null || current === null) return null;
  const drop = previous - current;
  return drop >= SCORE_DROP_ALERT_POINTS ? drop : null;
}

/**
 * The nearest-rank percentile (`p` in 0-100) of handshake times: the smallest value with at least `p`% of the
 * values at or below it; null for no values. p50 of [100, 200, 300, 400] is 200, p95 is 400. This belongs in
 * @mcp-atlas/score's reliability module (as `latencyPercentile`), so every caller takes percentiles alike.
 */
export function latencyPercentile(values: readonly number[], p: number): number | null {
  const sorted = values.filter((v) => Number.isFinite(v) && v >= 0).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}
