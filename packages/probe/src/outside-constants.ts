// Pure module: the addresses, time limits, size caps and counts of the outside services the probe reads for
// the app (RDAP for a domain's age, the npm and PyPI registries for a package's current version, OSV for
// its known vulnerabilities). Like src/constants.ts, nothing else in the package may hold one of these
// numbers; they sit in their own file because they concern services other than the MCP servers checked.

// ---------------------------------------------------------------------------------------------------
// Default addresses (each one can be replaced through the reader's options)
// ---------------------------------------------------------------------------------------------------

/** The RDAP service asked first; rdap.org redirects to the registry that holds the domain's record. */
export const DEFAULT_RDAP_URL = 'https://rdap.org';

/** The public npm registry. */
export const DEFAULT_NPM_REGISTRY_URL = 'https://registry.npmjs.org';

/** The Python Package Index (its JSON API lives under `/pypi/<name>/json`). */
export const DEFAULT_PYPI_URL = 'https://pypi.org';

/** npm's download counts API: `<base>/downloads/point/last-week/<name>`. */
export const DEFAULT_NPM_DOWNLOADS_URL = 'https://api.npmjs.org';

/** PyPI's download counts (pypistats.org, PyPI's own figures): `<base>/api/packages/<name>/recent`. */
export const DEFAULT_PYPI_STATS_URL = 'https://pypistats.org';

/** The OSV API (`POST /v1/querybatch`). */
export const DEFAULT_OSV_URL = 'https://api.osv.dev';

// ---------------------------------------------------------------------------------------------------
// Headers a caller adds to a request, and headers it asks to get back
// ---------------------------------------------------------------------------------------------------

/**
 * Request headers a caller of an outside read may not set (names lower-case). `host` would send a name other
 * than the one whose addresses were checked and pinned; the hop-by-hop headers (RFC 9110 section 7.6.1, with
 * `keep-alive` and `proxy-connection`, which proxies still honour) and the framing headers belong to the HTTP
 * client; the last four the request writes itself, so the probe's identity and decompression stay as stated.
 */
export const OUTSIDE_REFUSED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'user-agent',
  'accept',
  'accept-encoding',
  'content-type',
]);

/**
 * Request headers that carry a credential (names lower-case). They go only to the origin of the request's first
 * URL: a redirect to another origin is followed without them, as browsers do with `authorization`. Their secret
 * part (what follows the scheme, `Bearer <token>` gives `<token>`) is replaced by REDACTED_CREDENTIAL wherever
 * an answer would carry it, so no result or message can hand it on.
 */
export const OUTSIDE_CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'cookie', 'x-api-key']);

/** What stands in an answer where a credential a request sent would have stood. */
export const REDACTED_CREDENTIAL = '[token]';

// ---------------------------------------------------------------------------------------------------
// RDAP
// ---------------------------------------------------------------------------------------------------

/** One RDAP lookup, redirect hops included. */
export const RDAP_TIMEOUT_MS = 10_000;

/** An RDAP domain record; real ones are a few kilobytes, entities and notices included. */
export const RDAP_CAP_BYTES = 512 * 1024;

/** Redirects followed: rdap.org answers with one to the registry's own server; a second is allowed for registries that move. */
export const RDAP_MAX_REDIRECTS = 3;

/** The `Accept` header of an RDAP lookup (RFC 7480), with plain JSON as a fallback. */
export const RDAP_ACCEPT = 'application/rdap+json, application/json;q=0.9';

/** The RDAP event whose date is the domain's registration (RFC 9083, section 10.2.3). */
export const RDAP_REGISTRATION_EVENT = 'registration';

// ---------------------------------------------------------------------------------------------------
// Package registries
// ---------------------------------------------------------------------------------------------------

/** One package document from npm or PyPI, redirect hops included. */
export const PACKAGE_METADATA_TIMEOUT_MS = 15_000;

/**
 * A package document. npm's abbreviated document and PyPI's JSON API list every published version, so a
 * package with a long history runs to megabytes; past this cap the package is reported, not read.
 */
export const PACKAGE_METADATA_CAP_BYTES = 16 * 1024 * 1024;

/** Redirects followed for a package document (PyPI answers a non-canonical name with one). */
export const PACKAGE_METADATA_MAX_REDIRECTS = 2;

/** npm's abbreviated package document: dist-tags and versions without readmes, much smaller than the full one. */
export const NPM_ACCEPT = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8';

/** The dist-tag that names a package's current version on npm. */
export const NPM_LATEST_TAG = 'latest';

/** The longest npm package name the registry accepts (scope included). */
export const NPM_NAME_MAX_LENGTH = 214;

/** A longer PyPI project name is refused before any request (no real project name comes close). */
export const PYPI_NAME_MAX_LENGTH = 200;

/** A version string longer than this, from any service, is treated as a broken answer. */
export const PACKAGE_VERSION_MAX_LENGTH = 128;

// ---------------------------------------------------------------------------------------------------
// OSV
// ---------------------------------------------------------------------------------------------------

/** The batch query path under the OSV base URL. */
export const OSV_QUERY_BATCH_PATH = '/v1/querybatch';

/** Queries per request: the OSV API accepts at most 1,000 in one batch. */
export const OSV_BATCH_MAX_QUERIES = 1_000;

/** One querybatch request. */
export const OSV_TIMEOUT_MS = 30_000;

/** One querybatch answer (ids and modification times only, so it stays small). */
export const OSV_ANSWER_CAP_BYTES = 8 * 1024 * 1024;

/**
 * Rounds of follow-up requests for queries whose answer carried a `next_page_token` (a package with more
 * vulnerabilities than one page holds). A query still unfinished after these rounds is marked truncated.
 */
export const OSV_MAX_PAGE_ROUNDS = 5;

/** A vulnerability id longer than this is not an OSV id; the answer is refused. */
export const OSV_ID_MAX_LENGTH = 128;
