// The sentences of the API document, the MCP tool descriptions and the schema descriptions that repeat a
// rule's number. Each is built from the package constant that holds the number, so a changed rule changes
// its text too; a test scans the prose files for rule numbers written by hand.
import { INTAKE_QUOTA_POLICY } from '@mcp-atlas/reliability/policy';
import {
  DOMAIN_AGE_RULES,
  FOLD_RULES,
  INCIDENT_RULES,
  LETTER_RULES,
  RATING_RULES,
  REPORT_LIMIT_RULES,
  SENSOR_RULES,
  SUBMISSION_RULES,
  UPTIME_RULES,
} from '@mcp-atlas/reliability/rules';
import { ROUTE_SCORE_RULES, SEARCH_RULES } from '@mcp-atlas/route/rules';
import { OSV_CHECK_TIME_UTC } from '../outside/outside-config.js';
import { OWNER_NOTE_MAX_CHARACTERS } from '../owners/limits.js';
import { formatCount, formatFactor, formatPercent, formatTimeOfDay, plural } from '../pages/format.js';

// Rule constants under the names this file uses (the package publishes them grouped, on its subpath).
const { keepDays: DOMAIN_AGE_KEEP_DAYS, lookupsPerScan: DOMAIN_AGE_LOOKUPS_PER_SCAN } = DOMAIN_AGE_RULES;
const { changeDaysKept: CHANGE_DAYS_KEPT } = FOLD_RULES;
const { windowHours: INCIDENT_WINDOW_HOURS } = INCIDENT_RULES;
const {
  ownershipChecksPerRequesterPerDay: OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY,
  ownershipFailuresPerHostPerDay: OWNERSHIP_FAILURES_PER_HOST_PER_DAY,
  ownershipFailuresPerRequesterPerHostPerDay: OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY,
  submissionsPerHostPerDay: SUBMISSIONS_PER_HOST_PER_DAY,
  submissionsPerRequesterPerDay: SUBMISSIONS_PER_REQUESTER_PER_DAY,
} = INTAKE_QUOTA_POLICY;
const { windowDays: LETTER_WINDOW_DAYS } = LETTER_RULES;
const { visibleMinPaidWeight: VISIBLE_MIN_PAID_WEIGHT, visibleMinReporters: VISIBLE_MIN_REPORTERS } = RATING_RULES;
const {
  ipv4PrefixBits: IPV4_REPORTER_PREFIX_BITS,
  ipv6PrefixBits: IPV6_REPORTER_PREFIX_BITS,
  perReporterPerDay: REPORTS_PER_REPORTER_PER_DAY,
  perReporterPerServerPerDay: REPORTS_PER_REPORTER_PER_SERVER_PER_DAY,
} = REPORT_LIMIT_RULES;
const {
  defaultLimit: DEFAULT_ROUTE_LIMIT,
  guardNew: GUARD_NEW,
  newServerDays: NEW_SERVER_DAYS,
  youngDomainDays: YOUNG_DOMAIN_DAYS,
} = ROUTE_SCORE_RULES;
const { defaultLimit: DEFAULT_SEARCH_LIMIT, maxResultLimit: MAX_RESULT_LIMIT } = SEARCH_RULES;
const {
  outcomeMaxAgeHours: SENSOR_OUTCOME_MAX_AGE_HOURS,
  outcomesPerBatch: SENSOR_OUTCOMES_PER_BATCH,
  outcomesPerDay: SENSOR_OUTCOMES_PER_DAY,
} = SENSOR_RULES;
const {
  admitPercent: SUBMISSION_ADMIT_PERCENT,
  checkIntervalHours: SUBMISSION_CHECK_INTERVAL_HOURS,
  extendPercent: SUBMISSION_EXTEND_PERCENT,
  maxExtensions: SUBMISSION_MAX_EXTENSIONS,
  maxToolListChanges: SUBMISSION_MAX_TOOL_LIST_CHANGES,
  minChecks: SUBMISSION_MIN_CHECKS,
  windowDays: SUBMISSION_WINDOW_DAYS,
} = SUBMISSION_RULES;
const {
  fiveMinuteLongWindowDays: FIVE_MINUTE_LONG_WINDOW_DAYS,
  thirtyDayLabel: THIRTY_DAY_UPTIME_LABEL,
  decimals: UPTIME_DECIMALS,
} = UPTIME_RULES;

