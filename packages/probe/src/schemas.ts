// Pure module: the shapes this package returns, as zod schemas with their inferred types, so the app can
// validate a result it stored and reads back. A schema and its type travel in pairs.
import { z } from 'zod';

/**
 * The outcome letter of one check: o answered with tools, a sign-in needed, p payment needed, d down, n not
 * measured because the server limited our rate (429, or 503 with Retry-After): no data, neither up nor down.
 */
export const LetterSchema = z.enum(['o', 'a', 'p', 'd', 'n']);
/** The type LetterSchema validates. */
export type Letter = z.infer<typeof LetterSchema>;

/** The guard rules a refusal names, after `guard:`. */
export const GUARD_REASONS = [
  'guard:invalid-url',
  'guard:sse-only',
  'guard:template',
  'guard:not-https',
  'guard:user-info',
  'guard:ip-literal',
  'guard:localhost',
  'guard:local-name',
  'guard:opted-out',
  'guard:private-address',
  'guard:no-resolver',
] as const;

/**
 * Why a check got its letter. `ok`, `auth-required`, `payment-required` and `rate-limited` give o, a, p and
 * n; every other reason gives d. A `guard:` reason means no connection was opened. `too-deep` means an answer nested
 * arrays or objects deeper than MAX_JSON_DEPTH and was refused unread.
 */
export const ProbeReasonSchema = z.enum([
  'ok',
  'auth-required',
  'payment-required',
  'rate-limited',
  'timeout',
  'deadline',
  'aborted',
  'dns-failed',
  'no-connection',
  'tls-error',
  'invalid-http',
  'redirect-cross-site',
  'redirect-limit',
  'redirect-invalid',
  'http-error',
  'jsonrpc-error',
  'not-mcp',
  'answer-too-large',
  'too-deep',
  'spawn-failed',
  'process-exited',
  ...GUARD_REASONS,
]);
/** The type ProbeReasonSchema validates. */
export type ProbeReason = z.infer<typeof ProbeReasonSchema>;

/** The steps a check records, in the order they run. `spawn` is stdio only; `resolve` is the DNS lookup. */
export const StepNameSchema = z.enum(['resolve', 'spawn', 'initialize', 'initialized', 'tools/list', 'delete']);
/** The type StepNameSchema validates. */
export type StepName = z.infer<typeof StepNameSchema>;

/** How one step ended: `ok`, `redirect` (a redirect was answered), or the reason it failed. */
export const StepOutcomeSchema = z.union([z.literal('ok'), z.literal('redirect'), ProbeReasonSchema]);
/** The type StepOutcomeSchema validates. */
export type StepOutcome = z.infer<typeof StepOutcomeSchema>;

/** One step of a check: what was asked, the HTTP status and content type of the answer, and the time it took. */
export const ProbeStepSchema = z.object({
  name: StepNameSchema,
  /** The URL the request went to (for stdio, the command line). */
  url: z.string(),
  /** 1-based page number for tools/list, else null. */
  page: z.number().int().positive().nullable(),
  httpStatus: z.number().int().nullable(),
  contentType: z.string().nullable(),
  elapsedMs: z.number().nonnegative(),
  outcome: StepOutcomeSchema,
  /** What went wrong, or a note; null when there is nothing to say. */
  detail: z.string().nullable(),
});
/** The type ProbeStepSchema validates. */
export type ProbeStep = z.infer<typeof ProbeStepSchema>;

/** A redirect answered to initialize: where it pointed, whether the probe followed it, and whether it stayed on the site. */
export const ProbeRedirectSchema = z.object({
  location: z.string(),
  followed: z.boolean(),
  sameSite: z.boolean(),
});
/** The type ProbeRedirectSchema validates. */
export type ProbeRedirect = z.infer<typeof ProbeRedirectSchema>;

/** The `serverInfo` a server named in its initialize answer. */
export const ServerInfoSchema = z.object({ name: z.string(), version: z.string() });
/** The type ServerInfoSchema validates. */
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

