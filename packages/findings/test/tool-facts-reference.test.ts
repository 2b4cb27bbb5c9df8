// The faster schema walk, description test and tool survey must answer exactly as the 0.1.0 code did.
// The oracles are kept under test/reference/.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from '../src/constants.js';
import {
  analyzeToolList,
  type Finding,
  hasDescription,
  isUsableSchema,
  readToolDescription,
  readToolName,
} from '../src/index.js';
import { referenceHasDescription, referenceIsUsableSchema } from './reference/tool-facts.reference.js';

// Values with `count` JSON values in all, itself included: an object of `objects` nested objects of
// primitives, followed (in key order) by primitives, or the other way round.
function schemaOfCount(count: number, nestedFirst: boolean): Record<string, unknown> {
  // The schema, the nested object and its `count - 3` primitives, then one primitive beside it.
  const nested: Record<string, unknown> = {};
  for (let i = 0; i < count - 3; i++) nested[`p${i}`] = i;
  return nestedFirst ? { a: nested, b: 'x' } : { a: 'x', b: nested };
}

// A chain of `depth` containers (the outer one a schema object), alternating objects and arrays, with a
// primitive at the bottom when `leaf` is set.
function chain(depth: number, leaf: boolean): Record<string, unknown> {
  let value: unknown = leaf ? 'leaf' : undefined;
  for (let level = depth; level > 1; level--)
    value = level % 2 === 0 ? (value === undefined ? [] : [value]) : value === undefined ? {} : { v: value };
  return value === undefined ? {} : { v: value };
}

describe('isUsableSchema answers as the 0.1.0 walk did', () => {
  test('for any JSON value and any JavaScript value without cycles', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.anything({ withSparseArray: true, withNullPrototype: true, withBoxedValues: true }),
        ),
        (value) => {
          expect(isUsableSchema(value)).toBe(referenceIsUsableSchema(value));
          expect(isUsableSchema({ value })).toBe(referenceIsUsableSchema({ value }));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  test('at and around the value limit, wherever the values sit', () => {
    for (const count of [MAX_SCHEMA_NODES - 1, MAX_SCHEMA_NODES, MAX_SCHEMA_NODES + 1, MAX_SCHEMA_NODES + 2]) {
      for (const nestedFirst of [true, false]) {
        const schema = schemaOfCount(count, nestedFirst);
        expect(isUsableSchema(schema), `${count} ${nestedFirst}`).toBe(count <= MAX_SCHEMA_NODES);
        expect(isUsableSchema(schema)).toBe(referenceIsUsableSchema(schema));
      }
    }
  });

  test('at and around the depth limit, with and without a primitive at the bottom', () => {
    for (let depth = MAX_SCHEMA_DEPTH - 2; depth <= MAX_SCHEMA_DEPTH + 2; depth++) {
      for (const leaf of [true, false]) {
        const schema = chain(depth, leaf);
        expect(isUsableSchema(schema), `${depth} ${leaf}`).toBe(depth <= MAX_SCHEMA_DEPTH);
        expect(isUsableSchema(schema)).toBe(referenceIsUsableSchema(schema));
      }
    }
  });
});

describe('hasDescription answers as trim() did', () => {
  // Whitespace as String.prototype.trim sees it, characters that only look blank, and printable text.
  const unit = fc.constantFrom(
    ' ',
    '\t',
    '\n',
    '\r',
    '\v',
    '\f',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u3000',
    '\ufeff',
    '\u0000',
    '\u0001',
    '\u180e',
    '\u200b',
    'a',
    '.',
    '~',
    'é',
  );
  test('for strings made of whitespace, look-alikes and text', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 6 }), (description) => {
        expect(hasDescription({ description })).toBe(referenceHasDescription({ description }));
      }),
      { numRuns: 2_000 },
    );
  });

  test('for any value as the tool or as its description', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(hasDescription(value)).toBe(referenceHasDescription(value));
        expect(hasDescription({ description: value })).toBe(referenceHasDescription({ description: value }));
      }),
    );
  });
});

describe('the tool survey of analyzeToolList lists what the 0.1.0 checks found', () => {
  const description = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('  ', '\n', 'x'.repeat(2_001), ' '.repeat(2_001), 'x'.repeat(2_000)),
    fc.integer(),
  );
  const toolLike = fc.oneof(
    fc.record(
      {
        name: fc.oneof(fc.constantFrom('a', 'b', 'c'), fc.integer()),
        description,
        inputSchema: fc.oneof(fc.jsonValue(), fc.constant({ type: 'object' })),
        annotations: fc.jsonValue(),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  );

  test('for any list of tool-like values', () => {
    fc.assert(
      fc.property(fc.array(toolLike, { maxLength: 10 }), (tools) => {
        const findings = analyzeToolList({ tools, toolsJson: '[]' });
        const listed = (id: string): string[] | undefined =>
          findings.find((finding: Finding) => finding.id === id)?.tools;
        const labels = (keep: (tool: unknown) => boolean) =>
          tools.flatMap((tool, i) => (keep(tool) ? [readToolName(tool) ?? `tools[${i}]`] : []));
        const orNone = (names: string[]) => (names.length === 0 ? undefined : names);
        expect(listed('missing-descriptions')).toEqual(orNone(labels((tool) => !referenceHasDescription(tool))));
        expect(listed('missing-schema')).toEqual(
          orNone(
            labels(
              (tool) =>
                !(
                  typeof tool === 'object' &&
                  tool !== null &&
                  referenceIsUsableSchema((tool as Record<string, unknown>).inputSchema)
                ),
            ),
          ),
        );
        expect(listed('very-long-description')).toEqual(
          orNone(labels((tool) => (readToolDescription(tool)?.length ?? 0) > 2_000)),
        );
        const names = tools.map(readToolName).filter((name): name is string => name !== null);
        const duplicates = names.filter(
          (name, i) => names.indexOf(name) !== i && names.indexOf(name, names.indexOf(name) + 1) === i,
        );
        expect(listed('duplicate-names')).toEqual(orNone(duplicates));
      }),
      { numRuns: 500 },
    );
  });
});
