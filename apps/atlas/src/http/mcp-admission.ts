// Who may start a POST /mcp request now: the MCP endpoint's limits per network (tool calls per minute and per
// UTC day, decided by @mcp-atlas/operations' decideMcpCalls) and the requests it answers at once, per network
// and in all. Like the sensor intake, it counts in memory only, per network, under the access log's client key
// (a keyed hash of the IPv4 /24 or IPv6 /48 under a key that lives one UTC day), so no address is held. The
// counts start over at each new minute and UTC day, and with the process.
import { dayFromTime } from '@mcp-atlas/history';
import { decideMcpCalls, namePeriodSlot } from '@mcp-atlas/operations';
import { createDailyNetworkIds } from './client-address.js';
import { MCP_REQUESTS_IN_FLIGHT_MAX, MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX } from './limits.js';
import { secondsUntilNextUtcDay } from './report-intake.js';

/** The minute the per-minute limit counts in, in milliseconds. */
const MINUTE_MS = 60_000;

/** The key of requests whose network cannot be told (no socket address): they share one allowance. */
const UNKNOWN_NETWORK = 'unknown';

/** Why a request was not let in, with what the answer needs. */
export interface McpRefusal {
  /** 429 for this network's own limits, 503 when the endpoint as a whole is full. */
  status: 429 | 503;
  reason: 'network_daily_limit' | 'network_minute_limit' | 'network_in_flight_limit' | 'in_flight_limit';
  limit: number;
  /** Seconds until the limit that refused it lets the request in again. */
  retryAfterSeconds: number;
  message: string;
}

/** A request let in: `release` must be called once when it has been answered. */
export type McpAdmitted = { ok: true; release(): void } | { ok: false; refusal: McpRefusal };

/** The limits in front of the MCP endpoint; one per app, since it holds the counts. */
export interface McpAdmission {
  /**
   * Lets in, or refuses, one request from `address` carrying `toolCalls` tool calls. Admitted calls count at
   * once, whatever they answer; a refused request counts nothing.
   */
  admit(address: string | null, toolCalls: number): McpAdmitted;
}

/** Counts per network key for one slot (a minute or a day); replaced whole when the slot changes. */
interface SlotCounts {
  slot: string;
  calls: Map<string, number>;
}

/** Seconds from `now` to the start of the next minute. */
function secondsUntilNextMinute(now: Date): number {
  return Math.max(1, Math.ceil((MINUTE_MS - (now.getTime() % MINUTE_MS)) / 1000));
}

/** The counts of `slot`, fresh when `counts` belong to another slot. */
function countsOf(counts: SlotCounts, slot: string): SlotCounts {
  return counts.slot === slot ? counts : { slot, calls: new Map() };
}

/**
 * Creates the MCP endpoint's admission, reading the time from `now` (so a test can move its clock).
 *
 * @example
 * const admission = createMcpAdmission(() => new Date());
 * const admitted = admission.admit('203.0.113.7', 1);
 * if (admitted.ok) try { await answer(); } finally { admitted.release(); }
 */
export function createMcpAdmission(now: () => Date): McpAdmission {
  const networkIdOf = createDailyNetworkIds(now);
  let minute: SlotCounts = { slot: '', calls: new Map() };
  let day: SlotCounts = { slot: '', calls: new Map() };
  const inFlight = new Map<string, number>();
  let inFlightTotal = 0;

  return {
    admit(address, toolCalls) {
      const at = now();
      const key = networkIdOf(address) ?? UNKNOWN_NETWORK;
      if (inFlightTotal >= MCP_REQUESTS_IN_FLIGHT_MAX) {
        return {
          ok: false,
          refusal: {
            status: 503,
            reason: 'in_flight_limit',
            limit: MCP_REQUESTS_IN_FLIGHT_MAX,
            retryAfterSeconds: 1,
            message: `the MCP endpoint is answering ${MCP_REQUESTS_IN_FLIGHT_MAX} requests already; try again in a moment`,
          },
        };
      }
      const networkInFlight = inFlight.get(key) ?? 0;
      if (networkInFlight >= MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX) {
        return {
          ok: false,
          refusal: {
            status: 429,
            reason: 'network_in_flight_limit',
            limit: MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX,
            retryAfterSeconds: 1,
            message: `your network already has ${MCP_REQUESTS_IN_FLIGHT_PER_NETWORK_MAX} MCP requests under way; wait for their answers`,
          },
        };
      }
      minute = countsOf(minute, namePeriodSlot(at, MINUTE_MS));
      day = countsOf(day, dayFromTime(at));
      const decision = decideMcpCalls({
        networkThisMinute: minute.calls.get(key) ?? 0,
        networkToday: day.calls.get(key) ?? 0,
        calls: toolCalls,
      });
      if (!decision.admitted) {
        const daily = decision.reason === 'network_daily_limit';
        return {
          ok: false,
          refusal: {
            status: 429,
            reason: decision.reason,
            limit: decision.limit,
            retryAfterSeconds: daily ? secondsUntilNextUtcDay(at) : secondsUntilNextMinute(at),
            message: daily
              ? `your network already made ${decision.limit} MCP tool calls today (UTC), or this request would pass that; more are taken tomorrow`
              : `your network already made ${decision.limit} MCP tool calls this minute, or this request would pass that; try again next minute`,
          },
        };
      }
      if (toolCalls > 0) {
        minute.calls.set(key, (minute.calls.get(key) ?? 0) + toolCalls);
        day.calls.set(key, (day.calls.get(key) ?? 0) + toolCalls);
      }
      inFlight.set(key, networkInFlight + 1);
      inFlightTotal++;
      let released = false;
      return {
        ok: true,
        release() {
          // Once only, so a second call cannot free a place another request holds.
          if (released) return;
          released = true;
          inFlightTotal--;
          const left = (inFlight.get(key) ?? 1) - 1;
          if (left === 0) inFlight.delete(key);
          else inFlight.set(key, left);
        },
      };
    },
  };
}
