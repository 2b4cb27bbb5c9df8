// Pure module: decide whether an IP address is public. Used on the addresses a host name resolves to, so that
// the probe never connects to a private, loopback or otherwise local host. The parsing into bytes is
// @mcp-atlas/base's, shared with reliability and the app.
import { parseIpv4, parseIpv6 } from '@mcp-atlas/base';
import {
  IPV6_EMBEDDING_RANGES,
  IPV6_GLOBAL_UNICAST,
  NON_PUBLIC_IPV4_RANGES,
  NON_PUBLIC_IPV6_RANGES,
} from './constants.js';

/** What `classifyAddress` found: public or not, and the range that decided (null for a public address). */
export interface AddressClass {
  readonly address: string;
  readonly public: boolean;
  /** `private`, `loopback`, `link-local`, `cgnat`, `multicast`, ..., `not-global-unicast`, or `unparseable`. */
  readonly range: string | null;
}

interface Cidr {
  readonly bytes: Uint8Array;
  readonly prefix: number;
}

/** True when `text` is an IP address in dotted IPv4 or any IPv6 spelling (brackets allowed). */
export function isIpAddress(text: string): boolean {
  return parseIpv4(text) !== null || parseIpv6(text) !== null;
}

function parseCidr(cidr: string): Cidr {
  const [address, prefix] = cidr.split('/') as [string, string];
  const bytes = parseIpv4(address) ?? parseIpv6(address);
  if (bytes === null) throw new Error(`bad CIDR in constants: ${cidr}`);
  return { bytes, prefix: Number(prefix) };
}

function inCidr(bytes: Uint8Array, cidr: Cidr): boolean {
  if (bytes.length !== cidr.bytes.length) return false;
  const whole = Math.floor(cidr.prefix / 8);
  for (let i = 0; i < whole; i++) if (bytes[i] !== cidr.bytes[i]) return false;
  const bits = cidr.prefix % 8;
  if (bits === 0) return true;
  const mask = (0xff << (8 - bits)) & 0xff;
  return ((bytes[whole] as number) & mask) === ((cidr.bytes[whole] as number) & mask);
}

// Parsed once: the tables are constants.
const V4_RANGES = NON_PUBLIC_IPV4_RANGES.map(([cidr, label]) => ({ cidr: parseCidr(cidr), label }));
const V6_RANGES = NON_PUBLIC_IPV6_RANGES.map(([cidr, label]) => ({ cidr: parseCidr(cidr), label }));
const V6_EMBEDDING = IPV6_EMBEDDING_RANGES.map(([cidr, label, offset]) => ({ cidr: parseCidr(cidr), label, offset }));
const V6_GLOBAL = parseCidr(IPV6_GLOBAL_UNICAST);

function classifyIpv4Bytes(bytes: Uint8Array): string | null {
  for (const range of V4_RANGES) if (inCidr(bytes, range.cidr)) return range.label;
  return null;
}

function classifyIpv6Bytes(bytes: Uint8Array): string | null {
  for (const range of V6_EMBEDDING) {
    if (inCidr(bytes, range.cidr)) {
      // The packet goes to the embedded IPv4 host, so that address decides.
      const inner = classifyIpv4Bytes(bytes.subarray(range.offset, range.offset + 4));
      return inner === null ? null : `${range.label}:${inner}`;
    }
  }
  if (!inCidr(bytes, V6_GLOBAL)) return 'not-global-unicast';
  for (const range of V6_RANGES) if (inCidr(bytes, range.cidr)) return range.label;
  return null;
}

/**
 * Decides whether an address is public. Private (10/8, 172.16/12, 192.168/16, fc00::/7), loopback,
 * link-local, CGNAT (100.64/10), multicast, documentation, benchmarking and reserved ranges are not;
 * IPv4-mapped, NAT64 and 6to4 IPv6 addresses are judged by the IPv4 address they carry; an IPv6 address
 * outside 2000::/3 is not public. A string that is not an address is not public either.
 *
 * @example
 * classifyAddress('10.1.2.3')      // { address: '10.1.2.3', public: false, range: 'private' }
 * classifyAddress('::ffff:8.8.8.8') // { public: true, range: null, ... }
 */
export function classifyAddress(address: string): AddressClass {
  const v4 = parseIpv4(address);
  if (v4 !== null) {
    const range = classifyIpv4Bytes(v4);
    return { address, public: range === null, range };
  }
  const v6 = parseIpv6(address);
  if (v6 !== null) {
    const range = classifyIpv6Bytes(v6);
    return { address, public: range === null, range };
  }
  return { address, public: false, range: 'unparseable' };
}

/** True when `classifyAddress(address).public`. */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address).public;
}
