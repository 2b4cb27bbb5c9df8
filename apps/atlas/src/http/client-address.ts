// Who is on the other end of a request, as far as quotas need to know: an IP address, from the socket or
// from a trusted proxy's X-Forwarded-For. The address is used on the spot and never stored or logged as it is:
// the access log holds at most a keyed id of its network under a key that lives one UTC day, in memory only
// (createDailyNetworkIds).
import { randomBytes } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { dayFromTime } from '@mcp-atlas/history';
import { ReliabilityInputError, reporterKey } from '@mcp-atlas/reliability';
import type { Context } from 'hono';
import { keyedId } from '../data/keyed-id.js';

/** Bytes of a random key that lives one UTC day (createDailyKeyedIds); a new one is drawn every UTC day. */
export const DAILY_KEY_BYTES = 32;

/** The socket's remote address under @hono/node-server, or null under any other runtime (or in app.request). */
function socketAddress(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

/**
 * The client's IP address: with `trustedProxyHops` n > 0, the n-th entry from the right of
 * X-Forwarded-For (each trusted proxy appends the address it saw, so entries further left are the
 * client's own claims); otherwise the socket address. Null when there is none to read.
 */
export function clientAddress(c: Context, trustedProxyHops: number): string | null {
  if (trustedProxyHops > 0) {
    const entries = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0);
    return entries[entries.length - trustedProxyHops] ?? null;
  }
  return socketAddress(c);
}

/**
 * Makes the function that names a client in the access log: a keyed hash of its network (the IPv4 /24 or IPv6
 * /48 that tells anonymous reporters apart, `reporterKey`), never of the address, under a random key drawn
 * afresh at each UTC day of `now()` and held only in this closure. Within a day, lines from one network can be
 * told apart from another's (what spotting a flood needs); a line cannot be tied to the same network's lines of
 * another day, nor, once the day's key is gone, to the network at all, by anyone holding the log, the operator
 * and the signing key included. Null for a missing address or one that is not an IP address.
 *
 * @example
 * const networkIdOf = createDailyNetworkIds(() => new Date());
 * networkIdOf('203.0.113.7') === networkIdOf('203.0.113.200'); // true: one /24, one day
 */
export function createDailyNetworkIds(now: () => Date): (address: string | null) => string | null {
  const idOf = createDailyKeyedIds('access-log network');
  return (address) => {
    if (address === null) return null;
    let network: string;
    try {
      network = reporterKey(address);
    } catch (error) {
      if (error instanceof ReliabilityInputError) return null;
      throw error;
    }
    return idOf(dayFromTime(now()), network);
  };
}

/**
 * Makes a function that gives a keyed id of a value under a random key of `day`: drawn the first time a day is
 * asked for, held only in this closure, and dropped at the next day. Ids of one day can be compared; ids of two
 * days cannot be linked, and once the day is over nobody can recompute them. The access log and the sensor
 * intake's per-network count both key networks this way.
 *
 * @example
 * const idOf = createDailyKeyedIds('sensor network');
 * idOf('2026-12-03', '203.0.113.0/24') === idOf('2026-12-03', '203.0.113.0/24'); // true
 */
export function createDailyKeyedIds(label: string): (day: string, value: string) => string {
  let current: { day: string; key: Buffer } | null = null;
  return (day, value) => {
    if (current?.day !== day) current = { day, key: randomBytes(DAILY_KEY_BYTES) };
    return keyedId(current.key, label, value);
  };
}
