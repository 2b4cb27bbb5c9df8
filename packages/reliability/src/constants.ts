/**
 * Every threshold, weight and formula constant of @mcp-atlas/reliability, in one place, one name each for the
 * package's own modules. Users read them grouped and frozen through `./rules` (rules.ts). The service's
 * operating rules (cost caps, intake quotas, submissions, retention, domain age) are @mcp-atlas/operations'.
 *
 * Pure module: no I/O, no clock. The formulas that use these numbers live next to the functions
 * that apply them; docs/methodology/ (reliability.md, ratings-and-incidents.md) states each one in words.
 * Changing any value here changes published figures, so it must come with a methodology version bump and a
 * changelog line.
 */

import { MS_PER_DAY } from '@mcp-atlas/base';

// ---------------------------------------------------------------------------------------------
// Units
// ---------------------------------------------------------------------------------------------

/** Milliseconds in one hour. */
export const MS_PER_HOUR = 3_600_000;

/** Milliseconds in one UTC day: @mcp-atlas/base's, the one day helper module of the project. */
export { MS_PER_DAY };

/** Hours in a day; the hour-of-day profile has one slot per UTC hour. */
export const HOURS_PER_DAY = 24;

// ---------------------------------------------------------------------------------------------
// Daily letters
// ---------------------------------------------------------------------------------------------

/** Daily letters kept per server: one per UTC day, oldest first. */
export const LETTER_WINDOW_DAYS = 30;

/**
 * The five daily letters: `o` answered with tools, `a` asked for sign-in, `p` asked for payment,
 * `d` not answering, `n` no data (the daily check did not run that day).
 */
export const DAILY_LETTERS = ['o', 'a', 'p', 'd', 'n'] as const;

/** Letters that count as up: sign-in and payment answers mean the server is there and answering. */
export const ANSWERING_LETTERS = ['o', 'a', 'p'] as const;

/** The letter of a day the server did not answer. */
export const DOWN_LETTER = 'd';

/** The letter of a day without a daily check; it counts neither as up nor as down. */
export const NO_DATA_LETTER = 'n';

// ---------------------------------------------------------------------------------------------
// Uptime
// ---------------------------------------------------------------------------------------------

/** Decimals shown on every uptime percentage. */
export const UPTIME_DECIMALS = 1;

/** The highest figure a server that missed at least one check may show; rounding never reaches 100. */
export const UPTIME_CAP_WHEN_MISSED = 99.9;

/** Five-minute checks needed (one hour of them) before the five-minute figure replaces the daily one. */
export const FIVE_MINUTE_MIN_CHECKS = 12;

/** UTC days the five-minute figure covers. */
export const FIVE_MINUTE_WINDOW_DAYS = 30;

/** UTC days of the long five-minute figure, shown only when checks older than the short window exist. */
export const FIVE_MINUTE_LONG_WINDOW_DAYS = 90;

/** Observed days needed before a figure may be called a 30-day uptime. */
export const THIRTY_DAY_LABEL_MIN_DAYS = 14;

/** Label of an uptime figure backed by at least THIRTY_DAY_LABEL_MIN_DAYS observed days. */
export const THIRTY_DAY_UPTIME_LABEL = '30-day uptime';

/** Observed days the median server needs before the state page shows the uptime distribution. */
export const DISTRIBUTION_MIN_MEDIAN_DAYS = 14;

// ---------------------------------------------------------------------------------------------
// Success chance and stability
// ---------------------------------------------------------------------------------------------

/** Added to the weighted answering days: the prior of one success (Laplace's rule of succession). */
export const SUCCESS_PRIOR_SUCCESSES = 1;

/** Added to the weighted observed days: the prior of two trials. */
export const SUCCESS_PRIOR_TRIALS = 2;

/** Base weight of every day; day i of n weighs DAY_WEIGHT_BASE + i / n, so the newest weighs most. */
export const DAY_WEIGHT_BASE = 0.5;

/** Stability = 1 / (1 + this x days the tool list changed in the window). */
export const STABILITY_PENALTY_PER_CHANGE_DAY = 0.5;

/** UTC days, today included, in which tool-list change days lower stability. */
export const STABILITY_WINDOW_DAYS = 30;

// ---------------------------------------------------------------------------------------------
// Most reliable by category
// ---------------------------------------------------------------------------------------------

/** Observed daily results a server needs before it is listed in its category. */
export const RANKING_MIN_OBSERVED_DAYS = 14;

/** The top places are the first 1 / this of a category's ranked servers, rounded up. */
export const TOP_PLACES_DIVISOR = 10;

/** Ranked servers a category needs before any place in it is marked top 10%. */
export const TOP_PLACES_MIN_RANKED = 10;

