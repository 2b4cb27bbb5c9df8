// The standing slice of the load-and-fuzz run (bench/fuzz-run.ts): its route list is the app's own route table,
// every route in it is described (a body shape for each POST route, sample values for each path parameter), and
// 300 seeded fuzzed requests from the run's generator, against the running service (serveAtlas with its
// operator endpoints, on 127.0.0.1 over the HTTP fixture), get no 5xx and no failure in the service's log.
// Counted in requests, never in seconds; the big run stays a script (pnpm --filter @mcp-atlas/cli bench:fuzz).
import { createNodeHttpClient } from '@mcp-atlas/probe/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FuzzContext,
  type MountedRoute,
  mountedRoutes,
  PATH_PARAM_SAMPLES,
  POST_BODY_SHAPES,
  pathParamsOf,
} from '../bench/fuzz-plan.js';
import { createFuzzRequests, describeFuzzRequest, outcomeClass, sendFuzzRequest } from '../bench/fuzz-requests.js';
import { createLogger } from '../src/log.js';
import { type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { FIXTURE_NOW, FIXTURE_SERVER_LIST, VIEW_DAY, writeFixture } from './fixtures/http-atlas.js';

const REQUESTS = 300;
const SEED = 29;

let routes: MountedRoute[];
let atlas: RunningAtlas;
const logLines: string[] = [];

/** Resolves loopback names only; every other name fails, as an unknown name does, so nothing leaves the machine. */
async function loopbackLookup(hostname: string): Promise<string[]> {
  if (hostname === 'localhost') return ['127.0.0.1'];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
}

beforeAll(async () => {
  routes = await mountedRoutes();
  const { storage, keys } = await writeFixture();
  atlas = await serveAtlas({
    storage,
    port: 0,
    log: createLogger('debug', { destination: { write: (line) => void logLines.push(line) } }),
    keys,
    now: () => FIXTURE_NOW,
    trustedProxyHops: 1,
    ownerNetwork: { lookup: loopbackLookup, httpClient: createNodeHttpClient },
    operator: { metricsToken: null, budgetsMicroUsd: { daily: 100_000, fiveMinute: 250_000 } },
  });
});

afterAll(async () => {
  await atlas?.close();
});

describe('the fuzz run covers every route the app mounts', () => {
  it('reads the routes from the app, operator endpoints included', () => {
    const names = routes.map((route) => `${route.method} ${route.path}`);
    for (const known of [
      'GET /healthz',
      'GET /metrics',
      'GET /api/servers/:id',
      'POST /mcp',
      'GET /badge/:id/grade.svg',
    ])
      expect(names).toContain(known);
    expect(new Set(names).size).toBe(names.length);
  });

  it('has a body shape for every POST route and samples for every path parameter, and none for a route gone', () => {
    const posts = routes.filter((route) => route.method === 'POST').map((route) => route.path);
    expect(Object.keys(POST_BODY_SHAPES).sort()).toEqual([...new Set(posts)].sort());
    const context: FuzzContext = { serverIds: ['notes-hub'], days: [VIEW_DAY] };
    const withParams = routes.filter((route) => pathParamsOf(route.path).length > 0);
    expect(Object.keys(PATH_PARAM_SAMPLES).sort()).toEqual([...new Set(withParams.map((r) => r.path))].sort());
    for (const route of withParams) {
      const sample = PATH_PARAM_SAMPLES[route.path]!(context, 0);
      expect(Object.keys(sample).sort(), route.path).toEqual(pathParamsOf(route.path).sort());
    }
  });

  it('reaches every route within one lap of the generator', () => {
    const next = createFuzzRequests({ seed: SEED, routes, context: { serverIds: [], days: [] }, host: '127.0.0.1:1' });
    const reached = new Set(Array.from({ length: routes.length }, () => next().route));
    expect(reached.size).toBe(routes.length);
  });

  it('gets no 5xx from 300 fuzzed requests, and the service logs no failed request', async () => {
    const url = new URL(atlas.url);
    const context: FuzzContext = { serverIds: FIXTURE_SERVER_LIST.map((server) => server.id), days: [VIEW_DAY] };
    const next = createFuzzRequests({ seed: SEED, routes, context, host: url.host });
    const classes = new Map<string, number>();
    const serverErrors: string[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const fuzz = next();
      const outcome = await sendFuzzRequest({ hostname: url.hostname, port: Number(url.port) }, fuzz);
      const kind = outcomeClass(outcome);
      classes.set(kind, (classes.get(kind) ?? 0) + 1);
      if (kind === '5xx' || kind === 'no-answer' || kind.startsWith('client-error'))
        serverErrors.push(`${kind} for ${describeFuzzRequest(fuzz)}`);
    }
    expect(serverErrors).toEqual([]);
    // The run is not all refusals: some requests reach their route's answer, many are refused with a 4xx.
    expect(classes.get('2xx') ?? 0).toBeGreaterThan(0);
    expect(classes.get('4xx') ?? 0).toBeGreaterThan(0);
    const failed = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.event === 'http_error');
    expect(failed).toEqual([]);
    const health = await sendFuzzRequest(
      { hostname: url.hostname, port: Number(url.port) },
      { route: 'GET /healthz', method: 'GET', path: '/healthz', headers: { host: url.host }, body: null, raw: null },
    );
    expect(health).toEqual({ status: 200 });
  });
});
