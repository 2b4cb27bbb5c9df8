// Serving: the HTTP app over the read model, on 127.0.0.1 by default, with graceful shutdown on SIGINT and
// SIGTERM (stop accepting, finish what is in flight, close the fleet or scheduler, then resolve). The app is
// built once the port is known, so that its pages name the bound address (or the public URL), never a Host.
import { type NetworkOptions, readOwnerToken } from '@mcp-atlas/probe';
import { nodeNetwork } from '@mcp-atlas/probe/node';
import { IDENTITY_RULES } from '@mcp-atlas/probe/rules';
import { badgeSightingsPath, refusedSensorRequestsPath, viewCountsPath } from '../data/paths.js';
import { createDayCounter, randomWriter } from '../demand/day-counts.js';
import { createDemandRecorder } from '../demand/recorder.js';
import { createHttpApp } from '../http/app.js';
import { clientAddress, createDailyNetworkIds } from '../http/client-address.js';
import type { HttpDeps } from '../http/deps.js';
import type { IntakeHooks } from '../http/intake-hooks.js';
import { createLicenseKeyStore, licenseValidatorOf, refuseEveryLicense } from '../http/license-keys.js';
import { type AtlasMetrics, createAtlasMetrics } from '../http/metrics.js';
import type { Readiness } from '../http/operator-routes.js';
import { createSiteAddress, isLoopbackHost } from '../http/site-address.js';
import type { Logger } from '../log.js';
import { APP_VERSION, METHODOLOGY_VERSION } from '../methodology.js';
import { pageSightingOf } from '../pages/routes.js';
import { reporterSecretOf, type SigningKeys } from '../seal/keys.js';
import type { Storage } from '../storage/storage.js';
import { type AtlasView, buildView } from '../view/build-view.js';
import { incidentChangesDue, nextIncidentChangeAt, updateServersLive } from '../view/live-update.js';
import { listen, type NodeFetchHandler } from './listen.js';
import { createLiveUpdateQueue, createWakeAlarm, type WakeTimers } from './live-update-queue.js';

/** A license validator for paid reporters; without one every key is refused (the demo installs its own). */
export type LicenseValidator = (key: string) => Promise<boolean>;

/** Options of {@link serveAtlas}. */
export interface ServeOptions {
  storage: Storage;
  port: number;
  /** The address to bind (default 127.0.0.1). Anything but loopback needs `publicUrl`. */
  host?: string;
  /**
   * The origin the service is reached at from outside (https://atlas.example.org). Pages, snippets and the
   * Host and Origin checks use it; without it the bound loopback address names the service.
   */
  publicUrl?: string | null;
  /** Reverse proxies in front that append to X-Forwarded-For and can be trusted (default 0: the socket). */
  trustedProxyHops?: number;
  log: Logger;
  keys: SigningKeys;
  /** Which license keys count as paying reporters; absent, none does. */
  validateLicense?: LicenseValidator;
  now?: () => Date;
  /**
   * The timers the service wakes itself with when a live incident's 2 hours pass (default: Node's). A test
   * that moves `now` by hand gives timers that fire as it moves the clock.
   */
  timers?: WakeTimers;
  /** Called once on shutdown, before the promise `closed` resolves. */
  onClose?: () => Promise<void>;
  /** The network token files are read through (the guarded, pinned Node network unless a test gives another). */
  ownerNetwork?: NetworkOptions;
  /** Distinct tool searches remembered per view; 0 computes every search afresh (the load benchmark's baseline). */
  searchCacheEntries?: number;
  /** Handle SIGINT/SIGTERM (the CLI does; tests do not). */
  handleSignals?: boolean;
  /** The live updates' coalescing window in milliseconds (default `LIVE_UPDATE_DELAY_SECONDS`); tests shorten it. */
  liveUpdateDelayMs?: number;
  /** Milliseconds the batched counts (badge sightings, views, refused sensor requests, markers) wait before a write. */
  countFlushIntervalMs?: number;
  /** The user agent the bot sends, published in the well-known file (default: the probe's IDENTITY_RULES.userAgent). */
  botUserAgent?: string;
  /**
   * The operator's endpoints (/healthz, /readyz, /metrics) and the access log. Absent, none is served or
   * written (the demo and most tests); `serve` always gives it.
   */
  operator?: OperatorOptions;
}