// ---------------------------------------------------------------------------------------------
// Ratings from agents and gateway sensors
// ---------------------------------------------------------------------------------------------

/** Base weight of a report from a paying reporter. */
export const PAID_REPORTER_WEIGHT = 1.0;

/** Base weight of a report from an anonymous reporter, and of a gateway sensor. */
export const ANONYMOUS_REPORTER_WEIGHT = 0.3;

/** Floor of the agreement factor: weight x (floor + span x (agree + 1) / (agree + disagree + 2)). */
export const AGREEMENT_FLOOR = 0.5;

/** Span of the agreement factor above its floor. */
export const AGREEMENT_SPAN = 0.5;

/** Agreements assumed before any is seen (the + 1 of the agreement share). */
export const AGREEMENT_PRIOR_AGREE = 1;

/** Comparisons assumed before any is seen (the + 2 of the agreement share). */
export const AGREEMENT_PRIOR_TOTAL = 2;

/** How much one disagreement with our checks adds to a reporter's disagree count. */
export const DISAGREEMENT_COUNT = 0.5;

/** How much one agreement with our checks adds to a reporter's agree count. */
export const AGREEMENT_COUNT = 1;

/** The seven failure reasons a report may give. */
export const FAILURE_REASONS = [
  'unreachable',
  'auth',
  'args',
  'server_error',
  'timeout',
  'rate_limited',
  'wrong_result',
] as const;

/** The four surprises a report may name. */
export const SURPRISES = ['side_effect', 'unexpected_cost', 'data_leak_suspected', 'other'] as const;

/**
 * Failure reasons that agree with our checks only when our check also saw the server down:
 * the reporter claims the server cannot be reached, which our own check can confirm or refute.
 */
export const REACHABILITY_REASONS = ['unreachable', 'timeout'] as const;

/** Half-life, in days, of a report's weight: decay = 0.5 ^ (age / half-life). */
export const REPORT_HALF_LIFE_DAYS = 7;

/** Reports and sensor entries older than this many days weigh nothing. */
export const REPORT_WINDOW_DAYS = 30;

/** Accuracy, surprise share and speed read only the newest this-many reports. */
export const RECENT_REPORTS_SAMPLE = 30;

/** Median milliseconds at or below which speed is full. */
export const SPEED_FULL_MS = 500;

/** Milliseconds over SPEED_FULL_MS across which speed falls from 1 to 0. */
export const SPEED_SPAN_MS = 5000;

/** Speed used when no report carries a time. */
export const SPEED_WITHOUT_TIMES = 0.7;

/**
 * Accuracy used when none of the newest reports says whether the result matched the description.
 * Our choice (the source rules give no default): the same neutral value as speed without times.
 */
export const ACCURACY_WITHOUT_ANSWERS = 0.7;

/** Stars = STAR_FLOOR + STAR_SPAN x (weighted blend of the four parts). */
export const STAR_FLOOR = 1;

/** Stars span above the floor; with the floor this gives a 1 to 5 scale. */
export const STAR_SPAN = 4;

/** Weights of the four parts of stars; they sum to 1. */
export const STAR_WEIGHTS = {
  reliability: 0.45,
  accuracy: 0.2,
  noSurprise: 0.2,
  speed: 0.15,
} as const;

/** Distinct reporters (agents and sensors) needed before stars and reliability are shown. */
export const VISIBLE_MIN_REPORTERS = 3;

/** Decayed weight from paying reporters needed before stars and reliability are shown. */
export const VISIBLE_MIN_PAID_WEIGHT = 1.0;

/** What a page shows in place of stars when a rating is not yet visible. */
export const NOT_ENOUGH_REPORTS_LABEL = 'not enough reports';

/** Reports one reporter may send per UTC day, across all servers. */
export const REPORTS_PER_REPORTER_PER_DAY = 50;

/** Reports one reporter may send per UTC day about one server. */
export const REPORTS_PER_REPORTER_PER_SERVER_PER_DAY = 3;

/** Anonymous IPv4 reporters are one reporter per network of this prefix length. */
export const IPV4_REPORTER_PREFIX_BITS = 24;

/** Anonymous IPv6 reporters are one reporter per network of this prefix length. */
export const IPV6_REPORTER_PREFIX_BITS = 48;

// ---------------------------------------------------------------------------------------------
// Gateway sensors
// ---------------------------------------------------------------------------------------------

/** Base weight of a sensor entry (a sensor counts like an anonymous agent). */
export const SENSOR_WEIGHT = ANONYMOUS_REPORTER_WEIGHT;

/** Outcomes one sensor may send per UTC day. */
export const SENSOR_OUTCOMES_PER_DAY = 20_000;

/** Outcomes one batch may carry; a larger batch is refused whole. */
export const SENSOR_OUTCOMES_PER_BATCH = 100;

