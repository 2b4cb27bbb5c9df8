/**
 * The rule groups of @mcp-atlas/operations, published as `@mcp-atlas/operations/rules`: one frozen object per
 * concern, each naming the methodology area that explains it.
 */

import {
  CAP_RESERVATION_STALE_MS,
  CHECK_WALL_MS_WITHOUT_HISTORY,
  DAILY_CHECK_BUDGET_USD,
  DEFAULT_CHECK_COST_MODEL,
  FIVE_MINUTE_BUDGET_USD,
} from './cost-cap.js';
import { DOMAIN_AGE_KEEP_DAYS, DOMAIN_AGE_LOOKUPS_PER_SCAN } from './domain-age.js';
import { ANSWERED_STATUSES, REFUSAL_STATUSES, SIGN_IN_STATUS } from './host-header.js';
import {
  OWNERSHIP_CHECKS_PER_HOST_PER_DAY,
  OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY,
  OWNERSHIP_FAILURES_PER_HOST_PER_DAY,
  OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY,
  SUBMISSIONS_PER_HOST_PER_DAY,
  SUBMISSIONS_PER_REQUESTER_PER_DAY,
} from './intake-quota.js';
import {
  MCP_BATCH_MAX_MESSAGES,
  MCP_CALL_LOG_LINES_PER_DAY,
  MCP_TOOL_CALLS_PER_NETWORK_PER_DAY,
  MCP_TOOL_CALLS_PER_NETWORK_PER_MINUTE,
} from './mcp-calls.js';
import { OWNER_NOTE_MAX_CHARACTERS } from './owner-note.js';
import { OSV_RETRY_HOURS, PACKAGE_LAYER_LOOKBACK_DAYS, PACKAGES_PER_SERVER_MAX } from './package-layer.js';
import {
  AGGREGATE_GRACE_MINUTES,
  RETENTION_DAYS,
  RETENTION_KEEPS_CURRENT_MONTH,
  RETENTION_NEEDS_AGGREGATE,
} from './retention.js';
import { ONE_OPEN_PER_SERVER_KINDS } from './review.js';
import { FIVE_MINUTE_CHECK_PERIOD_MS, SEARCH_EVAL_DAY_OF_MONTH, SUBMISSION_LOOK_PERIOD_MS } from './schedule.js';
import {
  SUBMISSION_ADMIT_PERCENT,
  SUBMISSION_CHECK_INTERVAL_HOURS,
  SUBMISSION_EARLIER_ATTEMPTS_KEPT,
  SUBMISSION_EXTEND_PERCENT,
  SUBMISSION_MAX_EXTENSIONS,
  SUBMISSION_MAX_TOOL_LIST_CHANGES,
  SUBMISSION_MIN_CHECKS,
  SUBMISSION_WINDOW_DAYS,
} from './submission.js';

// How the quality score is fed and shown (methodology, "Quality score"): score-rules.ts.
export { DAILY_SCORE_RULES, SHOWN_SCORE_RULES } from './score-rules.js';

/**
 * When the service's scheduled work runs (methodology, "Reliability" > "Uptime" for the five-minute checks,
 * "Operating rules of the service" > "Submitted servers" for their checks, "Tool search, route and categories" >
 * "Search evaluation" for the monthly run). The daily check runs once per UTC day and the hourly one once per
 * UTC hour (`nameHourSlot`); the previous day is sealed from `SEAL_RULES.sealTimeUtc` of
 * `@mcp-atlas/history/rules` ("Signed daily history" > "When days are sealed", `isSealTime`).
 */
export const CHECK_SCHEDULE_RULES = Object.freeze({
  /** Five-minute checks run once per this period (ms). */
  fiveMinuteCheckPeriodMs: FIVE_MINUTE_CHECK_PERIOD_MS,
  /** How often the service looks for due checks of submitted servers and finished observation windows (ms). */
  submissionLookPeriodMs: SUBMISSION_LOOK_PERIOD_MS,
  /** The day of the month (UTC) the search evaluation runs on (`isSearchEvalDue`). */
  searchEvalDayOfMonth: SEARCH_EVAL_DAY_OF_MONTH,
});

/**
 * The Host-header verdict of a deep check (methodology, "Checking a server" > "The compliance score of a deep
 * check"): which answers to a request naming a foreign host pass, fail or leave the check not run.
 */
export const HOST_HEADER_RULES = Object.freeze({
  /** Asks for sign-in before the host is looked at: the check is not run. */
  signInStatus: SIGN_IN_STATUS,
  /** [from, below): the foreign host was refused, a pass. */
  refusalStatuses: REFUSAL_STATUSES,
  /** [from, below): the foreign host was answered as the server's own, a fail. */
  answeredStatuses: ANSWERED_STATUSES,
});

