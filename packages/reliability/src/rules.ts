/**
 * The methodology's rule constants of @mcp-atlas/reliability, published as `@mcp-atlas/reliability/rules`: one frozen
 * object per concern, each naming the section of docs/methodology/ (reliability.md, ratings-and-incidents.md) that
 * explains it. The values are written once, in constants.ts and next to the functions that apply them; these objects
 * only group them. The root entry exports none of them: a rule is read here, a function is called from the root. The
 * vocabularies the rules speak of (the daily letters, report reasons, check outcomes) are fields of the same groups.
 * What an operator may set differently (cost caps, intake quotas, submissions, retention, domain age) is not here but
 * in `@mcp-atlas/operations/rules`.
 *
 * Pure module: no I/O, no clock.
 */
import {
  ACCURACY_WITHOUT_ANSWERS,
  AGREEMENT_COUNT,
  AGREEMENT_FLOOR,
  AGREEMENT_PRIOR_AGREE,
  AGREEMENT_PRIOR_TOTAL,
  AGREEMENT_SPAN,
  ANONYMOUS_REPORTER_WEIGHT,
  ANSWERING_LETTERS,
  CHANGE_DAYS_KEPT,
  CHECK_COUNT_DAYS_KEPT,
  CHECK_TALLY_DAYS_KEPT,
  DAILY_LETTERS,
  DAY_SERIES_DAYS_KEPT,
  DAY_SERIES_PERCENTILES,
  DAY_WEIGHT_BASE,
  DISAGREEMENT_COUNT,
  DISTRIBUTION_MIN_MEDIAN_DAYS,
  DOWN_LETTER,
  FAILURE_REASONS,
  FAILURES_IN_A_ROW_TO_SHOW,
  FIVE_MINUTE_DAYS_KEPT,
  FIVE_MINUTE_LONG_WINDOW_DAYS,
  FIVE_MINUTE_MIN_CHECKS,
  FIVE_MINUTE_WINDOW_DAYS,
  HOUR_PROFILE_MIN_HOURS,
  INCIDENT_MIN_REPORTERS,
  INCIDENT_MIN_REPORTERS_WITH_CHECK,
  INCIDENT_WINDOW_HOURS,
  IPV4_REPORTER_PREFIX_BITS,
  IPV6_REPORTER_PREFIX_BITS,
  LETTER_WINDOW_DAYS,
  NO_DATA_LETTER,
  NON_STANDARD_HTTP_STATUSES,
  NON_STANDARD_LABEL,
  NOT_ENOUGH_REPORTS_LABEL,
  OUTAGES_KEPT,
  OWN_CHECK_KINDS,
  OWN_CHECK_OUTCOMES,
  PAID_REPORTER_WEIGHT,
  RANKING_MIN_OBSERVED_DAYS,
  REACHABILITY_REASONS,
  REAL_CHECK_FAILURES,
  RECENT_REPORTS_SAMPLE,
  REPORT_HALF_LIFE_DAYS,
  REPORT_WINDOW_DAYS,
  REPORTS_PER_REPORTER_PER_DAY,
  REPORTS_PER_REPORTER_PER_SERVER_PER_DAY,
  RISK_RISE_DAYS_KEPT,
  SENSOR_OUTCOME_MAX_AGE_HOURS,
  SENSOR_OUTCOMES_PER_BATCH,
  SENSOR_OUTCOMES_PER_DAY,
  SENSOR_WEIGHT,
  SHOWN_STATE_WORDS,
  SPEED_FULL_MS,
  SPEED_SPAN_MS,
  SPEED_WITHOUT_TIMES,
  STABILITY_PENALTY_PER_CHANGE_DAY,
  STABILITY_WINDOW_DAYS,
  STAR_FLOOR,
  STAR_SPAN,
  STAR_WEIGHTS,
  SUCCESS_PRIOR_SUCCESSES,
  SUCCESS_PRIOR_TRIALS,
  SURPRISES,
  THIRTY_DAY_LABEL_MIN_DAYS,
  THIRTY_DAY_UPTIME_LABEL,
  TOP_PLACES_DIVISOR,
  TOP_PLACES_MIN_RANKED,
  UPTIME_CAP_WHEN_MISSED,
  UPTIME_DECIMALS,
  VISIBLE_MIN_PAID_WEIGHT,
  VISIBLE_MIN_REPORTERS,
} from './constants.js';
import { CHANGE_KINDS } from './fold.js';
import { CLOSURE_NOTE_MAX_CHARS } from './incident-closure.js';
import { FIVE_MINUTE_OBSERVATIONS_KEPT } from './live-checks.js';
import { LEFT_OUT_REASONS } from './map-listing.js';
import {
  BROKEN_HANDSHAKE_REASONS,
  HTTP_ERROR_REASON,
  NO_CONNECTION_REASONS,
  REDIRECT_REASON_PREFIX,
  TIMEOUT_REASONS,
} from './own-check-outcome.js';

