// The two ways the search reads a catalog beyond its literal words: synonyms learned from the tools themselves
// (weight, coverage share, and standing in only where the query word is missing), and descriptions weighted by
// what their sentences say (the first sentence counts fully, the rest at DESCRIPTION_REST_WEIGHT).
import { describe, expect, it } from 'vitest';
import { createToolIndex, type IndexServer, searchTools } from '../src/index.js';
import { SEARCH_RULES } from '../src/rules.js';
import { coverageFactor, queryTerms } from '../src/text-match.js';
import { descriptionCount, descriptionLength, stateOf } from '../src/tool-index.js';

const { learnedSynonymWeight, learnedCoverageShare, descriptionRestWeight, bm25K1 } = SEARCH_RULES;

/** Tools of their own, each with words no other tool uses, so the learner has a catalog of realistic size. */
function fillerServers(count: number): IndexServer[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `filler${String(i).padStart(2, '0')}`,
    tools: [{ name: `tool${i}`, description: `Word${i}a word${i}b.` }],
  }));
}

const translators: IndexServer[] = [
  { id: 'a', tools: [{ name: 'translate_text', description: 'Translates text into another language.' }] },
  { id: 'b', tools: [{ name: 'translate_doc', description: 'Translates a document into another language.' }] },
  { id: 'c', tools: [{ name: 'detect_language', description: 'Detects the language of a text.' }] },
];

describe('learned synonyms in the search', () => {
  const index = createToolIndex([...translators, ...fillerServers(20)]);

  it('are learned when the index is built: translate and language share two of 23 tools', () => {
    const learned = stateOf(index).learnedSynonyms;
    // ln(2 x 23 / (2 x 3)) / -ln(2 / 23)
    expect(learned.get('translat')?.[0]?.term).toBe('languag');
    expect(learned.get('translat')?.[0]?.association).toBeCloseTo(Math.log(46 / 6) / Math.log(23 / 2), 12);
  });

  it('join the query after the hand-written synonyms, at the learned weight, marked as learned', () => {
    const terms = queryTerms('translate', stateOf(index).learnedSynonyms);
    expect(terms).toEqual([
      { term: 'translat', weight: 1, source: 0 },
      { term: 'languag', weight: learnedSynonymWeight, source: 0, learned: true },
    ]);
    // Without a learned table, only the query's own words and the hand table.
    expect(queryTerms('translate')).toEqual([{ term: 'translat', weight: 1, source: 0 }]);
  });

  it('find a tool that lacks the query word, below the tools that have it', () => {
    const hits = searchTools(index, 'translate');
    expect(hits.map((hit) => hit.serverId)).toEqual(['a', 'b', 'c']);
    expect(hits[2]?.score).toBeLessThan((hits[1]?.score ?? 0) * learnedSynonymWeight);
  });

  it('cover a query word by the learned share: 0.5 of a word', () => {
    expect(learnedCoverageShare).toBe(0.5);
    expect(coverageFactor(0, 1, 1)).toBe(0.5);
    expect(coverageFactor(1, 2, 1)).toBe(0.75);
    expect(coverageFactor(2, 2, 0)).toBe(1);
    expect(coverageFactor(0, 0, 0)).toBe(0);
  });

  it('add nothing to a tool that has the query word itself (a stand-in, not a bonus)', () => {
    // e and f differ only in "language" against "grammar"; language is translate's learned synonym.
    const twins = createToolIndex([
      ...translators,
      { id: 'e', tools: [{ name: 'translate_e', description: 'Translate language.' }] },
      { id: 'f', tools: [{ name: 'translate_f', description: 'Translate grammar.' }] },
      ...fillerServers(20),
    ]);
    expect(stateOf(twins).learnedSynonyms.get('translat')?.[0]?.term).toBe('languag');
    const byServer = new Map(searchTools(twins, 'translate', { limit: 20 }).map((hit) => [hit.serverId, hit.score]));
    expect(byServer.get('e')).toBe(byServer.get('f'));
  });
});

describe('description weighted by sentence', () => {
  it('counts a word after the first sentence at the rest weight, and the length alike', () => {
    expect(descriptionRestWeight).toBe(0.5);
    expect(descriptionCount(1, 0)).toBe(1);
    expect(descriptionCount(0, 1)).toBe(0.5);
    expect(descriptionCount(2, 3)).toBe(3.5);
    expect(descriptionLength(4, 10)).toBe(9);
  });

  it('ranks a tool whose first sentence says the query above one that mentions it later, by hand', () => {
    const index = createToolIndex([
      { id: 'g', tools: [{ name: 'tool_g', description: 'Exports a report. Also handles invoices.' }] },
      { id: 'h', tools: [{ name: 'tool_h', description: 'Handles invoices. Also exports a report.' }] },
    ]);
    const hits = searchTools(index, 'invoices');
    // Same length, so the length divisor is 1: h has f = 1, g has f = 0.5; text match = f(k1+1)/(f+k1) / (k1+1).
    const match = (f: number) => (f * (bm25K1 + 1)) / (f + bm25K1) / (bm25K1 + 1);
    expect(hits.map((hit) => hit.serverId)).toEqual(['h', 'g']);
    expect(hits[0]?.score).toBeCloseTo(match(1), 12);
    // g is then scaled by the feedback from h and g (terms {tool, handl, invoic} and {tool, export, report}):
    // shares (5/11) / (140/187) / 3 = 17/84 and (5/17) / (140/187) / 3 = 11/84, likeness 28/84 + 34/84 = 62/84
    // for h and 28/84 + 22/84 = 50/84 for g, so g keeps 0.6 + 0.4 x 50/62 of its text match.
    expect(hits[1]?.score).toBeCloseTo(match(0.5) * (0.6 + (0.4 * 50) / 62), 12);
    expect(match(1)).toBeCloseTo(1 / 2.2, 12);
    expect(match(0.5)).toBeCloseTo(0.5 / 1.7, 12);
  });

  it("caps a term's count in one field at 4,095, far past where it saturates, without spilling into the next", () => {
    // The name is not length-normalized, so with the cap both tools score the same; a count spilling into the
    // packed description count would make them differ.
    const repeated = (count: number): IndexServer => ({
      id: `r${count}`,
      tools: [{ name: 'invoice_'.repeat(count), description: 'A tool.' }],
    });
    const hits = searchTools(createToolIndex([repeated(4_095), repeated(5_000)]), 'invoice');
    expect(hits).toHaveLength(2);
    expect(hits[0]?.score).toBe(hits[1]?.score);
    expect(hits[0]?.score).toBeGreaterThan(0);
    expect(hits[0]?.score).toBeLessThanOrEqual(1);
  });

  it('treats a title as part of the first sentence', () => {
    const index = createToolIndex([
      { id: 'i', tools: [{ name: 'tool_i', title: 'Invoices', description: 'Exports a report. Also a memo.' }] },
      { id: 'j', tools: [{ name: 'tool_j', title: 'Reports', description: 'Exports a memo. Also invoices.' }] },
    ]);
    expect(searchTools(index, 'invoices').map((hit) => hit.serverId)).toEqual(['i', 'j']);
  });
});
