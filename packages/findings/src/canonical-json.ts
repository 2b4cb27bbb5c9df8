// Pure module: canonical JSON, the exact text that tool hashes are computed over.
//
// The output follows the JSON Canonicalization Scheme (RFC 8785) for every JSON value: object keys
// sorted by UTF-16 code units at every depth, no whitespace, numbers in ECMAScript's shortest
// round-trip form, strings escaped as JSON.stringify escapes them. Because the input is an already
// parsed value, whitespace and number spelling in the server's text (1, 1.0, 1e0) cannot change it.
//
// Two routes give the same text. The fast route walks the value once, keeps every object whose keys are
// already in canonical order, copies the others with their keys sorted, and hands the result to the
// engine's JSON.stringify, which writes the numbers, escapes the strings and joins the text in one
// native pass: much cheaper than building the text piece by piece in JavaScript. It steps aside for the
// rare values where JSON.stringify's own rules would differ from canonical order (keys that look like
// array indexes, which engines always list first and in numeric order; a "__proto__" key, which a plain
// copy cannot hold; toJSON on the shared prototypes), and for nesting past CANONICAL_RECURSION_LIMIT.
// The general writer, further down, handles those, and catches reference cycles. The fast route may
// read a property more than once; parsed JSON has no getters, so only a getter that answers differently
// each time could tell.

import { CANONICAL_RECURSION_LIMIT, RENAME_MATCH_FIELDS, TOOL_HASH_FIELDS } from './constants.js';
import { FindingsInputError } from './errors.js';

// ---------------------------------------------------------------------------------------------------
// Fast route: prepare a value JSON.stringify writes canonically, then stringify it.

// Returned by prepareValue when only the general writer can produce the canonical text.
const NEEDS_WRITER: unique symbol = Symbol('needs the general writer');
type Prepared = unknown;

const OBJECT_PROTOTYPE: unknown = Object.prototype;
const CHAR_0 = 0x30;
const CHAR_9 = 0x39;
const CHAR_UNDERSCORE = 0x5f;
const CHAR_T = 0x74;

/**
 * JSON.stringify calls a `toJSON` method it finds on any object, inherited ones included. Canonical JSON
 * never does, so when some code has put one on Object.prototype or Array.prototype every value takes the
 * general writer. Checked once per call: it is two property reads.
 */
function prototypesHaveToJson(): boolean {
  return (
    typeof (Object.prototype as { toJSON?: unknown }).toJSON === 'function' ||
    typeof (Array.prototype as { toJSON?: unknown }).toJSON === 'function'
  );
}

/** Values an object leaves out and an array writes as null, as in JSON.stringify. */
function hasNoJsonForm(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * The value itself when JSON.stringify already writes it canonically, else a copy that it does
 * (keys sorted, bigints as numbers, toJSON methods dropped), or NEEDS_WRITER. Only containers are copied,
 * and only those that need it or hold something that does, so well-ordered values cost no allocation.
 */
function prepareValue(value: unknown, depth: number): Prepared {
  if (typeof value !== 'object' || value === null) {
    // JSON.stringify throws on a bigint; canonical JSON writes the number JSON.parse would read.
    return typeof value === 'bigint' ? Number(value) : value;
  }
  if (depth >= CANONICAL_RECURSION_LIMIT) return NEEDS_WRITER;
  return Array.isArray(value)
    ? prepareArray(value, depth + 1)
    : prepareObject(value as Record<string, unknown>, depth + 1);
}

function prepareArray(items: readonly unknown[], depth: number): Prepared {
  // An array's own toJSON would be called by JSON.stringify; a copy has none.
  let copy: unknown[] | null = typeof (items as { toJSON?: unknown }).toJSON === 'function' ? [] : null;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const prepared = prepareValue(item, depth);
    if (prepared === NEEDS_WRITER) return NEEDS_WRITER;
    if (copy !== null) copy.push(prepared);
    else if (prepared !== item) {
      copy = items.slice(0, i);
      copy.push(prepared);
    }
  }
  return copy ?? items;
}

function prepareObject(source: Record<string, unknown>, depth: number): Prepared {
  const keys = Object.keys(source);
  const count = keys.length;
  // A copy is needed when keys are out of order, when the object could carry a toJSON method (its own,
  // or one from a prototype other than Object.prototype, as a Date has), and when a child was copied.
  const prototype: unknown = Object.getPrototypeOf(source);
  let copyNeeded = prototype !== OBJECT_PROTOTYPE && prototype !== null;
  let previous = '';
  for (let i = 0; i < count; i++) {
    const key = keys[i] as string;
    const first = key.charCodeAt(0);
    // Engines list array-index keys first, in numeric order, whatever order a copy inserts them in.
    if (first >= CHAR_0 && first <= CHAR_9) return NEEDS_WRITER;
    if (first === CHAR_UNDERSCORE && key === '__proto__') return NEEDS_WRITER;
    if (first === CHAR_T && key === 'toJSON') copyNeeded = true;
    if (key < previous) copyNeeded = true;
    previous = key;
  }
  if (copyNeeded) keys.sort();
  let copy: Record<string, unknown> | null = copyNeeded ? {} : null;
  for (let i = 0; i < count; i++) {
    const key = keys[i] as string;
    const child = source[key];
    const prepared = prepareValue(child, depth);
    if (prepared === NEEDS_WRITER) return NEEDS_WRITER;
    if (copy === null) {
      if (prepared === child) continue;
      copy = copyKeys(source, keys, i);
    }
    if (!hasNoJsonForm(prepared)) copy[key] = prepared;
  }
  return copy ?? source;
}

