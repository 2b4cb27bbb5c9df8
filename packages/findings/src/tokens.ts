// Pure module: the token estimate of a tool list.

import { describeType } from '@mcp-atlas/base';
import { CHARS_PER_TOKEN } from './constants.js';
import { FindingsInputError } from './errors.js';

/** @internal Throws unless `toolsJson` is a string; `where` names the function for the message. */
export function assertToolsJson(toolsJson: unknown, where: string): asserts toolsJson is string {
  if (typeof toolsJson !== 'string') {
    throw new FindingsInputError(
      'tools-json-not-string',
      `${where} must be the JSON text of the tools array, got ${describeType(toolsJson)}`,
    );
  }
}

/**
 * Estimates how many tokens a tool list costs an agent: the length of `toolsJson` divided by
 * CHARS_PER_TOKEN (4), rounded to the nearest integer with halves rounding up. `toolsJson` must be the
 * JSON text of the tools array exactly as the server sent it (every page), never a re-serialization;
 * length counts UTF-16 code units, as `String.prototype.length` does. Real counts depend on each
 * model's tokenizer; this is the same yardstick for every server. Throws {@link FindingsInputError}
 * (`tools-json-not-string`) for a non-string.
 *
 * @example estimateTokens('[{"name":"ping"}]') // 4 (17 characters / 4 = 4.25)
 */
export function estimateTokens(toolsJson: string): number {
  assertToolsJson(toolsJson, 'estimateTokens: toolsJson');
  return Math.round(toolsJson.length / CHARS_PER_TOKEN);
}
