/**
 * How much one network may ask of the service's MCP endpoint, and how many lines the endpoint's call log may
 * write per UTC day. Pure module: the caller counts, this module decides.
 *
 * The numbers are the project's own (7Maps' methodology keeps a call log but sets no limits on it). A network is
 * named as for anonymous reporters (@mcp-atlas/reliability's reporterKey: IPv4 /24, IPv6 /48), never a user
 * agent, which anyone can change at will. Every tool call counts, whatever it answers, since each one costs the
 * service a search or a write and a line of the call log.
 */

import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { assertCount, describeValue } from './validate.js';

/**
 * Most JSON-RPC messages one request to the MCP endpoint may carry. A batch bounds the work of one request (each
 * tool call is a search or a write, and its answer is held whole until the batch is done); an agent sends one
 * call at a time. A longer batch is refused whole before any of it runs.
 */
export const MCP_BATCH_MAX_MESSAGES = 10;

/** Tool calls one network may make per minute (a clock minute, counted from the Unix epoch). */
export const MCP_TOOL_CALLS_PER_NETWORK_PER_MINUTE = 30;

/** Tool calls one network may make per UTC day. */
export const MCP_TOOL_CALLS_PER_NETWORK_PER_DAY = 1_000;

/**
 * Lines the MCP call log writes per UTC day, from all networks together. Past it, calls are still answered and
 * counted, but no line is written, so the log's size on disk has a ceiling (about 3 MB a day).
 */
export const MCP_CALL_LOG_LINES_PER_DAY = 20_000;

/** What one network already used, and what one request asks for. */
export interface McpCallUsage {
  /** Tool calls this network made in the current minute. */
  networkThisMinute: number;
  /** Tool calls this network made today (UTC). */
  networkToday: number;
  /** Tool calls the request carries (a JSON-RPC batch may carry several). */
  calls: number;
}

/** Whether a request's tool calls may all run, and which limit refused them. */
export type McpCallDecision =
  | { admitted: true }
  | { admitted: false; reason: 'network_daily_limit' | 'network_minute_limit'; limit: number };

/**
 * Decides whether a request's tool calls may run: all of them fit under both of the network's limits, or none
 * runs (a batch is never cut in two). The daily limit is checked first, because its refusal lasts longer.
 *
 * @example
 * decideMcpCalls({ networkThisMinute: 28, networkToday: 100, calls: 2 }); // { admitted: true }
 * decideMcpCalls({ networkThisMinute: 29, networkToday: 100, calls: 2 });
 * // { admitted: false, reason: 'network_minute_limit', limit: 30 }
 */
export function decideMcpCalls(usage: McpCallUsage): McpCallDecision {
  if (typeof usage !== 'object' || usage === null) {
    throw new ReliabilityInputError(
      'invalid-number',
      'usage',
      `expected { networkThisMinute, networkToday, calls }, received ${describeValue(usage)}`,
    );
  }
  const minute = assertCount(usage.networkThisMinute, 'networkThisMinute');
  const today = assertCount(usage.networkToday, 'networkToday');
  const calls = assertCount(usage.calls, 'calls');
  if (today + calls > MCP_TOOL_CALLS_PER_NETWORK_PER_DAY) {
    return { admitted: false, reason: 'network_daily_limit', limit: MCP_TOOL_CALLS_PER_NETWORK_PER_DAY };
  }
  if (minute + calls > MCP_TOOL_CALLS_PER_NETWORK_PER_MINUTE) {
    return { admitted: false, reason: 'network_minute_limit', limit: MCP_TOOL_CALLS_PER_NETWORK_PER_MINUTE };
  }
  return { admitted: true };
}
