/**
 * The methodology's rule constants of @mcp-atlas/probe, published as `@mcp-atlas/probe/rules`: one frozen object per
 * concern, each naming the section of the methodology that explains it (docs/methodology/checks.md, "Checking a server"
 * and "Package layer"; operations.md, "Domain age"; score.md, "Quality score"). The values are written once, in
 * constants.ts, outside-constants.ts, github-constants.ts and compliance.ts; these objects only group them. The root
 * entry exports none of them: a rule is read here, a function is called from the root. Wire plumbing (JSON-RPC ids,
 * header values, drain and echo limits, page sizes) is in none of these objects and in no entry: it can change without
 * a release note.
 *
 * Pure module: no I/O, no clock, no Node built-in.
 */
import { PROTOCOL_RULES } from '@mcp-atlas/score/rules';
import {
  COMPLIANCE_MAX,
  DEEP_CALL_TIMEOUT_MS,
  DEEP_MAX_TOOLS,
  ERROR_HANDLING_PASS_OUTCOME,
  FUZZ_OVERSIZED_CHARS,
  FUZZ_POINTS,
  FUZZ_UNICODE_TEXT,
  PLAIN_VALUES,
  SMOKE_PASS_OUTCOME,
  UNREACHABLE_LETTER,
  WRONG_TYPE_FOR_OTHER,
  WRONG_TYPE_FOR_STRING,
} from './compliance.js';
import {
  AGENT_CARD_PATHS,
  AI_CATALOG_PATH,
  AUTH_DISCOVERY_BUDGET_MS,
  BOT_INFO_URL,
  BOT_TOKEN,
  BOT_VERSION,
  CONFORMANCE_BASE_SCENARIOS,
  CONFORMANCE_CAPABILITY_SCENARIOS,
  CONFORMANCE_LOOPBACK_SCENARIOS,
  CONFORMANCE_SCENARIO_TIMEOUT_MS,
  DEFAULT_CLIENT_INFO,
  DEFAULT_PROTOCOL_VERSION,
  DEFAULT_USER_AGENT,
  DELETE_TIMEOUT_MS,
  DNS_TIMEOUT_MS,
  FIVE_MINUTE_CHECK_DEADLINE_MS,
  INITIALIZE_ANSWER_CAP_BYTES,
  INITIALIZE_TIMEOUT_MS,
  INITIALIZED_TIMEOUT_MS,
  IPV6_EMBEDDING_RANGES,
  IPV6_GLOBAL_UNICAST,
  LEGACY_SERVER_CARD_PATHS,
  MAX_INITIALIZE_REDIRECTS,
  MAX_JSON_DEPTH,
  MAX_SSE_RESUMPTIONS,
  MAX_TOOLS_JSON_BYTES,
  MAX_TOOLS_KEPT,
  MAX_TOOLS_PAGES,
  MCP_DEFAULT_PATH,
  MCP_LINK_RELATIONS,
  MCP_PATH_GET_TIMEOUT_MS,
  NON_PUBLIC_IPV4_RANGES,
  NON_PUBLIC_IPV6_RANGES,
  NOT_STANDARD_MCP_STATUSES,
  OAUTH_AUTHORIZATION_SERVER_PATH,
  OAUTH_PROTECTED_RESOURCE_PATH,
  OPENID_CONFIGURATION_PATH,
  OPT_OUT_TOKEN_PATH,
  OWNER_TOKEN_CAP_BYTES,
  PAYMENT_STATUS,
  PROBE_RULES_VERSION,
  RATE_LIMIT_DEFAULT_WAIT_MS,
  RATE_LIMIT_RETRIES,
  RATE_LIMIT_STATUS,
  RATE_LIMIT_WAIT_MAX_MS,
  RATE_LIMIT_WITH_WAIT_STATUSES,
  REDIRECT_STATUSES,
  REFUSED_HOST_SUFFIXES,
  REFUSED_HOSTNAMES,
  REGISTRY_MAX_PAGES,
  REGISTRY_OFFICIAL_META_KEY,
  REGISTRY_PAGE_CAP_BYTES,
  REGISTRY_PAGE_LIMIT,
  REGISTRY_PAGE_TIMEOUT_MS,
  REGISTRY_SERVERS_PATH,
  ROBOTS_CAP_BYTES,
  ROBOTS_MAX_REDIRECTS,
  ROBOTS_PATH,
  ROBOTS_TIMEOUT_MS,
  SERVER_CARD_MEDIA_TYPES,
  SERVER_CARD_PATH,
  SIGN_IN_STATUSES,
  SITE_ANSWER_CAP_BYTES,
  SITE_CHECK_PROTOCOL_VERSION,
  SITE_MAX_POSTS,
  SITE_MAX_TOOL_NAMES,
  SITE_SESSION_BUDGET_MS,
  SSE_DEFAULT_RETRY_MS,
  SSE_MAX_RETRY_WAIT_MS,
  STDIO_BUBBLEWRAP_COMMAND,
  STDIO_ISOLATION_TRIAL_TIMEOUT_MS,
  STDIO_PID_NAMESPACE_ARGS,
  TOOLS_LIST_PAGE_TIMEOUT_MS,
  TOOLS_PAGE_CAP_BYTES,
  VERIFY_TOKEN_PATH,
  WELL_KNOWN_CAP_BYTES,
  WELL_KNOWN_TIMEOUT_MS,
} from './constants.js';
import {
  AWESOME_LIST_BADGES,
  AWESOME_LIST_SERVERS_HEADING,
  BEST_OF_SNAPSHOT_PATTERN,
  DIRECTORY_DEFAULTS,
  DIRECTORY_MAX_PAGES,
  DIRECTORY_MAX_REDIRECTS,
  DIRECTORY_PAGE_CAP_BYTES,
  DIRECTORY_PAGE_PREFIXES,
  DIRECTORY_PAGE_SIZE,
  DIRECTORY_PAGE_TIMEOUT_MS,
  DIRECTORY_RATE_LIMIT_DEFAULT_WAIT_MS,
  DIRECTORY_RATE_LIMIT_RETRIES,
  DIRECTORY_RATE_LIMIT_WAIT_MAX_MS,
  DOCKER_MCP_NAMESPACE,
  GITHUB_DISCOVERY_TOPICS,
  GITHUB_SEARCH_RESULT_LIMIT,
  SMITHERY_DEPLOYMENT_ORIGIN,
} from './directory-constants.js';
import {
  DEFAULT_GITHUB_API_URL,
  GITHUB_ANSWER_CAP_BYTES,
  GITHUB_MAX_REDIRECTS,
  GITHUB_TIMEOUT_MS,
  GITHUB_TREE_CAP_BYTES,
} from './github-constants.js';
import {
  LOCAL_DEFAULT_NPM_REGISTRY,
  LOCAL_DEFAULT_PYPI_INDEX,
  LOCAL_INSTALL_CAP_BYTES,
  LOCAL_INSTALL_TIMEOUT_MS,
  LOCAL_REGISTRY_TYPES,
  LOCAL_SANDBOX_LIMITS,
  LOCAL_SANDBOX_SYSTEM_DIRS,
  LOCAL_SANDBOX_UID,
  LOCAL_SYSTEM_PYTHONS,
} from './local-constants.js';
import {
  DEFAULT_NPM_DOWNLOADS_URL,
  DEFAULT_NPM_REGISTRY_URL,
  DEFAULT_OSV_URL,
  DEFAULT_PYPI_STATS_URL,
  DEFAULT_PYPI_URL,
  DEFAULT_RDAP_URL,
  OSV_ANSWER_CAP_BYTES,
  OSV_BATCH_MAX_QUERIES,
  OSV_MAX_PAGE_ROUNDS,
  OSV_TIMEOUT_MS,
  PACKAGE_METADATA_CAP_BYTES,
  PACKAGE_METADATA_MAX_REDIRECTS,
  PACKAGE_METADATA_TIMEOUT_MS,
  RDAP_CAP_BYTES,
  RDAP_MAX_REDIRECTS,
  RDAP_TIMEOUT_MS,
} from './outside-constants.js';

