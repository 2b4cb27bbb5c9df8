// The MCP call log, kept to run the service and stop abuse, never published: one JSON line per tool call on
// POST /mcp with the tool, the time, the client's name, a country and an agent id. The agent id is a keyed
// hash of the network address and the user agent, so neither is ever written. No GeoIP database is used:
// the country is a CDN's country header only when the request came through a proxy the operator trusts
// (anyone can send the header straight to us), and "unknown" otherwise. Lines are appended to one file per
// UTC day (Storage.append), so a call costs the same bytes however long the day's log is. A day's log holds at
// most MCP_ENDPOINT_RULES.callLogLinesPerDay lines; calls past it are answered and counted, never written, so
// no client can fill the disk through it.
import { dayFromTime } from '@mcp-atlas/history';
import { MCP_ENDPOINT_RULES } from '@mcp-atlas/operations/rules';
import { z } from 'zod';
import { keyedId } from '../data/keyed-id.js';
import { mcpCallLogPath } from '../data/paths.js';
import type { Storage } from '../storage/storage.js';
import type { HttpLogger } from './deps.js';

/** The country recorded when none can be trusted. */
export const UNKNOWN_COUNTRY = 'unknown';

/** The CDN header read for the country, only behind a trusted proxy (Cloudflare's name; others may copy it). */
export const COUNTRY_HEADER = 'cf-ipcountry';

/** Longest client name kept; longer names are cut. */
export const CLIENT_NAME_MAX_CHARS = 64;

/** One line of the call log. */
export const McpCallLineSchema = z.strictObject({
  tool: z.string(),
  at: z.iso.datetime(),
  client: z.string(),
  country: z.string(),
  agent: z.string(),
});
export type McpCallLine = z.infer<typeof McpCallLineSchema>;

/** The keyed agent id: a hash of address and user agent under the service's secret, never reversible without it. */
export function agentIdOf(secret: Uint8Array, address: string | null, userAgent: string | null): string {
  return keyedId(secret, 'agent', `${address ?? ''}\u0000${userAgent ?? ''}`);
}

/**
 * The country of a call: the CDN's two-letter code when a trusted proxy sits in front (`trustedProxyHops` > 0)
 * and the header holds one, else {@link UNKNOWN_COUNTRY}.
 *
 * @example countryOf(new Headers({ 'cf-ipcountry': 'de' }), 1); // 'DE'
 */
export function countryOf(headers: Headers, trustedProxyHops: number): string {
  if (trustedProxyHops <= 0) return UNKNOWN_COUNTRY;
  const value = headers.get(COUNTRY_HEADER)?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(value) ? value : UNKNOWN_COUNTRY;
}

/** Keeps a client name to plain letters, digits and a few marks, so a caller cannot write anything else into the log. */
function cleanName(name: string): string {
  return name
    .replace(/[^A-Za-z0-9 ._@/-]/g, '')
    .trim()
    .slice(0, CLIENT_NAME_MAX_CHARS);
}

/**
 * The client's name: from initialize's clientInfo when this request carried it (the stateless endpoint sees
 * it only then), else the product name the request declares first in its User-Agent (`claude-code/1.2 …`
 * gives `claude-code`), else "unknown". Only the name, never the rest of the user agent.
 */
export function clientNameOf(clientInfoName: string | undefined, userAgent: string | null): string {
  const fromInfo = clientInfoName === undefined ? '' : cleanName(clientInfoName);
  if (fromInfo !== '') return fromInfo;
  const product = /^\s*([A-Za-z0-9._-]+)/.exec(userAgent ?? '')?.[1] ?? '';
  const fromAgent = cleanName(product);
  return fromAgent === '' ? 'unknown' : fromAgent;
}

const encoder = new TextEncoder();

const LINE_FEED = 0x0a;

/** One day of the call log as this process knows it. */
interface CallLogDay {
  day: string;
  /** Lines in the day's file (found at the first call of the day) plus those written since. */
  written: number;
  /** Calls of the day past the cap: answered, counted here, never written. */
  unwritten: number;
  /** The file ends inside a line (a crash mid-append): the next line starts with a line break. */
  tornTail: boolean;
}

/** The call log of one running app. */
export interface McpCallLog {
  /**
   * Appends one call to its day's log while the day has room (`MCP_ENDPOINT_RULES.callLogLinesPerDay`), and
   * past it only counts the call. Never throws and is never awaited by an answer: a failed write is logged.
   */
  record(line: McpCallLine): Promise<void>;
}

/** What the call log needs. */
export interface McpCallLogDeps {
  storage: Storage;
  logger?: HttpLogger;
  /** Called for each call counted but not written, so the count can be shown (the service's metrics). */
  onUnwritten?: () => void;
}

/**
 * Creates the call log with its daily cap. The day's line count is read from the file at its first call, so a
 * restart does not start the cap over. The day the cap is reached is logged once; the number of calls not
 * written is logged once more when the next day's first call comes (and counted live through `onUnwritten`).
 */
export function createMcpCallLog(deps: McpCallLogDeps): McpCallLog {
  const limit = MCP_ENDPOINT_RULES.callLogLinesPerDay;
  let current: { day: string; ready: Promise<CallLogDay> } | null = null;

  async function loadDay(day: string): Promise<CallLogDay> {
    const bytes = await deps.storage.get(mcpCallLogPath(day)).catch((error: unknown) => {
      // Counted from zero then: the cap may let one day's log grow past it once, and the reason is in the log.
      deps.logger?.warn(
        { event: 'mcp_call_log_unreadable', day, error: error instanceof Error ? error.message : String(error) },
        'MCP call log could not be read; its lines are counted from zero',
      );
      return null;
    });
    let written = 0;
    if (bytes !== null) for (const byte of bytes) if (byte === LINE_FEED) written++;
    const tornTail = bytes !== null && bytes.length > 0 && bytes[bytes.length - 1] !== LINE_FEED;
    return { day, written: written + (tornTail ? 1 : 0), unwritten: 0, tornTail };
  }

  function dayLog(day: string): Promise<CallLogDay> {
    if (current?.day === day) return current.ready;
    const previous = current;
    current = { day, ready: loadDay(day) };
    previous?.ready.then((log) => {
      if (log.unwritten > 0)
        deps.logger?.warn(
          { event: 'mcp_call_log_unwritten', day: log.day, unwritten: log.unwritten, limit },
          'MCP calls answered but not written to the call log, which was full for the day',
        );
    });
    return current.ready;
  }

  async function write(line: McpCallLine): Promise<void> {
    const day = dayFromTime(new Date(line.at));
    const log = await dayLog(day);
    if (log.written >= limit) {
      log.unwritten++;
      deps.onUnwritten?.();
      if (log.unwritten === 1)
        deps.logger?.warn(
          { event: 'mcp_call_log_full', day, limit },
          'MCP call log is full for the day: further calls are counted, not written',
        );
      return;
    }
    // Counted before the write ends, so calls that arrive meanwhile see the room already taken.
    log.written++;
    const bytes = encoder.encode(`${log.tornTail ? '\n' : ''}${JSON.stringify(line)}\n`);
    log.tornTail = false;
    await deps.storage.append(mcpCallLogPath(day), bytes);
  }

  return {
    record: (line) =>
      write(line).catch((error: unknown) => {
        deps.logger?.warn(
          { event: 'mcp_call_log_failed', error: error instanceof Error ? error.message : String(error) },
          'MCP call not logged',
        );
      }),
  };
}
