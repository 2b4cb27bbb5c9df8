// The HTTP and MCP surface of mcp-atlas, as one Hono app: read routes over the in-memory view, the two
// intake routes (agent reports, sensor batches), the signed roots and public key, the OpenAPI document,
// and the MCP endpoint. Every query and body is checked with zod first; a refusal is a JSON value with a
// status, and a refused request changes nothing.
import { isDay } from '@mcp-atlas/base';
import { publicKeyPem } from '@mcp-atlas/history';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { z } from 'zod';
import { readDaySeries } from '../data/day-series-file.js';
import { createDemandRecorder, routedServerOf } from '../demand/recorder.js';
import { OWNER_BODY_MAX_BYTES } from '../owners/limits.js';
import { createRateCounters } from '../owners/rate-counters.js';
import { combineTokenReaders } from '../owners/token.js';
import { mountOwnerPages } from '../pages/owner-page.js';
import { mountPages, PAGE_MAX_AGE_SECONDS } from '../pages/routes.js';
import { mountSearchEvalPages } from '../pages/search-eval-page.js';
import { parseJsonOrNull } from '../storage/parse-json.js';
import { clientAddress } from './client-address.js';
import { type HttpDeps, resolveHttpDeps } from './deps.js';
import { type Answer, errorBody, invalidInput, type Refusal, refuse } from './errors.js';
import { createHostGuard } from './host-guard.js';
import { LeaderboardQuerySchema, presentLeaderboard, SCORING_VERSION, SCORING_VERSION_HEADER } from './leaderboard.js';
import { LICENSE_HEADER, REPORT_BODY_MAX_BYTES, SENSOR_BODY_MAX_BYTES } from './limits.js';
import { handleMcpRequest } from './mcp.js';
import { createMcpAdmission } from './mcp-admission.js';
import { createMcpCallLog } from './mcp-call-log.js';
import { countSearchLookups, observeRequests } from './metrics.js';
import { createOpenApiDocument } from './openapi.js';
import { hasBearerToken, mountOperatorRoutes, type OperatorRoutes } from './operator-routes.js';
import { createOptOutIntake, OPT_OUT_BODY_MAX_BYTES } from './optout.js';
import { createOwnerIntake } from './owner-intake.js';
import { authorizeOwner, bearerTokenOf, OWNER_VIEW_REALM, ownerViewOf } from './owner-view.js';
import { createOwnershipChecks } from './ownership-check.js';
import { presentCatalog } from './present-catalog.js';
import { presentLocalDetail, presentLocalSummary } from './present-local.js';
import { presentServerDetail } from './present-server.js';
import { flattenQuery } from './query.js';
import { answerRoute, answerToolSearch } from './read-answers.js';
import { createReportIntake, type ReportCaller, secondsUntilNextUtcDay } from './report-intake.js';
import {
  CatalogQuerySchema,
  MapsQuerySchema,
  RouteQuerySchema,
  ServerIdSchema,
  ServerListQuerySchema,
  ToolSearchQuerySchema,
  type WellKnown,
} from './schemas.js';
import {
  presentScoreDropFeed,
  renderScoreDropAtom,
  SCORE_DROP_FEED_PATHS,
  ScoreDropFeedQuerySchema,
} from './score-drop-feed.js';
import { createSearchCache } from './search-cache.js';
import { createSensorIntake } from './sensor-intake.js';
import { createChangeReader } from './server-changes.js';
import { createServerLists, ifNoneMatchHits } from './server-list.js';
import { createSubmissionIntake, SUBMISSION_BODY_MAX_BYTES } from './submission-intake.js';

export type { HttpDeps, HttpLogger } from './deps.js';

/** The address of a day's root, as the well-known file publishes it (`{day}` stands for YYYY-MM-DD). */
export const ROOTS_URL_TEMPLATE = '/api/maps?a=root&day={day}';

/** Answers a refusal as JSON; a quota refusal also says, in Retry-After, when the day's quotas start over. */
function sendRefusal(c: Context, refusal: Refusal, now: Date): Response {
  if (refusal.status === 429) c.header('Retry-After', String(secondsUntilNextUtcDay(now)));
  // The only credential the API takes in Authorization is a sensor's token (RFC 6750's bearer scheme).
  if (refusal.status === 401) c.header('WWW-Authenticate', 'Bearer realm="mcp-atlas sensors"');
  return c.json(errorBody(refusal), refusal.status);
}

