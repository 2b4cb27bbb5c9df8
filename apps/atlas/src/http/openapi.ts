// The OpenAPI 3.1 document of the HTTP surface, generated from the same zod schemas the routes validate
// with and answer by, so the document cannot drift from what the service accepts and returns.
import { SHOWN_SCORE_RULES } from '@mcp-atlas/operations/rules';
import { GRADE_RULES } from '@mcp-atlas/score/rules';
import { z } from 'zod';
import { PAGE_OPENAPI_PATHS } from '../pages/openapi-paths.js';
import { SCORE_PAGE_OPENAPI_PATHS } from '../pages/score-openapi-paths.js';
import { SEARCH_EVAL_OPENAPI_PATHS } from '../pages/search-eval-page.js';
import { UPTIME_WINDOWS_PHRASE } from '../score/shown-score.js';
import { SubmissionViewSchema } from '../submissions/records.js';
import {
  LEADERBOARD_DEFAULT_LIMIT,
  LEADERBOARD_MAX_LIMIT,
  LeaderboardQuerySchema,
  LeaderboardSchema,
  SCORING_VERSION_HEADER,
  ServerDetailWithScoreSchema,
} from './leaderboard.js';
import { LICENSE_HEADER, LICENSE_HEADER_MAX_LENGTH } from './limits.js';
import { OptOutBodySchema, OptOutDoneAnswerSchema, OptOutTokenAnswerSchema } from './optout.js';
import {
  OwnerAccessAnswerSchema,
  OwnerServerBodySchema,
  OwnerSettingsBodySchema,
  OwnerStateAnswerSchema,
  OwnerTokenAnswerSchema,
} from './owner-intake.js';
import { OwnerViewSchema } from './owner-view.js';
import { LocalServerDetailSchema, LocalServerListSchema } from './present-local.js';
import {
  CHANGES_KEPT_TEXT,
  DAILY_LETTERS_TEXT,
  OWNER_NOTE_TEXT,
  OWNERSHIP_CHECK_CODES_TEXT,
  OWNERSHIP_CHECK_LIMITS_TEXT,
  REPORT_LIMITS_TEXT,
  REPORTER_NETWORK_TEXT,
  ROUTE_LIMIT_TEXT,
  SEARCH_LIMIT_TEXT,
  SENSOR_BATCH_TEXT,
  SENSOR_LIMITS_TEXT,
  SUBMISSION_ADMISSION_TEXT,
  SUBMISSION_LIMITS_TEXT,
  SUBMISSION_OBSERVATION_TEXT,
} from './rule-text.js';
import {
  CATALOG_PAGE_DEFAULT_LIMIT,
  CATALOG_PAGE_MAX_LIMIT,
  CatalogAnswerSchema,
  CatalogQuerySchema,
  DayRootBodySchema,
  ErrorBodySchema,
  MapsQuerySchema,
  ObservingServerSchema,
  ReportAcceptedSchema,
  ReportBodySchema,
  RouteAnswerSchema,
  RouteQuerySchema,
  SERVER_LIST_DEFAULT_LIMIT,
  SERVER_LIST_MAX_LIMIT,
  SensorAcceptedSchema,
  SensorBatchBodySchema,
  ServerIdSchema,
  ServerListQuerySchema,
  ServerListSchema,
  ServerSummarySchema,
  ToolSearchQuerySchema,
  ToolSearchResultSchema,
  WellKnownSchema,
} from './schemas.js';
import { SCORE_DROP_FEED_PATHS, ScoreDropFeedQuerySchema, ScoreDropFeedSchema } from './score-drop-feed.js';
import { ServerListPageSchema } from './server-list.js';
import { SubmissionAnswerSchema, SubmissionBodySchema, SubmissionIdSchema } from './submission-intake.js';

/** The `{id}` path parameter of a server's own path. */
function serverIdParameter() {
  return {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The server id.',
    schema: jsonSchemaOf(ServerIdSchema),
  };
}