/** "once", "up to 2 times": how often something may happen, from its count. */
function timesText(count: number): string {
  return count === 1 ? 'once' : `up to ${formatCount(count)} times`;
}

// ------------------------------------------------------------------------------------------------
// Submitted servers (reliability: submission.ts and intake-quota.ts)
// ------------------------------------------------------------------------------------------------

/** How a submitted server is observed: "checked every 6 hours for 7 days". */
export const SUBMISSION_OBSERVATION_TEXT = `checked every ${plural(SUBMISSION_CHECK_INTERVAL_HOURS, 'hour')} for ${plural(SUBMISSION_WINDOW_DAYS, 'day')}`;

/** When a submitted server joins the map, and when its window is extended instead. */
export const SUBMISSION_ADMISSION_TEXT =
  `it joins the map with at least ${plural(SUBMISSION_MIN_CHECKS, 'check')}, ${formatPercent(SUBMISSION_ADMIT_PERCENT)} of them answered ` +
  `with tools, at most ${plural(SUBMISSION_MAX_TOOL_LIST_CHANGES, 'tool-list change')} and every tool described; ` +
  `${formatPercent(SUBMISSION_EXTEND_PERCENT)} to under ${formatPercent(SUBMISSION_ADMIT_PERCENT)} answered earns one more ` +
  `${SUBMISSION_WINDOW_DAYS}-day window, ${timesText(SUBMISSION_MAX_EXTENSIONS)}`;

/** The daily limits on new submissions. */
export const SUBMISSION_LIMITS_TEXT =
  `New submissions are limited to ${formatCount(SUBMISSIONS_PER_REQUESTER_PER_DAY)} a UTC day per network ` +
  `(\`requester_daily_limit\`) and ${formatCount(SUBMISSIONS_PER_HOST_PER_DAY)} a UTC day per host (\`host_daily_limit\`)`;

// ------------------------------------------------------------------------------------------------
// Ownership checks (reliability: intake-quota.ts)
// ------------------------------------------------------------------------------------------------

/** The two codes that refuse a token-file read, with their limits. */
export const OWNERSHIP_CHECK_CODES_TEXT =
  `\`requester_daily_limit\` when this network already caused ${plural(OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY, 'read')} of ` +
  `token files today (UTC); \`requester_host_failure_limit\` when ${plural(OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY, 'read')} ` +
  `of this host's token file from this network found no token today (UTC). Once a host's file has failed ` +
  `${plural(OWNERSHIP_FAILURES_PER_HOST_PER_DAY, 'time')} in a day, each further failure uses up the failing network's tries on ` +
  `it; a read that finds the token is never refused for other networks' failures`;

/** The 429 answer of every route that reads an owner's token file. */
export const OWNERSHIP_CHECK_LIMITS_TEXT = `A daily limit on token-file reads was reached (see error.code and error.limit): ${OWNERSHIP_CHECK_CODES_TEXT}`;

// ------------------------------------------------------------------------------------------------
// Reports and sensors (reliability: rules.ts)
// ------------------------------------------------------------------------------------------------

/** How an anonymous reporter is told apart: "IPv4 /24, IPv6 /48". */
export const REPORTER_NETWORK_TEXT = `IPv4 /${IPV4_REPORTER_PREFIX_BITS}, IPv6 /${IPV6_REPORTER_PREFIX_BITS}`;

/** The daily report limits. */
export const REPORT_LIMITS_TEXT = `Limits: ${plural(REPORTS_PER_REPORTER_PER_DAY, 'report')} a day per reporter, ${formatCount(REPORTS_PER_REPORTER_PER_SERVER_PER_DAY)} per server`;

/** The most outcomes one sensor batch may carry: "100 call outcomes". */
export const SENSOR_BATCH_TEXT = plural(SENSOR_OUTCOMES_PER_BATCH, 'call outcome');