/** The daily letters (methodology, "Reliability" > "Daily letters"): the window shown and which letters answer. */
export const LETTER_RULES = Object.freeze({
  /** Daily letters kept and shown per server. */
  windowDays: LETTER_WINDOW_DAYS,
  /** The letters of a day on which the server answered (a sign-in or payment request counts). */
  answeringLetters: ANSWERING_LETTERS,
  /** Every daily letter: `o` tools, `a` sign-in, `p` payment, `d` not answering, `n` no check that day. */
  letters: DAILY_LETTERS,
  /** The letter of a day the server did not answer. */
  downLetter: DOWN_LETTER,
  /** The letter of a day without a daily check; it counts neither as up nor as down. */
  noDataLetter: NO_DATA_LETTER,
});

/**
 * Uptime (methodology, "Reliability" > "Uptime").
 *
 * @example
 * // UPTIME_RULES is exported by the `@mcp-atlas/reliability/rules` subpath
 * `${uptime.toFixed(UPTIME_RULES.decimals)}%`;
 */
export const UPTIME_RULES = Object.freeze({
  /** Decimals an uptime percentage is shown with. */
  decimals: UPTIME_DECIMALS,
  /** The highest figure a server that missed at least one check may show; rounding never reaches 100. */
  capWhenMissed: UPTIME_CAP_WHEN_MISSED,
  /** Five-minute checks needed (one hour of them) before the five-minute figure replaces the daily one. */
  fiveMinuteMinChecks: FIVE_MINUTE_MIN_CHECKS,
  /** UTC days the five-minute figure covers. */
  fiveMinuteWindowDays: FIVE_MINUTE_WINDOW_DAYS,
  /** UTC days of the long five-minute figure. */
  fiveMinuteLongWindowDays: FIVE_MINUTE_LONG_WINDOW_DAYS,
  /** Observed days needed before the figure may be called the 30-day uptime. */
  thirtyDayLabelMinDays: THIRTY_DAY_LABEL_MIN_DAYS,
  /** The label of the 30-day figure. */
  thirtyDayLabel: THIRTY_DAY_UPTIME_LABEL,
  /** Observed days the median server needs before the state page shows the uptime distribution. */
  distributionMinMedianDays: DISTRIBUTION_MIN_MEDIAN_DAYS,
});

/** Success chance and stability (methodology, "Reliability" > "Chance the next handshake works, and stability"). */
export const CHANCE_RULES = Object.freeze({
  /** Successes assumed before any day is seen (the + 1). */
  priorSuccesses: SUCCESS_PRIOR_SUCCESSES,
  /** Trials assumed before any day is seen (the + 2). */
  priorTrials: SUCCESS_PRIOR_TRIALS,
  /** Base of a day's weight by its age. */
  dayWeightBase: DAY_WEIGHT_BASE,
  /** What each day with a tool-list change adds to the stability penalty. */
  stabilityPenaltyPerChangeDay: STABILITY_PENALTY_PER_CHANGE_DAY,
  /** Days over which tool-list changes count against stability. */
  stabilityWindowDays: STABILITY_WINDOW_DAYS,
});

/** What the daily fold keeps per server (methodology, "Reliability" > "The daily fold"). */
export const FOLD_RULES = Object.freeze({
  /** Days a server's tool-list change days are kept. */
  changeDaysKept: CHANGE_DAYS_KEPT,
  /** Finished outage lengths kept per server, the newest ones. */
  outagesKept: OUTAGES_KEPT,
  /** Days a risk rise is kept, so the route can set a server aside for that long. */
  riskRiseDaysKept: RISK_RISE_DAYS_KEPT,
  /** Days of five-minute counters kept per server. */
  fiveMinuteDaysKept: FIVE_MINUTE_DAYS_KEPT,
  /** Days, the newest included, of the hourly tallies and the five-minute wall-time counts kept per server. */
  checkTallyDaysKept: CHECK_TALLY_DAYS_KEPT,
  /** Days, the newest included, of the hourly checks' per-day counts kept per server (the 30-day uptime). */
  checkCountDaysKept: CHECK_COUNT_DAYS_KEPT,
  /** The kinds of change a daily check can record. */
  changeKinds: CHANGE_KINDS,
  /** Days, today included, of the day series (each folded day's letter and handshake times) kept per server. */
  daySeriesDaysKept: DAY_SERIES_DAYS_KEPT,
  /** The nearest-rank percentiles of each closed day's handshake times kept in the day series. */
  daySeriesPercentiles: DAY_SERIES_PERCENTILES,
});

