// The service's Prometheus metrics, through prom-client: its registry, text format and process metrics are
// the ones every Prometheus scraper expects, and it is the most used and maintained Node client. Counters
// that events feed (requests, checks, intakes, search cache) are kept here; figures the service already
// records (the last sealed day, spend against each cap) are read from the read model and the ledgers at
// scrape time, so no second copy of them can drift.
import { shiftDay } from '@mcp-atlas/base';
import { dayFromTime } from '@mcp-atlas/history';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { readSpendLedger } from '../costs/spend-gate.js';
import { dailySpendPath, fiveMinuteSpendPath } from '../data/paths.js';
import { APP_VERSION, METHODOLOGY_VERSION } from '../methodology.js';
import type { Storage } from '../storage/storage.js';
import type { AtlasView } from '../view/build-view.js';
import type { IntakeName, IntakeOutcome } from './intake-hooks.js';
import type { SearchCache } from './search-cache.js';

/** The prefix of every metric the service defines (process metrics keep prom-client's own names). */
export const METRIC_PREFIX = 'mcp_atlas_';

/** Latency buckets in seconds: a page answers in milliseconds, an MCP call or a write may take a second. */
export const HTTP_LATENCY_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route label of a request that matched no route (a 404), so stray paths cannot grow the label set. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** The kinds of our own checks the schedule runs. */
export type CheckKind = 'daily' | 'hourly' | 'five-minute';

/** Where the scrape-time figures are read. */
export interface MetricSources {
  getView(): AtlasView;
  storage: Storage;
  now(): Date;
  /** Each cap's budget per UTC day in micro-dollars, shown when the day has no ledger yet. */
  budgetsMicroUsd: { daily: number; fiveMinute: number };
}

/** The metrics of one running service. */
export interface AtlasMetrics {
  registry: Registry;
  /** Counts one answered request and its latency. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Counts one finished check of ours. */
  recordCheck(kind: CheckKind, letter: string): void;
  /** The daily check's progress: servers done of the day's total. */
  setScanProgress(day: string, done: number, total: number): void;
  /** Counts one failure of a scheduled task. */
  recordTaskFailure(task: string): void;
  /** Counts one tool-search cache lookup. */
  recordSearchLookup(hit: boolean): void;
  /**
   * Counts one submission to an intake. The intakes themselves report every outcome through their `onIntake`
   * hook (http/intake-hooks.ts), so POST /api/reports, the report_road tool and POST /api/sensors are counted
   * in one place, by what the intake decided rather than by an HTTP status.
   */
  recordIntake(intake: IntakeName, outcome: IntakeOutcome): void;
  /** Counts one MCP tool call answered but not written to the call log, which was full for the day. */
  recordMcpCallUnwritten(): void;
}

/** Micro-dollars to dollars, for the spend gauges. */
const dollars = (micro: number): number => micro / 1_000_000;

/** Seconds from the end of `day` (UTC midnight after it) to `now`. */
function secondsSinceDayEnd(day: string, now: Date): number {
  return (now.getTime() - (Date.parse(`${day}T00:00:00Z`) + 86_400_000)) / 1000;
}

/** The newest day with a signed root, or undefined before the first seal. */
function newestSealedDay(view: AtlasView): string | undefined {
  return [...view.roots.keys()].sort().at(-1);
}

/**
 * Creates the registry with every metric; scrape-time figures read `sources`. Each call makes its own
 * registry, so two services in one process (tests) never share counters.
 */
