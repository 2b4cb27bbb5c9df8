// Where each kind of file lives in the data folder (see the design notes). One place for every path.

/** The folder of one UTC day; everything under it is covered by that day's signed root. */
export const dayFolder = (day: string): string => `days/${day}/`;
export const dayIndexPath = (day: string): string => `days/${day}/index.json`;
export const dayShardPath = (day: string, shard: number): string =>
  `days/${day}/results/${String(shard).padStart(3, '0')}.json`;
export const dayCatalogPath = (day: string, serverId: string): string => `days/${day}/catalogs/${serverId}.json`;
export const dayChangesPath = (day: string): string => `days/${day}/changes.json`;
export const daySummaryPath = (day: string): string => `days/${day}/summary.json`;
/** The day's catalog: every directory's read and the merged servers, with their sources (sealed with the day). */
export const dayDirectoriesPath = (day: string): string => `days/${day}/directories.json`;
export const dayReportsPath = (day: string): string => `days/${day}/reports.jsonl`;
/** The day's package layer: current versions of the npm and PyPI packages servers ship, and OSV's answer. */
export const dayPackagesPath = (day: string): string => `days/${day}/packages.json`;
/** The day's quality scores: one entry per server checked that day (its whole score and id); the day's seal covers it. */
export const dayScoresPath = (day: string): string => `days/${day}/scores.json`;
export const rootPath = (day: string): string => `roots/${day}.json`;
export const ROOTS_PREFIX = 'roots/';
export const DAYS_PREFIX = 'days/';

/** Rolling state, not covered by any root. */
export const SERVERS_PATH = 'state/servers.json';
/** What each registry entry says that the quality score reads, by server id; replaced with each registry read. */
export const REGISTRY_SCORE_FACTS_PATH = 'state/registry-score-facts.json';
export const serverStatePath = (serverId: string): string => `state/servers/${serverId}.json`;
export const SERVER_STATES_PREFIX = 'state/servers/';
/** A server's day series (each folded day of the last 90, for the server page's charts); rolling, not signed. */
export const serverSeriesPath = (serverId: string): string => `state/series/${serverId}.json`;
export const HOURLY_PATH = 'state/hourly.json';
/** The registry's package-only servers (no remote endpoint), replaced with each registry read. */
export const LOCAL_SERVERS_PATH = 'state/local-servers.json';
/** Each local server's newest sandboxed check: one record per server, replaced when a new version is checked. */
export const LOCAL_RECORDS_PREFIX = 'state/local/';
export const localRecordPath = (serverId: string): string => `${LOCAL_RECORDS_PREFIX}${serverId}.json`;
/** The tool catalog of a local server's newest check that listed tools (the catalog file's shape). */
export const localCatalogPath = (serverId: string): string => `state/local-catalogs/${serverId}.json`;
/** The newest day's catalog, which the next day's merge starts from. */
export const CATALOG_PATH = 'state/catalog.json';
/** Each reporter's and sensor's agreement with our checks over the report window; replaced by the hourly agreement task. */
export const REPORTERS_PATH = 'state/reporters.json';
/** The newest five-minute observations per server (as many as the second-failure rule reads); one file, replaced each round. */
export const FIVE_MINUTE_CHECKS_PATH = 'state/five-minute.json';
/** The newest second-failure alerts per server whose owner opted in, for a person to read; rolling, not signed. */
export const OWNER_ALERTS_PATH = 'state/owner-alerts.json';
/** Hosts whose owners opted out: never contacted again, and off the published map (a name covers its subdomains). */
export const OPTED_OUT_PATH = 'state/opted-out.json';
/** The RDAP lookup cache: each domain's registration date and the day it was read (kept 30 days). */
export const DOMAIN_AGES_PATH = 'state/domain-ages.json';

/** What the daily checks spent on one UTC day (the daily compute cap's ledger); rolling state, not signed. */
export const dailySpendPath = (day: string): string => `state/costs/daily/${day}.json`;
/** What the five-minute checks spent on one UTC day (their own cap's ledger). */
export const fiveMinuteSpendPath = (day: string): string => `state/costs/five-minute/${day}.json`;

/** Registered gateway sensors: one record per sensor id, holding a keyed digest of its token, never the token. */
export const SENSOR_REGISTRATIONS_PREFIX = 'state/sensors/';
export const sensorRegistrationPath = (sensor: string): string => `${SENSOR_REGISTRATIONS_PREFIX}${sensor}.json`;

/** The signing key (owner-only permissions) and its public half; only a data folder ever holds it. */
export const SIGNING_KEY_PATH = 'keys/signing-key.json';
/** The public key alone, as SPKI PEM: what a PostgreSQL store keeps, since it never holds the private key. */
export const PUBLIC_KEY_PATH = 'keys/public-key.json';

/** A server id: lower-case letters, digits and dashes, so it is safe in paths and URLs. */
export const SERVER_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,80}$/;