/** The query as one value per name; a name given twice is refused rather than guessed at. */
function readQuery<S extends z.ZodType>(c: Context, schema: S): Answer<z.infer<S>> {
  const flat = flattenQuery(c);
  if (!flat.ok) return { ok: false, refusal: refuse(400, 'invalid_query', flat.message) };
  const parsed = schema.safeParse(flat.value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, refusal: invalidInput('invalid_query', parsed.error, '(query)') };
}

/**
 * The body parsed as JSON, or a refusal: 415 unless it is declared application/json, 400 when it does not
 * parse. The declared type matters: a browser may send text/plain across origins without asking first, so
 * requiring JSON keeps other sites from filing reports through their visitors' browsers.
 */
async function readJsonBody(c: Context): Promise<Answer<unknown>> {
  // split always yields at least one piece, so the default only satisfies the type checker.
  const [declared = ''] = (c.req.header('content-type') ?? '').split(';');
  const mediaType = declared.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return { ok: false, refusal: refuse(415, 'unsupported_media_type', 'send the body as application/json') };
  }
  const text = await c.req.text();
  const value = parseJsonOrNull(text);
  if (value === null && text.trim() !== 'null') {
    return { ok: false, refusal: refuse(400, 'invalid_json', 'the body is not JSON') };
  }
  return { ok: true, value };
}

// `intake`, on an intake's route: the oversized body is counted there as a refused submission.
function tooLarge(maxBytes: number, intake?: { refuseUnreadable(refusal: Refusal): Refusal }) {
  return (c: Context) => {
    const refusal = refuse(413, 'body_too_large', `the body is larger than ${maxBytes} bytes`, { limit: maxBytes });
    return c.json(errorBody(intake === undefined ? refusal : intake.refuseUnreadable(refusal)), 413);
  };
}

/**
 * Creates the HTTP app. Mount it with @hono/node-server (`serve({ fetch: app.fetch, port })`) so that
 * anonymous reporters can be told apart by their socket address, or set `trustedProxyHops` behind a proxy.
 * Routes: GET /api/servers, GET /api/servers/:id, GET /api/leaderboard, GET /api/toolsearch, GET /api/route, POST /api/reports,
 * POST /api/sensors, GET /api/maps, GET /.well-known/mcp-atlas.json, GET /api/openapi.json and POST /mcp;
 * the owners' forms: POST /api/optout(/confirm), POST /api/submissions, GET /api/submissions/:id and
 * POST /api/owners/token, /verify and /settings.
 *
 * @example
 * const app = createHttpApp({ getView: () => view, storage, publicKey, now: () => new Date(), ... });
 * serve({ fetch: app.fetch, port: 8787, hostname: '127.0.0.1' });
 */
