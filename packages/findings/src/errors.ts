// Pure module: the one error this package throws, for callers that break the API contract.
// Anything a server sends (any JSON value inside a tools array) is a result, never an error.
import { describeType } from '@mcp-atlas/base';

/** Which contract a caller broke; stable, so callers can branch on it instead of on the message. */
export type FindingsInputErrorCode =
  | 'tools-not-array'
  | 'tools-json-not-string'
  | 'input-not-object'
  | 'not-a-tool-hash'
  | 'value-has-cycle'
  | 'sha256-not-a-function'
  | 'sha256-wrong-digest';

/**
 * Thrown when a caller passes something the API does not accept: a `tools` that is not an array, a
 * `toolsJson` that is not a string, an input or a diff side that is not an object, a tool hash that is not 64 hex
 * digits, a value with a reference cycle to hash (no JSON text can produce one), or an injected
 * `sha256` (see `HashOptions`) that is not a function or does not return 32 bytes. It extends
 * `Error` (like every package of the monorepo; before this release it extended `TypeError`), and `code` says which
 * case. Nothing inside a tools array ever causes it.
 *
 * @example
 * try { hashToolList(notAnArray as unknown[]) } catch (error) {
 *   if (error instanceof FindingsInputError && error.code === 'tools-not-array') { ... }
 * }
 */
export class FindingsInputError extends Error {
  readonly code: FindingsInputErrorCode;

  constructor(code: FindingsInputErrorCode, message: string) {
    super(message);
    this.name = 'FindingsInputError';
    this.code = code;
  }
}

/** @internal Throws unless `tools` is an array; `where` names the function and argument for the message. */
export function assertToolsArray(tools: unknown, where: string): asserts tools is readonly unknown[] {
  if (!Array.isArray(tools)) {
    throw new FindingsInputError('tools-not-array', `${where} must be an array of tools, got ${describeType(tools)}`);
  }
}

/** @internal Throws unless `value` is a (non-array) object; `where` names the function and argument. */
export function assertInputObject(value: unknown, where: string): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FindingsInputError('input-not-object', `${where} must be an object, got ${describeType(value)}`);
  }
}
