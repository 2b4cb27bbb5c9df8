// Pure module: safe readers for one entry of a tools array. Entries come from untrusted servers and
// may be any JSON value, so every reader accepts `unknown` and answers without throwing.
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from './constants.js';

/**
 * True for a JSON object (not null, not an array). Tools, input schemas and annotations must be one.
 *
 * @example isJsonObject({}) // true;  isJsonObject([]) // false
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The tool's name when it is a string, else null (an entry that is not an object, a missing name, or
 * a name of another type). The empty string is a name.
 *
 * @example readToolName({ name: 'get_page' }) // 'get_page';  readToolName({ name: 7 }) // null
 */
export function readToolName(tool: unknown): string | null {
  if (!isJsonObject(tool)) return null;
  const name = tool.name;
  return typeof name === 'string' ? name : null;
}

/**
 * How findings and diffs refer to an entry: its name when it has a string name, else its position in
 * the tools array written as `tools[i]` (zero-based), so an unnamed entry can still be found.
 *
 * @example labelTool({ name: 'get_page' }, 0) // 'get_page';  labelTool(42, 3) // 'tools[3]'
 */
export function labelTool(tool: unknown, index: number): string {
  return readToolName(tool) ?? `tools[${index}]`;
}

/**
 * The tool's description when it is a string, else null.
 *
 * @example readToolDescription({ name: 'a', description: 'Reads a page.' }) // 'Reads a page.'
 */
export function readToolDescription(tool: unknown): string | null {
  if (!isJsonObject(tool)) return null;
  const description = tool.description;
  return typeof description === 'string' ? description : null;
}

/**
 * True when the tool has a description a reader can use: a string with something other than
 * whitespace. An entry that is not an object, a missing description, one of another type, or a blank
 * one all count as missing.
 *
 * @example hasDescription({ name: 'a', description: '   ' }) // false
 */
export function hasDescription(tool: unknown): boolean {
  return isNonBlank(readToolDescription(tool));
}

// Code units up to this one are the ASCII controls and the space; above it, up to DEL, every one is
// printable and so not whitespace.
const LAST_ASCII_BLANK = 0x20;
const ASCII_DEL = 0x7f;

/** @internal True for a string with something other than whitespace (as String.prototype.trim sees it). */
export function isNonBlank(text: string | null): boolean {
  if (text === null || text.length === 0) return false;
  // Almost every real description starts with a printable ASCII character: no need to trim it.
  const first = text.charCodeAt(0);
  if (first > LAST_ASCII_BLANK && first < ASCII_DEL) return true;
  return text.trim().length > 0;
}

/**
 * True when the entry carries an annotations object (a JSON object, even an empty one), the same test
 * @mcp-atlas/risk uses to decide whether a server publishes annotations.
 *
 * @example hasAnnotations({ name: 'a', annotations: { readOnlyHint: true } }) // true
 */
export function hasAnnotations(tool: unknown): boolean {
  return isJsonObject(tool) && isJsonObject(tool.annotations);
}

/**
 * True when a value can be read as an input schema: a JSON object no deeper than MAX_SCHEMA_DEPTH
 * (the schema itself is depth 1) and holding no more than MAX_SCHEMA_NODES JSON values (itself
 * included). The walk stops as soon as a limit is passed, so a huge or endlessly nested value costs at
 * most about MAX_SCHEMA_NODES steps.
 *
 * @example isUsableSchema({ type: 'object', properties: {} }) // true;  isUsableSchema('object') // false
 */
export function isUsableSchema(schema: unknown): boolean {
  return isJsonObject(schema) && valuesLeftAfter(schema, 1, MAX_SCHEMA_NODES) >= 0;
}

/**
 * Walks `value` at `depth`, allowed `budget` more values; returns how many are still allowed after it,
 * or -1 as soon as the value count or a container's depth passes its limit. Recursion is safe: it never
 * goes deeper than MAX_SCHEMA_DEPTH + 1 calls. Primitives are counted inline, being most of a schema.
 */
function valuesLeftAfter(value: unknown, depth: number, budget: number): number {
  let left = budget - 1;
  if (left < 0) return -1;
  if (typeof value !== 'object' || value === null) return left;
  if (depth > MAX_SCHEMA_DEPTH) return -1;
  const children: readonly unknown[] = Array.isArray(value) ? value : Object.values(value);
  // Every child is at least one more value: refuse now rather than walk them.
  if (children.length > left) return -1;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (typeof child === 'object' && child !== null) {
      left = valuesLeftAfter(child, depth + 1, left);
      if (left < 0) return -1;
    } else if (--left < 0) {
      return -1;
    }
  }
  return left;
}

/**
 * True when the entry declares an input schema that can be read (see {@link isUsableSchema}).
 * An entry that is not an object, a missing `inputSchema`, one that is not an object, or one past the
 * size limits all count as missing.
 *
 * @example hasInputSchema({ name: 'a', inputSchema: { type: 'object' } }) // true
 */
export function hasInputSchema(tool: unknown): boolean {
  return isJsonObject(tool) && isUsableSchema(tool.inputSchema);
}
