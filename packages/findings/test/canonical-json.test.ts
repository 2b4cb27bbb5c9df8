import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { canonicalJson, FindingsInputError } from '../src/index.js';
import { nestedObject, thrownBy } from './fixtures.js';

// Rebuilds a JSON value with every object's keys inserted in a shuffled order.
function reorderKeys(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => reorderKeys(item, order));
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines own properties, so a "__proto__" key stays a key instead of setting the prototype.
  return Object.fromEntries(
    order(Object.keys(value)).map((key) => [key, reorderKeys((value as Record<string, unknown>)[key], order)]),
  );
}

describe('canonicalJson writes one text per JSON value', () => {
  test('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ z: 1, a: { y: [{ d: 1, c: 2 }], b: true } })).toBe(
      '{"a":{"b":true,"y":[{"c":2,"d":1}]},"z":1}',
    );
  });

  test('sorts keys by UTF-16 code units, not by locale or number value', () => {
    const value = { b: 1, B: 2, '10': 3, '2': 4, é: 5, '\u{1F600}': 6, '\uFFFF': 7, '': 8 };
    expect(canonicalJson(value)).toBe('{"":8,"10":3,"2":4,"B":2,"b":1,"é":5,"\u{1F600}":6,"\uFFFF":7}');
  });

  test('keeps a "__proto__" key that JSON.parse made an own property', () => {
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"x":2}}'))).toBe('{"__proto__":{"x":2},"b":1}');
  });

  test('keeps array order', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
  });

  test('writes numbers in their shortest form, whatever their spelling in the source text', () => {
    expect(canonicalJson(JSON.parse('[1.0, 1e0, 10E-1, 100, 1e2, 0.50, -0, 1e21, 1.5e-7]'))).toBe(
      '[1,1,1,100,100,0.5,0,1e+21,1.5e-7]',
    );
  });

  test('ignores whitespace in the source text', () => {
    const spaced = '{ "b" : [ 1 , 2 ] ,\n\t"a" : { } }';
    expect(canonicalJson(JSON.parse(spaced))).toBe(canonicalJson(JSON.parse('{"a":{},"b":[1,2]}')));
  });

  test('escapes strings as JSON does, lone surrogates included', () => {
    expect(canonicalJson(['a"b\\c\n\u0001', '\uD800'])).toBe('["a\\"b\\\\c\\n\\u0001","\\ud800"]');
  });

  test('writes the JSON literals', () => {
    expect(canonicalJson([null, true, false, '', {}, []])).toBe('[null,true,false,"",{},[]]');
  });

  test('treats values JSON has no form for the way JSON.stringify does', () => {
    const value = { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, NaN, Infinity, -Infinity], e: 2n };
    expect(canonicalJson(value)).toBe('{"d":[null,null,null,null],"e":2}');
    expect(canonicalJson(undefined)).toBe('null');
  });

  test('writes a bigint as the number JSON.parse would read from its digits', () => {
    expect(canonicalJson(12345678901234567890n)).toBe(canonicalJson(JSON.parse('12345678901234567890')));
  });

  test('reads other objects through their own enumerable string keys', () => {
    expect(canonicalJson(new Date(0))).toBe('{}');
    expect(canonicalJson(Object.create({ inherited: 1 }))).toBe('{}');
  });

  test('handles a nesting 100,000 deep without overflowing the stack', () => {
    let value: unknown = 0;
    for (let i = 0; i < 100_000; i++) value = [value];
    const text = canonicalJson(value);
    expect(text.length).toBe(200_001);
    expect(text.startsWith('[[[[')).toBe(true);
  });

  test('writes a deep value exactly as a shallow writer would (past the recursion limit)', () => {
    // 600 levels of objects with two keys each: past CANONICAL_RECURSION_LIMIT (256), so the
    // explicit-stack writer produces most of it; with sorted keys JSON.stringify is the reference.
    let value: unknown = { a: 1, b: [true, null, 'x'] };
    for (let i = 0; i < 600; i++) value = { a: i, b: [value, undefined] };
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
    const shuffled = reorderKeys(value, (keys) => [...keys].reverse());
    expect(canonicalJson(shuffled)).toBe(JSON.stringify(value));
  });

  test('deep object keys are sorted and undefined members left out on the explicit-stack path too', () => {
    const deep = nestedObject(300) as Record<string, unknown>;
    let innermost = deep;
    while (typeof innermost.a === 'object') innermost = innermost.a as Record<string, unknown>;
    Object.assign(innermost, { z: 1, m: undefined, c: [undefined, 2] });
    const text = canonicalJson(deep);
    expect(text.endsWith(`{"c":[null,2],"z":1}${'}'.repeat(299)}`)).toBe(true);
  });

  test('a value that contains itself is a typed error, not a hang', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    const error = thrownBy(() => canonicalJson([loop]));
    expect(error).toBeInstanceOf(FindingsInputError);
    expect(error).not.toBeInstanceOf(TypeError);
    expect(error).toBeInstanceOf(Error);
    expect((error as FindingsInputError).code).toBe('value-has-cycle');
    expect((error as Error).message).toMatch(/refers to itself/);
  });

  test('a value used twice without a cycle is written twice', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});

describe('canonicalJson properties over any JSON value', () => {
  test('does not depend on key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, reverse) => {
        const order = (keys: string[]) => (reverse ? [...keys].reverse() : [...keys].sort().reverse());
        expect(canonicalJson(reorderKeys(value, order))).toBe(canonicalJson(value));
      }),
    );
  });

  test('is valid JSON that reads back to the same canonical text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });

  test('does not depend on how the source text was spaced', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(JSON.parse(JSON.stringify(value, null, 2)))).toBe(canonicalJson(value));
      }),
    );
  });
});