export function createHttpApp(options: HttpDeps, operator?: OperatorRoutes): Hono {
  const deps = resolveHttpDeps(options);
  const hops = deps.trustedProxyHops;
  const reports = createReportIntake(deps);
  const sensors = createSensorIntake(deps);
  const changes = createChangeReader(deps.storage, deps.logger);
  const publicKeyPemText = publicKeyPem(deps.publicKey);
  let openApi: Record<string, unknown> | null = null;
  const searchCache = countSearchLookups(
    createSearchCache(options.searchCacheEntries),
    operator?.metrics.recordSearchLookup,
  );
  // Every read of an owner's token file (opt-out, verification, an owner's change) is one ownership check,
  // limited per requester and host by the same daily counters that limit submissions.
  const counters = createRateCounters(deps.storage, deps.now);
  const readTokenFile = combineTokenReaders(options.readOptOutToken, options.readOwnerToken);
  const ownershipChecks = readTokenFile === null ? null : createOwnershipChecks(counters, readTokenFile, deps.now);
  const optOut = createOptOutIntake(deps, ownershipChecks);
  const owners = createOwnerIntake(deps, options.readOwnerToken === undefined ? null : ownershipChecks);
  const submissions = createSubmissionIntake(deps, counters);
  const demand =
    options.demand ??
    createDemandRecorder({
      storage: deps.storage,
      now: deps.now,
      ...(deps.logger !== undefined ? { logger: deps.logger } : {}),
    });

  // The MCP endpoint's limits per network and on requests in flight, and its call log with the daily cap.
  const mcpAdmission = createMcpAdmission(deps.now);
  const mcpCallLog = createMcpCallLog({
    storage: deps.storage,
    ...(deps.logger !== undefined ? { logger: deps.logger } : {}),
    ...(operator !== undefined ? { onUnwritten: operator.metrics.recordMcpCallUnwritten } : {}),
  });

  const callerOf = (c: Context): ReportCaller => ({
    address: clientAddress(c, hops),
    licenseKey: c.req.header(LICENSE_HEADER) ?? null,
  });

  const app = new Hono();

  const hostGuard = createHostGuard(deps.site);

  // The operator's endpoints and the access log come before the Host guard (see http/operator-routes.ts), but
  // /metrics does not: a page on another site whose name is made to resolve to this machine could read it
  // through its visitor's browser. A scraper that calls the service by its pod or container address sends
  // the metrics token; a request that carries it needs no Host check, since only the operator knows it.
  if (operator !== undefined) {
    app.use('*', observeRequests(operator.observer));
    const { metricsToken } = operator;
    app.use('/metrics', (c, next) =>
      metricsToken !== null && hasBearerToken(c.req.header('authorization'), metricsToken)
        ? next()
        : hostGuard(c, next),
    );
    mountOperatorRoutes(app, operator);
  }

  // First of all: a request for another name, or a write from another site's page, goes no further.
  app.use('*', hostGuard);

  // Read routes may be fetched from any page (the verification snippet, dashboards); writes stay same-origin.
  app.use('/api/*', cors({ origin: '*', allowMethods: ['GET'], exposeHeaders: [SCORING_VERSION_HEADER] }));
  // Every API answer names the score rules its numbers come from, as the Scoreboard's answers do.
  app.use('/api/*', async (c, next) => {
    await next();
    c.header(SCORING_VERSION_HEADER, SCORING_VERSION);
  });
  app.use('/.well-known/*', cors({ origin: '*', allowMethods: ['GET'] }));

  // The view never changes once built, so its server list is serialized once and reused until the next view
  // (http/server-list.ts); a client that already holds the answer gets a 304 without a body.
  const serverLists = createServerLists();
  app.get('/api/servers', (c) => {
    const query = readQuery(c, ServerListQuerySchema);
    if (!query.ok) return sendRefusal(c, query.refusal, deps.now());
    const { body, etag } = serverLists.answer(deps.getView(), query.value);
    // The same freshness as the pages drawn from the same read model.
    const headers = { ETag: etag, 'Cache-Control': `public, max-age=${PAGE_MAX_AGE_SECONDS}` };
    if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    return c.body(body, 200, { ...headers, 'Content-Type': 'application/json' });
  });

  app.get('/api/servers/:id', async (c) => {
    const id = ServerIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return sendRefusal(c, invalidInput('invalid_path', id.error, 'id'), deps.now());
    const view = deps.getView();
    const server = view.byId.get(id.data);
    if (server === undefined)
      return sendRefusal(c, refuse(404, 'unknown_server', `no server has the id ${id.data}`), deps.now());
    return c.json(presentServerDetail(view, server, await changes.changesOf(server.id, view.day), deps.now()));
  });

  // Local servers: package-only registry entries checked in the sandbox, each version once.
  app.get('/api/local-servers', (c) => {
    c.header('Cache-Control', `public, max-age=${PAGE_MAX_AGE_SECONDS}`);
    return c.json({ servers: deps.getView().local.map(presentLocalSummary) });
  });

  app.get('/api/local-servers/:id', (c) => {
    const id = ServerIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return sendRefusal(c, invalidInput('invalid_path', id.error, 'id'), deps.now());
    const server = deps.getView().localById.get(id.data);
    if (server === undefined)
      return sendRefusal(c, refuse(404, 'unknown_server', `no local server has the id ${id.data}`), deps.now());
    c.header('Cache-Control', `public, max-age=${PAGE_MAX_AGE_SECONDS}`);
    return c.json(presentLocalDetail(server));
  });

  // The whole catalog of every directory read, checked servers and listed ones alike, in key order.
  app.get('/api/catalog', (c) => {
    const query = readQuery(c, CatalogQuerySchema);
    if (!query.ok) return sendRefusal(c, query.refusal, deps.now());
    c.header('Cache-Control', `public, max-age=${PAGE_MAX_AGE_SECONDS}`);
    return c.json(presentCatalog(deps.getView(), query.value));
  });

  app.get('/api/leaderboard', (c) => {
    const query = readQuery(c, LeaderboardQuerySchema);
    if (!query.ok) return sendRefusal(c, query.refusal, deps.now());
    return c.json(presentLeaderboard(deps.getView(), query.value, deps.now()));
  });

  // The public score-drop feed, as JSON and as Atom, of every server or of one.
  const scoreDropFeed = (c: Context) => {
    const query = readQuery(c, ScoreDropFeedQuerySchema);
    if (!query.ok) return { refusal: sendRefusal(c, query.refusal, deps.now()) };
    const view = deps.getView();
    const server = query.value.server;
    if (server !== undefined && !view.byId.has(server))
      return { refusal: sendRefusal(c, refuse(404, 'unknown_server', `no server has the id ${server}`), deps.now()) };
    return { feed: presentScoreDropFeed(view, query.value, deps.site.origin), server };
  };
  app.get(SCORE_DROP_FEED_PATHS.json, (c) => {
    const answer = scoreDropFeed(c);
    if ('refusal' in answer) return answer.refusal;
    c.header('Cache-Control', `public, max-age=${PAGE_MAX_AGE_SECONDS}`);
    return c.json(answer.feed);
  });
  app.get(SCORE_DROP_FEED_PATHS.atom, (c) => {
    const answer = scoreDropFeed(c);
    if ('refusal' in answer) return answer.refusal;
    return c.body(renderScoreDropAtom(answer.feed, deps.site.origin, answer.server), 200, {
      'Content-Type': 'application/atom+xml; charset=utf-8',
      'Cache-Control': `public, max-age=${PAGE_MAX_AGE_SECONDS}`,
    });
  });

  app.get('/api/toolsearch', (c) => {
    const query = readQuery(c, ToolSearchQuerySchema);
    if (!query.ok) return sendRefusal(c, query.refusal, deps.now());
    const answer = answerToolSearch(
      deps.getView(),
      query.value.q,
      { risk: query.value.risk, limit: query.value.limit },
      searchCache,
    );
    if (!answer.ok) return sendRefusal(c, answer.refusal, deps.now());
    // Ask markers: which servers an answer named, per day; nothing about the query or who asked.
    demand.recordAsk(answer.value.results.map((hit) => hit.serverId));
    return c.json(answer.value);
  });

  app.get('/api/route', (c) => {
    const query = readQuery(c, RouteQuerySchema);
    if (!query.ok) return sendRefusal(c, query.refusal, deps.now());
    const answer = answerRoute(deps.getView(), query.value.task, { now: deps.now(), limit: query.value.limit });
    if (!answer.ok) return sendRefusal(c, answer.refusal, deps.now());
    // Demand: the top pick's server id and the day, nothing about the task or who asked.
    const routed = routedServerOf(answer.value);
    if (routed !== null) demand.record(routed);
    demand.recordAsk(answer.value.picks.map((pick) => pick.serverId));
    return c.json(answer.value);
  });

  app.post(
    '/api/reports',
    bodyLimit({ maxSize: REPORT_BODY_MAX_BYTES, onError: tooLarge(REPORT_BODY_MAX_BYTES, reports) }),
    async (c) => {
      const body = await readJsonBody(c);
      // A body that cannot be read never reaches submit; the intake still counts it as a refused report.
      if (!body.ok) return sendRefusal(c, reports.refuseUnreadable(body.refusal), deps.now());
      const result = await reports.submit(body.value, callerOf(c));
      return result.ok ? c.json(result.value, 201) : sendRefusal(c, result.refusal, deps.now());
    },
  );

  app.post(
    '/api/sensors',
    bodyLimit({ maxSize: SENSOR_BODY_MAX_BYTES, onError: tooLarge(SENSOR_BODY_MAX_BYTES, sensors) }),
    async (c) => {
      const body = await readJsonBody(c);
      if (!body.ok) return sendRefusal(c, sensors.refuseUnreadable(body.refusal), deps.now());
      const result = await sensors.submit(body.value, {
        address: clientAddress(c, hops),
        authorization: c.req.header('authorization') ?? null,
      });
      return result.ok ? c.json(result.value, 201) : sendRefusal(c, result.refusal, deps.now());
    },
  );

  app.post(
    '/api/optout',
    bodyLimit({ maxSize: OPT_OUT_BODY_MAX_BYTES, onError: tooLarge(OPT_OUT_BODY_MAX_BYTES) }),
    async (c) => {
      const body = await readJsonBody(c);
      if (!body.ok) return sendRefusal(c, body.refusal, deps.now());
      const answer = optOut.requestToken(body.value);
      return answer.ok ? c.json(answer.value) : sendRefusal(c, answer.refusal, deps.now());
    },
  );

  app.post(
    '/api/optout/confirm',
    bodyLimit({ maxSize: OPT_OUT_BODY_MAX_BYTES, onError: tooLarge(OPT_OUT_BODY_MAX_BYTES) }),
    async (c) => {
      const body = await readJsonBody(c);
      if (!body.ok) return sendRefusal(c, body.refusal, deps.now());
      const answer = await optOut.confirm(body.value, { address: clientAddress(c, hops) });
      return answer.ok ? c.json(answer.value) : sendRefusal(c, answer.refusal, deps.now());
    },
  );

  app.post(
    '/api/submissions',
    bodyLimit({ maxSize: SUBMISSION_BODY_MAX_BYTES, onError: tooLarge(SUBMISSION_BODY_MAX_BYTES) }),
    async (c) => {
      const body = await readJsonBody(c);
      if (!body.ok) return sendRefusal(c, body.refusal, deps.now());
      const answer = await submissions.submit(body.value, { address: clientAddress(c, hops) });
      if (!answer.ok) return sendRefusal(c, answer.refusal, deps.now());
      return c.json(answer.value, answer.value.created ? 201 : 200);
    },
  );

  app.get('/api/submissions/:id', async (c) => {
    const answer = await submissions.read(c.req.param('id'));
    return answer.ok ? c.json(answer.value) : sendRefusal(c, answer.refusal, deps.now());
  });

  const ownerBodyLimit = bodyLimit({ maxSize: OWNER_BODY_MAX_BYTES, onError: tooLarge(OWNER_BODY_MAX_BYTES) });
  app.post('/api/owners/token', ownerBodyLimit, async (c) => {
    const body = await readJsonBody(c);
    if (!body.ok) return sendRefusal(c, body.refusal, deps.now());
    const answer = owners.requestToken(body.value);
    return answer.ok ? c.json(answer.value) : sendRefusal(c, answer.refusal, deps.now());
  });

  app.post('/api/owners/verify', ownerBodyLimit, async (c) => {
    const body = await readJsonBody(c);
    if (!body.ok) return sendRefusal(c, body.refusal, deps.now());
    const answer = await owners.verify(body.value, { address: clientAddress(c, hops) });
    return answer.ok ? c.json(answer.value) : sendRefusal(c, answer.refusal, deps.now());
  });

  app.post('/api/owners/settings', ownerBodyLimit, async (c) => {
    const body = await readJsonBody(c);
    if (!body.ok) return sendRefusal(c, body.refusal, deps.now());
    const answer = await owners.changeSettings(body.value, { address: clientAddress(c, hops) });
    return answer.ok ? c.json(answer.value) : sendRefusal(c, answer.refusal, deps.now());
  });

  app.post('/api/owners/access', ownerBodyLimit, async (c) => {
    const body = await readJsonBody(c);
    if (!body.ok) return sendRefusal(c, body.refusal, deps.now());
    const answer = await owners.issueAccess(body.value, { address: clientAddress(c, hops) });
    if (!answer.ok) return sendRefusal(c, answer.refusal, deps.now());
    // Shown once: no cache may keep it.
    c.header('Cache-Control', 'no-store');
    return c.json(answer.value);
  });

  // The owner view, for the holder of the server's access token only.
  app.get('/api/owners/:id/view', async (c) => {
    const id = ServerIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return sendRefusal(c, invalidInput('invalid_path', id.error, 'id'), deps.now());
    const view = deps.getView();
    const record = await authorizeOwner(deps.storage, view, id.data, bearerTokenOf(c.req.header('authorization')));
    c.header('Cache-Control', 'no-store');
    if (record === null) {
      c.header('WWW-Authenticate', `Bearer realm="${OWNER_VIEW_REALM}"`);
      return c.json(
        errorBody(
          refuse(
            401,
            'owner_token_required',
            'send the access token of this server (POST /api/owners/access) as Authorization: Bearer …',
          ),
        ),
        401,
      );
    }
    return c.json(
      await ownerViewOf({
        storage: deps.storage,
        view,
        record,
        changes: await changes.changesOf(record.server, view.day),
        now: deps.now(),
      }),
    );
  });

  app.get('/api/maps', (c) => {
    const query = readQuery(c, MapsQuerySchema);
    if (!query.ok) return sendRefusal(c, query.refusal, deps.now());
    const { day } = query.value;
    if (!isDay(day))
      return sendRefusal(c, refuse(400, 'invalid_query', `day: ${day} is not a calendar day`), deps.now());
    const record = deps.getView().roots.get(day);
    if (record === undefined)
      return sendRefusal(c, refuse(404, 'no_root', `day ${day} has no signed root`), deps.now());
    // A root never changes once written, so caches may keep it.
    c.header('Cache-Control', 'public, max-age=86400');
    return c.json({
      day: record.day,
      root: record.root,
      previous_root: record.previous_root,
      files: record.files,
      signature: record.signature,
    });
  });

  app.get('/.well-known/mcp-atlas.json', (c) => {
    const days = [...deps.getView().roots.keys()].sort();
    const body: WellKnown = {
      name: 'mcp-atlas',
      version: deps.appVersion,
      methodology_version: deps.methodologyVersion,
      user_agent: deps.botUserAgent,
      integrity: {
        algorithm: 'Ed25519',
        public_key_pem: publicKeyPemText,
        roots: ROOTS_URL_TEMPLATE,
        latest_day: days.at(-1) ?? null,
      },
      api: { openapi: '/api/openapi.json', mcp: '/mcp' },
    };
    return c.json(body);
  });

  app.get('/api/openapi.json', (c) => {
    openApi ??= createOpenApiDocument(deps.appVersion);
    return c.json(openApi);
  });

  app.post('/mcp', (c) =>
    handleMcpRequest(c.req.raw, {
      deps,
      reports,
      caller: callerOf(c),
      submissions,
      demand,
      callLog: mcpCallLog,
      admission: mcpAdmission,
    }),
  );

  // Stateless: no server-to-client stream to open and no session to end, which the transport says with 405.
  const mcpMethodNotAllowed = (c: Context) => {
    c.header('Allow', 'POST');
    return c.json(
      errorBody(refuse(405, 'method_not_allowed', 'the MCP endpoint is stateless: send JSON-RPC messages with POST')),
      405,
    );
  };
  app.get('/mcp', mcpMethodNotAllowed);
  app.delete('/mcp', mcpMethodNotAllowed);

  mountPages(app, {
    getView: deps.getView,
    changes,
    daySeries: (serverId) => readDaySeries(deps.storage, serverId),
    methodologyVersion: deps.methodologyVersion,
    appVersion: deps.appVersion,
    searchCache,
    origin: deps.site.origin,
  });
  mountOwnerPages(app, {
    getView: deps.getView,
    storage: deps.storage,
    changes,
    now: () => deps.now(),
    methodologyVersion: deps.methodologyVersion,
    appVersion: deps.appVersion,
  });
  mountSearchEvalPages(app, {
    storage: deps.storage,
    methodologyVersion: deps.methodologyVersion,
    appVersion: deps.appVersion,
  });

  app.notFound((c) =>
    c.json(errorBody(refuse(404, 'not_found', `nothing is served at ${c.req.method} ${c.req.path}`)), 404),
  );

  app.onError((error, c) => {
    // The client hung up before its request was read (a body shorter than its Content-Length, then a closed
    // socket): its own failure, answered (to nobody) and counted as a 400, so no visitor can raise the
    // service's server-error rate, or fill the log with failures, by hanging up mid-body.
    if (c.req.raw.signal.aborted) {
      deps.logger?.info(
        { event: 'http_request_aborted', method: c.req.method, path: c.req.path, error: error.message },
        'the client closed the connection before its request was read',
      );
      return c.json(
        errorBody(refuse(400, 'request_aborted', 'the connection closed before the request was read')),
        400,
      );
    }
    deps.logger?.warn(
      { event: 'http_error', method: c.req.method, path: c.req.path, error: error.message },
      'request failed',
    );
    return c.json(errorBody(refuse(500, 'internal', 'the request failed on our side; try again later')), 500);
  });

  return app;
}
