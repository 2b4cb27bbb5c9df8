// Synonyms learned from the catalog: normalized PMI by hand, and every threshold of the published rules
// (least frequency, most frequency of a word that learns, least shared tools, least association, synonyms per
// word, terms counted per tool) at and around its value, on small hand-made catalogs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { learnSynonyms, normalizedPmi } from '../src/learned-synonyms.js';
import { SEARCH_RULES } from '../src/rules.js';

/** Pads a list of units with one-word filler units (each word once, below the least frequency) up to `total`. */
function padTo(units: string[][], total: number): string[][] {
  const padded = [...units];
  for (let i = 0; padded.length < total; i++) padded.push([`pad${i}`]);
  return padded;
}

/** `count` units that each hold `words` and one filler word of their own (so no two are the same unit). */
function together(words: string[], count: number, tag: string): string[][] {
  return Array.from({ length: count }, (_, i) => [...words, `${tag}${i}`]);
}

describe('the published rules of learned synonyms', () => {
  it('are the documented values', () => {
    expect({
      weight: SEARCH_RULES.learnedSynonymWeight,
      coverage: SEARCH_RULES.learnedCoverageShare,
      minFrequency: SEARCH_RULES.learnedMinFrequency,
      maxSource: SEARCH_RULES.learnedMaxSourceFrequency,
      minCooccurrence: SEARCH_RULES.learnedMinCooccurrence,
      minAssociation: SEARCH_RULES.learnedMinAssociation,
      perTerm: SEARCH_RULES.learnedSynonymsPerTerm,
      unitCap: SEARCH_RULES.learnedUnitTermCap,
      rest: SEARCH_RULES.descriptionRestWeight,
    }).toEqual({
      weight: 0.25,
      coverage: 0.5,
      minFrequency: 2,
      maxSource: 10,
      minCooccurrence: 2,
      minAssociation: 0.3,
      perTerm: 3,
      unitCap: 24,
      rest: 0.5,
    });
  });
});

describe('normalizedPmi', () => {
  it('is 1 for words always seen together, 0 at chance, negative when they avoid each other', () => {
    // ln(2 x 100 / (2 x 2)) / -ln(2 / 100) = ln 50 / ln 50
    expect(normalizedPmi(2, 2, 2, 100)).toBeCloseTo(1, 12);
    // p(a,b) = 1/10 = p(a) p(b) = 2/10 x 5/10
    expect(normalizedPmi(1, 2, 5, 10)).toBeCloseTo(0, 12);
    // ln(2 x 16 / 16) / -ln(2 / 16) = ln 2 / ln 8
    expect(normalizedPmi(2, 4, 4, 16)).toBeCloseTo(1 / 3, 12);
    expect(normalizedPmi(1, 5, 5, 10)).toBeLessThan(0);
  });

  it('is -1 for words never seen together and 1 when every unit holds both', () => {
    expect(normalizedPmi(0, 3, 3, 10)).toBe(-1);
    expect(normalizedPmi(4, 4, 4, 4)).toBe(1);
  });
});