/** Options of the operator's endpoints. */
export interface OperatorOptions {
  /** The bearer token /metrics requires, or null for none. */
  metricsToken: string | null;
  /** Each cap's budget per UTC day in micro-dollars, for the spend gauges. */
  budgetsMicroUsd: { daily: number; fiveMinute: number };
}

/** How long /readyz waits for the store to answer before it says the store does not. */
export const STORE_READY_TIMEOUT_MS = 2_000;

/** A path the readiness check reads: any path will do, missing or not, since only the store's answer counts. */
const READINESS_PROBE_PATH = 'state/hourly.json';

/** How the read model changed since start: full rebuilds and per-server live updates. */
export interface ViewStats {
  /** Whole read models built (the one at start included). */
  fullBuilds: number;
  /** Live update runs (each covers every server pending at the time). */
  liveUpdates: number;
  /** Servers recomputed by live updates, summed over runs. */
  serversUpdated: number;
  /** Live updates that replaced the route's tool index (withLiveFields). */
  indexUpdates: number;
}

/** A running service. */
export interface RunningAtlas {
  /** Where the server listens (the bound address and port). */
  url: string;
  /** The origin pages and snippets name: the public URL when one was given, else `url`. */
  origin: string;
  port: number;
  /** Rebuilds the read model from storage (after a scan) and swaps it in whole. */
  refresh(): Promise<void>;
  /**
   * Marks servers with news (a check of them, a report, a sensor batch): their live fields, rating and
   * incident are recomputed within `LIVE_UPDATE_DELAY_SECONDS`, without a full rebuild. Returns at once.
   */
  updateServers(serverIds: readonly string[]): void;
  /** Runs the pending live updates now and resolves when they are in the view. */
  flushLiveUpdates(): Promise<void>;
  /** Counts of full rebuilds and live updates so far. */
  viewStats(): ViewStats;
  /** The service's metrics, when `operator` was given; the schedule counts its checks there. */
  metrics: AtlasMetrics | null;
  close(): Promise<void>;
  closed: Promise<void>;
}

/** The demo's license keys: public on purpose, so only `demo` (never `serve`) installs them. */
export const DEMO_LICENSE_KEYS: ReadonlySet<string> = new Set(['demo-paid-license-1', 'demo-paid-license-2']);

/** The demo's validator: these keys count as paying reporters, and no others. */
export const demoLicenseValidator: LicenseValidator = licenseValidatorOf(createLicenseKeyStore(DEMO_LICENSE_KEYS));

