// Runtime-neutral module: extra request headers (a token, a tenant name) sent only to one origin. A caller's
// `Authorization` must reach the server it was meant for and nothing else the check talks to: not the origin a
// redirect leads to, and not an authorization server whose metadata sign-in discovery reads. The probe's own
// protocol headers (content type, accept, protocol version, session id) win over an extra one of the same name,
// so no extra header can break the handshake. Values are never recorded: a result holds no request header.
import { ProbeInputError } from './errors.js';
import type { HttpClientFactory } from './http.js';

// RFC 9110 token characters: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers the HTTP layer owns: an extra value for one of them would break the request, so they are refused. */
const REFUSED_HEADER_NAMES: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
]);

/** The most extra headers one check takes, and the longest value: enough for any token, never a body. */
export const EXTRA_HEADERS_MAX = 32;
export const EXTRA_HEADER_VALUE_MAX_CHARS = 8_192;

/**
 * Checks `headers` (a plain object of name to value) and returns them with lower-cased names. Throws
 * ProbeInputError for a name that is not a token or that the HTTP layer owns, a value that is not a string or
 * holds a control character, or too many headers. No message quotes a value: it is usually a secret.
 */
export function checkExtraHeaders(headers: unknown): Readonly<Record<string, string>> {
  if (headers === undefined) return {};
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers))
    throw new ProbeInputError('invalid-option', 'headers must be an object of header names to values');
  const entries = Object.entries(headers as Record<string, unknown>);
  if (entries.length > EXTRA_HEADERS_MAX)
    throw new ProbeInputError('invalid-option', `headers takes at most ${EXTRA_HEADERS_MAX} headers`);
  const checked: Record<string, string> = {};
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name) || REFUSED_HEADER_NAMES.has(lower))
      throw new ProbeInputError('invalid-option', `headers: "${name.slice(0, 64)}" is not a header a check may set`);
    if (typeof value !== 'string' || value.length > EXTRA_HEADER_VALUE_MAX_CHARS || /[\x00-\x1f\x7f]/.test(value))
      throw new ProbeInputError(
        'invalid-option',
        `headers: the value of ${lower} must be a string of at most ${EXTRA_HEADER_VALUE_MAX_CHARS} characters with no control characters`,
      );
    checked[lower] = value;
  }
  return checked;
}

/**
 * Wraps an HTTP client factory so that every request to `origin` (scheme, host and port, as `new URL(u).origin`
 * gives it) carries `headers`, under the request's own headers; a request to any other origin goes out as it was.
 *
 * @example
 * const httpClient = withOriginHeaders(nodeNetwork.httpClient, 'https://mcp.example.com', { authorization: 'Bearer …' });
 */
export function withOriginHeaders(
  factory: HttpClientFactory,
  origin: string,
  headers: Readonly<Record<string, string>>,
): HttpClientFactory {
  if (Object.keys(headers).length === 0) return factory;
  return () => {
    const client = factory();
    return {
      request: (request) =>
        client.request(
          new URL(request.url).origin === origin
            ? { ...request, headers: { ...headers, ...request.headers } }
            : request,
        ),
      close: () => client.close(),
    };
  };
}
