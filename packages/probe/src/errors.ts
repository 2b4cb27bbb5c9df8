// Pure module: the errors this package throws. Only a caller breaking the API contract, or a registry
// that cannot be read, throws; whatever a probed server does comes back as a result.

/** Which contract a caller broke; stable, so callers can branch on it rather than on the message. */
export type ProbeInputErrorCode =
  | 'url-not-string'
  | 'invalid-option'
  | 'invalid-agent-token'
  | 'invalid-origin'
  | 'invalid-command';

/**
 * Thrown when a caller passes something the API does not accept: a URL that is not a string, an option
 * of the wrong type or out of range (a negative `deadlineMs`, an empty `protocolVersion`, a user agent
 * with a line break), a robots token with characters RFC 9309 does not allow, an origin that is not an
 * origin, or an empty stdio command. Like every package's error class it extends `Error`, and its kebab-case
 * `code` says which case. A URL string that
 * does not parse is not an input error: it is refused by the guard (`guard:invalid-url`), because
 * registry data is full of them.
 *
 * @example
 * try { await probeServer(url, { deadlineMs: -1 }) } catch (error) {
 *   if (error instanceof ProbeInputError && error.code === 'invalid-option') console.error(error.message);
 * }
 */
export class ProbeInputError extends Error {
  readonly code: ProbeInputErrorCode;

  constructor(code: ProbeInputErrorCode, message: string) {
    super(message);
    this.name = 'ProbeInputError';
    this.code = code;
  }
}

/**
 * Thrown by `listRegistryServers` when a registry page cannot be read (refused by the guard, no answer,
 * an HTTP error, a page that is not a registry page). Ending the listing quietly instead would make a
 * registry outage look like every server leaving it. `page` is the 1-based page that failed, `status` the
 * HTTP status when there was one, and `code` is always `registry-unreadable`.
 */
export class RegistryReadError extends Error {
  /** The one case of this error, kebab-case like every package's codes. */
  readonly code = 'registry-unreadable' as const;
  readonly page: number;
  readonly status: number | null;

  constructor(message: string, page: number, status: number | null) {
    super(message);
    this.name = 'RegistryReadError';
    this.page = page;
    this.status = status;
  }
}
