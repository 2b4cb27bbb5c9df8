// Pure module: safe readers for one entry of a tools array. Entries come from untrusted servers and
// may be any JSON value, so every reader accepts `unknown` and answers without throwing.
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from './rules.js';

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
  const description = readToolDescription(tool);
  return description !== null && description.trim().length > 0;
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
  if (!isJsonObject(schema)) return false;
  // Two parallel stacks instead of [value, depth] pairs, to avoid one allocation per value.
  const values: unknown[] = [schema];
  const depths: number[] = [1];
  let nodes = 0;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    nodes++;
    if (nodes > MAX_SCHEMA_NODES) return false;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_SCHEMA_DEPTH) return false;
    const children = Array.isArray(value) ? value : Object.values(value);
    // Every pending value and child is at least one more value: refuse now rather than push them all.
    if (nodes + values.length + children.length > MAX_SCHEMA_NODES) return false;
    for (const child of children) {
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return true;
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