/**
 * The review queue (methodology, "Ratings from agents and sensors, and live incidents" > "Live incidents"): what a person looks at before anything is
 * decided about an incident.
 */
export const REVIEW_QUEUE_RULES = Object.freeze({
  /** Kinds of item of which a server has at most one open at a time: each stands for an episode of hours. */
  oneOpenPerServerKinds: ONE_OPEN_PER_SERVER_KINDS,
});

/**
 * What the checks may spend per UTC day (methodology, "Reliability" > "Compute caps"). Amounts are US dollars;
 * the ledgers count whole micro-dollars (`usdToMicroUsd`).
 *
 * @example
 * // COST_CAP_RULES is exported by the `@mcp-atlas/operations/rules` subpath
 * const budget = configuredBudgetUsd ?? COST_CAP_RULES.fiveMinuteBudgetUsd;
 */
export const COST_CAP_RULES = Object.freeze({
  /** What the daily checks may spend per UTC day; past it the remaining shards wait for the next day. */
  dailyCheckBudgetUsd: DAILY_CHECK_BUDGET_USD,
  /** What the five-minute checks may spend per UTC day unless an operator sets another amount. */
  fiveMinuteBudgetUsd: FIVE_MINUTE_BUDGET_USD,
  /** The cost model unless an operator configures another: a fixed part per check plus a part per second. */
  defaultCheckCostModel: DEFAULT_CHECK_COST_MODEL,
  /** Wall time assumed for a server never timed before, when a check is priced before it starts. */
  checkWallMsWithoutHistory: CHECK_WALL_MS_WITHOUT_HISTORY,
  /** How long a running shard's reservation counts after its worker's last sign of life (several workers). */
  reservationStaleMs: CAP_RESERVATION_STALE_MS,
});

/**
 * How many submissions and ownership checks the service takes per UTC day (methodology, "Reliability" > "Limits
 * on submissions and ownership checks").
 */
export const INTAKE_QUOTA_RULES = Object.freeze({
  /** New submissions one requester network may make per UTC day. */
  submissionsPerRequesterPerDay: SUBMISSIONS_PER_REQUESTER_PER_DAY,
  /** New submissions of URLs on one host name per UTC day, whoever sends them. */
  submissionsPerHostPerDay: SUBMISSIONS_PER_HOST_PER_DAY,
  /** Reads of an owner's token file one requester network may cause per UTC day. */
  ownershipChecksPerRequesterPerDay: OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY,
  /** Reads of one host's token file per UTC day from all networks (only the deprecated host-wide quota uses it). */
  ownershipChecksPerHostPerDay: OWNERSHIP_CHECKS_PER_HOST_PER_DAY,
  /** Failed token-file reads of one host that one requester network may cause per UTC day. */
  ownershipFailuresPerRequesterPerHostPerDay: OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY,
  /** Failed reads of one host per UTC day from all networks, past which a failing read spends all of a network's tries. */
  ownershipFailuresPerHostPerDay: OWNERSHIP_FAILURES_PER_HOST_PER_DAY,
});

/**
 * What one network may ask of the MCP endpoint, and how much its call log may write (methodology, "Operating
 * rules of the service" > "Limits on the MCP endpoint"; `decideMcpCalls`).
 */
export const MCP_ENDPOINT_RULES = Object.freeze({
  /** JSON-RPC messages one request may carry; a longer batch is refused whole. */
  batchMaxMessages: MCP_BATCH_MAX_MESSAGES,
  /** Tool calls one network may make per minute. */
  toolCallsPerNetworkPerMinute: MCP_TOOL_CALLS_PER_NETWORK_PER_MINUTE,
  /** Tool calls one network may make per UTC day. */
  toolCallsPerNetworkPerDay: MCP_TOOL_CALLS_PER_NETWORK_PER_DAY,
  /** Lines the call log writes per UTC day; further calls are counted, not written. */
  callLogLinesPerDay: MCP_CALL_LOG_LINES_PER_DAY,
});

/** How a submitted server is observed and admitted (methodology, "Reliability" > "Submitted servers"). */
export const SUBMISSION_RULES = Object.freeze({
  /** Hours between two checks of a submitted server. */
  checkIntervalHours: SUBMISSION_CHECK_INTERVAL_HOURS,
  /** Days of the observation window. */
  windowDays: SUBMISSION_WINDOW_DAYS,
  /** Checks a window needs before its server may join the map. */
  minChecks: SUBMISSION_MIN_CHECKS,
  /** Percent of a window's checks that must have answered with tools to join the map. */
  admitPercent: SUBMISSION_ADMIT_PERCENT,
  /** Percent from which (up to `admitPercent`) a window earns one more window instead of a refusal. */
  extendPercent: SUBMISSION_EXTEND_PERCENT,
  /** Changes of the tool list a window may show and still join the map. */
  maxToolListChanges: SUBMISSION_MAX_TOOL_LIST_CHANGES,
  /** Extra observation windows a submission may get, in all. */
  maxExtensions: SUBMISSION_MAX_EXTENSIONS,
  /** Finished earlier attempts of the same URL kept on its submission record. */
  earlierAttemptsKept: SUBMISSION_EARLIER_ATTEMPTS_KEPT,
});