/** The version of these rules; every ProbeResult and SiteCheckResult records it, and any change below bumps it. */
export { PROBE_RULES_VERSION };

/**
 * Who the bot is on the wire (methodology, "Checking a server" > "Who we are on the wire").
 *
 * @example
 * // IDENTITY_RULES is exported by the `@mcp-atlas/probe/rules` subpath
 * await readRobots(origin, IDENTITY_RULES.botToken);
 */
export const IDENTITY_RULES = Object.freeze({
  /** The product token robots.txt groups are matched against. */
  botToken: BOT_TOKEN,
  /** The bot's version, in the user agent and `clientInfo`. */
  botVersion: BOT_VERSION,
  /** The page that explains the bot to server owners. */
  botInfoUrl: BOT_INFO_URL,
  /** The user agent of every request: token, version and the explaining page. */
  userAgent: DEFAULT_USER_AGENT,
  /** The `clientInfo` of `initialize` unless the caller names another. */
  clientInfo: DEFAULT_CLIENT_INFO,
});

/** The guard run before any request (methodology, "Checking a server" > "Before any request: the guard"). */
export const GUARD_RULES = Object.freeze({
  /** Host names refused outright. */
  refusedHostnames: REFUSED_HOSTNAMES,
  /** Host name suffixes refused (loopback and private names). */
  refusedHostSuffixes: REFUSED_HOST_SUFFIXES,
  /** IPv4 ranges that are not public, with the label a refusal names. */
  nonPublicIpv4Ranges: NON_PUBLIC_IPV4_RANGES,
  /** The only IPv6 block that holds public unicast addresses. */
  ipv6GlobalUnicast: IPV6_GLOBAL_UNICAST,
  /** Ranges inside the global unicast block that are still not public. */
  nonPublicIpv6Ranges: NON_PUBLIC_IPV6_RANGES,
  /** IPv6 ranges that carry an IPv4 address, with the byte offset of that address. */
  ipv6EmbeddingRanges: IPV6_EMBEDDING_RANGES,
  /** How long resolving the host name may take. */
  dnsTimeoutMs: DNS_TIMEOUT_MS,
});

