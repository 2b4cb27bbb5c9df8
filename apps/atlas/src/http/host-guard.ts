// The Host and Origin checks in front of every route. They stop DNS rebinding (a page on evil.example whose
// name is made to resolve to this machine, so the visitor's browser talks to a loopback service as if it were
// evil.example) and cross-site writes from a visitor's browser.
import type { Context, MiddlewareHandler } from 'hono';
import { errorBody, refuse } from './errors.js';
import type { SiteAddress } from './site-address.js';

/**
 * Status for a Host that does not name this service: 421 Misdirected Request, which says "this server does
 * not answer for that name" (RFC 9110, 15.5.20), so a client or proxy knows to stop rather than retry.
 */
export const MISDIRECTED_STATUS = 421;

/**
 * Status for a browser's cross-site Origin on a write or on /mcp: 403 Forbidden. The name is right; the page
 * the request comes from is not allowed to act here.
 */
export const FOREIGN_ORIGIN_STATUS = 403;

/** Methods that read only: the Origin check lets any page read (the read API is CORS-open). */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** The Host a request was sent to: the Host header, or the URL's host where there is none (app.request). */
function requestAuthority(c: Context): string {
  return c.req.header('host') ?? new URL(c.req.url).host;
}

/** True when the Origin check applies: every request to /mcp (any method), and every write. */
function needsOriginCheck(c: Context): boolean {
  return c.req.path === '/mcp' || c.req.path.startsWith('/mcp/') || !READ_METHODS.has(c.req.method);
}

/**
 * Middleware that refuses a request whose Host does not name the service (421) and, on /mcp and on writes, a
 * browser request whose Origin is not the service's own (403). A request without an Origin header (a
 * program, not a page) passes the Origin check. The refusal never repeats the header it refused, so nothing
 * a caller sends comes back in a body.
 */
export function createHostGuard(site: SiteAddress): MiddlewareHandler {
  return async (c, next) => {
    if (!site.acceptsHost(requestAuthority(c))) {
      c.header('Cache-Control', 'no-store');
      return c.json(
        errorBody(
          refuse(
            MISDIRECTED_STATUS,
            'misdirected_request',
            `this service answers only for ${site.origin}; the Host header names another`,
          ),
        ),
        MISDIRECTED_STATUS,
      );
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && needsOriginCheck(c) && !site.acceptsOrigin(origin)) {
      c.header('Cache-Control', 'no-store');
      return c.json(
        errorBody(
          refuse(
            FOREIGN_ORIGIN_STATUS,
            'foreign_origin',
            `requests from other sites' pages are refused here; only ${site.origin} may send them`,
          ),
        ),
        FOREIGN_ORIGIN_STATUS,
      );
    }
    await next();
  };
}