/** Which sensor outcomes are dropped, and the daily limit. */
export const SENSOR_LIMITS_TEXT =
  `Outcomes older than ${plural(SENSOR_OUTCOME_MAX_AGE_HOURS, 'hour')} or dated in the future are dropped, as are outcomes ` +
  `about servers not watched. A sensor may send ${plural(SENSOR_OUTCOMES_PER_DAY, 'outcome')} a UTC day`;

// ------------------------------------------------------------------------------------------------
// Server fields (reliability, route, probe)
// ------------------------------------------------------------------------------------------------

/** The daily letters a server keeps: "30 daily letters". */
export const DAILY_LETTERS_TEXT = plural(LETTER_WINDOW_DAYS, 'daily letter');

/** How long change days are kept: "the last 60 days". */
export const CHANGES_KEPT_TEXT = `the last ${plural(CHANGE_DAYS_KEPT, 'day')}`;

/** How an uptime value is written. */
export const UPTIME_VALUE_TEXT = `Percent with ${plural(UPTIME_DECIMALS, 'decimal')}, or null when no day was observed.`;

/** The labels an uptime figure can carry. */
export const UPTIME_LABEL_TEXT = `"${THIRTY_DAY_UPTIME_LABEL}", "over N days observed" or "no days observed".`;

/** The long five-minute figure. */
export const LONG_UPTIME_TEXT = `The ${FIVE_MINUTE_LONG_WINDOW_DAYS}-day five-minute figure, when kept.`;

/** What a young domain changes in the route. */
export const YOUNG_DOMAIN_TEXT = `Younger than ${plural(YOUNG_DOMAIN_DAYS, 'day')}: the route lowers its guard to ${formatFactor(GUARD_NEW)} and sets the server aside for high-risk tasks.`;

/** How long a found domain age is used. */
export const DOMAIN_AGE_KEPT_TEXT = `The day of the lookup; a found date is used for ${plural(DOMAIN_AGE_KEEP_DAYS, 'day')}, then read again.`;

/** Which servers get a domain-age lookup, and how many lookups a scan makes. */
export const DOMAIN_AGE_TEXT =
  `The domain age from RDAP, read only for servers with a high-risk tool and submitted servers (at most ` +
  `${plural(DOMAIN_AGE_LOOKUPS_PER_SCAN, 'new lookup')} per scan); null when not looked up in the last ${plural(DOMAIN_AGE_KEEP_DAYS, 'day')}.`;

/** When the day's OSV check runs. */
export const OSV_CHECK_TEXT = `That day's OSV check (${formatTimeOfDay(OSV_CHECK_TIME_UTC)}), or null before it ran.`;

/** The window of the live-incident decision. */
export const INCIDENT_TEXT = `The live-incident decision over the last ${plural(INCIDENT_WINDOW_HOURS, 'hour')}; reporters are counted, never named.`;

/** When agents' ratings are shown. */
export const RATING_TEXT =
  `Agents’ stars and reliability, shown only from ${plural(VISIBLE_MIN_REPORTERS, 'distinct reporter')} and a paid weight of ` +
  `${formatFactor(VISIBLE_MIN_PAID_WEIGHT)}; otherwise null.`;

/** How long route treats a submitted server as new. */
export const SUBMITTED_AT_TEXT = `When the owner submitted the server, for one that joined through a submission; route treats it as new for ${plural(NEW_SERVER_DAYS, 'day')}.`;

// ------------------------------------------------------------------------------------------------
// Query limits (route) and owner notes (the app's own limit)
// ------------------------------------------------------------------------------------------------

/** The tool search's limit parameter: "Results, 1 to 100 (default 10)." */
export const SEARCH_LIMIT_TEXT = `Results, 1 to ${formatCount(MAX_RESULT_LIMIT)} (default ${formatCount(DEFAULT_SEARCH_LIMIT)}).`;

/** The route's limit parameter: "Picks, 1 to 100 (default 5)." */
export const ROUTE_LIMIT_TEXT = `Picks, 1 to ${formatCount(MAX_RESULT_LIMIT)} (default ${formatCount(DEFAULT_ROUTE_LIMIT)}).`;

/** How long an owner's note may be. */
export const OWNER_NOTE_TEXT = `at most ${plural(OWNER_NOTE_MAX_CHARACTERS, 'character')}`;
