/**
 * The operations policy of @mcp-atlas/reliability, published as `@mcp-atlas/reliability/policy`: what the
 * reference service may spend, how many submissions and ownership checks it takes, and how long it keeps its
 * short-lived stores. These are not measurements of a server (those are `./rules`): they are the defaults of
 * whoever runs the service, which another operator may set differently without changing any published figure.
 * They stay in this package, next to the pure decisions that apply them (cost-cap.ts, intake-quota.ts,
 * retention-policy.ts), so that each limit keeps its tests at and around the threshold; the README says why.
 * One frozen object per concern, each naming the section of docs/methodology.md that explains it.
 *
 * Pure module: no I/O, no clock.
 */
import {
  CAP_RESERVATION_STALE_MS,
  CHECK_WALL_MS_WITHOUT_HISTORY,
  DAILY_CHECK_BUDGET_USD,
  DEFAULT_CHECK_COST_MODEL,
  FIVE_MINUTE_BUDGET_USD,
  OWNERSHIP_CHECKS_PER_HOST_PER_DAY,
  OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY,
  RETENTION_DAYS,
  SUBMISSIONS_PER_HOST_PER_DAY,
  SUBMISSIONS_PER_REQUESTER_PER_DAY,
} from './constants.js';
import {
  OWNERSHIP_FAILURES_PER_HOST_PER_DAY,
  OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY,
} from './intake-quota.js';
import { AGGREGATE_GRACE_MINUTES, RETENTION_KEEPS_CURRENT_MONTH, RETENTION_NEEDS_AGGREGATE } from './windows.js';

/**
 * What the checks may spend per UTC day (methodology, "Reliability" > "Compute caps"). Amounts are US dollars;
 * the ledgers count whole micro-dollars (`usdToMicroUsd`).
 *
 * @example
 * // COST_CAP_POLICY is exported by the `@mcp-atlas/reliability/policy` subpath
 * const budget = configuredBudgetUsd ?? COST_CAP_POLICY.fiveMinuteBudgetUsd;
 */
export const COST_CAP_POLICY = Object.freeze({
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
export const INTAKE_QUOTA_POLICY = Object.freeze({
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
 * How long the short-lived stores keep their day folders (methodology, "Owners, demand counts and retention" >
 * "Retention" and "Demand counts"). Signed day files, roots, reports and daily aggregates are never deleted on a
 * schedule.
 */
export const RETENTION_POLICY = Object.freeze({
  /** Days each short-lived store keeps its day folders (a limit of N keeps today and the N - 1 days before). */
  days: RETENTION_DAYS,
  /** Stores whose raw day goes only once that day's aggregate exists. */
  needsAggregate: RETENTION_NEEDS_AGGREGATE,
  /** Stores that never lose a day of the current UTC calendar month. */
  keepsCurrentMonth: RETENTION_KEEPS_CURRENT_MONTH,
  /** Minutes after midnight UTC before the day just ended counts as closed and may be summed into its aggregate. */
  aggregateGraceMinutes: AGGREGATE_GRACE_MINUTES,
});