/** One document read during sign-in discovery: where, what status came back, and whether it counted. */
export const AuthDiscoveryReadSchema = z.object({
  url: z.string(),
  httpStatus: z.number().int().nullable(),
  found: z.boolean(),
  /** Why a read did not count (a status, not JSON, a guard refusal, the time limit); null when found. */
  detail: z.string().nullable(),
});
/** The type AuthDiscoveryReadSchema validates. */
export type AuthDiscoveryRead = z.infer<typeof AuthDiscoveryReadSchema>;

/**
 * What the probe found after a sign-in request, read-only, in the MCP spec's order: the protected resource
 * metadata (RFC 9728) from the WWW-Authenticate `resource_metadata` URL, else the path-based well-known URL,
 * else the root one; then the metadata (RFC 8414, or OpenID Connect discovery) of the first authorization
 * server it names. Without protected resource metadata, the server's own origin is read as the authorization
 * server, as the 2025-03-26 revision of the spec did.
 */
export const AuthDiscoverySchema = z.object({
  /** The protected resource metadata found, and how its URL was reached; null when none was. */
  protectedResource: z.object({ url: z.string(), source: z.enum(['www-authenticate', 'path', 'root']) }).nullable(),
  /** The authorization server whose metadata was looked for, and where its name came from; null when none. */
  authorizationServer: z
    .object({ issuer: z.string(), source: z.enum(['protected-resource', 'server-origin']) })
    .nullable(),
  /** The authorization server metadata found, and which kind; null when none was. */
  authorizationServerMetadata: z.object({ url: z.string(), kind: z.enum(['oauth', 'openid']) }).nullable(),
  /** Every document read, in order. */
  reads: z.array(AuthDiscoveryReadSchema),
});
/** The type AuthDiscoverySchema validates. */
export type AuthDiscovery = z.infer<typeof AuthDiscoverySchema>;

/**
 * The result of one check. Everything a server did is in here; `probeServer` never throws for it.
 * `elapsedMs` is the handshake time: the wall time from the start of the check to the end of its last
 * handshake step (the closing DELETE is not counted). `toolsJson` is the JSON text of the kept tools
 * exactly as received (see the README for how pages and the 500-tool cap are joined); `listedJson` is the
 * same for every tool listed, kept or not.
 */
export const ProbeResultSchema = z.object({
  url: z.string(),
  /** The URL that answered initialize last (differs from `url` after a followed redirect). */
  endpoint: z.string(),
  letter: LetterSchema,
  reason: ProbeReasonSchema,
  message: z.string(),
  /** The step that decided a d, a or p; null for o. */
  failedStep: StepNameSchema.nullable(),
  notStandardMcp: z.boolean(),
  protocolVersion: z.string().nullable(),
  /** Versions a server listed when it rejected ours (a JSON-RPC error's `data.supported`), else null. */
  supportedVersions: z.array(z.string()).nullable(),
  serverInfo: ServerInfoSchema.nullable(),
  capabilities: z.unknown(),
  tools: z.array(z.unknown()),
  toolsJson: z.string().nullable(),
  /**
   * The JSON text of every element of every tools/list page read, kept or not: the whole list's size, which
   * the 500-tool cap does not change. The same string as `toolsJson` when nothing was cut; null when no page
   * was read. Optional because results that predate it (and `probeStdio`'s, for now) do not carry it: read
   * `toolsJson` then.
   */
  listedJson: z.string().nullable().optional(),
  /** Tools the server listed across the pages read, kept or not. */
  toolCount: z.number().int().nonnegative(),
  /** True when more than 500 tools were listed and the rest were dropped. */
  toolsTruncated: z.boolean(),
  /** tools/list pages that returned a result. */
  pages: z.number().int().nonnegative(),
  paymentAddress: z.string().nullable(),
  /**
   * The wait a rate-limited server asked for (its Retry-After, in ms; 0 for a date already past), or null when
   * it named none or the check was not rate-limited. Optional because results that predate it do not carry it.
   */
  retryAfterMs: z.number().int().nonnegative().nullable().optional(),
  /** The WWW-Authenticate challenge of a 401/403, when one was sent. */
  authChallenge: z.string().nullable(),
  /**
   * Sign-in discovery after a 401 or 403 (letter a); null otherwise. Optional because results that predate it
   * (and `probeStdio`'s) do not carry it.
   */
  authDiscovery: AuthDiscoverySchema.nullable().optional(),
  /** True when the server issued an Mcp-Session-Id. */
  sessionIssued: z.boolean(),
  redirect: ProbeRedirectSchema.nullable(),
  steps: z.array(ProbeStepSchema),
  /** Schema mismatches the probe tolerated, skipped pages, repeated cursors: notes, not verdicts. */
  warnings: z.array(z.string()),
  elapsedMs: z.number().nonnegative(),
  rulesVersion: z.string(),
});
/** The type ProbeResultSchema validates. */
export type ProbeResult = z.infer<typeof ProbeResultSchema>;

