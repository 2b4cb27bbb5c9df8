// The wire shapes of the HTTP and MCP surface, as zod schemas with their inferred types. Request schemas
// validate every query and body at the trust boundary; response schemas describe what the routes answer,
// feed the OpenAPI document, and let the tests check each answer against the document it claims to follow.
import { DISCOVERY_RULES } from '@mcp-atlas/discovery/rules';
import { MAP_LISTING_RULES, RATING_RULES, SENSOR_RULES } from '@mcp-atlas/reliability/rules';
import { ROUTE_SCORE_RULES, SEARCH_RULES } from '@mcp-atlas/route/rules';
import { z } from 'zod';
import { SERVER_ID_PATTERN } from '../data/paths.js';
import { ChangeSchema, DAY, RiskLevelSchema, RouteFactorsSchema } from '../data/schemas.js';
import { WITHHELD_DESCRIPTION_REASON } from '../view/served-text.js';
import {
  QUERY_MAX_LENGTH,
  REPORT_MAX_CHARGED,
  REPORT_MAX_MS,
  REPORT_MAX_RESULT_TOKENS,
  SENSOR_ID_PATTERN,
  SERVER_REF_MAX_LENGTH,
  TOOL_NAME_MAX_LENGTH,
  TOOLS_HASH_PATTERN,
} from './limits.js';
import {
  CHANGES_KEPT_TEXT,
  DAILY_LETTERS_TEXT,
  DOMAIN_AGE_KEPT_TEXT,
  DOMAIN_AGE_TEXT,
  INCIDENT_TEXT,
  LONG_UPTIME_TEXT,
  OSV_CHECK_TEXT,
  RATING_TEXT,
  SUBMISSION_OBSERVATION_TEXT,
  SUBMITTED_AT_TEXT,
  UPTIME_LABEL_TEXT,
  UPTIME_VALUE_TEXT,
  YOUNG_DOMAIN_TEXT,
} from './rule-text.js';
import { decodeServerCursor } from './server-cursor.js';

// Control characters have no place in any identifier we accept; refusing them keeps logs and files clean.
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

// ------------------------------------------------------------------------------------------------
// Shared fields
// ------------------------------------------------------------------------------------------------

/**
 * Present beside a tool's description while it is withheld: the description-injection scan matched it and no
 * person has yet closed its review as harmless (a confirmed injection attempt stays withheld).
 */
const DescriptionWithheldSchema = z
  .literal(WITHHELD_DESCRIPTION_REASON)
  .describe(
    'Present while the description is withheld: the description-injection scan matched it, and it is not served until a person reviews it and finds it harmless.',
  );

/** A free-text search query or task: 1 to 500 characters, at least one of them not a space. */
export const QueryTextSchema = z
  .string()
  .max(QUERY_MAX_LENGTH, `must be at most ${QUERY_MAX_LENGTH} characters`)
  .refine((text) => text.trim().length > 0, 'must not be empty');

/** Highest risk level a search may return: read-only tools, also data-changing ones, or any. */
export const RiskAllowanceSchema = z.enum(['read', 'change', 'any']);

/** A server reference as agents and sensors send it: our server id, or the exact URL we watch it at. */
export const ServerRefSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(SERVER_REF_MAX_LENGTH, `must be at most ${SERVER_REF_MAX_LENGTH} characters`)
  .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters');

// A query string arrives as text; a limit is a whole number written in decimal digits and nothing else.
const LIMIT_TEXT = z
  .string()
  .regex(/^\d{1,3}$/, `must be a whole number from 1 to ${SEARCH_RULES.maxResultLimit}`)
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .min(1, `must be a whole number from 1 to ${SEARCH_RULES.maxResultLimit}`)
      .max(SEARCH_RULES.maxResultLimit, `must be a whole number from 1 to ${SEARCH_RULES.maxResultLimit}`),
  );

// ------------------------------------------------------------------------------------------------
// Queries
// ------------------------------------------------------------------------------------------------

