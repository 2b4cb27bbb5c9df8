// Who is on the other end of a request, as far as quotas need to know: an IP address, from the socket or
// from a trusted proxy's X-Forwarded-For. The address is used on the spot and never stored or logged.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

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