describe('learnSynonyms with the published rules', () => {
  it('pairs two words that share two tools, both ways', () => {
    const learned = learnSynonyms(padTo(together(['translat', 'languag'], 2, 'a'), 100));
    expect(learned.get('translat')).toEqual([{ term: 'languag', association: 1 }]);
    expect(learned.get('languag')).toEqual([{ term: 'translat', association: 1 }]);
  });

  it('least frequency 2: a word in one tool neither learns nor is learned', () => {
    // "lone" is in one unit only: it gets nothing, and "pair" (in 2 units) does not learn it.
    const units = [
      ['pair', 'lone', 'x0'],
      ['pair', 'x1'],
    ];
    const learned = learnSynonyms(padTo(units, 100));
    expect(learned.has('lone')).toBe(false);
    expect(learned.get('pair')).toBeUndefined();
  });

  it('least shared tools 2: one shared tool is not enough, two are', () => {
    // a and b are each in 3 units and share 1 of them; c and d share 2 of their 3.
    const units = [
      ['a', 'b', 'u0'],
      ['a', 'u1'],
      ['a', 'u2'],
      ['b', 'u3'],
      ['b', 'u4'],
      ['c', 'd', 'u5'],
      ['c', 'd', 'u6'],
      ['c', 'u7'],
      ['d', 'u8'],
    ];
    const learned = learnSynonyms(padTo(units, 100));
    expect(learned.has('a')).toBe(false);
    // ln(2 x 100 / 9) / -ln(2 / 100)
    const expected = Math.log(200 / 9) / Math.log(50);
    expect(learned.get('c')?.[0]?.term).toBe('d');
    expect(learned.get('c')?.[0]?.association).toBeCloseTo(expected, 12);
  });

  it('most frequency 10: a word in 10 tools learns, a word in 11 does not', () => {
    const learned = learnSynonyms(
      padTo([...together(['ten', 'tenmate'], 10, 't'), ...together(['eleven', 'elevenmate'], 11, 'e')], 100),
    );
    expect(learned.get('ten')).toEqual([{ term: 'tenmate', association: 1 }]);
    expect(learned.has('eleven')).toBe(false);
    expect(learned.has('elevenmate')).toBe(false);
  });

  it("a common word can be a rare word's synonym without learning any itself", () => {
    // "rare" (2 units) always comes with "common" (in 11 units): common is above the most frequency.
    const units = [...together(['rare', 'common'], 2, 'r'), ...together(['common'], 9, 'c')];
    const learned = learnSynonyms(padTo(units, 100));
    // ln(2 x 100 / (2 x 11)) / -ln(2 / 100)
    expect(learned.get('rare')?.[0]?.association).toBeCloseTo(Math.log(200 / 22) / Math.log(50), 12);
    expect(learned.has('common')).toBe(false);
  });

  it('least association 0.3: 0.3078 is kept, 0.2913 is not', () => {
    // src always meets wide (in 30 units): ln(100 / 30) / ln 50 = 0.3078; src2 meets wider (32): 0.2913.
    const units = [
      ...together(['src', 'wide'], 2, 's'),
      ...together(['wide'], 28, 'w'),
      ...together(['srcb', 'wider'], 2, 'z'),
      ...together(['wider'], 30, 'v'),
    ];
    const learned = learnSynonyms(padTo(units, 100));
    expect(learned.get('src')?.[0]?.term).toBe('wide');
    expect(learned.get('src')?.[0]?.association).toBeCloseTo(0.3078, 4);
    expect(normalizedPmi(2, 2, 32, 100)).toBeCloseTo(0.2913, 4);
    expect(learned.has('srcb')).toBe(false);
  });

  it('at most 3 synonyms per word, the most associated first, ties by the word', () => {
    // hub meets d, c, b and a in both of its units; a is also in a third unit, so it is the least associated.
    const units = [...together(['hub', 'd', 'c', 'b', 'a'], 2, 'h'), ['a', 'x']];
    const learned = learnSynonyms(padTo(units, 100));
    expect(learned.get('hub')?.map((synonym) => synonym.term)).toEqual(['b', 'c', 'd']);
  });

  it('counts only the first 24 distinct terms of a tool', () => {
    const fillers = (count: number, tag: string) => Array.from({ length: count }, (_, i) => `${tag}${i}`);
    // capa and capb are the 23rd and 24th distinct terms: counted.
    const counted = learnSynonyms(
      padTo(
        [
          [...fillers(22, 'f'), 'capa', 'capb'],
          [...fillers(22, 'g'), 'capa', 'capb'],
        ],
        100,
      ),
    );
    expect(counted.get('capa')?.[0]?.term).toBe('capb');
    // Here capb is the 25th: cut off, so capa has nothing to learn.
    const cut = learnSynonyms(
      padTo(
        [
          [...fillers(23, 'f'), 'capa', 'capb'],
          [...fillers(23, 'g'), 'capa', 'capb'],
        ],
        100,
      ),
    );
    expect(cut.has('capa')).toBe(false);
    // Repeats do not use up the cap: a word counts once per tool.
    const repeats = learnSynonyms(
      padTo(
        [
          [...fillers(22, 'f'), 'capa', 'capa', 'capb'],
          [...fillers(22, 'g'), 'capa', 'capb'],
        ],
        100,
      ),
    );
    expect(repeats.get('capa')?.[0]?.term).toBe('capb');
  });

  it('counts a tool text listed twice (a mirrored server) once', () => {
    const twice = learnSynonyms(
      padTo(
        [
          ['dup', 'mate'],
          ['mate', 'dup'],
        ],
        100,
      ),
    );
    expect(twice.size).toBe(0);
  });

  it('gives the same table whatever the order of the tools', () => {
    const units = [
      ...together(['alpha', 'beta'], 3, 'a'),
      ...together(['alpha', 'gamma'], 2, 'b'),
      ...together(['beta', 'gamma', 'delta'], 2, 'c'),
      ['delta', 'epsilon'],
      ['epsilon', 'alpha'],
    ];
    const expected = [...learnSynonyms(units)];
    fc.assert(
      fc.property(fc.shuffledSubarray(units, { minLength: units.length, maxLength: units.length }), (shuffled) => {
        expect([...learnSynonyms(shuffled)].sort()).toEqual(expected.sort());
      }),
      { numRuns: 50 },
    );
  });

  it('learns nothing from nothing', () => {
    expect(learnSynonyms([]).size).toBe(0);
    expect(learnSynonyms([[], []]).size).toBe(0);
  });
});
