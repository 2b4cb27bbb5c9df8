// Pure module: synonyms learned from the catalog itself. When the index is built, the words that keep company
// in the same tool (its name and the first sentence of its description) are counted, and each rare word gets
// the few words most associated with it. A query word that few tools use then also matches those words, at a
// reduced weight, next to the hand-written table in constants.ts. No model, no randomness: the same tools give
// the same table.
import {
  LEARNED_MAX_SOURCE_FREQUENCY,
  LEARNED_MIN_ASSOCIATION,
  LEARNED_MIN_COOCCURRENCE,
  LEARNED_MIN_FREQUENCY,
  LEARNED_SYNONYMS_PER_TERM,
  LEARNED_UNIT_TERM_CAP,
} from './constants.js';

/** One learned synonym of a term: the associated term and its association (normalized PMI, 0 to 1). */
export interface LearnedSynonym {
  readonly term: string;
  readonly association: number;
}

/** The thresholds {@link learnSynonyms} works with; the defaults are the published rules. */
export interface LearnOptions {
  /** A word must be in at least this many distinct tools to take part at all (as source or as synonym). */
  minFrequency: number;
  /** Only words in at most this many distinct tools get synonyms: the words a query finds too few tools for. */
  maxSourceFrequency: number;
  /** Two words must share at least this many distinct tools to be associated. */
  minCooccurrence: number;
  /** The association (normalized PMI) must reach this. */
  minAssociation: number;
  /** At most this many synonyms per word, the most associated first. */
  perTerm: number;
  /** Only the first this many distinct terms of a tool are counted. */
  unitTermCap: number;
}

/** The published thresholds (see constants.ts and `SEARCH_RULES` in rules.ts). */
export const DEFAULT_LEARN_OPTIONS: Readonly<LearnOptions> = Object.freeze({
  minFrequency: LEARNED_MIN_FREQUENCY,
  maxSourceFrequency: LEARNED_MAX_SOURCE_FREQUENCY,
  minCooccurrence: LEARNED_MIN_COOCCURRENCE,
  minAssociation: LEARNED_MIN_ASSOCIATION,
  perTerm: LEARNED_SYNONYMS_PER_TERM,
  unitTermCap: LEARNED_UNIT_TERM_CAP,
});

/**
 * Normalized pointwise mutual information of two words: ln(p(a,b) / (p(a) p(b))) / -ln p(a,b), with
 * p(x) = frequency / units. 1 when the two words always come together, 0 when they meet as often as chance
 * says, below 0 when they avoid each other. It does not favour rare pairs the way plain PMI does.
 *
 * @example normalizedPmi(2, 2, 2, 100) // 1
 */
export function normalizedPmi(together: number, frequencyA: number, frequencyB: number, units: number): number {
  if (together <= 0 || units <= 0) return -1;
  const joint = together / units;
  if (joint >= 1) return 1;
  // Clamped: rounding can carry a perfect pair a hair past 1.
  return Math.min(1, Math.log((together * units) / (frequencyA * frequencyB)) / -Math.log(joint));
}

/**
 * Learns synonyms from units of text (one per tool: the terms of its name and of the first sentence of its
 * description). Units with the same distinct terms count once, so a server listed twice, or the same tool on
 * many servers, does not pass for agreement. For every term found in at least `minFrequency` and at most
 * `maxSourceFrequency` distinct units, the terms it shares at least `minCooccurrence` units with (each also in
 * at least `minFrequency` units) are ranked by normalized PMI; those reaching `minAssociation` are kept, at most
 * `perTerm`, ties broken by the term. Returns a map from term to its synonyms, best first.
 *
 * @example
 * learnSynonyms([['translat', 'languag'], ['translat', 'languag', 'text'], ['read', 'text']], { ...DEFAULT_LEARN_OPTIONS, minFrequency: 1, minCooccurrence: 2 })
 * // Map { 'translat' => [{ term: 'languag', association: 1 }], 'languag' => [{ term: 'translat', association: 1 }] }
 */
export function learnSynonyms(
  units: Iterable<readonly string[]>,
  options: Readonly<LearnOptions> = DEFAULT_LEARN_OPTIONS,
): Map<string, LearnedSynonym[]> {
  // Terms become small integers, and each unit a sorted list of them, so equal units are found by key.
  const ids = new Map<string, number>();
  const terms: string[] = [];
  const seenUnits = new Set<string>();
  const kept: Int32Array[] = [];
  // The unit that last met each term id: a term repeated in one unit is taken once, with no set per unit.
  const lastUnit: number[] = [];
  const buffer: number[] = [];
  let unitNumber = 0;
  for (const unit of units) {
    unitNumber += 1;
    buffer.length = 0;
    for (const term of unit) {
      let id = ids.get(term);
      if (id === undefined) {
        id = terms.length;
        ids.set(term, id);
        terms.push(term);
        lastUnit.push(0);
      }
      if (lastUnit[id] === unitNumber) continue;
      lastUnit[id] = unitNumber;
      buffer.push(id);
      if (buffer.length >= options.unitTermCap) break;
    }
    if (buffer.length === 0) continue;
    const list = Int32Array.from(buffer).sort();
    const key = list.join(' ');
    if (seenUnits.has(key)) continue;
    seenUnits.add(key);
    kept.push(list);
  }
  const frequency = new Int32Array(terms.length);
  for (const list of kept) for (const id of list) frequency[id] = (frequency[id] as number) + 1;
  const isSource = (id: number) => {
    const f = frequency[id] as number;
    return f >= options.minFrequency && f <= options.maxSourceFrequency;
  };
  // Pairs are counted only from a source term's side: the rare words are the few that need synonyms, so the
  // work is (units a source is in) x (terms per unit), summed over sources, never every pair of the catalog.
  // Each source's units are listed first; then one counter array, reset after each source, counts partners.
  const unitsOf = new Map<number, number[]>();
  kept.forEach((list, at) => {
    for (const id of list) {
      if (!isSource(id)) continue;
      const listed = unitsOf.get(id);
      if (listed === undefined) unitsOf.set(id, [at]);
      else listed.push(at);
    }
  });
  const counts = new Int32Array(terms.length);
  const partners: number[] = [];
  const learned = new Map<string, LearnedSynonym[]>();
  const sources = [...unitsOf.keys()].sort((a, b) => ((terms[a] as string) < (terms[b] as string) ? -1 : 1));
  for (const source of sources) {
    for (const at of unitsOf.get(source) as number[]) {
      for (const other of kept[at] as Int32Array) {
        if (other === source || (frequency[other] as number) < options.minFrequency) continue;
        if (counts[other] === 0) partners.push(other);
        counts[other] = (counts[other] as number) + 1;
      }
    }
    const candidates: LearnedSynonym[] = [];
    for (const other of partners) {
      const count = counts[other] as number;
      counts[other] = 0;
      if (count < options.minCooccurrence) continue;
      const association = normalizedPmi(count, frequency[source] as number, frequency[other] as number, kept.length);
      if (association >= options.minAssociation) candidates.push({ term: terms[other] as string, association });
    }
    partners.length = 0;
    if (candidates.length === 0) continue;
    candidates.sort((a, b) => b.association - a.association || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    learned.set(terms[source] as string, candidates.slice(0, options.perTerm));
  }
  return learned;
}
