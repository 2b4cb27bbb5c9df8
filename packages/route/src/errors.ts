// Pure module: the one error type this package throws, for bad input from a caller (never for a tool
// list from a server, which is untrusted data and handled as such).

/** What kind of caller mistake a {@link RouteInputError} reports. */
export type RouteInputErrorCode =
  | 'invalid-servers'
  | 'invalid-server'
  | 'duplicate-server-id'
  | 'invalid-index'
  | 'invalid-query'
  | 'invalid-option'
  | 'now-required'
  | 'invalid-jobs'
  | 'invalid-search-result';

/**
 * Thrown when a caller passes input this package cannot use: a server without an id, a success chance
 * outside 0 to 1, a limit that is not a whole number, a malformed evaluation job. `code` says which kind;
 * the message names the field and, where there is one, the server or job.
 *
 * @example
 * try { createToolIndex([{ id: '', tools: [] }]); }
 * catch (error) { if (error instanceof RouteInputError) console.log(error.code); } // 'invalid-server'
 */
export class RouteInputError extends Error {
  readonly code: RouteInputErrorCode;

  constructor(code: RouteInputErrorCode, message: string) {
    super(message);
    this.name = 'RouteInputError';
    this.code = code;
  }
}