/** The verdicts of the site check, as the site scanner names them. */
export const SiteVerdictSchema = z.enum(['pass', 'partial', 'fail', 'not-measured', 'out-of-scope']);
/** The type SiteVerdictSchema validates. */
export type SiteVerdict = z.infer<typeof SiteVerdictSchema>;

/** Where discovery found the endpoint. */
export const EndpointSourceSchema = z.enum([
  'server-card',
  'legacy-server-card',
  'ai-catalog',
  'link-header',
  'link-element',
  'mcp-path',
]);
/** The type EndpointSourceSchema validates. */
export type EndpointSource = z.infer<typeof EndpointSourceSchema>;

/** One endpoint discovery considered: where it came from, and why it was not taken (null when taken). */
export const EndpointCandidateSchema = z.object({
  url: z.string(),
  source: EndpointSourceSchema,
  rejected: z.string().nullable(),
});
/** The type EndpointCandidateSchema validates. */
export type EndpointCandidate = z.infer<typeof EndpointCandidateSchema>;

/** The one plain GET of /mcp: what it answered and whether that signals MCP. */
export const McpPathProbeSchema = z.object({
  url: z.string(),
  httpStatus: z.number().int().nullable(),
  allow: z.string().nullable(),
  contentType: z.string().nullable(),
  signalsMcp: z.boolean(),
  /** Why the GET got no answer (a timeout, a refusal), else null. */
  failure: z.string().nullable(),
});
/** The type McpPathProbeSchema validates. */
export type McpPathProbe = z.infer<typeof McpPathProbeSchema>;

/** What endpoint discovery found. */
export const DiscoveryResultSchema = z.object({
  endpoint: z.string().nullable(),
  source: EndpointSourceSchema.nullable(),
  /** True when the endpoint is on a subdomain the removal list names: it must not be requested. */
  optedOut: z.boolean(),
  candidates: z.array(EndpointCandidateSchema),
  mcpPath: McpPathProbeSchema.nullable(),
});
/** The type DiscoveryResultSchema validates. */
export type DiscoveryResult = z.infer<typeof DiscoveryResultSchema>;

