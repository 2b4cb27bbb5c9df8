// The HTTP surface's own input limits and names, in one place. None of these is a methodology rule (those
// live in the packages: report quotas and sensor limits in @mcp-atlas/reliability, result limits in
// @mcp-atlas/route, the MCP endpoint's limits per network and the call log's daily cap in
// @mcp-atlas/operations); these only bound what a request may carry, so a hostile body cannot cost much.

/** Header that carries a reporter's license key; a key that validates makes the reporter a paying one. */
export const LICENSE_HEADER = 'x-mcp-atlas-license';

/** Longest license key read from the header; anything longer is refused before the validator sees it. */
export const LICENSE_HEADER_MAX_LENGTH = 256;

/** Largest POST /api/reports body, in bytes. A report of every fixed field is under 600 bytes. */
export const REPORT_BODY_MAX_BYTES = 4 * 1024;

/** Largest POST /api/sensors body, in bytes: 100 outcomes of about 250 bytes each, with room to spare. */
export const SENSOR_BODY_MAX_BYTES = 64 * 1024;

/** Largest JSON-RPC body the MCP endpoint reads; its three tools take a few hundred bytes of arguments. */
export const MCP_BODY_MAX_BYTES = 64 * 1024;

/**
 * POST /mcp requests answered at once, from all clients together. Each holds a fresh MCP server and its
 * answers in memory until it is done, so this bounds the endpoint's memory; past it, a request gets 503.
 */
export const MCP_REQUESTS_IN_FLIGHT_MAX = 32;

/** POST /mcp requests answered at once for one network, so that one network cannot take every place (429). */
export const MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX = 4;

/** Longest tool-search query or route task, in characters. */
export const QUERY_MAX_LENGTH = 500;

/** Longest server reference in a report or sensor outcome (a server id, or the URL we watch it at). */
export const SERVER_REF_MAX_LENGTH = 2048;

/** Longest tool name a report may name (the MCP specification suggests at most 128 characters). */
export const TOOL_NAME_MAX_LENGTH = 128;

/**
 * Shape of a reported tool name when the server has no catalog to check it against (it asked for
 * sign-in or payment, so we never saw its tools). An identifier, not a sentence: this keeps the field
 * from carrying text in the agent's own words.
 */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_./:-]{1,128}$/;

/** A tool-list hash as @mcp-atlas/findings writes it: 64 lowercase hex characters of SHA-256. */
export const TOOLS_HASH_PATTERN = /^[0-9a-f]{64}$/;

/** Longest call a report may describe, in milliseconds (one hour); a longer figure is a mistake. */
export const REPORT_MAX_MS = 3_600_000;

/** Most result tokens a report may claim. */
export const REPORT_MAX_RESULT_TOKENS = 10_000_000;

/** Largest amount charged a report may claim, in the charge's own unit. */
export const REPORT_MAX_CHARGED = 1_000_000;

// Ids that are also storage paths or stored values are defined with the stored shapes, in data/.
export { SENSOR_ID_PATTERN } from '../data/stored-records.js';

/** Shortest secret accepted for keying anonymous reporter ids. */
export const REPORTER_SECRET_MIN_BYTES = 32;

/** The version the app reports when `appVersion` is not given. */
export const UNVERSIONED = 'unversioned';

/** Digits of a sensor batch file's sequence number within a sensor's day (up to 20,000 batches fit). */
export const SENSOR_BATCH_SEQUENCE_DIGITS = 6;