/** The version of OpenAPI the document follows. */
export const OPENAPI_VERSION = '3.1.0';

/** The components every operation refers to, by name. */
const COMPONENTS: Record<string, z.ZodType> = {
  Error: ErrorBodySchema,
  ServerSummary: ServerSummarySchema,
  ServerList: ServerListSchema,
  ServerListPage: ServerListPageSchema,
  ObservingServer: ObservingServerSchema,
  ServerDetail: ServerDetailWithScoreSchema,
  Catalog: CatalogAnswerSchema,
  LocalServerList: LocalServerListSchema,
  LocalServerDetail: LocalServerDetailSchema,
  Leaderboard: LeaderboardSchema,
  ScoreDropFeed: ScoreDropFeedSchema,
  ToolSearchResult: ToolSearchResultSchema,
  RouteAnswer: RouteAnswerSchema,
  ReportBody: ReportBodySchema,
  ReportAccepted: ReportAcceptedSchema,
  SensorBatchBody: SensorBatchBodySchema,
  SensorAccepted: SensorAcceptedSchema,
  OptOutBody: OptOutBodySchema,
  OptOutToken: OptOutTokenAnswerSchema,
  OptOutDone: OptOutDoneAnswerSchema,
  SubmissionBody: SubmissionBodySchema,
  SubmissionAnswer: SubmissionAnswerSchema,
  Submission: SubmissionViewSchema,
  OwnerServerBody: OwnerServerBodySchema,
  OwnerSettingsBody: OwnerSettingsBodySchema,
  OwnerToken: OwnerTokenAnswerSchema,
  OwnerState: OwnerStateAnswerSchema,
  OwnerAccess: OwnerAccessAnswerSchema,
  OwnerView: OwnerViewSchema,
  DayRoot: DayRootBodySchema,
  WellKnown: WellKnownSchema,
};

type JsonObject = Record<string, unknown>;

const ref = (name: keyof typeof COMPONENTS & string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

// A component's $id would carry a fragment, which JSON Schema 2020-12 forbids; the dialect is declared once.
function withoutIdentity(schema: JsonObject): JsonObject {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

function componentSchemas(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    io: 'output',
    unrepresentable: 'any',
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutIdentity(schema as JsonObject)]));
}

function jsonSchemaOf(schema: z.ZodType): JsonObject {
  return withoutIdentity(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject);
}

/** The query parameters of a strict query schema, each with its own JSON Schema and whether it is required. */
function queryParameters(schema: z.ZodObject, descriptions: Record<string, string>): JsonObject[] {
  return Object.entries(schema.shape).map(([name, field]) => ({
    name,
    in: 'query',
    required: !(field instanceof z.ZodOptional),
    description: descriptions[name] ?? '',
    schema: jsonSchemaOf(field as z.ZodType),
  }));
}

const json = (schema: JsonObject) => ({ 'application/json': { schema } });

function answer(description: string, schema: JsonObject): JsonObject {
  return { description, content: json(schema) };
}

const refusal = (description: string): JsonObject => answer(description, ref('Error'));

const MISDIRECTED = refusal(
  'The Host header does not name this service (`misdirected_request`): only its public URL, or a loopback name on its port, is answered.',
);
const FOREIGN_ORIGIN =
  "or a browser sent it from another site (`foreign_origin`): on /mcp and on writes, an Origin must be this service's own";

/** The header every /api/ answer carries, as an OpenAPI header object. */
const SCORING_VERSION_HEADER_DOC: JsonObject = {
  [SCORING_VERSION_HEADER]: {
    description:
      'The methodology version whose score rules made the numbers of this answer (the score follows the open engine mcp-scoring-engine 0.9.0).',
    schema: { type: 'string' },
  },
};

/** Each response with the scoring-version header added to any headers it documents. */
function withScoringVersionHeader(responses: Record<string, JsonObject>): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const [status, response] of Object.entries(responses))
    out[status] = {
      ...response,
      headers: { ...((response.headers as JsonObject) ?? {}), ...SCORING_VERSION_HEADER_DOC },
    };
  return out;
}

