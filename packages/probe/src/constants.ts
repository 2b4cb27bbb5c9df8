// Pure module: every timeout, size cap, count, version string, header and address range the probe uses.
// A change to any value here changes published results, so it needs a PROBE_RULES_VERSION bump and a
// line in docs/methodology/checks.md. Nothing else in the package may hold a number that decides a verdict.

/** The version of these rules; every ProbeResult and SiteCheckResult records it. */
export const PROBE_RULES_VERSION = '1.8.0';

// ---------------------------------------------------------------------------------------------------
// Who we are
// ---------------------------------------------------------------------------------------------------

/** The product token robots.txt groups are matched against (RFC 9309 allows letters, `_` and `-`). */
export const BOT_TOKEN = 'mcp-atlas-bot';

/** The bot's version, sent in the user agent and as `clientInfo.version`. */
export const BOT_VERSION = '0.1.0';

/** The page that explains the bot to server owners; every user agent names it. */
export const BOT_INFO_URL = 'https://github.com/mcp-atlas/mcp-atlas/blob/main/docs/bot.md';

/** The user agent on every request: the bot's token and version, and the page that explains it. */
export const DEFAULT_USER_AGENT = `${BOT_TOKEN}/${BOT_VERSION} (+${BOT_INFO_URL})`;

/** The `clientInfo` sent in `initialize` unless the caller names another. */
export const DEFAULT_CLIENT_INFO: Readonly<{ name: string; version: string }> = Object.freeze({
  name: BOT_TOKEN,
  version: BOT_VERSION,
});

// ---------------------------------------------------------------------------------------------------
// Protocol
// ---------------------------------------------------------------------------------------------------

/** The protocol version `probeServer` offers in `initialize` (the daily, hourly and five-minute checks). */
export const DEFAULT_PROTOCOL_VERSION = '2025-06-18';

/** The protocol version `checkSite` offers, as the site scanner's measurement does. */
export const SITE_CHECK_PROTOCOL_VERSION = '2025-11-25';

/** The JSON-RPC id of initialize. */
export const INITIALIZE_REQUEST_ID = 1;

/** The JSON-RPC id of the first tools/list page; the next pages count up from it (2, 3, 4). */
export const FIRST_TOOLS_LIST_REQUEST_ID = 2;

/** The `Accept` header of every POST: a Streamable HTTP server may answer with JSON or an event stream. */
export const MCP_ACCEPT = 'application/json, text/event-stream';

/** Encodings we can decode; every transport decodes before counting bytes against a cap. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** HTTP statuses shown as "answers, but not as a standard MCP endpoint" (the letter stays d). */
export const NOT_STANDARD_MCP_STATUSES: ReadonlySet<number> = new Set([400, 405, 406, 415, 422]);

/** HTTP statuses that mean "sign-in needed" (letter a) on initialize, or on tools/list before any tool. */
export const SIGN_IN_STATUSES: ReadonlySet<number> = new Set([401, 403]);

/** The HTTP status that means "payment needed" (letter p) on initialize. */
export const PAYMENT_STATUS = 402;

/** The status that always means "too many requests": the check is rate-limited (letter n), not down. */
export const RATE_LIMIT_STATUS = 429;

/**
 * A status that means rate-limited (letter n) only when the answer carries a Retry-After the probe can read:
 * 503 with a wait is a server asking for time; 503 without one is down like any other 5xx.
 */
export const RATE_LIMIT_WITH_WAIT_STATUSES: ReadonlySet<number> = new Set([503]);

/** Times the daily check asks a rate-limited server again after its first try. */
export const RATE_LIMIT_RETRIES = 2;

/**
 * The longest wait the daily check takes before asking a rate-limited server again (ms). A server that asks for
 * more keeps its n for the day: asking sooner than it asked would be impolite, and holding the host's turn longer
 * would stall the lane.
 */
export const RATE_LIMIT_WAIT_MAX_MS = 300_000;

/** The wait after a 429 that names none (ms). */
export const RATE_LIMIT_DEFAULT_WAIT_MS = 30_000;

/** Redirect statuses; a same-site one on initialize is followed (re-POSTed) once, the others never. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** How many redirects `probeServer` follows on initialize. */
export const MAX_INITIALIZE_REDIRECTS = 1;

/** A session id or protocol version is echoed only if it is visible ASCII of at most this many characters. */
export const MAX_ECHOED_HEADER_LENGTH = 1024;

// ---------------------------------------------------------------------------------------------------
// Timeouts (milliseconds)
// ---------------------------------------------------------------------------------------------------

