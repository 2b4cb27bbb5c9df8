/**
 * The rules by which the service feeds its own checks to the quality score of @mcp-atlas/score and shows the
 * results. The score's own rules (weights, caps, the probe-count minimum, the reliability window) are the score
 * package's (`@mcp-atlas/score/rules`); these say which of the service's records become its inputs, when, and
 * which day's score a page shows. Pure module: no I/O, no clock.
 */
import { RELIABILITY_RULES } from '@mcp-atlas/score/rules';

/**
 * The time of day (UTC) a day's scores are measured at: the day's last second, so that scoring a day again gives
 * the same ages whenever it runs.
 */
const SCORED_AT_TIME_OF_DAY = '23:59:59';

/** The percentiles of the successful checks' wall times that are fed as the score's p50 and p95 latency. */
const SCORE_LATENCY_PERCENTILES = Object.freeze({ p50: 50, p95: 95 });

/**
 * How many days old a server's newest score may be and still be shown as its score, the newest day included: a
 * server the daily cost cap skipped keeps the score of the day it was last checked for a week, as its reliability
 * window does.
 */
const SHOWN_SCORE_MAX_DAYS = 7;

/** Days of scores a server page's trend covers, the newest day included. */
const SCORE_TREND_DAYS = 30;

/**
 * The best a category can score: "what would raise the score" asks what the composite would be with a pending or
 * weak category at this value, the most it could gain.
 */
const BEST_CATEGORY_SCORE = 100;

/**
 * How the daily score's inputs are gathered from the service's own checks (methodology, "Quality score" > "The
 * daily score of every watched server").
 *
 * @example
 * // DAILY_SCORE_RULES is exported by the `@mcp-atlas/operations/rules` subpath
 * `${day}T${DAILY_SCORE_RULES.scoredAtTimeOfDay}Z`; // the instant a day's scores are measured at
 */
export const DAILY_SCORE_RULES = Object.freeze({
  /** The time of day (UTC, `HH:MM:SS`) a day's scores are measured at: its last second. */
  scoredAtTimeOfDay: SCORED_AT_TIME_OF_DAY,
  /** Days of checks the uptime and latencies are read over, the scored day included (the score's window). */
  reliabilityWindowDays: RELIABILITY_RULES.windowDays,
  /** The nearest-rank percentiles fed as p50 and p95. */
  latencyPercentiles: SCORE_LATENCY_PERCENTILES,
  /**
   * Days back the drop alert looks for a server's previous score: a day the cost cap skipped leaves no entry, and
   * the comparison is then with the newest scored day before it. The same days as the reliability window.
   */
  dropLookbackDays: RELIABILITY_RULES.windowDays,
});

/** Which score a page shows, and what would raise it (methodology, "Quality score" > "Where the score is shown"). */
export const SHOWN_SCORE_RULES = Object.freeze({
  /** Days a server's newest score stays its shown score, the newest day included. */
  maxDays: SHOWN_SCORE_MAX_DAYS,
  /** The category score "what would raise the score" tries for a pending or weak category. */
  bestCategoryScore: BEST_CATEGORY_SCORE,
  /** Days of scores a server page's trend covers, the newest day included. */
  trendDays: SCORE_TREND_DAYS,
});