/** The result of the site check "MCP server answers and lists its tools". */
export const SiteCheckResultSchema = z.object({
  origin: z.string(),
  verdict: SiteVerdictSchema,
  /** A short stable code for the verdict's cause, e.g. `lists-tools`, `auth-challenge`, `html-answer`, `redirect`. */
  reason: z.string(),
  message: z.string(),
  /** An HTML page or an answer without a JSON-RPC result: a defect the report calls out. */
  defect: z.boolean(),
  endpoint: z.string().nullable(),
  source: EndpointSourceSchema.nullable(),
  protocolVersion: z.string().nullable(),
  /** Up to 25 tool names. */
  toolNames: z.array(z.string()),
  toolCount: z.number().int().nonnegative(),
  posts: z.number().int().nonnegative(),
  steps: z.array(ProbeStepSchema),
  discovery: DiscoveryResultSchema,
  /** After a sign-in request: what read-only discovery found, in the MCP spec's order; null otherwise. */
  authDiscovery: AuthDiscoverySchema.nullable(),
  rulesVersion: z.string(),
});
/** The type SiteCheckResultSchema validates. */
export type SiteCheckResult = z.infer<typeof SiteCheckResultSchema>;

/** One robots.txt rule. */
export const RobotsRuleSchema = z.object({ allow: z.boolean(), path: z.string() });
/** The type RobotsRuleSchema validates. */
export type RobotsRule = z.infer<typeof RobotsRuleSchema>;

/** How reading robots.txt went. Only `parsed` can exclude anything. */
export const RobotsStatusSchema = z.enum(['parsed', 'not-found', 'unreachable', 'refused']);
/** The type RobotsStatusSchema validates. */
export type RobotsStatus = z.infer<typeof RobotsStatusSchema>;

/** What robots.txt says to one agent. */
export const RobotsPolicySchema = z.object({
  url: z.string(),
  status: RobotsStatusSchema,
  httpStatus: z.number().int().nullable(),
  /** Which group applied: one naming the agent, the `*` group, or none. */
  group: z.enum(['agent', 'wildcard', 'none']),
  rules: z.array(RobotsRuleSchema),
  /** True when the applying group says `Disallow: /` (or a pattern matching every path): skip the origin. */
  excludesOrigin: z.boolean(),
  detail: z.string().nullable(),
});
/** The type RobotsPolicySchema validates. */
export type RobotsPolicy = z.infer<typeof RobotsPolicySchema>;

/** One well-known document read. */
export const WellKnownDocumentSchema = z.object({
  url: z.string(),
  httpStatus: z.number().int().nullable(),
  found: z.boolean(),
  document: z.unknown(),
  detail: z.string().nullable(),
});
/** The type WellKnownDocumentSchema validates. */
export type WellKnownDocument = z.infer<typeof WellKnownDocumentSchema>;

/** What `readWellKnown` read for an origin. */
export const WellKnownResultSchema = z.object({
  origin: z.string(),
  oauthProtectedResource: WellKnownDocumentSchema,
  agentCard: WellKnownDocumentSchema,
});
/** The type WellKnownResultSchema validates. */
export type WellKnownResult = z.infer<typeof WellKnownResultSchema>;

/** A remote of a registry entry. */
export const RegistryRemoteSchema = z.looseObject({ type: z.string(), url: z.string() });
/** The type RegistryRemoteSchema validates. */
export type RegistryRemote = z.infer<typeof RegistryRemoteSchema>;

/** A server as the registry describes it (only the fields the probe needs are checked; the rest are kept). */
export const RegistryServerSchema = z.looseObject({
  name: z.string(),
  version: z.string().optional(),
  remotes: z.array(RegistryRemoteSchema).optional(),
});
/** The type RegistryServerSchema validates. */
export type RegistryServer = z.infer<typeof RegistryServerSchema>;

/** The registry's own metadata about an entry. */
export const RegistryMetaSchema = z.looseObject({
  status: z.string().optional(),
  isLatest: z.boolean().optional(),
  publishedAt: z.string().optional(),
  updatedAt: z.string().optional(),
});
/** The type RegistryMetaSchema validates. */
export type RegistryMeta = z.infer<typeof RegistryMetaSchema>;

/** One entry of the registry listing. */
export const RegistryEntrySchema = z.object({
  server: RegistryServerSchema,
  meta: RegistryMetaSchema,
});
/** The type RegistryEntrySchema validates. */
export type RegistryEntry = z.infer<typeof RegistryEntrySchema>;