/** GET /api/toolsearch: `q` (required), `risk` (default any), `limit` (1 to 100, default 10). */
export const ToolSearchQuerySchema = z.strictObject({
  q: QueryTextSchema,
  risk: RiskAllowanceSchema.optional(),
  limit: LIMIT_TEXT.optional(),
});
export type ToolSearchQuery = z.infer<typeof ToolSearchQuerySchema>;

/** GET /api/route: `task` (required), `limit` (1 to 100, default 5). */
export const RouteQuerySchema = z.strictObject({
  task: QueryTextSchema,
  limit: LIMIT_TEXT.optional(),
});
export type RouteQuery = z.infer<typeof RouteQuerySchema>;

/** GET /api/maps: `a=root` and the day whose signed root is asked for. */
export const MapsQuerySchema = z.strictObject({
  a: z.literal('root', { error: 'must be "root" (the only kind of map served)' }),
  day: DAY,
});
export type MapsQuery = z.infer<typeof MapsQuerySchema>;

/** Servers one page of GET /api/servers gives when a `cursor` comes without a `limit`. */
export const SERVER_LIST_DEFAULT_LIMIT = 100;

/** The most servers one page of GET /api/servers gives. */
export const SERVER_LIST_MAX_LIMIT = 500;

/** A page size of a listing query: a whole number from 1 to `max`, written in at most three digits. */
function pageLimitOf(max: number) {
  const text = `must be a whole number from 1 to ${max}`;
  return z
    .string()
    .regex(/^\d{1,3}$/, text)
    .transform(Number)
    .pipe(z.number().int().min(1, text).max(max, text))
    .optional();
}
const SERVER_CURSOR_TEXT = 'is not a cursor this service gave; use the `next` of a page, or start again without one';

/**
 * GET /api/servers: with neither field, the whole list; with `limit` (1 to 500) or `cursor` (the `next` of the
 * page before), one page. The cursor is parsed to the server id it continues after.
 */
export const ServerListQuerySchema = z.strictObject({
  limit: pageLimitOf(SERVER_LIST_MAX_LIMIT),
  cursor: z
    .string()
    .max(200, SERVER_CURSOR_TEXT)
    .transform((text, context) => {
      const after = decodeServerCursor(text);
      if (after !== null) return after;
      context.addIssue({ code: 'custom', message: SERVER_CURSOR_TEXT });
      return z.NEVER;
    })
    .optional(),
});
export type ServerListQuery = z.infer<typeof ServerListQuerySchema>;

/** The `:id` of GET /api/servers/:id. */
export const ServerIdSchema = z
  .string()
  .regex(SERVER_ID_PATTERN, 'a server id is lower-case letters, digits and dashes');

// ------------------------------------------------------------------------------------------------
// Bodies
// ------------------------------------------------------------------------------------------------

/**
 * An agent's report about one call, with exactly the fixed fields of the methodology and nothing
 * written in the agent's own words. `reason` names why a call failed, so it is refused on a call that
 * worked. Unknown fields refuse the whole body.
 */
