// Where each kind of file lives in the data folder (see the design notes). One place for every path.

/** The folder of one UTC day; everything under it is covered by that day's signed root. */
export const dayFolder = (day: string): string => `days/${day}/`;
export const dayIndexPath = (day: string): string => `days/${day}/index.json`;
export const dayShardPath = (day: string, shard: number): string => `days/${day}/results/${String(shard).padStart(3, '0')}.json`;
export const dayCatalogPath = (day: string, serverId: string): string => `days/${day}/catalogs/${serverId}.json`;
export const dayChangesPath = (day: string): string => `days/${day}/changes.json`;
export const daySummaryPath = (day: string): string => `days/${day}/summary.json`;
export const dayReportsPath = (day: string): string => `days/${day}/reports.jsonl`;
export const rootPath = (day: string): string => `roots/${day}.json`;
export const ROOTS_PREFIX = 'roots/';
export const DAYS_PREFIX = 'days/';

/** Rolling state, not covered by any root. */
export const SERVERS_PATH = 'state/servers.json';
export const serverStatePath = (serverId: string): string => `state/servers/${serverId}.json`;
export const SERVER_STATES_PREFIX = 'state/servers/';
export const HOURLY_PATH = 'state/hourly.json';
export const REPORTERS_PATH = 'state/reporters.json';
/** Hosts whose owners opted out: never contacted again, and off the published map (a name covers its subdomains). */
export const OPTED_OUT_PATH = 'state/opted-out.json';

/** The signing key (owner-only permissions) and its public half. */
export const SIGNING_KEY_PATH = 'keys/signing-key.json';

/** A server id: lower-case letters, digits and dashes, so it is safe in paths and URLs. */
export const SERVER_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,80}$/;