/** initialize: 8 s (redirect follow included: the followed request gets its own 8 s). */
export const INITIALIZE_TIMEOUT_MS = 8_000;

/** notifications/initialized: 5 s. */
export const INITIALIZED_TIMEOUT_MS = 5_000;

/** tools/list: 8 s per page. */
export const TOOLS_LIST_PAGE_TIMEOUT_MS = 8_000;

/** The five-minute check's overall deadline, on top of the per-step limits. */
export const FIVE_MINUTE_CHECK_DEADLINE_MS = 30_000;

/** Resolving the host name before a request (our own limit: a hung resolver must not hang the probe). */
export const DNS_TIMEOUT_MS = 5_000;

/** The best-effort DELETE that ends a session the server issued (our own limit). */
export const DELETE_TIMEOUT_MS = 2_000;

/** robots.txt: 3 s, redirects included; no answer in time means allowed. */
export const ROBOTS_TIMEOUT_MS = 3_000;

/** Each well-known document (and each site document `checkSite` reads): 4 s. */
export const WELL_KNOWN_TIMEOUT_MS = 4_000;

/** The site check's whole MCP session: 12 s for at most 3 POSTs. */
export const SITE_SESSION_BUDGET_MS = 12_000;

/** The one plain GET of `/mcp` during endpoint discovery. */
export const MCP_PATH_GET_TIMEOUT_MS = 4_000;

/** One page of the MCP registry listing. */
export const REGISTRY_PAGE_TIMEOUT_MS = 15_000;

// ---------------------------------------------------------------------------------------------------
// Size caps (bytes, counted after content decoding)
// ---------------------------------------------------------------------------------------------------

/** The initialize answer (and any answer read for an error detail or a payment address). */
export const INITIALIZE_ANSWER_CAP_BYTES = 64 * 1024;

/** One tools/list page. */
export const TOOLS_PAGE_CAP_BYTES = 8 * 1024 * 1024;

/** What is drained from an answer we do not read (the notification's, a redirect's) before the connection is dropped. */
export const DRAIN_CAP_BYTES = 64 * 1024;

/** Every answer in the site check, tools/list included. */
export const SITE_ANSWER_CAP_BYTES = 64 * 1024;

/** robots.txt: RFC 9309 asks parsers to read at least 500 KiB; the rest is ignored, not an error. */
export const ROBOTS_CAP_BYTES = 500 * 1024;

/** A well-known document or a site document (server card, ai-catalog, home page head). */
export const WELL_KNOWN_CAP_BYTES = 256 * 1024;

/** One page of the registry listing. */
export const REGISTRY_PAGE_CAP_BYTES = 8 * 1024 * 1024;

/**
 * The kept tools' JSON text, per check (and so per server and day in the daily scan): at most this many
 * UTF-8 bytes. Tools are kept in list order while the array text (`[`, the raw tool texts joined by `,`,
 * `]`) stays within it; the rest are dropped, and the check says the list was cut. 1 MiB is about 26
 * times the heavy-tool-list line (40,000 characters) and more than 5 times the largest single server's
 * list in the corpus (about 185 KB), yet it caps what one server can put into a signed day, which is never
 * deleted, at 1 MiB instead of three 8 MB pages.
 */
export const MAX_TOOLS_JSON_BYTES = 1024 * 1024;

/**
 * The deepest nesting of arrays and objects read in any JSON a server or service sends (MCP answers,
 * event-stream messages, error bodies, well-known documents, server cards, registry pages, outside
 * services); the outermost value is level 1. A deeper document is refused unread (reason `too-deep`).
 * A tools/list answer puts a tool's input schema at level 5 (6 in a batch), and the findings read a
 * schema up to 64 levels (MAX_SCHEMA_DEPTH), so 128 leaves room for every schema they accept, while
 * staying far below the few thousand levels at which recursive code (JSON.stringify, printers,
 * validators) overflows the stack. The deepest tool list in the corpus nests 11 levels (13 inside an answer).
 */
export const MAX_JSON_DEPTH = 128;

/** A base64 `PAYMENT-REQUIRED` header is decoded only up to this length. */
export const PAYMENT_HEADER_CAP_CHARS = 16 * 1024;

/** A payment address longer than this is not recorded (no real address is this long). */
export const MAX_PAYMENT_ADDRESS_LENGTH = 256;

/** The last bytes of a stdio server's stderr kept for the message when it fails. */
export const STDERR_TAIL_BYTES = 2 * 1024;