export const ReportBodySchema = z
  .strictObject({
    server: ServerRefSchema.describe(
      'The server: its mcp-atlas id (as find_tool and route return it) or the URL mcp-atlas watches.',
    ),
    tool: z
      .string()
      .min(1, 'must not be empty')
      .max(TOOL_NAME_MAX_LENGTH, `must be at most ${TOOL_NAME_MAX_LENGTH} characters`)
      .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters')
      .describe(
        'The name of the tool that was called, as the server’s newest tool list names it. For a server without a ' +
          'tool list the report still counts, but the name is not kept.',
      ),
    ok: z.boolean().describe('True when the call worked.'),
    reason: z.enum(RATING_RULES.failureReasons).optional().describe('Why the call failed; only with ok: false.'),
    ms: z.number().nonnegative().max(REPORT_MAX_MS).optional().describe('How long the call took, in milliseconds.'),
    matched: z.boolean().optional().describe('Whether the result matched what the tool description promised.'),
    resultTokens: z
      .int()
      .nonnegative()
      .max(REPORT_MAX_RESULT_TOKENS)
      .optional()
      .describe('Size of the result, in tokens.'),
    charged: z.number().nonnegative().max(REPORT_MAX_CHARGED).optional().describe('Amount the call was charged.'),
    surprise: z
      .enum(RATING_RULES.surprises)
      .optional()
      .describe('Something the call did that its description did not say.'),
    toolsHash: z
      .string()
      .regex(TOOLS_HASH_PATTERN, 'must be 64 lowercase hex characters (the SHA-256 tool-list hash)')
      .optional()
      .describe('The tool-list hash the agent saw.'),
  })
  .refine((report) => report.ok === false || report.reason === undefined, {
    message: 'reason is only for a call that failed (ok: false)',
    path: ['reason'],
  });
export type ReportBody = z.infer<typeof ReportBodySchema>;

/** One call a gateway saw: which server, whether it worked, when, and (optionally) why not and how long. */
export const SensorOutcomeBodySchema = z
  .strictObject({
    server: ServerRefSchema,
    ok: z.boolean(),
    at: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time with a Z or an offset' }),
    reason: z.enum(RATING_RULES.failureReasons).optional(),
    ms: z.number().nonnegative().max(REPORT_MAX_MS).optional(),
  })
  .refine((outcome) => outcome.ok === false || outcome.reason === undefined, {
    message: 'reason is only for a call that failed (ok: false)',
    path: ['reason'],
  });
export type SensorOutcomeBody = z.infer<typeof SensorOutcomeBodySchema>;

/** A gateway sensor's batch: its id and 1 to 100 outcomes. Any other field refuses the batch whole. */
export const SensorBatchBodySchema = z.strictObject({
  sensor: z
    .string()
    .regex(
      SENSOR_ID_PATTERN,
      'a sensor id is 1 to 64 lower-case letters, digits, "_" or "-", starting with a letter or digit',
    ),
  outcomes: z
    .array(SensorOutcomeBodySchema)
    .min(1, 'a batch needs at least one outcome')
    .max(SENSOR_RULES.outcomesPerBatch, `a batch carries at most ${SENSOR_RULES.outcomesPerBatch} outcomes`),
});
export type SensorBatchBody = z.infer<typeof SensorBatchBodySchema>;

// ------------------------------------------------------------------------------------------------
// What is stored
// ------------------------------------------------------------------------------------------------

// The stored shapes of reports and sensor batches live in data/ (the read model and the aggregates read them).
export {
  type StoredReport,
  StoredReportSchema,
  StoredSensorBatchSchema,
  type StoredSensorOutcome,
} from '../data/stored-records.js';

// ------------------------------------------------------------------------------------------------
// Answers
// ------------------------------------------------------------------------------------------------

/** Every refusal: a stable machine-readable code and a sentence a person can act on. */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    limit: z.number().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** A server's uptime figure and how it must be labelled. */
export const UptimeBodySchema = z.object({
  value: z.number().nullable().describe(UPTIME_VALUE_TEXT),
  label: z.string().describe(UPTIME_LABEL_TEXT),
  source: z.enum(['five_minute', 'daily']),
  sourceLabel: z.string(),
  daysObserved: z.int(),
  isThirtyDay: z.boolean(),
  longValue: z.number().nullable().describe(LONG_UPTIME_TEXT),
});

/** What a page shows for a server right now. */
export const DisplayStatusSchema = z.object({
  state: z.enum(['answering', 'sign_in', 'payment', 'non_standard', 'down']).nullable(),
  label: z.string(),
});

const FindingBodySchema = z.object({
  id: z.string(),
  message: z.string(),
  tools: z.array(z.string()).optional(),
  value: z.number().optional(),
});

