// The MCP call log, kept to run the service and stop abuse, never published: one JSON line per tool call on
// POST /mcp with the tool, the time, the client's name, a country and an agent id. The agent id is a keyed
// hash of the network address and the user agent, so neither is ever written. No GeoIP database is used:
// the country is a CDN's country header only when the request came through a proxy the operator trusts
// (anyone can send the header straight to us), and "unknown" otherwise. Lines are appended to one file per
// UTC day (Storage.append), so a call costs the same bytes however long the day's log is.
import { dayFromTime } from '@mcp-atlas/history';
import { z } from 'zod';
import { keyedId } from '../data/keyed-id.js';
import { mcpCallLogPath } from '../data/paths.js';
import type { Storage } from '../storage/storage.js';

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

/** Appends one call to its day's log. */
export async function appendMcpCall(storage: Storage, line: McpCallLine): Promise<void> {
  await storage.append(mcpCallLogPath(dayFromTime(new Date(line.at))), encoder.encode(`${JSON.stringify(line)}\n`));
}
