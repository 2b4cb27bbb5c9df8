// The sentences of the API document, the MCP tool descriptions and the schema descriptions that repeat a
// rule's number. Each is built from the package constant that holds the number, so a changed rule changes
// its text too; a test scans the prose files for rule numbers written by hand.
import { DOMAIN_AGE_RULES, INTAKE_QUOTA_RULES, OWNER_NOTE_RULES, SUBMISSION_RULES } from '@mcp-atlas/operations/rules';
import {
  FOLD_RULES,
  INCIDENT_RULES,
  LETTER_RULES,
  RATING_RULES,
  REPORT_LIMIT_RULES,
  SENSOR_RULES,
  UPTIME_RULES,
} from '@mcp-atlas/reliability/rules';
import { ROUTE_SCORE_RULES, SEARCH_RULES } from '@mcp-atlas/route/rules';
import { OSV_CHECK_TIME_UTC } from '../outside/outside-config.js';
import { formatCount, formatFactor, formatPercent, formatTimeOfDay, plural } from '../pages/format.js';

/** "once", "up to 2 times": how often something may happen, from its count. */
function timesText(count: number): string {
  return count === 1 ? 'once' : `up to ${formatCount(count)} times`;
}

// ------------------------------------------------------------------------------------------------
// Submitted servers (reliability: submission.ts and intake-quota.ts)
// ------------------------------------------------------------------------------------------------

/** How a submitted server is observed: "checked every 6 hours for 7 days". */
export const SUBMISSION_OBSERVATION_TEXT = `checked every ${plural(SUBMISSION_RULES.checkIntervalHours, 'hour')} for ${plural(SUBMISSION_RULES.windowDays, 'day')}`;

/** When a submitted server joins the map, and when its window is extended instead. */
export const SUBMISSION_ADMISSION_TEXT =
  `it joins the map with at least ${plural(SUBMISSION_RULES.minChecks, 'check')}, ${formatPercent(SUBMISSION_RULES.admitPercent)} of them answered ` +
  `with tools, at most ${plural(SUBMISSION_RULES.maxToolListChanges, 'tool-list change')} and every tool described; ` +
  `${formatPercent(SUBMISSION_RULES.extendPercent)} to under ${formatPercent(SUBMISSION_RULES.admitPercent)} answered earns one more ` +
  `${SUBMISSION_RULES.windowDays}-day window, ${timesText(SUBMISSION_RULES.maxExtensions)}`;

/** The daily limits on new submissions. */
export const SUBMISSION_LIMITS_TEXT =
  `New submissions are limited to ${formatCount(INTAKE_QUOTA_RULES.submissionsPerRequesterPerDay)} a UTC day per network ` +
  `(\`requester_daily_limit\`) and ${formatCount(INTAKE_QUOTA_RULES.submissionsPerHostPerDay)} a UTC day per host (\`host_daily_limit\`)`;

// ------------------------------------------------------------------------------------------------
// Ownership checks (reliability: intake-quota.ts)
// ------------------------------------------------------------------------------------------------

/** The two codes that refuse a token-file read, with their limits. */
export const OWNERSHIP_CHECK_CODES_TEXT =
  `\`requester_daily_limit\` when this network already caused ${plural(INTAKE_QUOTA_RULES.ownershipChecksPerRequesterPerDay, 'read')} of ` +
  `token files today (UTC); \`requester_host_failure_limit\` when ${plural(INTAKE_QUOTA_RULES.ownershipFailuresPerRequesterPerHostPerDay, 'read')} ` +
  `of this host's token file from this network found no token today (UTC). Once a host's file has failed ` +
  `${plural(INTAKE_QUOTA_RULES.ownershipFailuresPerHostPerDay, 'time')} in a day, each further failure uses up the failing network's tries on ` +
  `it; a read that finds the token is never refused for other networks' failures`;

/** The 429 answer of every route that reads an owner's token file. */
export const OWNERSHIP_CHECK_LIMITS_TEXT = `A daily limit on token-file reads was reached (see error.code and error.limit): ${OWNERSHIP_CHECK_CODES_TEXT}`;

// ------------------------------------------------------------------------------------------------
// Reports and sensors (reliability: rules.ts)
// ------------------------------------------------------------------------------------------------

/** How an anonymous reporter is told apart: "IPv4 /24, IPv6 /48". */
export const REPORTER_NETWORK_TEXT = `IPv4 /${REPORT_LIMIT_RULES.ipv4PrefixBits}, IPv6 /${REPORT_LIMIT_RULES.ipv6PrefixBits}`;