/** One server in GET /api/servers. */
export const ServerSummarySchema = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string().nullable(),
  day: DAY.nullable().describe('The newest scanned day, which `letter` belongs to.'),
  letter: z
    .enum(['o', 'a', 'p', 'd', 'n'])
    .nullable()
    .describe("The newest day's letter (n: the server limited our rate all day), or null when that day has no result."),
  letters: z.string().describe(`Up to ${DAILY_LETTERS_TEXT}, oldest first; n marks a day without a check.`),
  status: DisplayStatusSchema,
  notStandardMcp: z.boolean(),
  uptime: UptimeBodySchema,
  successChance: z.number(),
  stability: z.number(),
  changeDaysLast30: z.int(),
  category: z.string().nullable(),
  toolCount: z.int().nullable(),
  tokens: z.int().nullable(),
  findings: z.array(FindingBodySchema),
});
export type ServerSummary = z.infer<typeof ServerSummarySchema>;

/** A submitted server in its observation window, with what the window saw so far. */
export const ObservingServerSchema = z
  .object({
    id: z.string().describe('The submission id: GET /api/submissions/{id} has the whole record.'),
    url: z.string(),
    name: z
      .string()
      .nullable()
      .describe('The name the server gave itself in its newest answered check (its words, not ours), or null.'),
    submittedAt: z.string(),
    window: z
      .object({ index: z.int(), start: z.string(), end: z.string() })
      .describe('The current observation window (index 1 is the one extra window); the decision comes at `end`.'),
    checks: z.int().describe('Checks run in the current window so far.'),
    answered: z.int().describe('Of those, the checks that answered with tools.'),
    answeredPercent: z
      .number()
      .nullable()
      .describe(
        'The share answered so far in percent, truncated to one decimal as the decision reads it; null before any check.',
      ),
    nextCheckAt: z.string().nullable(),
  })
  .describe(`A submitted server, ${SUBMISSION_OBSERVATION_TEXT} before it may join the map.`);
export type ObservingServer = z.infer<typeof ObservingServerSchema>;

/** GET /api/servers. */
export const ServerListSchema = z.object({
  day: DAY.nullable(),
  servers: z.array(ServerSummarySchema),
  observing: z
    .array(ObservingServerSchema)
    .describe(
      'Submitted servers still in observation, oldest submission first. They are not in `servers`, search or route until admitted.',
    ),
});
export type ServerList = z.infer<typeof ServerListSchema>;

/** A tool of a server with our risk verdict and the rule that decided it. */
export const ServerToolSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  descriptionWithheld: DescriptionWithheldSchema.optional(),
  level: RiskLevelSchema,
  rule: z.int(),
  raised: z.boolean(),
  reason: z.string(),
});

/** One recorded change of a server, with the day it was seen. */
export const ServerChangeSchema = ChangeSchema.omit({ serverId: true }).extend({ day: DAY });

/** The newest daily check's own facts. */
export const ServerCheckSchema = z.object({
  day: DAY.nullable(),
  reason: z.string(),
  message: z.string(),
  protocolVersion: z.string().nullable(),
  serverName: z.string().nullable(),
  serverVersion: z.string().nullable(),
  handshakeMs: z.number(),
  highRiskTools: z.int(),
  paymentAddress: z.string().nullable(),
  redirect: z.object({ location: z.string(), followed: z.boolean(), sameSite: z.boolean() }).nullable(),
});

/**
 * A verified owner on a server page. The note is the owner's own words, shown as written with the date their
 * token file last proved control; `attribution` is the sentence a page shows with it, so it never reads as ours.
 */
export const OwnerShownSchema = z.object({
  origin: z.string(),
  verifiedAt: z.string().describe('The last time the token file at the origin was read and held the token.'),
  note: z
    .object({ text: z.string(), setAt: z.string(), attribution: z.string() })
    .nullable()
    .describe("The owner's note, plain text; null when they set none."),
  fiveMinuteChecks: z.boolean(),
});

