import { describe, expect, test } from 'vitest';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from '../src/constants.js';
import {
  hasAnnotations,
  hasDescription,
  hasInputSchema,
  isJsonObject,
  isUsableSchema,
  labelTool,
  readToolDescription,
  readToolName,
} from '../src/index.js';
import { nestedObject, schemaWithNodes } from './fixtures.js';

describe('reading names and labels', () => {
  test('a string name is the name, the empty string included', () => {
    expect(readToolName({ name: 'get_page' })).toBe('get_page');
    expect(readToolName({ name: '' })).toBe('');
  });

  test('anything else has no name', () => {
    for (const tool of [{ name: 7 }, { name: null }, { name: ['a'] }, {}, 'get_page', null, [{ name: 'a' }]]) {
      expect(readToolName(tool)).toBeNull();
    }
  });

  test('an entry without a string name is labelled by its zero-based position', () => {
    expect(labelTool({ name: 'get_page' }, 4)).toBe('get_page');
    expect(labelTool({ name: 4 }, 4)).toBe('tools[4]');
    expect(labelTool(null, 0)).toBe('tools[0]');
  });
});

describe('descriptions', () => {
  test('a description with text counts', () => {
    expect(hasDescription({ name: 'a', description: 'Reads.' })).toBe(true);
    expect(readToolDescription({ name: 'a', description: ' x ' })).toBe(' x ');
  });

  test('a missing, blank or non-string description counts as missing', () => {
    for (const description of [undefined, '', '   ', '\n\t', 42, null, ['text'], { text: 'x' }]) {
      expect(hasDescription({ name: 'a', description })).toBe(false);
    }
    expect(hasDescription('a string is not a tool')).toBe(false);
    expect(readToolDescription({ name: 'a', description: 42 })).toBeNull();
  });
});

describe('annotations', () => {
  test('any annotations object counts, even an empty one', () => {
    expect(hasAnnotations({ name: 'a', annotations: {} })).toBe(true);
    expect(hasAnnotations({ name: 'a', annotations: { readOnlyHint: true } })).toBe(true);
  });

  test('a value that is not an object does not', () => {
    for (const annotations of [undefined, null, true, 'readOnly', [], [{ readOnlyHint: true }]]) {
      expect(hasAnnotations({ name: 'a', annotations })).toBe(false);
    }
    expect(hasAnnotations(null)).toBe(false);
  });
});

describe('input schemas and their limits', () => {
  test('the limits are depth 64 and 10,000 values', () => {
    expect(MAX_SCHEMA_DEPTH).toBe(64);
    expect(MAX_SCHEMA_NODES).toBe(10_000);
  });

  test('a schema must be an object', () => {
    expect(isUsableSchema({})).toBe(true);
    for (const schema of [undefined, null, 'object', 1, true, [], [{ type: 'object' }]])
      expect(isUsableSchema(schema)).toBe(false);
  });

  test('depth 64 is read; depth 65 counts as missing', () => {
    expect(isUsableSchema(nestedObject(63))).toBe(true);
    expect(isUsableSchema(nestedObject(64))).toBe(true);
    expect(isUsableSchema(nestedObject(65))).toBe(false);
  });

  test('a primitive under the deepest object does not add depth', () => {
    const deepest = nestedObject(64);
    let inner = deepest;
    while (isJsonObject(inner.a)) inner = inner.a;
    inner.type = 'string';
    expect(isUsableSchema(deepest)).toBe(true);
  });

  test('arrays count as depth too', () => {
    let value: unknown = {};
    for (let i = 1; i < 65; i++) value = [value];
    expect(isUsableSchema({ items: value })).toBe(false); // the object, 64 arrays, then {}: depth 66
    let shallower: unknown = {};
    for (let i = 1; i < 62; i++) shallower = [shallower];
    expect(isUsableSchema({ items: shallower })).toBe(true); // depth 63
  });

  test('10,000 values are read; 10,001 count as missing', () => {
    expect(isUsableSchema(schemaWithNodes(9_999))).toBe(true);
    expect(isUsableSchema(schemaWithNodes(10_000))).toBe(true);
    expect(isUsableSchema(schemaWithNodes(10_001))).toBe(false);
  });

  test('a nesting far past the limits is refused without walking it all or overflowing', () => {
    let value: Record<string, unknown> = {};
    for (let i = 0; i < 200_000; i++) value = { a: value, b: [1, 2, 3] };
    expect(isUsableSchema(value)).toBe(false);
  });

  test('a schema that refers to itself is refused, not walked forever', () => {
    const loop: Record<string, unknown> = { type: 'object' };
    loop.properties = { self: loop };
    expect(isUsableSchema(loop)).toBe(false);
  });

  test("hasInputSchema reads the tool's inputSchema", () => {
    expect(hasInputSchema({ name: 'a', inputSchema: { type: 'object' } })).toBe(true);
    expect(hasInputSchema({ name: 'a' })).toBe(false);
    expect(hasInputSchema({ name: 'a', inputSchema: nestedObject(65) })).toBe(false);
    expect(hasInputSchema(7)).toBe(false);
  });
});
