// Properties that must hold for any input: searches and routes never throw on untrusted tool lists or
// arbitrary queries, stay within their limits and ranges, and keep their ordering promises.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createToolIndex,
  type IndexServer,
  routeTask,
  searchTools,
  splitText,
  tokenize,
  verbBonusFactor,
} from '../src/index.js';
import { catalog } from './fixtures.js';

const words = fc.constantFrom(
  'send',
  'email',
  'list',
  'file',
  'read',
  'delete',
  'calendar',
  'event',
  'pay',
  'refund',
  'the',
  'a',
  'report',
  'zeppelin',
);
const query = fc.oneof(
  fc.string(),
  fc.array(words, { maxLength: 8 }).map((list) => list.join(' ')),
);
const toolValue = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      name: fc.oneof(
        fc.string(),
        fc.array(words, { minLength: 1, maxLength: 3 }).map((list) => list.join('_')),
      ),
      description: fc.oneof(
        fc.string(),
        fc.array(words, { maxLength: 10 }).map((list) => list.join(' ')),
      ),
      annotations: fc.record({ readOnlyHint: fc.boolean(), destructiveHint: fc.boolean() }, { requiredKeys: [] }),
    },
    { requiredKeys: [] },
  ),
);
const serverList = fc
  .array(fc.array(toolValue, { maxLength: 8 }), { maxLength: 5 })
  .map((lists): IndexServer[] => lists.map((tools, i) => ({ id: `s${i}`, tools })));
const index = createToolIndex(catalog);

describe('properties', () => {
  it('createToolIndex and searchTools never throw on untrusted tool lists', () => {
    fc.assert(
      fc.property(serverList, query, (servers, text) => {
        const built = createToolIndex(servers);
        const hits = searchTools(built, text, { limit: 5 });
        expect(hits.length).toBeLessThanOrEqual(5);
      }),
      { numRuns: 200 },
    );
  });

  it('search results are sorted, scored in (0, 1] and within the risk allowance', () => {
    fc.assert(
      fc.property(
        query,
        fc.constantFrom('read', 'change', 'any' as const),
        fc.integer({ min: 1, max: 20 }),
        (text, risk, limit) => {
          const hits = searchTools(index, text, { risk, limit });
          expect(hits.length).toBeLessThanOrEqual(limit);
          for (let i = 0; i < hits.length; i++) {
            const hit = hits[i]!;
            expect(hit.score).toBeGreaterThan(0);
            expect(hit.score).toBeLessThanOrEqual(1);
            if (risk === 'read') expect(hit.level).toBe('read-only');
            if (risk === 'change') expect(hit.level).not.toBe('high-risk');
            if (i > 0) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hit.score);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a route pick score is the product of its factors, text match is in (0, 1], servers are distinct', () => {
    fc.assert(
      fc.property(query, (text) => {
        const { picks, setAside, verb } = routeTask(index, text, { limit: 10 });
        expect(new Set(picks.map((pick) => pick.serverId)).size).toBe(picks.length);
        expect(setAside).toEqual([]);
        for (const pick of picks) {
          const product = Object.values(pick.factors).reduce((a, b) => a * b, 1);
          expect(pick.score).toBeCloseTo(product, 12);
          expect(pick.factors.textMatch).toBeGreaterThan(0);
          expect(pick.factors.textMatch).toBeLessThanOrEqual(1);
          // routeTask reads the verb bonus from the index; it must agree with the public factor function.
          expect(pick.factors.verbBonus).toBe(verbBonusFactor(verb, pick.tool));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('splitText words are lower-case runs of letters and digits; tokenize keeps none shorter than 2', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        for (const word of splitText(text)) {
          expect(word).toBe(word.toLowerCase());
          expect(word).toMatch(/^[\p{L}\p{N}\p{M}]+$/u);
        }
        for (const term of tokenize(text)) expect(term.length).toBeGreaterThanOrEqual(2);
      }),
      { numRuns: 500 },
    );
  });
});