/** Why an outside service (RDAP, npm, PyPI, OSV) gave no usable answer. */
const OutsideProblemBodySchema = z.object({ reason: z.string(), message: z.string() });

/** A server's domain age, from the public RDAP record of its registrable domain. */
export const ServerDomainAgeSchema = z.object({
  domain: z.string().describe('The registrable domain looked up.'),
  registeredAt: z
    .string()
    .nullable()
    .describe('The registration date of the RDAP record, or null when the lookup found none.'),
  ageDays: z.int().nullable().describe('Whole days since registration, today.'),
  young: z.boolean().describe(YOUNG_DOMAIN_TEXT),
  lookedUpDay: DAY.describe(DOMAIN_AGE_KEPT_TEXT),
  problem: OutsideProblemBodySchema.nullable().describe('Why the lookup found no date, or null.'),
});

/** How the OSV check of one day went. */
const OsvCheckBodySchema = z.object({
  checkedAt: z.string(),
  ok: z.boolean(),
  problem: OutsideProblemBodySchema.nullable(),
  attempts: z.int(),
});

/** The packages a server ships, with their current versions and known vulnerabilities. */
export const ServerPackagesSchema = z.object({
  day: DAY.nullable().describe('The day of the package layer shown (the newest one OSV answered for), or null.'),
  osv: OsvCheckBodySchema.nullable().describe(OSV_CHECK_TEXT),
  packages: z.array(
    z.object({
      ecosystem: z.enum(['npm', 'PyPI']),
      name: z.string(),
      version: z.string().nullable().describe('The current version read from the registry that day, or null.'),
      problem: OutsideProblemBodySchema.nullable().describe('Why the version could not be read, or null.'),
      vulnerabilities: z
        .array(z.string())
        .nullable()
        .describe('OSV ids of the known vulnerabilities of that version; null when OSV was not asked or failed.'),
      truncated: z.boolean().describe('True when OSV had more pages than were read: the list is a lower bound.'),
      weeklyDownloads: z
        .int()
        .nullable()
        .describe("Downloads in the week before that day (npm's downloads API, pypistats.org), or null when unread."),
    }),
  ),
  newer: z
    .object({ day: DAY, osv: OsvCheckBodySchema.nullable() })
    .nullable()
    .describe(
      'A newer day whose versions were read but that OSV has not answered for (not yet, or it failed), or null.',
    ),
});

/** One directory that reported a server. */
const SourceSightingSchema = z.object({
  source: z.enum(DISCOVERY_RULES.sources),
  id: z.string().describe("The server's id in that directory."),
  firstSeen: DAY,
  lastSeen: DAY,
  listsNow: z.boolean().describe('Whether the directory lists it on its newest read.'),
});

const ExternalUrlsSchema = z
  .partialRecord(z.enum(DISCOVERY_RULES.externalLinkKinds), z.string())
  .describe("The server's pages at Glama, Smithery, PulseMCP, Docker Hub, npm and PyPI that are known.");

/** Catalog servers one page of GET /api/catalog gives by default, and at most. */
export const CATALOG_PAGE_DEFAULT_LIMIT = 100;
export const CATALOG_PAGE_MAX_LIMIT = 500;

/** GET /api/catalog's query. */
export const CatalogQuerySchema = z.strictObject({
  source: z.enum(DISCOVERY_RULES.sources).optional(),
  state: z.enum(['active', 'deactivated', 'all']).optional(),
  limit: pageLimitOf(CATALOG_PAGE_MAX_LIMIT),
  after: z.string().min(1).max(400).optional(),
});
export type CatalogQuery = z.infer<typeof CatalogQuerySchema>;