/**
 * The MCP session of a check: time limits, page and size caps (methodology, "Checking a server" > "The session").
 *
 * @example
 * // SESSION_RULES is exported by the `@mcp-atlas/probe/rules` subpath
 * await probeServer(url, { deadlineMs: SESSION_RULES.fiveMinuteCheckDeadlineMs });
 */
export const SESSION_RULES = Object.freeze({
  /** The protocol version `probeServer` offers in `initialize`. */
  protocolVersion: DEFAULT_PROTOCOL_VERSION,
  /** `initialize` (a followed redirect gets its own limit). */
  initializeTimeoutMs: INITIALIZE_TIMEOUT_MS,
  /** `notifications/initialized`. */
  initializedTimeoutMs: INITIALIZED_TIMEOUT_MS,
  /** Each `tools/list` page. */
  toolsListPageTimeoutMs: TOOLS_LIST_PAGE_TIMEOUT_MS,
  /** The five-minute check's overall deadline, on top of the per-step limits. */
  fiveMinuteCheckDeadlineMs: FIVE_MINUTE_CHECK_DEADLINE_MS,
  /** The best-effort DELETE that ends a session the server issued. */
  deleteTimeoutMs: DELETE_TIMEOUT_MS,
  /** Redirects followed on `initialize` (same site only). */
  maxInitializeRedirects: MAX_INITIALIZE_REDIRECTS,
  /** `tools/list` pages followed through `nextCursor`. */
  maxToolsPages: MAX_TOOLS_PAGES,
  /** Tools kept per server; the rest are counted and dropped. */
  maxToolsKept: MAX_TOOLS_KEPT,
  /** UTF-8 bytes of the kept tools' JSON text per check. */
  maxToolsJsonBytes: MAX_TOOLS_JSON_BYTES,
  /** The `initialize` answer, in bytes after decoding. */
  initializeAnswerCapBytes: INITIALIZE_ANSWER_CAP_BYTES,
  /** One `tools/list` page, in bytes after decoding. */
  toolsPageCapBytes: TOOLS_PAGE_CAP_BYTES,
  /** The deepest nesting read in any JSON a server or service sends; deeper is refused unread. */
  maxJsonDepth: MAX_JSON_DEPTH,
});

/**
 * How a stdio server's processes are kept together so that all of them end with the check (methodology, "Checking
 * a server" > "Local servers over stdio"): a PID namespace of its own through bubblewrap where it works, else a
 * process group.
 */
export const STDIO_ISOLATION_RULES = Object.freeze({
  /** The bubblewrap program looked up on PATH. */
  bubblewrapCommand: STDIO_BUBBLEWRAP_COMMAND,
  /** Its arguments before the server's command: a PID namespace, the host's files as they are. */
  bubblewrapArgs: STDIO_PID_NAMESPACE_ARGS,
  /** The once-per-process trial run of bubblewrap; slower counts as not working. */
  trialTimeoutMs: STDIO_ISOLATION_TRIAL_TIMEOUT_MS,
});