/** The most reliable lists (methodology, "Reliability" > "Most reliable by category"). */
export const RANKING_RULES = Object.freeze({
  /** Observed days a server needs before it is ranked. */
  minObservedDays: RANKING_MIN_OBSERVED_DAYS,
  /** The top places are the first 1 / this of a category's ranked servers, rounded up. */
  topPlacesDivisor: TOP_PLACES_DIVISOR,
  /** Ranked servers a category needs before any place in it is marked top. */
  topPlacesMinRanked: TOP_PLACES_MIN_RANKED,
});

/** Ratings from agents and gateway sensors (methodology, "Reliability" > "Ratings from agents and gateway sensors"). */
export const RATING_RULES = Object.freeze({
  /** Base weight of a report from a paying reporter. */
  paidReporterWeight: PAID_REPORTER_WEIGHT,
  /** Base weight of a report from an anonymous reporter. */
  anonymousReporterWeight: ANONYMOUS_REPORTER_WEIGHT,
  /** Floor of the agreement factor. */
  agreementFloor: AGREEMENT_FLOOR,
  /** Span of the agreement factor above its floor. */
  agreementSpan: AGREEMENT_SPAN,
  /** Agreements assumed before any is seen. */
  agreementPriorAgree: AGREEMENT_PRIOR_AGREE,
  /** Comparisons assumed before any is seen. */
  agreementPriorTotal: AGREEMENT_PRIOR_TOTAL,
  /** What one disagreement with our checks adds to the disagree count. */
  disagreementCount: DISAGREEMENT_COUNT,
  /** What one agreement with our checks adds to the agree count. */
  agreementCount: AGREEMENT_COUNT,
  /** Failure reasons that agree with our checks only when our check also saw the server down. */
  reachabilityReasons: REACHABILITY_REASONS,
  /** Half-life, in days, of a report's weight. */
  reportHalfLifeDays: REPORT_HALF_LIFE_DAYS,
  /** Reports and sensor entries older than this many days weigh nothing. */
  reportWindowDays: REPORT_WINDOW_DAYS,
  /** Accuracy, surprise share and speed read only the newest this-many reports. */
  recentReportsSample: RECENT_REPORTS_SAMPLE,
  /** Median milliseconds at or below which speed is full. */
  speedFullMs: SPEED_FULL_MS,
  /** Milliseconds over `speedFullMs` across which speed falls from 1 to 0. */
  speedSpanMs: SPEED_SPAN_MS,
  /** Speed used when no report carries a time. */
  speedWithoutTimes: SPEED_WITHOUT_TIMES,
  /** Accuracy used when no recent report says whether the result matched. */
  accuracyWithoutAnswers: ACCURACY_WITHOUT_ANSWERS,
  /** Stars = starFloor + starSpan x (weighted blend of the four parts). */
  starFloor: STAR_FLOOR,
  /** Stars span above the floor. */
  starSpan: STAR_SPAN,
  /** Weights of the four parts of stars; they sum to 1. */
  starWeights: STAR_WEIGHTS,
  /** Distinct reporters needed before stars and reliability are shown. */
  visibleMinReporters: VISIBLE_MIN_REPORTERS,
  /** Decayed weight from paying reporters needed before stars and reliability are shown. */
  visibleMinPaidWeight: VISIBLE_MIN_PAID_WEIGHT,
  /** What a page shows in place of stars when a rating is not yet visible. */
  notEnoughReportsLabel: NOT_ENOUGH_REPORTS_LABEL,
  /** The failure reasons a report may give. */
  failureReasons: FAILURE_REASONS,
  /** The surprises a report may name. */
  surprises: SURPRISES,
});

