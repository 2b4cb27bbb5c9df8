// The feedback re-ranking (search-feedback.ts): the words of the best two candidates, weighted by their
// scores, make a model; every other candidate keeps (1 - 0.4) + 0.4 x likeness / best likeness of its score.
// Every figure below is worked out by hand.
import { describe, expect, it } from 'vitest';
import { FEEDBACK_DOCS, FEEDBACK_WEIGHT } from '../src/constants.js';
import { SEARCH_RULES } from '../src/rules.js';
import { feedbackModel, feedbackRerank, feedbackTermsOf } from '../src/search-feedback.js';

interface Entry {
  id: string;
  score: number;
  terms: string[];
}

const entry = (id: string, score: number, terms: string[]): Entry => ({ id, score, terms });
const termsOf = (e: Entry): ReadonlySet<string> => new Set(e.terms);

describe('feedback re-ranking', () => {
  it('the rule values are the published ones', () => {
    expect([FEEDBACK_DOCS, FEEDBACK_WEIGHT]).toEqual([2, 0.4]);
    expect([SEARCH_RULES.feedbackDocs, SEARCH_RULES.feedbackWeight]).toEqual([2, 0.4]);
  });

  it('reads the name and the first sentence only, stemmed', () => {
    expect([...feedbackTermsOf('list_commits', 'Lists commits of a branch. Args: repo, owner.')]).toEqual([
      'list',
      'commit',
      'branch',
    ]);
    expect([...feedbackTermsOf('ping', '')]).toEqual(['ping']);
  });

  it('builds the model from the best two, each spreading its share of their total score over its terms', () => {
    // Scores 3 and 1 (total 4): 3/4 over three terms = 0.25 each, 1/4 over two = 0.125 each; the third lends
    // nothing.
    const ranked = [entry('a', 3, ['x', 'y', 'z']), entry('b', 1, ['x', 'w']), entry('c', 0.5, ['v'])];
    const model = feedbackModel(ranked, ranked.map(termsOf));
    expect(Object.fromEntries(model)).toEqual({ x: 0.375, y: 0.25, z: 0.25, w: 0.125 });
    // One lending candidate: all its score's share (1) over its three terms.
    expect(Object.fromEntries(feedbackModel(ranked, ranked.map(termsOf), 1))).toEqual({ x: 1 / 3, y: 1 / 3, z: 1 / 3 });
  });

  it('moves a candidate like the best ones above a slightly better one unlike them', () => {
    // Scores 2 {x} and 1 {y, z} (total 3): model x 2/3, y 1/6, z 1/6. Likeness: a 2/3 (the most), b 1/3,
    // c 2/3. b keeps 0.6 + 0.4 x 1/2 = 0.8 of 1; c keeps all of 0.95.
    const out = feedbackRerank([entry('a', 2, ['x']), entry('b', 1, ['y', 'z']), entry('c', 0.95, ['x'])], termsOf);
    expect(out.map((e) => e.id)).toEqual(['a', 'c', 'b']);
    expect(out.map((e) => e.score)).toEqual([2, 0.95, expect.closeTo(0.8, 12)]);
  });

  it('around the switch: c passes b only once its score is above what b keeps', () => {
    const ranked = (c: number) => [entry('a', 2, ['x']), entry('b', 1, ['y', 'z']), entry('c', c, ['x'])];
    expect(feedbackRerank(ranked(0.81), termsOf).map((e) => e.id)).toEqual(['a', 'c', 'b']);
    expect(feedbackRerank(ranked(0.79), termsOf).map((e) => e.id)).toEqual(['a', 'b', 'c']);
  });

  it('a candidate sharing no word with the best keeps exactly 1 - weight of its score', () => {
    const out = feedbackRerank([entry('a', 1, ['x']), entry('b', 0.5, ['x']), entry('c', 0.4, ['q'])], termsOf);
    expect(out[2]).toEqual({ id: 'c', score: 0.4 * (1 - FEEDBACK_WEIGHT), terms: ['q'] });
    expect(out[1]?.score).toBe(0.5);
  });

  it('never moves the first, even when another candidate is more like the model', () => {
    // Scores 1 {p} and 0.9 {q, r} lend p 1/1.9 and q, r 0.45/1.9 each; c {p, q, r} has likeness 1.9/1.9 = 1,
    // the most, a has 1/1.9 and b 0.9/1.9. c keeps all of 0.95 and stays below a's unchanged 1; b keeps
    // 0.6 + 0.4 x 0.9/1.9.
    const out = feedbackRerank(
      [entry('a', 1, ['p']), entry('b', 0.9, ['q', 'r']), entry('c', 0.95, ['p', 'q', 'r'])],
      termsOf,
    );
    expect(out.map((e) => [e.id, e.score])).toEqual([
      ['a', 1],
      ['c', 0.95],
      ['b', expect.closeTo(0.9 * (0.6 + 0.4 * (0.9 / 1.9)), 12)],
    ]);
  });

  it('leaves the list as it is with weight 0, one candidate, or no words at all; ties keep their order', () => {
    const ranked = [entry('a', 1, ['x']), entry('b', 0.5, ['y'])];
    expect(feedbackRerank(ranked, termsOf, 0)).toEqual(ranked);
    expect(feedbackRerank([ranked[0] as Entry], termsOf)).toEqual([ranked[0]]);
    const empty = [entry('a', 1, []), entry('b', 0.5, [])];
    expect(feedbackRerank(empty, termsOf)).toEqual(empty);
    const tied = feedbackRerank([entry('a', 1, ['x']), entry('b', 0.5, ['x']), entry('c', 0.5, ['x'])], termsOf);
    expect(tied.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    // The input is not changed.
    expect(ranked[1]?.score).toBe(0.5);
  });
});