/** Which HTTP statuses give which letter (methodology, "Checking a server" > "The letter"). */
export const STATUS_LETTER_RULES = Object.freeze({
  /** Statuses shown as "answers, but not as a standard MCP endpoint" (letter d). */
  notStandardMcpStatuses: NOT_STANDARD_MCP_STATUSES,
  /** Statuses that mean sign-in is needed (letter a). */
  signInStatuses: SIGN_IN_STATUSES,
  /** The status that means payment is needed (letter p). */
  paymentStatus: PAYMENT_STATUS,
  /** The status that means rate-limited (letter n). */
  rateLimitStatus: RATE_LIMIT_STATUS,
  /** Statuses that mean rate-limited (letter n) when they carry a readable Retry-After. */
  rateLimitWithWaitStatuses: RATE_LIMIT_WITH_WAIT_STATUSES,
  /** Redirect statuses; a same-site one on `initialize` is followed once. */
  redirectStatuses: REDIRECT_STATUSES,
});

/** Asking a rate-limited server again, in the daily check only (methodology, "Checking a server" > "Rate-limited servers"). */
export const RATE_LIMIT_RULES = Object.freeze({
  /** Times the server is asked again after the first try. */
  retries: RATE_LIMIT_RETRIES,
  /** The longest wait taken before asking again (ms); a longer Retry-After keeps the day's n. */
  waitMaxMs: RATE_LIMIT_WAIT_MAX_MS,
  /** The wait after a 429 that names none (ms). */
  defaultWaitMs: RATE_LIMIT_DEFAULT_WAIT_MS,
});

/** robots.txt and the documents read from a site (methodology, "Checking a server" > "robots.txt and well-known documents"). */
export const DOCUMENT_RULES = Object.freeze({
  /** Where robots.txt is read. */
  robotsPath: ROBOTS_PATH,
  /** robots.txt, redirects included; no answer in time means allowed. */
  robotsTimeoutMs: ROBOTS_TIMEOUT_MS,
  /** Bytes of robots.txt read; the rest is ignored. */
  robotsCapBytes: ROBOTS_CAP_BYTES,
  /** Redirects followed for robots.txt. */
  robotsMaxRedirects: ROBOTS_MAX_REDIRECTS,
  /** Each well-known or site document. */
  wellKnownTimeoutMs: WELL_KNOWN_TIMEOUT_MS,
  /** Bytes of a well-known or site document. */
  wellKnownCapBytes: WELL_KNOWN_CAP_BYTES,
  /** Where the current server card lives. */
  serverCardPath: SERVER_CARD_PATH,
  /** Older server card locations, read after the current one. */
  legacyServerCardPaths: LEGACY_SERVER_CARD_PATHS,
  /** The AI catalog, whose entries point at server cards. */
  aiCatalogPath: AI_CATALOG_PATH,
  /** Media types a server card may be served as. */
  serverCardMediaTypes: SERVER_CARD_MEDIA_TYPES,
  /** Link relations that name an MCP endpoint. */
  mcpLinkRelations: MCP_LINK_RELATIONS,
  /** The plain path tried last. */
  mcpDefaultPath: MCP_DEFAULT_PATH,
  /** The one GET of that path during discovery. */
  mcpPathGetTimeoutMs: MCP_PATH_GET_TIMEOUT_MS,
  /** OAuth protected resource metadata. */
  oauthProtectedResourcePath: OAUTH_PROTECTED_RESOURCE_PATH,
  /** Agent card locations. */
  agentCardPaths: AGENT_CARD_PATHS,
  /** The owner's opt-out token file. */
  optOutTokenPath: OPT_OUT_TOKEN_PATH,
  /** The owner's verification token file. */
  verifyTokenPath: VERIFY_TOKEN_PATH,
  /** Bytes of an owner token file. */
  ownerTokenCapBytes: OWNER_TOKEN_CAP_BYTES,
});

