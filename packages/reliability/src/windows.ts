/**
 * The day-by-day windows and counts of the service's rolling stores that are not uptime formulas: how long
 * a rise in risk stays on a server's state, which stores need an aggregate before their raw days go, how
 * long after midnight a day's raw counts are summed, and the windows and caps of the outside-service layer
 * (package layer, OSV retries) and of submission records. Pure module: constants only, no I/O, no clock.
 *
 * They sit apart from `rules.ts` because they concern the service's bookkeeping rather than a published
 * figure; every one is still stated in docs/methodology.md, and changing one needs a changelog line there.
 */

// ---------------------------------------------------------------------------------------------
// The daily fold
// ---------------------------------------------------------------------------------------------

/**
 * Days, today included, a server's state keeps the days on which a tool rose in risk. It covers the route's
 * set-aside window (`ROUTE_SCORE_RULES.riskRiseDays` of @mcp-atlas/route, a rise under 7 days old): the route reads how many
 * days ago the newest kept rise was, so keeping fewer days here would end the set-aside early.
 */
export const RISK_RISE_DAYS_KEPT = 7;

// ---------------------------------------------------------------------------------------------
// Retention
// ---------------------------------------------------------------------------------------------

/**
 * Stores of `RETENTION_DAYS` whose raw day goes only once that day's aggregate exists: deleting the raw
 * files first would lose the day's figures for good.
 */
export const RETENTION_NEEDS_AGGREGATE = Object.freeze([
  'rawSensorBatches',
  'rawDemandRecords',
  'dailyCallMarkers',
] as const);

/** Stores of `RETENTION_DAYS` that never lose a day of the current UTC calendar month, however old. */
export const RETENTION_KEEPS_CURRENT_MONTH = Object.freeze(['dailyCallMarkers'] as const);

/**
 * Minutes after midnight UTC before the day just ended counts as closed and its raw demand records and
 * sensor batches are summed into the day's aggregate: room for writes still in flight at midnight. An
 * aggregate is written once and never rewritten, so summing too early would lose those writes.
 */
export const AGGREGATE_GRACE_MINUTES = 5;

// ---------------------------------------------------------------------------------------------
// Outside services (package layer and OSV)
// ---------------------------------------------------------------------------------------------

/** npm and PyPI packages read per registry entry; an entry listing more is cut here (no real server ships so many). */
export const PACKAGES_PER_SERVER_MAX = 10;

/**
 * Days before today the pages look back for a package layer OSV answered for: today and the 7 days before
 * it (8 day files). Before the day's 04:05 UTC check this keeps yesterday's answer on show rather than a
 * blank; older than that, nothing is shown as checked.
 */
export const PACKAGE_LAYER_LOOKBACK_DAYS = 7;

/** Hours a failed OSV check waits before it is tried again; the day's check is still owed until the day ends. */
export const OSV_RETRY_HOURS = 1;

// ---------------------------------------------------------------------------------------------
// Submissions
// ---------------------------------------------------------------------------------------------

/**
 * Finished earlier attempts of the same URL kept on its submission record (the newest ones). Our choice:
 * the source rules give no number; ten shows a pattern of resubmissions without letting a record grow
 * without bound.
 */
export const SUBMISSION_EARLIER_ATTEMPTS_KEPT = 10;