/** Outcomes older than this many hours when they arrive are dropped. */
export const SENSOR_OUTCOME_MAX_AGE_HOURS = 24;

// ---------------------------------------------------------------------------------------------
// Live incidents
// ---------------------------------------------------------------------------------------------

/** Hours a failure, or one of our failed checks, stays relevant to a live incident. */
export const INCIDENT_WINDOW_HOURS = 2;

/**
 * Our own check results that are real failures and can confirm an incident. A 404, a redirect,
 * a sign-in request or another 4xx answer is not one: the server is there.
 */
export const REAL_CHECK_FAILURES = ['timeout', 'no_connection', 'server_error', 'broken_handshake'] as const;

/**
 * Every result our own check can report to the incident rule. `answered` means the handshake and
 * tool list worked; `sign_in` covers 401, 402 and 403; `client_error` any other 4xx but 404.
 */
export const OWN_CHECK_OUTCOMES = [
  'answered',
  'timeout',
  'no_connection',
  'server_error',
  'broken_handshake',
  'not_found',
  'redirect',
  'sign_in',
  'client_error',
] as const;

/** The kinds of our own check; any of them can confirm an incident. */
export const OWN_CHECK_KINDS = ['hourly', 'five_minute', 'daily'] as const;

/** Distinct failing reporters that make the two signals on their own. */
export const INCIDENT_MIN_REPORTERS = 2;

/** Failing reporters that make the two signals together with our own failed check. */
export const INCIDENT_MIN_REPORTERS_WITH_CHECK = 1;

// ---------------------------------------------------------------------------------------------
// Shown status and display
// ---------------------------------------------------------------------------------------------

/** Failed five-minute or hourly checks in a row before the shown status turns to down. */
export const FAILURES_IN_A_ROW_TO_SHOW = 2;

/**
 * HTTP statuses shown as "answers, but not as a standard MCP endpoint" rather than down;
 * the daily history still records the day as `d`.
 */
export const NON_STANDARD_HTTP_STATUSES = [400, 405, 406, 415, 422] as const;

/** Label of a server that answers HTTP but not as a standard MCP endpoint. */
export const NON_STANDARD_LABEL = 'answers, but not as a standard MCP endpoint';

/** The words a page uses for each shown state. */
export const SHOWN_STATE_WORDS = {
  answering: 'answering with tools',
  sign_in: 'asks for sign-in',
  payment: 'asks for payment',
  non_standard: NON_STANDARD_LABEL,
  down: 'not answering',
} as const;

/** UTC hours that need a result before the hour-of-day profile is shown. */
export const HOUR_PROFILE_MIN_HOURS = 6;

// ---------------------------------------------------------------------------------------------
// What the daily fold keeps per server
// ---------------------------------------------------------------------------------------------

/** Days a server's tool-list change days are kept. */
export const CHANGE_DAYS_KEPT = 60;

/** Finished outage lengths kept per server (the newest ones). */
export const OUTAGES_KEPT = 5;

/** Days of five-minute counters kept per server: one pair (answered, checks) per UTC day. */
export const FIVE_MINUTE_DAYS_KEPT = 92;

/**
 * UTC days, the newest included, of per-day check tallies kept per server: the hourly checks' counts and wall
 * times, and the five-minute checks' wall times. The quality score reads seven days ending the scored day, and a
 * day is scored after it ends, when the next day has begun: seven days and the one in progress.
 */
export const CHECK_TALLY_DAYS_KEPT = 8;

/**
 * UTC days, the newest included, of the hourly checks' per-day counts kept per server: the 30-day uptime window
 * and the day in progress. Only the newest CHECK_TALLY_DAYS_KEPT days also keep their wall times, which the
 * latency percentiles read over seven days; an older day keeps its two counts, a few bytes.
 */
export const CHECK_COUNT_DAYS_KEPT = 31;

/**
 * UTC days, today included, of a server's day series: one entry per folded day with its daily letter and its
 * handshake-time percentiles, for the server page's 90-day charts. It matches the long five-minute window.
 */
export const DAY_SERIES_DAYS_KEPT = 90;

/** The two nearest-rank percentiles of a day's handshake times kept in the day series: the median and the 95th. */
export const DAY_SERIES_PERCENTILES = Object.freeze({ low: 50, high: 95 });

/**
 * Days, today included, a server's state keeps the days on which a tool rose in risk. It covers the route's
 * set-aside window (`ROUTE_SCORE_RULES.riskRiseDays` of @mcp-atlas/route, a rise under 7 days old): the route reads
 * how many days ago the newest kept rise was, so keeping fewer days here would end the set-aside early.
 */
export const RISK_RISE_DAYS_KEPT = 7;