/**
 * Adds the Host and Origin checks' answers to every operation: 421 everywhere, and 403 for a foreign Origin on
 * /mcp and on every write (joined to an operation's own 403 when it has one).
 */
function withHostAndOriginRefusals(paths: Record<string, JsonObject>): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const [path, item] of Object.entries(paths)) {
    const operations: JsonObject = {};
    for (const [method, operation] of Object.entries(item as Record<string, JsonObject>)) {
      const responses: Record<string, JsonObject> = {
        ...(operation.responses as Record<string, JsonObject>),
        '421': MISDIRECTED,
      };
      if (path === '/mcp' || method !== 'get') {
        const own = responses['403'];
        responses['403'] = refusal(
          own === undefined
            ? `A browser sent it from another site (\`foreign_origin\`): on /mcp and on writes, an Origin must be this service's own.`
            : `${String(own.description).replace(/\.$/, '')}; ${FOREIGN_ORIGIN}.`,
        );
      }
      operations[method] = {
        ...operation,
        responses: path.startsWith('/api/') ? withScoringVersionHeader(responses) : responses,
      };
    }
    out[path] = operations;
  }
  return out;
}

/** Builds the document; `version` is the app's version. */
export function createOpenApiDocument(version: string): JsonObject {
  return {
    openapi: OPENAPI_VERSION,
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'mcp-atlas',
      version,
      summary: 'An open, verifiable observatory of remote MCP servers.',
      description:
        'Per-server status, uptime and findings, a tool search and a route for agents, agent reports and gateway sensor ' +
        'batches with fixed fields only, and the signed daily roots of the history. Every refusal is ' +
        '`{ error: { code, message } }` and changes nothing. A request whose Host does not name the service is refused ' +
        'with 421; a browser request from another site (its Origin) is refused with 403 on /mcp and on writes.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    paths: withHostAndOriginRefusals({
      '/api/servers': {
        get: {
          operationId: 'listServers',
          summary: `Every watched server with its newest letter, ${DAILY_LETTERS_TEXT}, uptime, success chance, stability and findings.`,
          description:
            `\`servers\` holds the servers on the map. \`observing\` lists, apart, the submitted servers still in observation ` +
            `(${SUBMISSION_OBSERVATION_TEXT}) with their checks and share answered so far and when their window ends; they are not ` +
            'in `servers`, search or route until admitted. Without parameters the answer is the whole list; with `limit` or ' +
            '`cursor` it is one page, which adds `total` and `next` and repeats `observing` on every page. A cursor ' +
            'continues after the last server of its page, so one from an older read model still goes on in id order. ' +
            'Every answer carries a strong ETag; send it back in If-None-Match to get 304 while the list is unchanged.',
          parameters: queryParameters(ServerListQuerySchema, {
            limit: `Servers on one page, 1 to ${SERVER_LIST_MAX_LIMIT} (default ${SERVER_LIST_DEFAULT_LIMIT} when only \`cursor\` is given).`,
            cursor: 'The `next` of the page before; leave it out for the first page.',
          }),
          responses: {
            '200': answer('The servers on the map, sorted by id, and the submitted servers in observation.', {
              anyOf: [ref('ServerList'), ref('ServerListPage')],
            }),
            '304': {
              description: 'The If-None-Match header names the current ETag: the answer has not changed; no body.',
            },
            '400': refusal('A parameter is unknown or malformed, or the cursor is not one this service gave.'),
          },
        },
      },
      '/api/servers/{id}': {
        get: {
          operationId: 'getServer',
          summary: `One server, with its tools (risk level and the rule behind it) and its changes of ${CHANGES_KEPT_TEXT}.`,
          description:
            'Also its domain age from RDAP (`domainAge`, for servers with a high-risk tool and submitted servers) and the npm and ' +
            'PyPI packages it ships as, with their current versions and the OSV ids of their known vulnerabilities (`packages`).',
          parameters: [serverIdParameter()],
          responses: {
            '200': answer(
              `The server, with its newest quality score (\`score\`, null before it is scored), how fresh it is (\`last_scored_at\`, \`score_age_days\`) and ${UPTIME_WINDOWS_PHRASE} (\`scoreUptime\`).`,
              ref('ServerDetail'),
            ),
            '400': refusal('The id is not a server id.'),
            '404': refusal('No server has this id.'),
          },
        },
      },
      '/api/local-servers': {
        get: {
          operationId: 'listLocalServers',
          summary:
            'Every local server: a registry entry that ships only as an npm or PyPI package, checked in a sandbox once per version.',
          description:
            'Each has its install command, the variables it declares, how its sandboxed check ended (`outcome`, `stoppedBy`) and its ' +
            'tool count and tools hash. Local servers have no uptime, rating or incident. Their tools are in GET /api/toolsearch, ' +
            'marked `local: true`.',
          responses: { '200': answer('Every local server with a check on record, by id.', ref('LocalServerList')) },
        },
      },
      '/api/local-servers/{id}': {
        get: {
          operationId: 'getLocalServer',
          summary:
            'One local server, with its tools (risk level and the rule behind it), findings and the change since its last version.',
          parameters: [serverIdParameter()],
          responses: {
            '200': answer('The local server.', ref('LocalServerDetail')),
            '400': refusal('The id is not a server id.'),
            '404': refusal('No local server has this id.'),
          },
        },
      },
      '/api/catalog': {
        get: {
          operationId: 'listCatalog',
          summary:
            'Every server of the newest catalog (the registry and each directory read that day), checked or only listed, in key order.',
          description:
            'Each server has the directories that reported it, its known pages elsewhere, whether it is active, and `checkedAs`, the id ' +
            'of the server checked for it (null for one with no remote endpoint, such as a server that ships only as a package).',
          parameters: queryParameters(CatalogQuerySchema, {
            source: 'Only servers this directory reported.',
            state: 'active (the default), deactivated or all.',
            limit: `Servers to give, 1 to ${CATALOG_PAGE_MAX_LIMIT} (default ${CATALOG_PAGE_DEFAULT_LIMIT}).`,
            after: 'The `next` of the page before: servers whose key sorts after it.',
          }),
          responses: {
            '200': answer('One page of the catalog.', ref('Catalog')),
            '400': refusal('A parameter is unknown or malformed.'),
          },
        },
      },
      '/api/leaderboard': {
        get: {
          operationId: 'getLeaderboard',
          summary:
            'Every server on the map by quality-score tier (complete, verified, assessed, limited, unscored), then composite, then id.',
          description:
            'Each row has the grade as "A (5/5)" (the letter, then the dimensions scored out of those that apply), the composite, the ' +
            "tier and the flags; a server not scored yet counts as unscored. The server's whole score is `score` of GET /api/servers/{id}.",
          parameters: queryParameters(LeaderboardQuerySchema, {
            limit: `Rows to give, 1 to ${LEADERBOARD_MAX_LIMIT} (default ${LEADERBOARD_DEFAULT_LIMIT}).`,
            offset: 'Rows to skip first (default 0).',
          }),
          responses: {
            '200': answer('One page of the leaderboard.', ref('Leaderboard')),
            '400': refusal('A parameter is unknown or malformed.'),
          },
        },
      },
      [SCORE_DROP_FEED_PATHS.json]: {
        get: {
          operationId: 'listScoreDrops',
          summary: `Every server whose quality score fell ${GRADE_RULES.dropAlertPoints} points or more from its previous scored day, over the last ${SHOWN_SCORE_RULES.trendDays} days of scores; also as Atom at ${SCORE_DROP_FEED_PATHS.atom}.`,
          parameters: queryParameters(ScoreDropFeedQuerySchema, {
            server: "One server's drops only (its id).",
          }),
          responses: {
            '200': answer('The drops, newest day first.', ref('ScoreDropFeed')),
            '400': refusal('A parameter is unknown or malformed.'),
            '404': refusal('No server has the id given in `server`.'),
          },
        },
      },
      [SCORE_DROP_FEED_PATHS.atom]: {
        get: {
          operationId: 'scoreDropAtomFeed',
          summary: 'The score-drop feed as an Atom feed, one entry per drop linking to the server page.',
          parameters: queryParameters(ScoreDropFeedQuerySchema, {
            server: "One server's drops only (its id).",
          }),
          responses: {
            '200': { description: 'The feed.', content: { 'application/atom+xml': { schema: { type: 'string' } } } },
            '400': refusal('A parameter is unknown or malformed.'),
            '404': refusal('No server has the id given in `server`.'),
          },
        },
      },
      '/api/toolsearch': {
        get: {
          operationId: 'searchTools',
          summary: 'Tools that fit a plain-language query, best first, within a risk allowance.',
          parameters: queryParameters(ToolSearchQuerySchema, {
            q: 'What the tool should do, in plain words.',
            risk: 'read: read-only tools only; change: no high-risk tools; any (default).',
            limit: SEARCH_LIMIT_TEXT,
          }),
          responses: {
            '200': answer('The results.', ref('ToolSearchResult')),
            '400': refusal('A parameter is missing, unknown or malformed.'),
          },
        },
      },
      '/api/route': {
        get: {
          operationId: 'routeTask',
          summary:
            'The best server and tool for a task, each pick with every factor of its score, and the servers set aside with why.',
          parameters: queryParameters(RouteQuerySchema, { task: 'The task, in plain words.', limit: ROUTE_LIMIT_TEXT }),
          responses: {
            '200': answer('The route.', ref('RouteAnswer')),
            '400': refusal('A parameter is missing, unknown or malformed.'),
          },
        },
      },
      '/api/reports': {
        post: {
          operationId: 'submitReport',
          summary: 'An agent reports how one call went, with fixed fields only.',
          description:
            `A report that carries a license key (header ${LICENSE_HEADER}) that validates counts as a paying reporter's; ` +
            `any other is anonymous and known by its network (${REPORTER_NETWORK_TEXT}), never by its user agent. ` +
            `${REPORT_LIMITS_TEXT}.`,
          parameters: [
            {
              name: LICENSE_HEADER,
              in: 'header',
              required: false,
              description: 'A license key.',
              schema: { type: 'string', maxLength: LICENSE_HEADER_MAX_LENGTH },
            },
          ],
          requestBody: { required: true, content: json(ref('ReportBody')) },
          responses: {
            '201': answer('The report was kept.', ref('ReportAccepted')),
            '400': refusal('The body is not JSON, has a field outside the fixed ones, or a field is malformed.'),
            '404': refusal('The server, or the tool on it, is not known.'),
            '409': refusal('The UTC day is already sealed.'),
            '413': refusal('The body is too large.'),
            '415': refusal('The body is not declared as application/json.'),
            '429': refusal('A daily limit was reached; see error.code and error.limit.'),
          },
        },
      },
      '/api/sensors': {
        post: {
          operationId: 'submitSensorBatch',
          summary: `A gateway sensor sends up to ${SENSOR_BATCH_TEXT}, with fixed fields only.`,
          description: `${SENSOR_LIMITS_TEXT}. A sensor registered by the operator (\`mcp-atlas sensors add <id>\`) sends its token as \`Authorization: Bearer <token>\`: its batches then spend that sensor's own daily allowance, from any network, and a batch under its id without the token is refused. A batch without a token, under an unregistered id, spends the daily allowance of the network it came from (one allowance per network, whatever ids it uses), never another network's or a registered sensor's. The sender address is never stored.`,
          security: [{}, { sensorToken: [] }],
          requestBody: { required: true, content: json(ref('SensorBatchBody')) },
          responses: {
            '201': answer('The batch was taken; counts say what was kept and what was dropped.', ref('SensorAccepted')),
            '400': refusal(
              `The body is not JSON, has a field outside the fixed ones, carries more than ${SENSOR_BATCH_TEXT}, or a field is malformed.`,
            ),
            '401': refusal(
              'The sensor id is registered and the batch carries no token (`sensor_token_required`), or the Authorization header is not a bearer token, or the token is not the one registered for the sensor or was revoked (`invalid_sensor_token`).',
            ),
            '413': refusal('The body is too large.'),
            '415': refusal('The body is not declared as application/json.'),
            '429': refusal(
              'The registered sensor (with its token), or the network (without a token), reached its daily limit.',
            ),
            '503': refusal('The sensor’s registration cannot be read (`sensor_registration_unreadable`); try later.'),
          },
        },
      },
      '/api/optout': {
        post: {
          operationId: 'requestOptOutToken',
          summary:
            'The opt-out form, step 1: the token an owner puts in /.well-known/mcp-atlas-optout.txt on the host.',
          requestBody: { required: true, content: json(ref('OptOutBody')) },
          responses: {
            '200': answer('The token and where it goes.', ref('OptOutToken')),
            '400': refusal('The body is not JSON or the host is not a host name.'),
            '413': refusal('The body is too large.'),
            '415': refusal('The body is not declared as application/json.'),
          },
        },
      },
      '/api/optout/confirm': {
        post: {
          operationId: 'confirmOptOut',
          summary:
            'The opt-out form, step 2: we read the token file once and, when it holds the token, never contact the host again.',
          requestBody: { required: true, content: json(ref('OptOutBody')) },
          responses: {
            '200': answer('The host is opted out; it drops off the map at its next daily check.', ref('OptOutDone')),
            '400': refusal('The body is not JSON or the host is not a host name.'),
            '403': refusal('The token file is missing or does not hold the token (`token_not_found`).'),
            '413': refusal('The body is too large.'),
            '415': refusal('The body is not declared as application/json.'),
            '429': refusal(`${OWNERSHIP_CHECK_LIMITS_TEXT}.`),
            '503': refusal('This service cannot read token files (`opt_out_unavailable`); robots.txt still works.'),
          },
        },
      },
      '/api/submissions': {
        post: {
          operationId: 'submitServer',
          summary: `An owner submits a remote MCP server; it is ${SUBMISSION_OBSERVATION_TEXT} before it may join the map.`,
          description:
            'The URL must pass the probe guard (https, a host name rather than an IP address, no local name, no template, ' +
            `not opted out). Once observed, ${SUBMISSION_ADMISSION_TEXT}. Submitting a URL already watched or ` +
            `under observation stores nothing and answers 200 with its status. ${SUBMISSION_LIMITS_TEXT}. ` +
            'When a host has reached its limit, a sender who controls the host can send the same body with ' +
            '`"proveOwnership": true`: the token file `/.well-known/mcp-atlas-verify.txt` at the URL\'s origin is then read ' +
            "once (within the ownership-check limits), and a submission it proves is taken past the host's limit.",
          requestBody: { required: true, content: json(ref('SubmissionBody')) },
          responses: {
            '201': answer('A new observation started.', ref('SubmissionAnswer')),
            '200': answer('The URL is already under observation or watched; nothing changed.', ref('SubmissionAnswer')),
            '400': refusal('The body is not JSON, has another field, or the URL is malformed or refused by the guard.'),
            '403': refusal(
              'With `"proveOwnership": true`, after the host reached its limit: the token file at the URL\'s origin is missing or does ' +
                'not hold the token (`token_not_found`); nothing was stored.',
            ),
            '413': refusal('The body is too large.'),
            '415': refusal('The body is not declared as application/json.'),
            '429': refusal(
              `A daily limit was reached; see error.code and error.limit. ${SUBMISSION_LIMITS_TEXT}. With \`"proveOwnership": true\`, ` +
                `the token-file read can also be refused: ${OWNERSHIP_CHECK_CODES_TEXT}.`,
            ),
            '503': refusal(
              'With `"proveOwnership": true`, after the host reached its limit: this service cannot read token files, so it cannot ' +
                'take proof of ownership (`owner_checks_unavailable`).',
            ),
          },
        },
      },
      '/api/submissions/{id}': {
        get: {
          operationId: 'getSubmission',
          summary: 'A submission: its window, checks so far, each window’s decision with its reasons and figures.',
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              description: 'The submission id.',
              schema: jsonSchemaOf(SubmissionIdSchema),
            },
          ],
          responses: {
            '200': answer('The submission.', ref('Submission')),
            '400': refusal('The id is not a submission id.'),
            '404': refusal('No submission has this id.'),
          },
        },
      },
      '/api/owners/token': {
        post: {
          operationId: 'requestOwnerToken',
          summary:
            'Owner verification, step 1: the token to put in /.well-known/mcp-atlas-verify.txt at the server’s origin.',
          requestBody: { required: true, content: json(ref('OwnerServerBody')) },
          responses: {
            '200': answer('The token and where it goes.', ref('OwnerToken')),
            '400': refusal('The body is not JSON or the server id is malformed.'),
            '404': refusal('No server on the map has this id.'),
            '413': refusal('The body is too large.'),
            '415': refusal('The body is not declared as application/json.'),
          },
        },
      },
      '/api/owners/verify': {
        post: {
          operationId: 'verifyOwner',
          summary:
            'Owner verification, step 2: we read the token file once; when it holds the token, the owner is verified.',
          requestBody: { required: true, content: json(ref('OwnerServerBody')) },
          responses: {
            '200': answer('Verified; the date is shown with anything the owner sets.', ref('OwnerState')),
            '400': refusal('The body is not JSON or the server id is malformed.'),
            '403': refusal('The token file is missing or does not hold the token (`token_not_found`).'),
            '404': refusal('No server on the map has this id.'),
            '413': refusal('The body is too large.'),
            '415': refusal('The body is not declared as application/json.'),
            '429': refusal(`${OWNERSHIP_CHECK_LIMITS_TEXT}.`),
            '503': refusal('This service cannot read token files (`owner_checks_unavailable`).'),
          },
        },
      },
      '/api/owners/settings': {
        post: {
          operationId: 'changeOwnerSettings',
          summary: 'A verified owner sets a short note in their own words and turns five-minute checks on or off.',
          description:
            'Each change reads the token file again and is refused unless it still holds the token. The note is plain text, ' +
            `one line, ${OWNER_NOTE_TEXT}, and is shown as the owner’s words with the date of the last successful ` +
            'token-file read; null removes it.',
          requestBody: { required: true, content: json(ref('OwnerSettingsBody')) },
          responses: {
            '200': answer('The owner’s settings as they now stand.', ref('OwnerState')),
            '400': refusal(
              'The body is not JSON, has another field, sets nothing, or the note is not short plain text.',
            ),
            '403': refusal('The token file no longer holds the token (`token_not_found`).'),
            '404': refusal('No server on the map has this id.'),
            '409': refusal('No owner verified this server yet; verify first.'),
            '413': refusal('The body is too large.'),
            '415': refusal('The body is not declared as application/json.'),
            '429': refusal(`${OWNERSHIP_CHECK_LIMITS_TEXT}.`),
            '503': refusal('This service cannot read token files (`owner_checks_unavailable`).'),
          },
        },
      },
      '/api/owners/access': {
        post: {
          operationId: 'issueOwnerAccess',
          summary: 'A verified owner gets the access token of the owner view; a new one replaces the old.',
          description:
            'Reads the token file again first, as every owner change does. The access token is shown once and kept only as ' +
            'its SHA-256 hash; it is not the verification token, which sits in a public file.',
          requestBody: { required: true, content: json(ref('OwnerServerBody')) },
          responses: {
            '200': answer('The access token, shown once (`Cache-Control: no-store`).', ref('OwnerAccess')),
            '400': refusal('The body is not JSON or has another field.'),
            '403': refusal('The token file no longer holds the token (`token_not_found`).'),
            '404': refusal('No server on the map has this id.'),
            '409': refusal('No owner verified this server yet; verify first.'),
            '413': refusal('The body is too large.'),
            '415': refusal('The body is not declared as application/json.'),
            '429': refusal(`${OWNERSHIP_CHECK_LIMITS_TEXT}.`),
            '503': refusal('This service cannot read token files (`owner_checks_unavailable`).'),
          },
        },
      },
      '/api/owners/{id}/view': {
        get: {
          operationId: 'getOwnerView',
          summary:
            'What the service knows about one server, for its verified owner: alerts, demand, a summary of agents’ reports, changes, and the score with its history.',
          description: 'Send the access token as `Authorization: Bearer …`. Every failure is the same 401.',
          parameters: [serverIdParameter()],
          responses: {
            '200': answer('The owner view (`Cache-Control: no-store`).', ref('OwnerView')),
            '400': refusal('The id is not a server id.'),
            '401': refusal(
              'No access token, or not this server’s current one (`owner_token_required`); `WWW-Authenticate: Bearer`.',
            ),
          },
        },
      },
      '/api/maps': {
        get: {
          operationId: 'getDayRoot',
          summary: 'The signed root of one UTC day of history.',
          description:
            'Verify with node:crypto alone: sha256 of (previous_root or "") + "\\n" + files joined with "\\n" equals root, and ' +
            'the Ed25519 signature over the 32 bytes of root checks against integrity.public_key_pem of /.well-known/mcp-atlas.json.',
          parameters: queryParameters(MapsQuerySchema, { a: 'Always root.', day: 'The UTC day, YYYY-MM-DD.' }),
          responses: {
            '200': answer('The day root.', ref('DayRoot')),
            '400': refusal('a is not root, or day is not a calendar day.'),
            '404': refusal('That day has no root.'),
          },
        },
      },
      '/.well-known/mcp-atlas.json': {
        get: {
          operationId: 'getWellKnown',
          summary: 'The public key of the signed history, the methodology version and the user agent of the bot.',
          responses: { '200': answer('The service description.', ref('WellKnown')) },
        },
      },
      '/api/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document.',
          responses: { '200': answer('The OpenAPI document.', { type: 'object' }) },
        },
      },
      '/mcp': {
        post: {
          operationId: 'mcp',
          summary:
            'The MCP endpoint (Streamable HTTP, stateless, JSON answers) with the tools find_tool, route, report_road and submit_mcp_server.',
          requestBody: {
            required: true,
            content: json({ type: 'object', description: 'A JSON-RPC 2.0 message of the Model Context Protocol.' }),
          },
          responses: {
            '200': answer('The JSON-RPC answer.', { type: 'object' }),
            '202': { description: 'A notification or response was taken; nothing to answer.' },
            '400': answer('Not a valid JSON-RPC message.', { type: 'object' }),
            '406': answer('The Accept header does not allow application/json and text/event-stream.', {
              type: 'object',
            }),
          },
        },
        get: {
          operationId: 'mcpStream',
          summary: 'Not offered: the endpoint is stateless and opens no server-to-client stream.',
          responses: { '405': refusal('Method not allowed; use POST.') },
        },
        delete: {
          operationId: 'mcpEndSession',
          summary: 'Not offered: the endpoint is stateless and has no sessions to end.',
          responses: { '405': refusal('Method not allowed; use POST.') },
        },
      },
      ...PAGE_OPENAPI_PATHS,
      ...SCORE_PAGE_OPENAPI_PATHS,
      ...SEARCH_EVAL_OPENAPI_PATHS,
    }),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        sensorToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A registered sensor’s token, printed once by `mcp-atlas sensors add <id>`.',
        },
      },
    },
  };
}