/** The site check (methodology, "Checking a server" > "The site check"). */
export const SITE_CHECK_RULES = Object.freeze({
  /** The protocol version the site check offers. */
  protocolVersion: SITE_CHECK_PROTOCOL_VERSION,
  /** The whole MCP session of the site check. */
  sessionBudgetMs: SITE_SESSION_BUDGET_MS,
  /** POSTs the site check may send. */
  maxPosts: SITE_MAX_POSTS,
  /** Tool names a site check keeps. */
  maxToolNames: SITE_MAX_TOOL_NAMES,
  /** Bytes of every answer in the site check. */
  answerCapBytes: SITE_ANSWER_CAP_BYTES,
});

/** Reading the MCP registry (methodology, "Checking a server" > "The registry"). */
export const REGISTRY_RULES = Object.freeze({
  /** The listing's path. */
  serversPath: REGISTRY_SERVERS_PATH,
  /** The page size asked for. */
  pageLimit: REGISTRY_PAGE_LIMIT,
  /** Pages read before the listing is cut off. */
  maxPages: REGISTRY_MAX_PAGES,
  /** One page. */
  pageTimeoutMs: REGISTRY_PAGE_TIMEOUT_MS,
  /** Bytes of one page. */
  pageCapBytes: REGISTRY_PAGE_CAP_BYTES,
  /** The `_meta` key of the registry's own facts about an entry. */
  officialMetaKey: REGISTRY_OFFICIAL_META_KEY,
});

/**
 * The deep check's calls and its compliance score (methodology, "Checking a server" > "The compliance score of
 * a deep check").
 *
 * @example
 * // DEEP_CHECK_RULES is exported by the `@mcp-atlas/probe/rules` subpath
 * z.number().min(0).max(DEEP_CHECK_RULES.complianceMax);
 */
export const DEEP_CHECK_RULES = Object.freeze({
  /** How long one deep-mode tools/call may take before it counts as a hang. */
  callTimeoutMs: DEEP_CALL_TIMEOUT_MS,
  /** Tools a deep check calls at most. */
  maxTools: DEEP_MAX_TOOLS,
  /** Length of the oversized fuzz string. */
  fuzzOversizedChars: FUZZ_OVERSIZED_CHARS,
  /** The awkward-Unicode fuzz string. */
  fuzzUnicodeText: FUZZ_UNICODE_TEXT,
  /** A plain valid value per JSON Schema type, for the required parameters of a call. */
  plainValues: PLAIN_VALUES,
  /** The wrong-type value sent for a string parameter. */
  wrongTypeForString: WRONG_TYPE_FOR_STRING,
  /** The wrong-type value sent for any other parameter. */
  wrongTypeForOther: WRONG_TYPE_FOR_OTHER,
  /** Points per fuzz call outcome. */
  fuzzPoints: FUZZ_POINTS,
  /** The outcome an error-handling call must have to pass. */
  errorHandlingPassOutcome: ERROR_HANDLING_PASS_OUTCOME,
  /** The outcome a smoke call must have to pass. */
  smokePassOutcome: SMOKE_PASS_OUTCOME,
  /** The letter of a server that did not answer (its reachability part is 0). */
  unreachableLetter: UNREACHABLE_LETTER,
  /** The top of the compliance score and of each part. */
  complianceMax: COMPLIANCE_MAX,
  /** Points added when a server asking for sign-in publishes its protected resource metadata. */
  authDiscoveryBonus: PROTOCOL_RULES.authDiscoveryBonus,
});

/**
 * The outside services read for the app: RDAP, npm, PyPI and OSV (methodology, "Domain age and the package
 * layer"). Each default address can be replaced through the reader's options. When the app asks OSV is the
 * app's schedule, not a rule of this package.
 */