// A copy of the first `end` keys, whose values were kept as they are. The keys are never "__proto__" nor
// array indexes, so a plain object keeps them in insertion order.
function copyKeys(source: Record<string, unknown>, keys: readonly string[], end: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (let j = 0; j < end; j++) {
    const key = keys[j] as string;
    const value = source[key];
    if (!hasNoJsonForm(value)) copy[key] = value;
  }
  return copy;
}

// The chosen fields of a tool object, in the given (sorted) order, or NEEDS_WRITER.
function prepareFields(source: Record<string, unknown>, fields: readonly string[]): Prepared {
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    const prepared = prepareValue(source[field], 1);
    if (prepared === NEEDS_WRITER) return NEEDS_WRITER;
    if (!hasNoJsonForm(prepared)) picked[field] = prepared;
  }
  return picked;
}

// ---------------------------------------------------------------------------------------------------
// General writer: builds the canonical text itself. Used where the fast route steps aside.

// `undefined` means "no JSON text": such a value is left out of an object and written as null in an
// array, the way JSON.stringify treats undefined, functions and symbols.
type Written = string | undefined;

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

function writeFields(source: Record<string, unknown>, fields: readonly string[]): string {
  let out = '{';
  let first = true;
  for (const key of fields) {
    const text = writeValue(source[key], 1);
    if (text === undefined) continue;
    out += `${(first ? '' : ',') + JSON.stringify(key)}:${text}`;
    first = false;
  }
  return `${out}}`;
}

// ---------------------------------------------------------------------------------------------------
// Public entry points.

// The fields in canonical (sorted) order, so a tool's text is written without sorting them each time.
const TOOL_FIELDS: readonly string[] = [...TOOL_HASH_FIELDS].sort();
const CONTENT_FIELDS: readonly string[] = [...RENAME_MATCH_FIELDS].sort();

/**
 * The canonical JSON text of a value: keys sorted at every depth, no whitespace, numbers in their
 * shortest form (RFC 8785 style). Two values that JSON.parse would read from texts differing only in
 * key order, whitespace or number spelling get the same text. Defined for any JSON value at any depth.
 * Values JSON has no form for are treated the way JSON.stringify treats them (undefined, functions and
 * symbols are left out of objects and become null in arrays or at the top; NaN and infinities become
 * null); a bigint is written as the number JSON.parse would read; other objects are read through their
 * own enumerable string keys (a `toJSON` method is never called). Throws {@link FindingsInputError}
 * (`value-has-cycle`) only for a value that contains itself.
 *
 * @example canonicalJson({ b: [1.0, 'x'], a: { d: 1e2, c: null } }) // '{"a":{"c":null,"d":100},"b":[1,"x"]}'
 */
export function canonicalJson(value: unknown): string {
  if (!prototypesHaveToJson()) {
    const prepared = prepareValue(value, 0);
    if (prepared !== NEEDS_WRITER) return JSON.stringify(prepared) ?? 'null';
  }
  return writeValue(value, 0) ?? 'null';
}

/**
 * @internal The canonical JSON of the fields a tool hash covers (TOOL_HASH_FIELDS: annotations,
 * description, inputSchema, name; absent ones left out). Written directly rather than through a picked
 * copy of the whole tool, which gives the same text as `canonicalJson` of that copy. A value that is not
 * a tool object is written whole, so it can never collide with a tool object's text.
 */
export function canonicalToolJson(tool: unknown): string {
  if (!isContainer(tool) || Array.isArray(tool)) return canonicalJson(tool);
  return canonicalFieldsJson(tool as Record<string, unknown>, TOOL_FIELDS);
}

/** @internal The canonical JSON of the fields a rename must keep (RENAME_MATCH_FIELDS). */
export function canonicalContentJson(tool: Record<string, unknown>): string {
  return canonicalFieldsJson(tool, CONTENT_FIELDS);
}

function canonicalFieldsJson(source: Record<string, unknown>, fields: readonly string[]): string {
  if (!prototypesHaveToJson()) {
    const prepared = prepareFields(source, fields);
    if (prepared !== NEEDS_WRITER) return JSON.stringify(prepared);
  }
  return writeFields(source, fields);
}