/** One server of the catalog as GET /api/catalog lists it. */
export const CatalogEntrySchema = z.object({
  key: z.string().describe('The normalized GitHub URL, else registry:<name>, else <source>:<id>.'),
  name: z.string(),
  description: z.string().nullable(),
  repositoryUrl: z.string().nullable(),
  registryId: z.string().nullable(),
  remotes: z.array(z.object({ url: z.string(), transport: z.string() })),
  packages: z.array(z.object({ registry: z.string(), name: z.string(), version: z.string().nullable() })),
  sources: z.array(SourceSightingSchema),
  external_urls: ExternalUrlsSchema,
  active: z.boolean(),
  deactivatedOn: DAY.nullable(),
  checkedAs: z.string().nullable().describe('The id of the server checked for it (GET /api/servers/{id}), or null.'),
});

/** GET /api/catalog. */
export const CatalogAnswerSchema = z.object({
  day: DAY.nullable().describe('The day of the newest catalog, or null before the first.'),
  total: z.int().describe('Servers that match the query, on every page.'),
  servers: z.array(CatalogEntrySchema),
  next: z.string().nullable().describe('The `after` that gives the next page, or null on the last.'),
});
export type CatalogAnswer = z.infer<typeof CatalogAnswerSchema>;

/** GET /api/servers/:id. */
export const ServerDetailSchema = ServerSummarySchema.extend({
  check: ServerCheckSchema.nullable(),
  toolsDay: DAY.nullable().describe('The day the tool list below was read.'),
  tools: z.array(ServerToolSchema),
  changes: z.array(ServerChangeSchema).describe(`Changes of ${CHANGES_KEPT_TEXT}, newest first.`),
  outages: z.array(z.int()).describe('Lengths in days of the last finished outages, newest last.'),
  incident: z
    .object({
      shown: z.boolean(),
      confirmedBy: z.array(z.enum(['own_check', 'paid_reporter'])),
      failingReporters: z.int(),
      since: z.string().nullable(),
      until: z
        .string()
        .nullable()
        .describe('When a shown incident ends if nothing new is reported (ISO 8601); null when none is shown.'),
      explanation: z.string(),
    })
    .describe(INCIDENT_TEXT),
  rating: z
    .object({
      shown: z.boolean(),
      stars: z.number().nullable(),
      reliability: z.number().nullable(),
      reporters: z.int(),
    })
    .describe(RATING_TEXT),
  owner: OwnerShownSchema.nullable().describe(
    'What the verified owner set, or null when no owner verified control of the origin.',
  ),
  submittedAt: z.string().nullable().describe(SUBMITTED_AT_TEXT),
  domainAge: ServerDomainAgeSchema.nullable().describe(DOMAIN_AGE_TEXT),
  packages: ServerPackagesSchema.describe(
    'The npm and PyPI packages the registry entry ships as, read daily, and their known vulnerabilities from OSV.',
  ),
  leftOut: z
    .object({ reason: z.enum(MAP_LISTING_RULES.leftOutReasons), label: z.string() })
    .nullable()
    .describe(
      'Why the server is off the published map (left out of lists, search, route and rankings): its owner opted out, its robots.txt shuts our bot out, it left the registry, or the newest daily check did not list it; null while it is on the map.',
    ),
  sources: z
    .array(SourceSightingSchema)
    .describe('Every directory that reported this server, in source order (empty before the first catalog).'),
  external_urls: ExternalUrlsSchema,
});
export type ServerDetail = z.infer<typeof ServerDetailSchema>;

/** One tool-search result. */
/** Set on a hit or pick of a local server: one a user installs and runs on their own machine (its page says how). */
const LOCAL_MARK = z
  .literal(true)
  .optional()
  .describe(
    'True for a local server: a package run on your own machine over stdio, with no remote endpoint and no uptime. Its page gives the install command.',
  );

export const SearchHitSchema = z.object({
  serverId: z.string(),
  tool: z.string(),
  description: z.string().describe("The tool's description, without control characters; empty while withheld."),
  descriptionWithheld: DescriptionWithheldSchema.optional(),
  level: RiskLevelSchema,
  score: z.number(),
  local: LOCAL_MARK,
});