/** Servers submitted by their owners: one record per submitted URL, observation checks included. */
export const SUBMISSIONS_PREFIX = 'state/submissions/';
export const submissionPath = (id: string): string => `${SUBMISSIONS_PREFIX}${id}.json`;
/** Submitted servers that passed their observation: watched alongside the registry's (which never rewrites them). */
export const SUBMITTED_SERVERS_PATH = 'state/submitted-servers.json';
/** What a verified owner set for a server: verification date, note, five-minute checks. Not signed. */
export const OWNERS_PREFIX = 'state/owners/';
export const ownerPath = (serverId: string): string => `${OWNERS_PREFIX}${serverId}.json`;
/** Each owner's webhook queue and delivery log (owners/webhooks.ts), one file per server. */
export const OWNER_WEBHOOKS_PREFIX = 'state/owner-webhooks/';

/**
 * Short-lived stores in day-named folders or files, deleted by the retention job (serve/retention.ts) once
 * past their limit. Each has a writer: the counts and markers through demand/day-counts.ts (batched, one file
 * per process and day), raw sensor batches by the sensor intake, demand records by the demand recorder.
 */
export const SENSOR_BATCHES_PREFIX = 'sensors/';
export const DEMAND_RECORDS_PREFIX = 'demand/';
export const demandRecordPath = (day: string, writer: string): string =>
  `${DEMAND_RECORDS_PREFIX}${day}/${writer}.json`;
export const REFUSED_SENSOR_REQUESTS_PREFIX = 'sensors-refused/';
export const ASK_MARKERS_PREFIX = 'markers/ask/';
export const BADGE_SIGHTINGS_PREFIX = 'badge-sightings/';
export const VIEW_COUNTS_PREFIX = 'views/';
export const DAILY_CALL_MARKERS_PREFIX = 'markers/daily-calls/';
export const RATE_COUNTERS_PREFIX = 'state/rate-counters/';
export const rateCountersPath = (day: string): string => `${RATE_COUNTERS_PREFIX}${day}.json`;
/** One process's badge sightings of one day: requests per server badge, nothing about who asked. */
export const badgeSightingsPath = (day: string, writer: string): string =>
  `${BADGE_SIGHTINGS_PREFIX}${day}/${writer}.json`;
/** One process's page and widget views of one day, per page (and server for server pages and widgets). */
export const viewCountsPath = (day: string, writer: string): string => `${VIEW_COUNTS_PREFIX}${day}/${writer}.json`;
/** One process's refused sensor requests of one day, per refusal reason; no addresses. */
export const refusedSensorRequestsPath = (day: string, writer: string): string =>
  `${REFUSED_SENSOR_REQUESTS_PREFIX}${day}/${writer}.json`;
/** One process's per-server ask markers of one day: how many find_tool and route answers named each server. */
export const askMarkersPath = (day: string, writer: string): string => `${ASK_MARKERS_PREFIX}${day}/${writer}.json`;
/** One process's daily-call markers of one day: MCP tool calls per keyed agent id (never published). */
export const dailyCallMarkersPath = (day: string, writer: string): string =>
  `${DAILY_CALL_MARKERS_PREFIX}${day}/${writer}.json`;
/** The MCP call log: one JSON line per tool call, one file per UTC day, append-only and never published. */
export const MCP_CALL_LOG_PREFIX = 'mcp-calls/';
export const mcpCallLogPath = (day: string): string => `${MCP_CALL_LOG_PREFIX}${day}.jsonl`;

/** Daily aggregates: written once their day is over, kept forever, never part of a signed root. */
export const AGGREGATES_PREFIX = 'aggregates/';
export const demandAggregatePath = (day: string): string => `${AGGREGATES_PREFIX}demand/${day}.json`;
export const sensorAggregatePath = (day: string): string => `${AGGREGATES_PREFIX}sensors/${day}.json`;
/** The day's state report: servers by letter, tools and findings of that day's check. */
export const stateReportPath = (day: string): string => `${AGGREGATES_PREFIX}state/${day}.json`;
/** The monthly report (`YYYY-MM`), summed from that month's daily aggregates once the month is over. */
export const monthlyReportPath = (month: string): string => `${AGGREGATES_PREFIX}monthly/${month}.json`;

/** Owners' opt-in list for five-minute checks (written by the owner flow). */
export const FIVE_MINUTE_OPT_IN_PATH = 'state/five-minute-opt-in.json';

/**
 * Robots and well-known reads per origin: one file, replaced by the first read of each UTC day (like the
 * hourly file), so nothing accumulates and retention has nothing to delete.
 */
export const ORIGINS_PATH = 'state/origins.json';

/** The review queue: one file per item a person reviews (pattern matches, unconfirmed failures, incidents). Not signed. */
export const REVIEW_ITEMS_PREFIX = 'state/review/items/';
export const reviewItemPath = (id: string): string => `${REVIEW_ITEMS_PREFIX}${id}.json`;
/** Incidents a person closed after review (server, time, note); the incident rule honours them. Not signed. */
export const INCIDENT_CLOSURES_PATH = 'state/review/incident-closures.json';
/** Operator-kept lists for the route: servers that are gateways, and servers listed in the Claude or ChatGPT directory. */
export const GATEWAYS_PATH = 'state/gateways.json';
export const DIRECTORIES_PATH = 'state/directories.json';
/** Every search-eval run (the schedule's monthly run and any run by hand), oldest first; published, never signed. */
export const SEARCH_EVAL_HISTORY_PATH = 'search-eval/history.json';
