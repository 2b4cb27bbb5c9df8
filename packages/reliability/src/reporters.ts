/**
 * Who counts as one reporter, and how many reports one may send. Pure module.
 *
 * Anonymous reporters are told apart by their network, never by user agent: a user agent is
 * free to change on every request, a network is not.
 */

import { parseIpv4, parseIpv6 } from '@mcp-atlas/base';
import {
  IPV4_REPORTER_PREFIX_BITS,
  IPV6_REPORTER_PREFIX_BITS,
  REPORTS_PER_REPORTER_PER_DAY,
  REPORTS_PER_REPORTER_PER_SERVER_PER_DAY,
} from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { assertCount } from './validate.js';

/** Reports a reporter already had accepted today, in total and about the server at hand. */
export interface ReportUsage {
  /** Reports accepted from this reporter today (UTC), across all servers. */
  reporterToday: number;
  /** Reports accepted from this reporter today (UTC) about this server. */
  reporterServerToday: number;
}

/** Whether one more report may be accepted, and which limit refused it. */
export type QuotaDecision =
  | { admitted: true }
  | { admitted: false; reason: 'reporter_daily_limit' | 'server_daily_limit'; limit: number };

const IPV6_GROUPS = 8;
const BITS_PER_GROUP = 16;
const BITS_PER_OCTET = 8;

function invalidIp(ip: unknown): ReliabilityInputError {
  return new ReliabilityInputError(
    'invalid-ip',
    'ip',
    `expected an IPv4 or IPv6 address, received ${describeValue(ip)}`,
  );
}

// The base parser drops an IPv6 zone id whatever follows the `%`; a reporter address with an empty zone id
// ("fe80::1%") names no interface and has always been refused here.
function hasEmptyZone(text: string): boolean {
  const body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = body.indexOf('%');
  return zone !== -1 && zone === body.length - 1;
}

// The eight 16-bit groups of an address's 16 bytes.
function groupsOf(bytes: Uint8Array): number[] {
  return Array.from({ length: IPV6_GROUPS }, (_, i) => ((bytes[2 * i] as number) << 8) | (bytes[2 * i + 1] as number));
}

// RFC 5952 text: lowercase, no leading zeros, the longest run of two or more zero groups as `::`.
function formatIpv6(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function maskGroups(groups: readonly number[], prefixBits: number): number[] {
  return groups.map((group, index) => {
    const kept = Math.max(0, Math.min(BITS_PER_GROUP, prefixBits - index * BITS_PER_GROUP));
    return kept === 0 ? 0 : group & ((0xffff << (BITS_PER_GROUP - kept)) & 0xffff);
  });
}

function ipv4Key(octets: readonly number[]): string {
  const kept = IPV4_REPORTER_PREFIX_BITS / BITS_PER_OCTET;
  const masked = octets.map((octet, index) => (index < kept ? octet : 0));
  return `${masked.join('.')}/${IPV4_REPORTER_PREFIX_BITS}`;
}

function isMappedIpv4(groups: readonly number[]): boolean {
  return groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
}

/**
 * The reporter identity of an anonymous reporter: its network, `a.b.c.0/24` for IPv4 and the /48
 * prefix in RFC 5952 form for IPv6 (`2001:db8:1::/48`). IPv4-mapped IPv6 addresses
 * (`::ffff:192.0.2.7`) count as their IPv4 address. Never derived from the user agent. Throws
 * {@link ReliabilityInputError} (`invalid-ip`) on anything that is not an IP address.
 *
 * @example
 * reporterKey('198.51.100.23');               // '198.51.100.0/24'
 * reporterKey('2001:DB8:abcd:12::1');         // '2001:db8:abcd::/48'
 * reporterKey('::ffff:198.51.100.200');       // '198.51.100.0/24'
 */
export function reporterKey(ip: string): string {
  if (typeof ip !== 'string') throw invalidIp(ip);
  const text = ip.trim();
  if (!text.includes(':')) {
    const octets = parseIpv4(text);
    if (octets === null) throw invalidIp(ip);
    return ipv4Key(Array.from(octets));
  }
  const bytes = parseIpv6(text);
  if (bytes === null || hasEmptyZone(text)) throw invalidIp(ip);
  const groups = groupsOf(bytes);
  if (isMappedIpv4(groups)) {
    const high = groups[6] as number;
    const low = groups[7] as number;
    return ipv4Key([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  return `${formatIpv6(maskGroups(groups, IPV6_REPORTER_PREFIX_BITS))}/${IPV6_REPORTER_PREFIX_BITS}`;
}

/**
 * Decides whether one more report from a reporter may be accepted: at most 50 per UTC day in
 * total and 3 per UTC day about one server. The reporter-wide limit is checked first.
 *
 * @example
 * checkReportQuota({ reporterToday: 10, reporterServerToday: 3 });
 * // { admitted: false, reason: 'server_daily_limit', limit: 3 }
 */
export function checkReportQuota(usage: ReportUsage): QuotaDecision {
  const total = assertCount(usage.reporterToday, 'reporterToday');
  const perServer = assertCount(usage.reporterServerToday, 'reporterServerToday');
  if (total >= REPORTS_PER_REPORTER_PER_DAY) {
    return { admitted: false, reason: 'reporter_daily_limit', limit: REPORTS_PER_REPORTER_PER_DAY };
  }
  if (perServer >= REPORTS_PER_REPORTER_PER_SERVER_PER_DAY) {
    return { admitted: false, reason: 'server_daily_limit', limit: REPORTS_PER_REPORTER_PER_SERVER_PER_DAY };
  }
  return { admitted: true };
}