/**
 * How long the short-lived stores keep their day folders (methodology, "Owners, demand counts and retention" >
 * "Retention" and "Demand counts"). Signed day files, roots, reports and daily aggregates are never deleted on a
 * schedule.
 */
export const RETENTION_RULES = Object.freeze({
  /** Days each short-lived store keeps its day folders (a limit of N keeps today and the N - 1 days before). */
  days: RETENTION_DAYS,
  /** Stores whose raw day goes only once that day's aggregate exists. */
  needsAggregate: RETENTION_NEEDS_AGGREGATE,
  /** Stores that never lose a day of the current UTC calendar month. */
  keepsCurrentMonth: RETENTION_KEEPS_CURRENT_MONTH,
  /** Minutes after midnight UTC before the day just ended counts as closed and may be summed into its aggregate. */
  aggregateGraceMinutes: AGGREGATE_GRACE_MINUTES,
});

/** Domain age lookups (methodology, "Domain age and the package layer" > "Domain age"). */
export const DOMAIN_AGE_RULES = Object.freeze({
  /** Domains looked up per scan at most. */
  lookupsPerScan: DOMAIN_AGE_LOOKUPS_PER_SCAN,
  /** Days a looked-up creation date is reused before it is looked up again. */
  keepDays: DOMAIN_AGE_KEEP_DAYS,
});

/** The package layer (methodology, "Domain age and the package layer" > "Package layer"). */
export const PACKAGE_LAYER_RULES = Object.freeze({
  /** Packages read per registry entry at most. */
  packagesPerServerMax: PACKAGES_PER_SERVER_MAX,
  /** Days before today the pages look back for a package layer OSV answered for. */
  lookbackDays: PACKAGE_LAYER_LOOKBACK_DAYS,
  /** Hours a failed OSV check waits before it is tried again. */
  osvRetryHours: OSV_RETRY_HOURS,
});

/**
 * Waits before the retries of a failed webhook delivery, in seconds: 1 minute, 5 minutes, 30 minutes and 2 hours,
 * so a receiver that is down for a deploy gets the alert soon after, and one down for good is left alone within a
 * few hours. After the last one the delivery is given up and logged so.
 */
const WEBHOOK_RETRY_DELAYS_SECONDS = Object.freeze([60, 300, 1_800, 7_200]);

/** How long one webhook delivery may take before it counts as failed (ms). */
const WEBHOOK_TIMEOUT_MS = 10_000;

/** Deliveries each owner's delivery log keeps, the newest ones. */
const WEBHOOK_DELIVERIES_KEPT = 50;

/**
 * Checks of one host (its name and port) that may run at once, across the daily, hourly, five-minute and
 * submission checks of a service: one, so no server ever sees two of our sessions at the same time. A host that
 * serves many servers (a hosting platform, one path each) may be given more with a setting.
 */
const CHECKS_PER_HOST = 1;

/** The most checks of one host the setting may allow: far above any real need, so a typo is refused. */
const CHECKS_PER_HOST_MAX = 64;

/** How the service treats the servers it checks (methodology, "How a server is checked" > "One check of a host at a time"). */
export const POLITENESS_RULES = Object.freeze({
  /** Checks of one host running at once, by default. */
  checksPerHost: CHECKS_PER_HOST,
  /** The largest value the setting takes. */
  checksPerHostMax: CHECKS_PER_HOST_MAX,
});

/** Owners' webhooks for their alerts (methodology, "Operating rules of the service" > "The owner view"). */
export const WEBHOOK_RULES = Object.freeze({
  /** Seconds before each retry of a failed delivery; one first try plus one try per entry in all. */
  retryDelaysSeconds: WEBHOOK_RETRY_DELAYS_SECONDS,
  /** Time limit of one delivery (ms). */
  timeoutMs: WEBHOOK_TIMEOUT_MS,
  /** Deliveries the owner's log keeps. */
  deliveriesKept: WEBHOOK_DELIVERIES_KEPT,
});

/** An owner's note (methodology, "Operating rules of the service" > "Owner verification and notes"). */
export const OWNER_NOTE_RULES = Object.freeze({
  /** Longest note, in characters (Unicode code points; `isOwnerNoteShortEnough`). */
  maxCharacters: OWNER_NOTE_MAX_CHARACTERS,
});