/** The program that runs a stdio server in a PID namespace of its own: Debian's `bubblewrap`. */
export const STDIO_BUBBLEWRAP_COMMAND = 'bwrap';

/**
 * The bubblewrap arguments before the server's command. The host's file system stays as it is (a stdio server is
 * the user's own program, working on the user's files); only the process tree is fenced in, with a /proc of its
 * own so the server sees only its own processes. When the server's first process ends, the kernel ends every
 * process left in the namespace, whatever group or session it moved to; `--die-with-parent` ends the namespace
 * if the checker itself dies.
 */
export const STDIO_PID_NAMESPACE_ARGS: readonly string[] = Object.freeze([
  '--dev-bind',
  '/',
  '/',
  '--unshare-pid',
  '--die-with-parent',
  '--proc',
  '/proc',
  '--',
]);

/** How long the once-per-process trial of bubblewrap (`bwrap ... true`) may take before it counts as not working. */
export const STDIO_ISOLATION_TRIAL_TIMEOUT_MS = 5_000;

// ---------------------------------------------------------------------------------------------------
// Counts
// ---------------------------------------------------------------------------------------------------

/** tools/list pages followed through `nextCursor`. */
export const MAX_TOOLS_PAGES = 3;

/** Tools kept per server; the rest are counted but dropped. */
export const MAX_TOOLS_KEPT = 500;

/** POSTs the site check may send: initialize, notifications/initialized, tools/list. */
export const SITE_MAX_POSTS = 3;

/** Tool names a site check keeps. */
export const SITE_MAX_TOOL_NAMES = 25;

/** Redirects followed for robots.txt (RFC 9309 asks for at least five). */
export const ROBOTS_MAX_REDIRECTS = 5;

/** Registry pages read before the listing is cut off (a guard against a cursor that never ends). */
export const REGISTRY_MAX_PAGES = 2_000;

/** The registry page size asked for. */
export const REGISTRY_PAGE_LIMIT = 100;

// ---------------------------------------------------------------------------------------------------
// Guard
// ---------------------------------------------------------------------------------------------------

/** Host names refused outright (exact match, after lower-casing and dropping a trailing dot). */
export const REFUSED_HOSTNAMES: ReadonlySet<string> = new Set(['localhost']);

/** Name suffixes refused: `.localhost` resolves to loopback (RFC 6761); `.local` and `.internal` are private. */
export const REFUSED_HOST_SUFFIXES: readonly string[] = ['.localhost', '.local', '.internal'];

/**
 * IPv4 ranges that are not public, with the label a refusal names. From the IANA special-purpose address
 * registry, plus multicast and the reserved class E block (which holds the broadcast address).
 */