export const OUTSIDE_SERVICE_RULES = Object.freeze({
  /** The RDAP service asked first. */
  defaultRdapUrl: DEFAULT_RDAP_URL,
  /** The public npm registry. */
  defaultNpmRegistryUrl: DEFAULT_NPM_REGISTRY_URL,
  /** The Python Package Index. */
  defaultPypiUrl: DEFAULT_PYPI_URL,
  /** npm's download counts API. */
  defaultNpmDownloadsUrl: DEFAULT_NPM_DOWNLOADS_URL,
  /** PyPI's download counts (pypistats.org). */
  defaultPypiStatsUrl: DEFAULT_PYPI_STATS_URL,
  /** The OSV API. */
  defaultOsvUrl: DEFAULT_OSV_URL,
  /** One RDAP lookup, redirects included. */
  rdapTimeoutMs: RDAP_TIMEOUT_MS,
  /** Bytes of one RDAP answer. */
  rdapCapBytes: RDAP_CAP_BYTES,
  /** Redirects followed for RDAP. */
  rdapMaxRedirects: RDAP_MAX_REDIRECTS,
  /** One package registry read. */
  packageMetadataTimeoutMs: PACKAGE_METADATA_TIMEOUT_MS,
  /** Bytes of one package registry answer. */
  packageMetadataCapBytes: PACKAGE_METADATA_CAP_BYTES,
  /** Redirects followed for a package registry. */
  packageMetadataMaxRedirects: PACKAGE_METADATA_MAX_REDIRECTS,
  /** One OSV batch request. */
  osvTimeoutMs: OSV_TIMEOUT_MS,
  /** Bytes of one OSV answer. */
  osvAnswerCapBytes: OSV_ANSWER_CAP_BYTES,
  /** Queries per OSV batch. */
  osvBatchMaxQueries: OSV_BATCH_MAX_QUERIES,
  /** Rounds of OSV's paged answers followed. */
  osvMaxPageRounds: OSV_MAX_PAGE_ROUNDS,
});

/**
 * Reading the directories that list servers (methodology, "Discovery" > "Reading the sources").
 *
 * @example
 * // DIRECTORY_RULES is exported by the `@mcp-atlas/probe/rules` subpath
 * DIRECTORY_RULES.rateLimitWaitMaxMs; // 120000
 */
export const DIRECTORY_RULES = Object.freeze({
  /** Each directory's public base URL and listing path. */
  defaults: DIRECTORY_DEFAULTS,
  /** Entries asked for per page. */
  pageSize: DIRECTORY_PAGE_SIZE,
  /** Pages read per directory per day. */
  maxPages: DIRECTORY_MAX_PAGES,
  /** One page, redirects included. */
  pageTimeoutMs: DIRECTORY_PAGE_TIMEOUT_MS,
  /** Bytes of one page or list document. */
  pageCapBytes: DIRECTORY_PAGE_CAP_BYTES,
  /** Redirects followed per page. */
  maxRedirects: DIRECTORY_MAX_REDIRECTS,
  /** Times one rate-limited page is asked again. */
  rateLimitRetries: DIRECTORY_RATE_LIMIT_RETRIES,
  /** The wait when a rate-limited answer names none. */
  rateLimitDefaultWaitMs: DIRECTORY_RATE_LIMIT_DEFAULT_WAIT_MS,
  /** The longest wait honoured. */
  rateLimitWaitMaxMs: DIRECTORY_RATE_LIMIT_WAIT_MAX_MS,
  /** The GitHub topics searched. */
  githubTopics: GITHUB_DISCOVERY_TOPICS,
  /** Results GitHub's search returns per query. */
  githubSearchResultLimit: GITHUB_SEARCH_RESULT_LIMIT,
  /** Docker's own MCP namespace on Docker Hub. */
  dockerNamespace: DOCKER_MCP_NAMESPACE,
  /** Smithery's proxy for the servers it hosts. */
  smitheryDeploymentOrigin: SMITHERY_DEPLOYMENT_ORIGIN,
  /** Server pages at Smithery and Docker Hub. */
  pagePrefixes: DIRECTORY_PAGE_PREFIXES,
  /** The awesome-mcp-servers badges and what they stand for. */
  awesomeListBadges: AWESOME_LIST_BADGES,
  /** The awesome-mcp-servers section that lists servers. */
  awesomeListServersHeading: AWESOME_LIST_SERVERS_HEADING,
  /** The best-of-mcp-servers snapshot file names. */
  bestOfSnapshotPattern: BEST_OF_SNAPSHOT_PATTERN,
});

/** The GitHub REST API reader (methodology, "Quality score" > "Repository dimensions (docs and maintenance)"). */
export const GITHUB_RULES = Object.freeze({
  /** The REST API; GitHub Enterprise Server or a test server can replace it. */
  defaultApiUrl: DEFAULT_GITHUB_API_URL,
  /** One request, redirects included. */
  timeoutMs: GITHUB_TIMEOUT_MS,
  /** Bytes of one answer. */
  answerCapBytes: GITHUB_ANSWER_CAP_BYTES,
  /** Bytes of the repository tree. */
  treeCapBytes: GITHUB_TREE_CAP_BYTES,
  /** Redirects followed. */
  maxRedirects: GITHUB_MAX_REDIRECTS,
});