export function createAtlasMetrics(sources: MetricSources): AtlasMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: `${METRIC_PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by method and route',
    labelNames: ['method', 'route'],
    buckets: HTTP_LATENCY_BUCKETS_SECONDS,
    registers: [registry],
  });
  const intakes = new Counter({
    name: `${METRIC_PREFIX}intake_total`,
    help: 'Agent reports and sensor batches, accepted or refused',
    labelNames: ['intake', 'outcome'],
    registers: [registry],
  });
  const unwrittenCalls = new Counter({
    name: `${METRIC_PREFIX}mcp_calls_unwritten_total`,
    help: 'MCP tool calls answered but not written to the call log, because the day’s log had reached its cap',
    registers: [registry],
  });
  const checks = new Counter({
    name: `${METRIC_PREFIX}checks_total`,
    help: 'Our own checks finished, by kind (daily, hourly, five-minute) and outcome letter',
    labelNames: ['kind', 'letter'],
    registers: [registry],
  });
  const scanDone = new Gauge({
    name: `${METRIC_PREFIX}scan_servers_done`,
    help: 'Servers the current day’s daily check has finished',
    registers: [registry],
  });
  const scanTotal = new Gauge({
    name: `${METRIC_PREFIX}scan_servers_total`,
    help: 'Servers the current day’s daily check covers',
    registers: [registry],
  });
  const taskFailures = new Counter({
    name: `${METRIC_PREFIX}scheduled_task_failures_total`,
    help: 'Failures of scheduled tasks, by task',
    labelNames: ['task'],
    registers: [registry],
  });
  const searchLookups = new Counter({
    name: `${METRIC_PREFIX}search_cache_lookups_total`,
    help: 'Tool-search cache lookups, by result (hit or miss)',
    labelNames: ['result'],
    registers: [registry],
  });
  // Before the first seal, the age counts from the start of the UTC day the service started, as if the day
  // before had been sealed: an instance that never seals then crosses the alert threshold too. It has no
  // label, so it stays one series however many days pass.
  const neverSealedSince = shiftDay(dayFromTime(sources.now()), -1);
  new Gauge({
    name: `${METRIC_PREFIX}last_sealed_day_age_seconds`,
    help: 'Seconds since the end of the newest sealed day (about 3,900 right after the 01:05 UTC seal); before the first seal, since the start of the UTC day the service started',
    registers: [registry],
    collect() {
      this.set(secondsSinceDayEnd(newestSealedDay(sources.getView()) ?? neverSealedSince, sources.now()));
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}build_info`,
    help: 'Always 1; the labels name the running build: the app version, the methodology version and Node',
    labelNames: ['version', 'methodology', 'node'],
    registers: [registry],
  }).set({ version: APP_VERSION, methodology: METHODOLOGY_VERSION, node: process.versions.node }, 1);
  /** Today's ledger of each cap; a ledger that cannot be read is left out of the scrape rather than failing it. */
  const readLedgers = async () => {
    const today = dayFromTime(sources.now());
    const caps = [
      ['daily', dailySpendPath(today), sources.budgetsMicroUsd.daily],
      ['five-minute', fiveMinuteSpendPath(today), sources.budgetsMicroUsd.fiveMinute],
    ] as const;
    const ledgers = await Promise.all(
      caps.map(async ([cap, path, fallback]) => ({
        cap,
        ledger: await readSpendLedger(sources.storage, path, today, fallback).catch(() => null),
      })),
    );
    return ledgers.flatMap(({ cap, ledger }) => (ledger === null ? [] : [{ cap, ledger }]));
  };
  new Gauge({
    name: `${METRIC_PREFIX}spend_usd`,
    help: 'What each compute cap has spent so far this UTC day, in US dollars',
    labelNames: ['cap'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { cap, ledger } of await readLedgers()) this.set({ cap }, dollars(ledger.spentMicroUsd));
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}budget_usd`,
    help: 'Each compute cap’s budget for this UTC day, in US dollars',
    labelNames: ['cap'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { cap, ledger } of await readLedgers()) this.set({ cap }, dollars(ledger.budgetMicroUsd));
    },
  });
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    recordIntake: (intake, outcome) => intakes.inc({ intake, outcome }),
    recordMcpCallUnwritten: () => unwrittenCalls.inc(),
    recordCheck: (kind, letter) => checks.inc({ kind, letter }),
    setScanProgress(_day, done, total) {
      scanDone.set(done);
      scanTotal.set(total);
    },
    recordTaskFailure: (task) => taskFailures.inc({ task }),
    recordSearchLookup: (hit) => searchLookups.inc({ result: hit ? 'hit' : 'miss' }),
  };
}

/** The cache with each lookup counted as a hit or a miss. */
export function countSearchLookups(cache: SearchCache, record: ((hit: boolean) => void) | undefined): SearchCache {
  if (record === undefined) return cache;
  return {
    get(view, key) {
      const hits = cache.get(view, key);
      record(hits !== undefined);
      return hits;
    },
    set: (view, key, hits) => cache.set(view, key, hits),
  };
}

/** The route pattern a request matched (`/api/servers/:id`), or UNMATCHED_ROUTE; never the raw path. */
export function routeLabelOf(c: Context): string {
  // Middleware is registered for every method ('ALL'); the route that answered is the last one with a method.
  const routes = matchedRoutes(c).filter((route) => route.method !== 'ALL');
  return routes.at(-1)?.path ?? UNMATCHED_ROUTE;
}

/** One access-log entry: nothing in it can name a person (the client is a keyed id) or carry a secret. */
export interface AccessEntry {
  method: string;
  route: string;
  status: number;
  durationMs: number;
  /**
   * A keyed id of the client's network for the day (see RequestObserver.clientOf), or null when the address is
   * unknown. Absent for every path {@link accessLineCarriesClient} refuses: sensor batches, page, widget and
   * badge views, and any other path outside the API, /mcp, the well-known files and the probes.
   */
  client?: string | null;
}

/** Paths that are probed every few seconds: counted, but logged only at debug level. */
export const QUIET_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The paths whose access lines name the client (each with everything under it): the API, the MCP endpoint, the
 * well-known files and the operator's endpoints, which programs call and where one network flooding or probing
 * needs telling apart from many.
 */
const CLIENT_LOGGED_PATHS: readonly string[] = ['/api', '/mcp', '/.well-known', ...QUIET_PATHS];

/**
 * The sensor intake's path: its lines never name the client, because a sensor's address is never collected
 * (methodology, "What is never collected"); the intake's own per-day network key limits it, in memory only.
 */
const SENSOR_PATH = '/api/sensors';

/** True when `path` is `base` or lies under it. */
const isUnder = (path: string, base: string): boolean => path === base || path.startsWith(`${base}/`);

/**
 * Whether the access line of a request for `path` carries a client id. Only the API (sensor batches excepted), the
 * MCP endpoint, the well-known files and the operator's endpoints do. Pages, widgets and badges, which people and
 * READMEs load, never do, so a view is never tied to a network; neither does any other path, so a page added
 * later is covered without a change here.
 *
 * @example
 * accessLineCarriesClient('/api/servers');       // true
 * accessLineCarriesClient('/api/sensors');       // false
 * accessLineCarriesClient('/servers/notes-hub'); // false
 */
export function accessLineCarriesClient(path: string): boolean {
  if (isUnder(path, SENSOR_PATH)) return false;
  return CLIENT_LOGGED_PATHS.some((base) => isUnder(path, base));
}

/** What the observing middleware reports to. */
export interface RequestObserver {
  metrics?: AtlasMetrics;
  /** Writes one access-log line (at debug for QUIET_PATHS, info otherwise). */
  log(entry: AccessEntry, quiet: boolean): void;
  /**
   * The keyed client id of a request; asked only for paths {@link accessLineCarriesClient} accepts. It must never
   * be the address itself, nor a hash that outlives the day (serve keys the network with a daily in-memory key).
   */
  clientOf(c: Context): string | null;
}

/**
 * Middleware that times every request and, once it is answered, counts it and writes one access-log line.
 * It goes first, so a request refused by the Host guard is counted and logged too.
 */
export function observeRequests(observer: RequestObserver): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    const route = routeLabelOf(c);
    const status = c.res.status;
    observer.metrics?.observeRequest(c.req.method, route, status, seconds);
    observer.log(
      {
        method: c.req.method,
        route,
        status,
        durationMs: Math.round(seconds * 100_000) / 100,
        ...(accessLineCarriesClient(c.req.path) ? { client: observer.clientOf(c) } : {}),
      },
      QUIET_PATHS.has(c.req.path),
    );
  };
}
