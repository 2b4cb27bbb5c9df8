// What the fuzz run sends where. The routes are never listed by hand: `mountedRoutes` reads them from the HTTP
// app's own route table (Hono's `app.routes`), built with the operator's endpoints as `serve` builds it, so a
// route added to the app is fuzzed from its first commit. What cannot be read from the table is written here: a
// body shape for each POST route and sample values for each path parameter. A route missing from these tables
// is still fuzzed with junk, and test/fuzz-routes.test.ts fails until it is described.
import { generateKeyPair } from '@mcp-atlas/history';
import { createHttpApp } from '../src/http/app.js';
import { createAtlasMetrics } from '../src/http/metrics.js';
import { METHODOLOGY_AREAS } from '../src/pages/methodology-doc.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { buildView } from '../src/view/build-view.js';

/** One route of the app: its method (upper case) and its path pattern as mounted (`/api/servers/:id`). */
export interface MountedRoute {
  method: string;
  path: string;
}

/**
 * Every route the HTTP app mounts, operator endpoints included, sorted by path then method. Middleware (mounted
 * with `use`, method ALL) is left out: it runs in front of the routes and is reached through them.
 */
export async function mountedRoutes(): Promise<MountedRoute[]> {
  const storage = createMemoryStorage();
  const now = new Date();
  const view = await buildView(storage, now);
  const keys = await generateKeyPair();
  const metrics = createAtlasMetrics({
    getView: () => view,
    storage,
    now: () => now,
    budgetsMicroUsd: { daily: 0, fiveMinute: 0 },
  });
  const app = createHttpApp(
    {
      getView: () => view,
      storage,
      publicKey: keys.publicKey,
      now: () => now,
      methodologyVersion: '0.0.0',
      botUserAgent: 'mcp-atlas-bot/0.0.0',
      validateLicense: async () => false,
    },
    {
      metrics,
      metricsToken: null,
      readiness: async () => ({ ready: true }),
      observer: { metrics, clientOf: () => null, log: () => undefined },
    },
  );
  const seen = new Map<string, MountedRoute>();
  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    seen.set(`${route.method} ${route.path}`, { method: route.method, path: route.path });
  }
  return [...seen.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** What the run knows of the served data, read from the service before fuzzing, so that some values are real. */
export interface FuzzContext {
  /** Ids of servers the service watches. */
  serverIds: readonly string[];
  /** Days with a signed root. */
  days: readonly string[];
}

/** A well-formed body for each POST route, which the fuzz then breaks (values swapped, keys dropped or added). */
export const POST_BODY_SHAPES: Readonly<Record<string, (context: FuzzContext) => Record<string, unknown>>> = {
  '/api/reports': (context) => ({
    server: context.serverIds[0] ?? 'notes',
    tool: 'list_notes',
    ok: false,
    reason: 'timeout',
    ms: 120,
    matched: true,
    resultTokens: 40,
    charged: 0,
    surprise: 'other',
  }),
  '/api/sensors': (context) => ({
    sensor: 'gw-fuzz',
    outcomes: [{ server: context.serverIds[0] ?? 'notes', ok: true, at: new Date().toISOString() }],
  }),
  // Loopback and reserved names only: the service's network guard refuses them without a connection, and the
  // run's preload (bench/loopback-only.cjs) refuses every other name, so no request leaves the machine.
  '/api/submissions': () => ({ url: 'https://mcp.fuzz.invalid/mcp', proveOwnership: true }),
  '/api/optout': () => ({ host: 'mcp.fuzz.invalid' }),
  '/api/optout/confirm': () => ({ host: 'mcp.fuzz.invalid' }),
  '/api/owners/token': (context) => ({ server: context.serverIds[0] ?? 'notes' }),
  '/api/owners/verify': (context) => ({ server: context.serverIds[1] ?? 'notes' }),
  '/api/owners/settings': (context) => ({
    server: context.serverIds[0] ?? 'notes',
    note: 'Maintained by the fuzz team.',
    fiveMinuteChecks: true,
  }),
  '/api/owners/access': (context) => ({ server: context.serverIds[0] ?? 'notes' }),
  // The owner page's form fields; sent as JSON by the fuzz, which the page answers with a 400.
  '/owner': (context) => ({ server: context.serverIds[0] ?? 'notes', token: 'mcp-atlas-owner-fuzz' }),
  // JSON-RPC; the generator builds its messages (bench/fuzz-requests.ts, mcpBody).
  '/mcp': () => ({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
};

/** A real value, when the context has one, or the first sample. */
function realOr(values: readonly string[], pick: number, fallback: string): string {
  return values.length === 0 ? fallback : (values[pick % values.length] as string);
}

/**
 * Good values for each route's path parameters (the generator also sends junk in their place), keyed by the
 * route's path pattern. `pick` chooses among the real values.
 */
export const PATH_PARAM_SAMPLES: Readonly<
  Record<string, (context: FuzzContext, pick: number) => Record<string, string>>
> = {
  '/api/servers/:id': (context, pick) => ({ id: realOr(context.serverIds, pick, 'notes') }),
  '/api/local-servers/:id': (context, pick) => ({ id: realOr(context.serverIds, pick, 'notes') }),
  '/api/owners/:id/view': (context, pick) => ({ id: realOr(context.serverIds, pick, 'notes') }),
  '/api/submissions/:id': (_context, pick) => ({ id: `sub-${pick.toString(16).padStart(12, '0')}` }),
  '/servers/:id': (context, pick) => ({ id: realOr(context.serverIds, pick, 'notes') }),
  '/widget/:id': (context, pick) => ({ id: realOr(context.serverIds, pick, 'notes') }),
  '/badge/:file': (context, pick) => ({ file: `${realOr(context.serverIds, pick, 'notes')}.svg` }),
  '/badge/:id/grade.svg': (context, pick) => ({ id: realOr(context.serverIds, pick, 'notes') }),
  '/badge/:id/grade.json': (context, pick) => ({ id: realOr(context.serverIds, pick, 'notes') }),
  '/methodology/:area': (_context, pick) => ({ area: realOr(METHODOLOGY_AREAS, pick, 'risk') }),
};

/** The names of a path pattern's parameters: `/badge/:id/grade.svg` has `id`. */
export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string);
}