/** GET /api/toolsearch and the find_tool MCP tool. */
export const ToolSearchResultSchema = z.object({ results: z.array(SearchHitSchema) });
export type ToolSearchResult = z.infer<typeof ToolSearchResultSchema>;

/** GET /api/route and the route MCP tool. */
export const RouteAnswerSchema = z.object({
  task: z.string(),
  taskRisk: z.enum(['read', 'change', 'high']),
  verb: z.string().nullable(),
  picks: z.array(
    z.object({
      serverId: z.string(),
      tool: z.string(),
      level: RiskLevelSchema,
      score: z.number(),
      factors: RouteFactorsSchema,
      local: LOCAL_MARK,
    }),
  ),
  setAside: z.array(z.object({ serverId: z.string(), tool: z.string().optional(), reason: z.string() })),
  rulesVersion: z.string(),
});
export type RouteAnswer = z.infer<typeof RouteAnswerSchema>;

/** POST /api/reports and the report_road MCP tool, when the report was kept. */
export const ReportAcceptedSchema = z.object({
  accepted: z.literal(true),
  day: DAY,
  server: z.string(),
  paid: z.boolean(),
});
export type ReportAccepted = z.infer<typeof ReportAcceptedSchema>;

/** POST /api/sensors, when the batch was taken (some outcomes may have been dropped). */
export const SensorAcceptedSchema = z.object({
  accepted: z.int(),
  dropped: z.object({
    tooOld: z.int(),
    fromFuture: z.int(),
    overDailyLimit: z.int(),
    unknownServer: z.int(),
  }),
});
export type SensorAccepted = z.infer<typeof SensorAcceptedSchema>;

/** GET /api/maps?a=root: the signed root of one day, exactly as sealed. */
export const DayRootBodySchema = z.object({
  day: DAY,
  root: z.string().describe('sha256((previous_root or "") + "\\n" + files joined with "\\n"), hex.'),
  previous_root: z.string().nullable(),
  files: z.array(z.string()).describe('One "<sha256>  <path>" line per file of the day, sorted by path.'),
  signature: z.string().describe('Ed25519 over the 32 bytes of root, base64.'),
});

/** GET /.well-known/mcp-atlas.json. */
export const WellKnownSchema = z.object({
  name: z.literal('mcp-atlas'),
  version: z.string(),
  methodology_version: z.string(),
  user_agent: z.string(),
  integrity: z.object({
    algorithm: z.literal('Ed25519'),
    public_key_pem: z.string(),
    roots: z.string(),
    latest_day: DAY.nullable(),
  }),
  api: z.object({ openapi: z.string(), mcp: z.string() }),
});
export type WellKnown = z.infer<typeof WellKnownSchema>;

// ------------------------------------------------------------------------------------------------
// MCP tool inputs (the same fields as the HTTP routes, named for an agent)
// ------------------------------------------------------------------------------------------------

/** find_tool's arguments. */
export const FindToolInputSchema = z.strictObject({
  query: QueryTextSchema.describe(
    'What the agent wants to do, in plain words (for example "list open pull requests").',
  ),
  risk: RiskAllowanceSchema.optional().describe(
    'Most a tool may do: read (read-only tools only), change (no high-risk tools) or any. Default any.',
  ),
  limit: z
    .int()
    .min(1)
    .max(SEARCH_RULES.maxResultLimit)
    .optional()
    .describe(`How many results, 1 to ${SEARCH_RULES.maxResultLimit}. Default ${SEARCH_RULES.defaultLimit}.`),
});

/** route's arguments. */
export const RouteInputSchema = z.strictObject({
  task: QueryTextSchema.describe(
    'The task, in plain words, starting with its action (for example "create an invoice for a customer").',
  ),
  limit: z
    .int()
    .min(1)
    .max(SEARCH_RULES.maxResultLimit)
    .optional()
    .describe(
      `How many picks, one per server, 1 to ${SEARCH_RULES.maxResultLimit}. Default ${ROUTE_SCORE_RULES.defaultLimit}.`,
    ),
});
