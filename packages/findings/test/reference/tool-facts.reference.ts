// Test oracle: the input-schema walk and the description test as they were in version 0.1.0, kept
// unchanged apart from their names. The package now walks schemas recursively and skips trim() for
// descriptions that start with a printable ASCII character; the property tests require the same answers.
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from '../../src/constants.js';

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The 0.1.0 schema walk: two explicit stacks, a value count and a depth per value. */
export function referenceIsUsableSchema(schema: unknown): boolean {
  if (!isJsonObject(schema)) return false;
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
    if (nodes + values.length + children.length > MAX_SCHEMA_NODES) return false;
    for (const child of children) {
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return true;
}

/** The 0.1.0 description test: a string that is not empty once trimmed. */
export function referenceHasDescription(tool: unknown): boolean {
  if (!isJsonObject(tool)) return false;
  const description = tool.description;
  return typeof description === 'string' && description.trim().length > 0;
}
