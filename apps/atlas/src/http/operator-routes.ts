// The operator's endpoints: liveness, readiness and Prometheus metrics. /healthz and /readyz are mounted before
// the Host guard, because probes call the service by its pod or container address, not its public name, and
// they answer nothing a visitor could use. /metrics says more, so the app puts the Host guard in front of it
// unless the request carries the metrics token (http/app.ts). No rate limit applies to them, and their access-log lines are
// written at debug level, so a probe every few seconds does not fill the log.
import { timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import type { AtlasMetrics, RequestObserver } from './metrics.js';

/** Whether the service can answer requests now, and if not, why. */
export type Readiness = { ready: true } | { ready: false; reason: string };

/** What the operator endpoints need. */
export interface OperatorRoutes {
  observer: RequestObserver;
  metrics: AtlasMetrics;
  /** The bearer token /metrics requires, or null to leave it open (bind it to a private network then). */
  metricsToken: string | null;
  /** Ready once the read model is built and the store answers; not ready while shutting down. */
  readiness(): Promise<Readiness>;
}

/** True when the Authorization header carries exactly `Bearer <token>` (compared in constant time). */
export function hasBearerToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** Mounts GET /healthz, GET /readyz and GET /metrics on `app`. */
export function mountOperatorRoutes(app: Hono, routes: OperatorRoutes): void {
  // Alive as long as the process answers at all: nothing here waits on the store or the read model.
  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    const readiness = await routes.readiness();
    return readiness.ready
      ? c.json({ status: 'ready' })
      : c.json({ status: 'not_ready', reason: readiness.reason }, 503);
  });

  app.get('/metrics', async (c) => {
    if (routes.metricsToken !== null && !hasBearerToken(c.req.header('authorization'), routes.metricsToken)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return c.json({ error: { code: 'unauthorized', message: 'send the metrics token as a Bearer token' } }, 401);
    }
    const text = await routes.metrics.registry.metrics();
    return c.body(text, 200, { 'Content-Type': routes.metrics.registry.contentType });
  });
}
