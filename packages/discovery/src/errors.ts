/**
 * The one error type of @mcp-atlas/discovery. Pure module. A malformed directory entry is data, not an error:
 * the merge leaves it out and says why. Only a call the merge cannot interpret at all (no day, no list) throws.
 */

/** Machine-readable reason of a {@link DiscoveryInputError}. */
export type DiscoveryInputErrorCode = 'invalid-day' | 'invalid-reads' | 'invalid-catalog';

/**
 * Thrown for a call the merge cannot interpret: `code` names the problem, `field` the argument at fault.
 *
 * @example
 * try { mergeCatalog([], [], 'today'); } catch (e) {
 *   if (e instanceof DiscoveryInputError) console.log(e.code); // 'invalid-day'
 * }
 */
export class DiscoveryInputError extends Error {
  override readonly name = 'DiscoveryInputError';
  readonly code: DiscoveryInputErrorCode;
  readonly field: string;

  constructor(code: DiscoveryInputErrorCode, field: string, message: string) {
    super(`${field}: ${message}`);
    this.code = code;
    this.field = field;
  }
}