/** The daily report limits. */
export const REPORT_LIMITS_TEXT = `Limits: ${plural(REPORT_LIMIT_RULES.perReporterPerDay, 'report')} a day per reporter, ${formatCount(REPORT_LIMIT_RULES.perReporterPerServerPerDay)} per server`;

/** The most outcomes one sensor batch may carry: "100 call outcomes". */
export const SENSOR_BATCH_TEXT = plural(SENSOR_RULES.outcomesPerBatch, 'call outcome');

/** Which sensor outcomes are dropped, and the daily limit. */
export const SENSOR_LIMITS_TEXT =
  `Outcomes older than ${plural(SENSOR_RULES.outcomeMaxAgeHours, 'hour')} or dated in the future are dropped, as are outcomes ` +
  `about servers not watched. A sensor may send ${plural(SENSOR_RULES.outcomesPerDay, 'outcome')} a UTC day`;

// ------------------------------------------------------------------------------------------------
// Server fields (reliability, route, probe)
// ------------------------------------------------------------------------------------------------

/** The daily letters a server keeps: "30 daily letters". */
export const DAILY_LETTERS_TEXT = plural(LETTER_RULES.windowDays, 'daily letter');

/** How long change days are kept: "the last 60 days". */
export const CHANGES_KEPT_TEXT = `the last ${plural(FOLD_RULES.changeDaysKept, 'day')}`;

/** How an uptime value is written. */
export const UPTIME_VALUE_TEXT = `Percent with ${plural(UPTIME_RULES.decimals, 'decimal')}, or null when no day was observed.`;

/** The labels an uptime figure can carry. */
export const UPTIME_LABEL_TEXT = `"${UPTIME_RULES.thirtyDayLabel}", "over N days observed" or "no days observed".`;

/** The long five-minute figure. */
export const LONG_UPTIME_TEXT = `The ${UPTIME_RULES.fiveMinuteLongWindowDays}-day five-minute figure, when kept.`;

/** What a young domain changes in the route. */
export const YOUNG_DOMAIN_TEXT = `Younger than ${plural(ROUTE_SCORE_RULES.youngDomainDays, 'day')}: the route lowers its guard to ${formatFactor(ROUTE_SCORE_RULES.guardNew)} and sets the server aside for high-risk tasks.`;

/** How long a found domain age is used. */
export const DOMAIN_AGE_KEPT_TEXT = `The day of the lookup; a found date is used for ${plural(DOMAIN_AGE_RULES.keepDays, 'day')}, then read again.`;

/** Which servers get a domain-age lookup, and how many lookups a scan makes. */
export const DOMAIN_AGE_TEXT =
  `The domain age from RDAP, read only for servers with a high-risk tool and submitted servers (at most ` +
  `${plural(DOMAIN_AGE_RULES.lookupsPerScan, 'new lookup')} per scan); null when not looked up in the last ${plural(DOMAIN_AGE_RULES.keepDays, 'day')}.`;

/** When the day's OSV check runs. */
export const OSV_CHECK_TEXT = `That day's OSV check (${formatTimeOfDay(OSV_CHECK_TIME_UTC)}), or null before it ran.`;

/** The window of the live-incident decision. */
export const INCIDENT_TEXT = `The live-incident decision over the last ${plural(INCIDENT_RULES.windowHours, 'hour')}; reporters are counted, never named.`;

/** When agents' ratings are shown. */
export const RATING_TEXT =
  `Agents’ stars and reliability, shown only from ${plural(RATING_RULES.visibleMinReporters, 'distinct reporter')} and a paid weight of ` +
  `${formatFactor(RATING_RULES.visibleMinPaidWeight)}; otherwise null.`;

/** How long route treats a submitted server as new. */
export const SUBMITTED_AT_TEXT = `When the owner submitted the server, for one that joined through a submission; route treats it as new for ${plural(ROUTE_SCORE_RULES.newServerDays, 'day')}.`;

// ------------------------------------------------------------------------------------------------
// Query limits (route) and owner notes (the app's own limit)
// ------------------------------------------------------------------------------------------------

/** The tool search's limit parameter: "Results, 1 to 100 (default 10)." */
export const SEARCH_LIMIT_TEXT = `Results, 1 to ${formatCount(SEARCH_RULES.maxResultLimit)} (default ${formatCount(SEARCH_RULES.defaultLimit)}).`;

/** The route's limit parameter: "Picks, 1 to 100 (default 5)." */
export const ROUTE_LIMIT_TEXT = `Picks, 1 to ${formatCount(SEARCH_RULES.maxResultLimit)} (default ${formatCount(ROUTE_SCORE_RULES.defaultLimit)}).`;

/** How long an owner's note may be. */
export const OWNER_NOTE_TEXT = `at most ${plural(OWNER_NOTE_RULES.maxCharacters, 'character')}`;