/**
 * Resuming an answer's event stream that closed before the answer (methodology, "Checking a server" >
 * "Streams that close early").
 *
 * @example
 * // SSE_RESUMPTION_RULES is exported by the `@mcp-atlas/probe/rules` subpath
 * SSE_RESUMPTION_RULES.maxResumptions; // 3
 */
export const SSE_RESUMPTION_RULES = Object.freeze({
  /** Resumptions (GET with Last-Event-ID) per answer; the step's limit and the deadline still apply. */
  maxResumptions: MAX_SSE_RESUMPTIONS,
  /** The wait before a resumption when the server sent no `retry`. */
  defaultRetryMs: SSE_DEFAULT_RETRY_MS,
  /** The longest `retry` honoured; a larger one is cut to this. */
  maxRetryWaitMs: SSE_MAX_RETRY_WAIT_MS,
});

/**
 * Sign-in discovery after a 401 or 403, read-only (methodology, "Checking a server" > "Sign-in discovery").
 *
 * @example
 * // AUTH_DISCOVERY_RULES is exported by the `@mcp-atlas/probe/rules` subpath
 * AUTH_DISCOVERY_RULES.budgetMs; // 8000
 */
export const AUTH_DISCOVERY_RULES = Object.freeze({
  /** Protected resource metadata (RFC 9728): path-based first, then at the root. */
  protectedResourcePath: OAUTH_PROTECTED_RESOURCE_PATH,
  /** Authorization server metadata (RFC 8414). */
  authorizationServerPath: OAUTH_AUTHORIZATION_SERVER_PATH,
  /** OpenID Connect discovery, the fallback. */
  openIdConfigurationPath: OPENID_CONFIGURATION_PATH,
  /** Every read together; each read also keeps the well-known document limit and cap. */
  budgetMs: AUTH_DISCOVERY_BUDGET_MS,
});

/**
 * The scenarios of the official MCP conformance suite that `check --conformance` runs, and each one's time limit
 * (methodology, "The official MCP conformance suite" > "Your server against the suite").
 *
 * @example
 * // CONFORMANCE_RULES is exported by the `@mcp-atlas/probe/rules` subpath
 * CONFORMANCE_RULES.baseScenarios; // ['server-initialize', 'ping', 'tools-list']
 */
export const CONFORMANCE_RULES = Object.freeze({
  /** Run against every server. */
  baseScenarios: CONFORMANCE_BASE_SCENARIOS,
  /** Added for a loopback URL. */
  loopbackScenarios: CONFORMANCE_LOOPBACK_SCENARIOS,
  /** Added per capability the server declares in initialize. */
  capabilityScenarios: CONFORMANCE_CAPABILITY_SCENARIOS,
  /** How long one scenario's process may run. */
  scenarioTimeoutMs: CONFORMANCE_SCENARIO_TIMEOUT_MS,
});

/**
 * Checking local servers: installing a package and running it in the sandbox (methodology, "Local servers").
 *
 * @example
 * // LOCAL_RULES is exported by the `@mcp-atlas/probe/rules` subpath
 * LOCAL_RULES.limits.processes; // 64
 */
export const LOCAL_RULES = Object.freeze({
  /** The package registries installed from. */
  registryTypes: LOCAL_REGISTRY_TYPES,
  /** The npm registry used when none is set. */
  defaultNpmRegistry: LOCAL_DEFAULT_NPM_REGISTRY,
  /** The Python package index used when none is set. */
  defaultPypiIndex: LOCAL_DEFAULT_PYPI_INDEX,
  /** One install, downloads included. */
  installTimeoutMs: LOCAL_INSTALL_TIMEOUT_MS,
  /** Bytes of one installed version, dependencies included. */
  installCapBytes: LOCAL_INSTALL_CAP_BYTES,
  /** The limits a server runs under. */
  limits: LOCAL_SANDBOX_LIMITS,
  /** The host folders bound read-only. */
  systemDirs: LOCAL_SANDBOX_SYSTEM_DIRS,
  /** The user a root checker runs the sandbox as. */
  sandboxUid: LOCAL_SANDBOX_UID,
  /** Where the system's Python is looked for first, for a package's virtual environment. */
  systemPythons: LOCAL_SYSTEM_PYTHONS,
});