export const NON_PUBLIC_IPV4_RANGES: readonly (readonly [cidr: string, label: string])[] = [
  ['0.0.0.0/8', 'this-network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'protocol-assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4-relay'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

/** The only IPv6 block that holds public unicast addresses; anything outside it is refused. */
export const IPV6_GLOBAL_UNICAST = '2000::/3';

/** Ranges inside 2000::/3 that are still not public. */
export const NON_PUBLIC_IPV6_RANGES: readonly (readonly [cidr: string, label: string])[] = [
  ['2001::/23', 'protocol-assignments'],
  ['2001:db8::/32', 'documentation'],
  ['3fff::/20', 'documentation'],
];

/**
 * IPv6 ranges that carry an IPv4 address; the embedded address decides. The number is the byte offset
 * of the four IPv4 bytes inside the sixteen.
 */
export const IPV6_EMBEDDING_RANGES: readonly (readonly [cidr: string, label: string, offset: number])[] = [
  ['::ffff:0:0/96', 'ipv4-mapped', 12],
  ['64:ff9b::/96', 'nat64', 12],
  ['2002::/16', '6to4', 2],
];

// ---------------------------------------------------------------------------------------------------
// Discovery (as the site scanner finds an endpoint)
// ---------------------------------------------------------------------------------------------------

/** Where the current server card lives. */
export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';

/** Older server card locations a scan may have read; a card found there counts after the current one. */
export const LEGACY_SERVER_CARD_PATHS: readonly string[] = [
  '/.well-known/mcp-server-card.json',
  '/.well-known/mcp.json',
];

/** The AI catalog, whose entries point at server cards. */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';

/** The catalog entry type that names an MCP server card. */
export const SERVER_CARD_MEDIA_TYPES: readonly string[] = [
  'application/mcp-server-card+json',
  'application/mcp-server+json',
];

/** Link relations that name an MCP endpoint, in a Link header or an HTML `<link>`. */
export const MCP_LINK_RELATIONS: ReadonlySet<string> = new Set(['mcp', 'mcp-server']);

/** The conventional endpoint path, tried last with one plain GET. */
export const MCP_DEFAULT_PATH = '/mcp';

/**
 * The Accept header of that plain GET: a browser's, as the site scanner's own GET sends. Not MCP_ACCEPT: a
 * GET naming text/event-stream asks a Streamable HTTP server to open its event stream, which never ends;
 * asked plainly, such a server answers 405 or a JSON-RPC error instead, and either signals MCP.
 */
export const MCP_PATH_GET_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.7';

/** Where `readWellKnown` looks for OAuth protected-resource metadata (does sign-in publish it?). */
export const OAUTH_PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** Where `readWellKnown` looks for an agent card, in order: the second only when the first is missing. */
export const AGENT_CARD_PATHS: readonly string[] = ['/.well-known/agent-card.json', '/.well-known/agent.json'];

/** The robots.txt location. */
export const ROBOTS_PATH = '/robots.txt';

/** The registry listing path, under the registry's base URL. */
export const REGISTRY_SERVERS_PATH = '/v0.1/servers';

/** The `_meta` key under which the official registry puts an entry's status and latest-version flag. */
export const REGISTRY_OFFICIAL_META_KEY = 'io.modelcontextprotocol.registry/official';

// ---------------------------------------------------------------------------------------------------
// Owner tokens (opt-out form and owner verification)
// ---------------------------------------------------------------------------------------------------

/** Where an owner puts the token of the opt-out form, to prove control of the host. */
export const OPT_OUT_TOKEN_PATH = '/.well-known/mcp-atlas-optout.txt';

/** Where an owner puts the token that verifies ownership (notes, five-minute checks). */
export const VERIFY_TOKEN_PATH = '/.well-known/mcp-atlas-verify.txt';

/** A token file is a short text; anything longer is not read further. */
export const OWNER_TOKEN_CAP_BYTES = 4 * 1024;

// ---------------------------------------------------------------------------------------------------
// Resuming an event stream (MCP spec, Streamable HTTP, "Resumability and redelivery")
// ---------------------------------------------------------------------------------------------------

/**
 * Times one answer's event stream is resumed (GET with Last-Event-ID) after it closed before the answer.
 * Each resumption still runs inside the step's own limit and the check's deadline.
 */
export const MAX_SSE_RESUMPTIONS = 3;

/** The wait before a resumption when the server sent no `retry` field. */
export const SSE_DEFAULT_RETRY_MS = 1_000;

/** The longest wait honoured: a larger `retry` is cut to this, so a server cannot park the check. */
export const SSE_MAX_RETRY_WAIT_MS = 5_000;

// ---------------------------------------------------------------------------------------------------
// Sign-in discovery (MCP spec, Authorization; RFC 9728 and RFC 8414), read after a 401 or 403
// ---------------------------------------------------------------------------------------------------

/** OAuth authorization server metadata (RFC 8414), inserted before the issuer's path. */
export const OAUTH_AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server';

/** OpenID Connect discovery, tried after the OAuth document, inserted before and then appended after the path. */
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';

/** Every read of sign-in discovery together (each read keeps WELL_KNOWN_TIMEOUT_MS inside it). */
export const AUTH_DISCOVERY_BUDGET_MS = 8_000;

// ---------------------------------------------------------------------------------------------------
// The MCP conformance suite (`check --conformance`)
// ---------------------------------------------------------------------------------------------------

/**
 * The suite's server scenarios that fit any server and call no tool: what `check --conformance` runs by default.
 * The suite's other scenarios need the tools, resources or prompts of its own test server, and most call a tool.
 */
export const CONFORMANCE_BASE_SCENARIOS: readonly string[] = Object.freeze(['server-initialize', 'ping', 'tools-list']);

/** Added for a loopback URL: a local server must refuse a request naming another host (DNS rebinding). */
export const CONFORMANCE_LOOPBACK_SCENARIOS: readonly string[] = Object.freeze(['dns-rebinding-protection']);

/** Added when the server declares the capability in initialize: the scenario that needs only that capability. */
export const CONFORMANCE_CAPABILITY_SCENARIOS: Readonly<Record<string, string>> = Object.freeze({
  logging: 'logging-set-level',
  resources: 'resources-list',
  prompts: 'prompts-list',
});

/** How long one scenario's process may run before it is stopped and the scenario fails. */
export const CONFORMANCE_SCENARIO_TIMEOUT_MS = 60_000;
