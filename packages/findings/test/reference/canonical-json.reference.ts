// Test oracle: the canonical JSON writer as it was before the JSON.stringify fast route (version 0.1.0),
// kept unchanged apart from its names and imports. It builds every text piece by piece in JavaScript,
// which is slow but easy to check against RFC 8785. The property tests require the package's output to
// equal this one for any value, so the fast route can never change a published hash.

import { CANONICAL_RECURSION_LIMIT, RENAME_MATCH_FIELDS, TOOL_HASH_FIELDS } from '../../src/constants.js';
import { FindingsInputError } from '../../src/errors.js';

// `undefined` means "no JSON text": such a value is left out of an object and written as null in an
// array, the way JSON.stringify treats undefined, functions and symbols.
type Written = string | undefined;

// Each field with its quoted key, in sorted key order, so a tool's text is written without a copy.
function quotedFields(fields: readonly string[]): readonly (readonly [string, string])[] {
  return [...fields].sort().map((key) => [key, `${JSON.stringify(key)}:`] as const);
}

const TOOL_FIELD_KEYS = quotedFields(TOOL_HASH_FIELDS);
const CONTENT_FIELD_KEYS = quotedFields(RENAME_MATCH_FIELDS);

function writeNumber(value: number): string {
  // NaN and the infinities have no JSON spelling; String(-0) is already "0".
  return Number.isFinite(value) ? String(value) : 'null';
}

/** Writes a value that holds no other values, or returns undefined when it has no JSON form. */
function writePrimitive(value: unknown): Written {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return writeNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      // A parser that reads big integers as bigint must hash like JSON.parse, which reads a number.
      return writeNumber(Number(value));
    case 'object':
      return value === null ? 'null' : undefined;
    default:
      return undefined;
  }
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function writeValue(value: unknown, depth: number): Written {
  if (!isContainer(value)) return writePrimitive(value);
  if (depth >= CANONICAL_RECURSION_LIMIT) return writeDeep(value);
  return Array.isArray(value) ? writeArray(value, depth + 1) : writeObject(value as Record<string, unknown>, depth + 1);
}

function writeArray(items: readonly unknown[], depth: number): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += writeValue(items[i], depth) ?? 'null';
  }
  return `${out}]`;
}

function writeObject(source: Record<string, unknown>, depth: number): string {
  const keys = Object.keys(source).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const text = writeValue(source[key], depth);
    if (text === undefined) continue;
    out += `${(first ? '' : ',') + JSON.stringify(key)}:${text}`;
    first = false;
  }
  return `${out}}`;
}

interface DeepFrame {
  readonly container: object;
  readonly isArray: boolean;
  // For an array, the items; for an object, its sorted keys.
  readonly keys: readonly string[] | null;
  readonly parts: string[];
  next: number;
  // The key under which the open child frame will be written (objects only).
  pendingKey: string | null;
}

function openFrame(container: object, ancestors: Set<object>): DeepFrame {
  if (ancestors.has(container)) {
    throw new FindingsInputError(
      'value-has-cycle',
      'canonicalJson: the value refers to itself, and only JSON values (which never do) have a canonical form',
    );
  }
  ancestors.add(container);
  const isArray = Array.isArray(container);
  const keys = isArray ? null : Object.keys(container).sort();
  return { container, isArray, keys, parts: [], next: 0, pendingKey: null };
}

function closeFrame(frame: DeepFrame): string {
  const body = frame.parts.join(',');
  return frame.isArray ? `[${body}]` : `{${body}}`;
}

function appendChild(frame: DeepFrame, key: string | null, text: Written): void {
  if (frame.isArray) frame.parts.push(text ?? 'null');
  else if (text !== undefined) frame.parts.push(`${JSON.stringify(key)}:${text}`);
}

/**
 * The same output as the recursive writer, with an explicit stack, for values nested deeper than
 * CANONICAL_RECURSION_LIMIT. It also tracks the open containers, so a reference cycle (which can only
 * come from a caller, never from JSON text) is a typed error instead of a hang.
 */
function writeDeep(root: object): string {
  const ancestors = new Set<object>();
  const stack: DeepFrame[] = [openFrame(root, ancestors)];
  for (;;) {
    const frame = stack[stack.length - 1] as DeepFrame;
    const size = frame.keys === null ? (frame.container as unknown[]).length : frame.keys.length;
    if (frame.next < size) {
      const index = frame.next++;
      const key = frame.keys === null ? null : (frame.keys[index] as string);
      const child =
        key === null ? (frame.container as unknown[])[index] : (frame.container as Record<string, unknown>)[key];
      if (isContainer(child)) {
        frame.pendingKey = key;
        stack.push(openFrame(child, ancestors));
      } else {
        appendChild(frame, key, writePrimitive(child));
      }
      continue;
    }
    stack.pop();
    ancestors.delete(frame.container);
    const text = closeFrame(frame);
    const parent = stack[stack.length - 1];
    if (parent === undefined) return text;
    appendChild(parent, parent.pendingKey, text);
  }
}

/**
 * The canonical JSON text of a value: keys sorted at every depth, no whitespace, numbers in their
 * shortest form (RFC 8785 style). Two values that JSON.parse would read from texts differing only in
 * key order, whitespace or number spelling get the same text. Defined for any JSON value at any depth.
 * Values JSON has no form for are treated the way JSON.stringify treats them (undefined, functions and
 * symbols are left out of objects and become null in arrays or at the top; NaN and infinities become
 * null); a bigint is written as the number JSON.parse would read; other objects are read through their
 * own enumerable string keys. Throws {@link FindingsInputError} (`value-has-cycle`) only for a value
 * that contains itself.
 *
 * @example canonicalJson({ b: [1.0, 'x'], a: { d: 1e2, c: null } }) // '{"a":{"c":null,"d":100},"b":[1,"x"]}'
 */
export function referenceCanonicalJson(value: unknown): string {
  return writeValue(value, 0) ?? 'null';
}

/**
 * @internal The canonical JSON of the fields a tool hash covers (TOOL_HASH_FIELDS: annotations,
 * description, inputSchema, name; absent ones left out). Written directly rather than through a picked
 * copy, which gives the same text as `canonicalJson` of that copy. A value that is not a tool object is
 * written whole, so it can never collide with a tool object's text.
 */
export function referenceCanonicalToolJson(tool: unknown): string {
  if (!isContainer(tool) || Array.isArray(tool)) return referenceCanonicalJson(tool);
  return writeFields(tool as Record<string, unknown>, TOOL_FIELD_KEYS);
}

/** @internal The canonical JSON of the fields a rename must keep (RENAME_MATCH_FIELDS). */
export function referenceCanonicalContentJson(tool: Record<string, unknown>): string {
  return writeFields(tool, CONTENT_FIELD_KEYS);
}

function writeFields(source: Record<string, unknown>, fields: readonly (readonly [string, string])[]): string {
  let out = '{';
  let first = true;
  for (const [key, quoted] of fields) {
    const text = writeValue(source[key], 1);
    if (text === undefined) continue;
    out += (first ? '' : ',') + quoted + text;
    first = false;
  }
  return `${out}}`;
}