/** How many reports a reporter may send, and who counts as one reporter (same section as {@link RATING_RULES}). */
export const REPORT_LIMIT_RULES = Object.freeze({
  /** Reports one reporter may send per UTC day, across all servers. */
  perReporterPerDay: REPORTS_PER_REPORTER_PER_DAY,
  /** Reports one reporter may send per UTC day about one server. */
  perReporterPerServerPerDay: REPORTS_PER_REPORTER_PER_SERVER_PER_DAY,
  /** Anonymous IPv4 reporters are one reporter per network of this prefix length. */
  ipv4PrefixBits: IPV4_REPORTER_PREFIX_BITS,
  /** Anonymous IPv6 reporters are one reporter per network of this prefix length. */
  ipv6PrefixBits: IPV6_REPORTER_PREFIX_BITS,
});

/** Gateway sensors (methodology, "Reliability" > "Ratings from agents and gateway sensors"). */
export const SENSOR_RULES = Object.freeze({
  /** Base weight of a sensor entry (a sensor counts like an anonymous agent). */
  weight: SENSOR_WEIGHT,
  /** Outcomes one sensor may send per UTC day. */
  outcomesPerDay: SENSOR_OUTCOMES_PER_DAY,
  /** Outcomes one batch may carry; a larger batch is refused whole. */
  outcomesPerBatch: SENSOR_OUTCOMES_PER_BATCH,
  /** Outcomes older than this many hours when they arrive are dropped. */
  outcomeMaxAgeHours: SENSOR_OUTCOME_MAX_AGE_HOURS,
});

/** Live incidents and how our own checks are read (methodology, "Reliability" > "Live incidents"). */
export const INCIDENT_RULES = Object.freeze({
  /** Hours a failure, or one of our failed checks, stays relevant to an incident. */
  windowHours: INCIDENT_WINDOW_HOURS,
  /** Distinct failing reporters that make an incident on their own. */
  minReporters: INCIDENT_MIN_REPORTERS,
  /** Failing reporters that make an incident together with our own failed check. */
  minReportersWithCheck: INCIDENT_MIN_REPORTERS_WITH_CHECK,
  /** Our own check results that are real failures and can confirm an incident. */
  realCheckFailures: REAL_CHECK_FAILURES,
  /** The longest note a person may write when closing an incident. */
  closureNoteMaxChars: CLOSURE_NOTE_MAX_CHARS,
  /** Probe reasons read as "no connection". */
  noConnectionReasons: NO_CONNECTION_REASONS,
  /** Probe reasons read as a timeout. */
  timeoutReasons: TIMEOUT_REASONS,
  /** Probe reasons read as a broken handshake. */
  brokenHandshakeReasons: BROKEN_HANDSHAKE_REASONS,
  /** The probe reason of an HTTP error answer. */
  httpErrorReason: HTTP_ERROR_REASON,
  /** The prefix of the probe reasons of a redirect. */
  redirectReasonPrefix: REDIRECT_REASON_PREFIX,
  /** Every result our own check can report to the incident rule. */
  ownCheckOutcomes: OWN_CHECK_OUTCOMES,
  /** The kinds of our own check; any of them can confirm an incident. */
  ownCheckKinds: OWN_CHECK_KINDS,
});

/** What status a server is shown with (methodology, "Reliability" > "Shown status"). */
export const SHOWN_STATUS_RULES = Object.freeze({
  /** Failed five-minute or hourly checks in a row before the shown status turns to down. */
  failuresInARowToShow: FAILURES_IN_A_ROW_TO_SHOW,
  /** Five-minute observations kept per server (enough to see that many failures in a row). */
  fiveMinuteObservationsKept: FIVE_MINUTE_OBSERVATIONS_KEPT,
  /** HTTP statuses shown as "answers, but not as a standard MCP endpoint" rather than down. */
  nonStandardHttpStatuses: NON_STANDARD_HTTP_STATUSES,
  /** The label of such a server. */
  nonStandardLabel: NON_STANDARD_LABEL,
  /** The words a page uses for each shown state. */
  stateWords: SHOWN_STATE_WORDS,
  /** UTC hours that need a result before the hour-of-day profile is shown. */
  hourProfileMinHours: HOUR_PROFILE_MIN_HOURS,
});

/** Who is on the published map (methodology, "Reliability" > "Who is on the published map"). */
export const MAP_LISTING_RULES = Object.freeze({
  /** The reasons a server is left out, in the order they are named when several apply. */
  leftOutReasons: LEFT_OUT_REASONS,
});
