// The fast route (a prepared value handed to JSON.stringify) must write exactly what the 0.1.0 writer
// wrote, for every value: otherwise published tool hashes would change. The oracle is kept under
// test/reference/.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { canonicalContentJson, canonicalToolJson } from '../src/canonical-json.js';
import { canonicalJson } from '../src/index.js';
import {
  referenceCanonicalContentJson,
  referenceCanonicalJson,
  referenceCanonicalToolJson,
} from './reference/canonical-json.reference.js';

// Keys chosen to hit every reason the fast route steps aside or copies: index-like keys (engines list
// those first, in numeric order), "__proto__", "toJSON", and keys whose UTF-16 order differs from
// other orders.
const trickyKey = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom(
    '__proto__',
    'toJSON',
    '0',
    '1',
    '2',
    '10',
    '01',
    '-1',
    '1.5',
    '4294967295',
    'a',
    'B',
    'b',
    '',
    ' ',
    '!',
    'é',
    '\u{1F600}',
    '\uFFFF',
    '\uD800',
  ),
);

// Any value JavaScript can hand over: dates, boxed primitives, maps, sets, typed arrays, sparse arrays,
// null-prototype objects, bigints, undefined, NaN and -0 included.
const anyValue = fc.anything({
  key: trickyKey,
  maxDepth: 4,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
});

// Objects built from entries, so "__proto__" becomes an own key (as JSON.parse makes it), in any order.
const entryTree: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.string(),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.bigInt(),
    ),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(trickyKey, tie('value')), { maxLength: 5 }).map((entries) => Object.fromEntries(entries)),
  ),
})).value;

function withToolFields(extra: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.dictionary(
    fc.constantFrom('name', 'description', 'inputSchema', 'annotations', 'title', 'outputSchema', '__proto__', '0'),
    extra,
    {
      maxKeys: 6,
    },
  );
}

describe('the fast route writes what the 0.1.0 writer wrote', () => {
  test('for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
      }),
      { numRuns: 1_000 },
    );
  });

  test('for any JavaScript value without cycles', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
      }),
      { numRuns: 1_000 },
    );
  });

  test('for objects with index-like, "__proto__" and "toJSON" keys in any order', () => {
    fc.assert(
      fc.property(entryTree, (value) => {
        expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
      }),
      { numRuns: 1_000 },
    );
  });

  test('for the picked tool fields and the rename fields', () => {
    fc.assert(
      fc.property(fc.oneof(withToolFields(fc.jsonValue()), withToolFields(anyValue), anyValue), (tool) => {
        expect(canonicalToolJson(tool)).toBe(referenceCanonicalToolJson(tool));
        if (typeof tool === 'object' && tool !== null && !Array.isArray(tool)) {
          expect(canonicalContentJson(tool as Record<string, unknown>)).toBe(
            referenceCanonicalContentJson(tool as Record<string, unknown>),
          );
        }
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('each case where JSON.stringify alone would differ from canonical JSON', () => {
  test('keys that look like array indexes are sorted as text, not as numbers', () => {
    const value = JSON.parse('{"b":1,"10":2,"2":3,"!":4,"01":5}');
    expect(canonicalJson(value)).toBe('{"!":4,"01":5,"10":2,"2":3,"b":1}');
    expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
  });

  test('an own "__proto__" key is kept and sorted', () => {
    const value = JSON.parse('{"z":{"y":1,"__proto__":[2]},"a":0}');
    expect(canonicalJson(value)).toBe('{"a":0,"z":{"__proto__":[2],"y":1}}');
  });

  test('a toJSON method is never called, on the value or on a prototype', () => {
    const withMethod = { b: 1, toJSON: () => 'replaced', a: 2 };
    expect(canonicalJson(withMethod)).toBe('{"a":2,"b":1}');
    // Keys already in order, so only the method itself calls for a copy.
    expect(canonicalJson({ a: 2, toJSON: () => 'replaced' })).toBe('{"a":2}');
    expect(canonicalJson([{ toJSON: () => 'replaced' }])).toBe('[{}]');
    expect(canonicalJson({ when: new Date(0) })).toBe('{"when":{}}');
    const array = Object.assign([1, 2], { toJSON: () => 'replaced' });
    expect(canonicalJson(array)).toBe('[1,2]');
    expect(canonicalJson([])).toBe('[]');
  });

  test('a "toJSON" key that holds data is written like any other key', () => {
    expect(canonicalJson({ toJSON: { type: 'string' }, a: 1 })).toBe('{"a":1,"toJSON":{"type":"string"}}');
  });

  test('a toJSON added to Object.prototype or Array.prototype by other code changes nothing', () => {
    const value = { b: [1, { d: 2, c: 3 }], a: 'x' };
    const tool = { name: 'get_page', inputSchema: { type: 'object', properties: {} } };
    const expectedValue = '{"a":"x","b":[1,{"c":3,"d":2}]}';
    const expectedTool = referenceCanonicalToolJson(tool);
    for (const prototype of [Object.prototype, Array.prototype]) {
      Object.defineProperty(prototype, 'toJSON', { value: () => 'polluted', configurable: true, writable: true });
      try {
        expect(canonicalJson(value)).toBe(expectedValue);
        expect(canonicalToolJson(tool)).toBe(expectedTool);
      } finally {
        delete (prototype as { toJSON?: unknown }).toJSON;
      }
    }
  });

  test('boxed primitives, maps and sets are read through their own keys', () => {
    for (const value of [
      new Number(5),
      new Boolean(false),
      new String('ab'),
      new Map([[1, 2]]),
      new Set([1]),
      new Uint8Array([7, 8]),
    ]) {
      expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
    }
    expect(canonicalJson(new Number(5))).toBe('{}');
    expect(canonicalJson(new String('ab'))).toBe('{"0":"a","1":"b"}');
  });

  test('bigints, undefined, functions, symbols and non-finite numbers at every position', () => {
    const value = {
      a: 1n,
      b: undefined,
      c: () => 1,
      d: Symbol('s'),
      e: [1n, undefined, () => 1, Symbol('s'), NaN, -0, Infinity],
    };
    expect(canonicalJson(value)).toBe('{"a":1,"e":[1,null,null,null,null,0,null]}');
    expect(canonicalToolJson({ name: 'n', description: undefined, inputSchema: () => 1, annotations: 2n })).toBe(
      '{"annotations":2,"name":"n"}',
    );
  });

  test('a sorted object is written as it is, and an object sorted except deep inside is copied', () => {
    const inner = { b: 1, a: 2 };
    const value = { a: { x: inner }, b: 'ok' };
    expect(canonicalJson(value)).toBe('{"a":{"x":{"a":2,"b":1}},"b":"ok"}');
    // The value given is never changed.
    expect(Object.keys(inner)).toEqual(['b', 'a']);
  });
});