/** Starts serving the data in `storage`. */
export async function serveAtlas(options: ServeOptions): Promise<RunningAtlas> {
  const now = options.now ?? (() => new Date());
  const stats: ViewStats = { fullBuilds: 0, liveUpdates: 0, serversUpdated: 0, indexUpdates: 0 };
  let view: AtlasView = await buildView(options.storage, now());
  stats.fullBuilds++;
  // Every change of the view (a full rebuild, a live update) runs one at a time, so a live update computed
  // from an older view is never swapped in over a newer rebuild.
  let viewWork: Promise<void> = Promise.resolve();
  const changeView = (work: () => Promise<void>): Promise<void> => {
    const next = viewWork.then(work);
    viewWork = next.catch(() => undefined);
    return next;
  };
  const liveUpdates = createLiveUpdateQueue({
    ...(options.liveUpdateDelayMs !== undefined ? { delayMs: options.liveUpdateDelayMs } : {}),
    logger: options.log,
    run: (ids) =>
      changeView(async () => {
        const result = await updateServersLive(view, options.storage, ids, now());
        view = result.view;
        stats.liveUpdates++;
        stats.serversUpdated += result.updated.length;
        if (result.indexUpdated) stats.indexUpdates++;
        for (const id of ids) expiring.delete(id);
        armIncidentAlarm();
      }),
  });
  // Incidents end by time alone (their 2 hours pass) with no event to mark their server: one alarm, set after
  // every change of the view to the earliest instant an incident decision changes, hands the servers due then
  // to the live-update queue. `expiring` holds those handed over and not yet updated, so the alarm does not
  // fire for them again meanwhile (after a failed update they wait for their next event or rebuild).
  const expiring = new Set<string>();
  const incidentAlarm = createWakeAlarm({
    now,
    ...(options.timers !== undefined ? { timers: options.timers } : {}),
    onWake: () => {
      const due = incidentChangesDue(view, now(), expiring);
      for (const id of due) expiring.add(id);
      liveUpdates.enqueue(due);
      armIncidentAlarm();
    },
  });
  function armIncidentAlarm(): void {
    incidentAlarm.set(nextIncidentChangeAt(view, expiring));
  }
  armIncidentAlarm();
  // Held here so that shutdown can put the last counts and markers on disk.
  const countFlush =
    options.countFlushIntervalMs !== undefined ? { flushIntervalMs: options.countFlushIntervalMs } : {};
  const demand = createDemandRecorder({
    storage: options.storage,
    now,
    logger: options.log,
    ...(options.countFlushIntervalMs !== undefined ? { markerFlushIntervalMs: options.countFlushIntervalMs } : {}),
  });
  const writer = randomWriter();
  const counterOf = (pathOf: (day: string, writer: string) => string) =>
    createDayCounter({ storage: options.storage, now, pathOf, writer, logger: options.log, ...countFlush });
  const badgeSightings = counterOf(badgeSightingsPath);
  const viewCounts = counterOf(viewCountsPath);
  const refusedSensorRequests = counterOf(refusedSensorRequestsPath);
  const hooks: IntakeHooks = {
    onServerEvidence: (ids) => liveUpdates.enqueue(ids),
    onSensorRefused: (reason) => refusedSensorRequests.add(reason),
  };
  const host = options.host ?? '127.0.0.1';
  // Checked before binding, so a public bind without a public URL fails at once and binds nothing.
  createSiteAddress({ publicUrl: options.publicUrl ?? null, bindHost: host, port: null });
  // Requests are handed to the app once it exists; none can arrive before `listen` resolves and it is set.
  // The bindings (the Node request and response) go along: the client's socket address is read from them.
  let handler: NodeFetchHandler | null = null;
  let closing: Promise<void> | null = null;
  const metrics =
    options.operator === undefined
      ? null
      : createAtlasMetrics({
          getView: () => view,
          storage: options.storage,
          now,
          budgetsMicroUsd: options.operator.budgetsMicroUsd,
        });
  const readiness = async (): Promise<Readiness> => {
    if (closing !== null) return { ready: false, reason: 'shutting down' };
    return checkStore(options.storage);
  };
  const { server, port } = await listen(
    (request, bindings) => (handler === null ? new Response('starting', { status: 503 }) : handler(request, bindings)),
    options.port,
    host,
  );
  const site = createSiteAddress({ publicUrl: options.publicUrl ?? null, bindHost: host, port });
  let app: ReturnType<typeof createHttpApp>;
  try {
    // The intakes read the hooks from the app's dependencies (see http/intake-hooks.ts).
    const deps: HttpDeps & IntakeHooks = {
      ...hooks,
      // Every report (POST /api/reports or report_road) and sensor batch is counted by the intake that decided it.
      onIntake: (intake, outcome) => metrics?.recordIntake(intake, outcome),
      getView: () => view,
      storage: options.storage,
      publicKey: options.keys.publicKey,
      now,
      methodologyVersion: METHODOLOGY_VERSION,
      botUserAgent: options.botUserAgent ?? IDENTITY_RULES.userAgent,
      validateLicense: options.validateLicense ?? refuseEveryLicense,
      site,
      ...(options.trustedProxyHops !== undefined ? { trustedProxyHops: options.trustedProxyHops } : {}),
      appVersion: APP_VERSION,
      reporterSecret: reporterSecretOf(options.keys),
      logger: options.log,
      ...(options.searchCacheEntries !== undefined ? { searchCacheEntries: options.searchCacheEntries } : {}),
      readOptOutToken: (origin, token) => readOwnerToken(origin, 'opt-out', token, options.ownerNetwork ?? nodeNetwork),
      readOwnerToken: (origin, kind, token) => readOwnerToken(origin, kind, token, options.ownerNetwork ?? nodeNetwork),
      // Only a network that lifts the guard's address rules (tests, the demo's loopback fleet) lets submissions name one.
      allowPrivateTargets: options.ownerNetwork?.allowPrivate === true,
      demand,
    };
    const hops = options.trustedProxyHops ?? 0;
    const networkIdOf = createDailyNetworkIds(now);
    app = createHttpApp(
      deps,
      metrics === null || options.operator === undefined
        ? undefined
        : {
            metrics,
            metricsToken: options.operator.metricsToken,
            readiness,
            observer: {
              metrics,
              // The network's id under a key that lives one UTC day, in memory only: lines of one day can be told
              // apart by network, never linked across days or traced to an address. Page views and sensor
              // batches get no client at all (metrics.ts, accessLineCarriesClient).
              clientOf: (c) => networkIdOf(clientAddress(c, hops)),
              log: (entry, quiet) => {
                const line = { event: 'access', ...entry };
                if (quiet) options.log.debug(line, 'request');
                else options.log.info(line, 'request');
              },
            },
          },
    );
  } catch (error) {
    // A bad setting (caught by createHttpApp) must not leave the port bound.
    server.close();
    throw error;
  }
  // Badge sightings and page and widget views are counted from the path of a GET answered 200: nothing else
  // of the request is read, and the count is batched (at most one write a minute per store). An unknown server's
  // badge is answered 200 too (an image proxy shows a 404 as a broken image), so a badge counts only for a
  // server the view holds: made-up ids never grow the counts.
  handler = async (request, bindings) => {
    const response = await app.fetch(request, bindings as Record<string, unknown>);
    if (request.method === 'GET' && response.status === 200) {
      const sighting = pageSightingOf(new URL(request.url).pathname);
      if (sighting?.kind === 'badge' && view.byId.has(sighting.key)) badgeSightings.add(sighting.key);
      else if (sighting?.kind === 'view') viewCounts.add(sighting.key);
    }
    return response;
  };
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const close = (): Promise<void> => {
    closing ??= (async () => {
      options.log.info('shutting down');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      });
      incidentAlarm.close();
      await liveUpdates.close();
      await demand.flush();
      await Promise.all([badgeSightings.flush(), viewCounts.flush(), refusedSensorRequests.flush()]);
      await options.onClose?.();
      resolveClosed();
    })();
    return closing;
  };
  if (options.handleSignals !== false) {
    process.once('SIGINT', () => void close());
    process.once('SIGTERM', () => void close());
  }
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  options.log.info({ url, public_url: site.origin }, 'serving');
  // The Host guard keeps other sites' pages from reading /metrics, not anyone who names the service: reached
  // from beyond this machine (bound past loopback, or behind a proxy at a public URL), it needs the token.
  const reachedFromOutside = !isLoopbackHost(host) || (options.publicUrl ?? null) !== null;
  if (options.operator !== undefined && options.operator.metricsToken === null && reachedFromOutside) {
    options.log.warn(
      { event: 'metrics_without_token', url, public_url: site.origin },
      '/metrics answers anyone who can reach the service: set --metrics-token (MCP_ATLAS_METRICS_TOKEN)',
    );
  }
  return {
    url,
    origin: site.origin,
    port,
    refresh: () =>
      changeView(async () => {
        view = await buildView(options.storage, now());
        stats.fullBuilds++;
        expiring.clear();
        armIncidentAlarm();
      }),
    updateServers: (ids) => liveUpdates.enqueue(ids),
    flushLiveUpdates: () => liveUpdates.flush(),
    viewStats: () => ({ ...stats }),
    metrics,
    close,
    closed,
  };
}

/** Ready when the store answers a read within STORE_READY_TIMEOUT_MS. */
async function checkStore(storage: Storage): Promise<Readiness> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: `the store did not answer within ${STORE_READY_TIMEOUT_MS} ms` }),
      STORE_READY_TIMEOUT_MS,
    );
  });
  const read = storage.get(READINESS_PROBE_PATH).then(
    (): Readiness => ({ ready: true }),
    (error: unknown): Readiness => ({
      ready: false,
      reason: `the store failed a read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    }),
  );
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
