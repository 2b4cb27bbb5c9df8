// Pure module: BM25F text match of a query against every tool, shared by search and route.
import {
  BM25_K1,
  COVERAGE_EXPONENT,
  LEARNED_COVERAGE_SHARE,
  LEARNED_SYNONYM_WEIGHT,
  MAX_QUERY_TERMS,
  SYNONYM_WEIGHT,
} from './constants.js';
import type { LearnedSynonym } from './learned-synonyms.js';
import { synonymsOf, tokenize } from './text.js';
import { type IndexState, saturatedFrequency } from './tool-index.js';

/** One weighted query term: `source` is the position of the query word it stands for (for coverage). */
export interface QueryTerm {
  term: string;
  weight: number;
  source: number;
  /** True for a synonym learned from the catalog: it covers its query word only in part. */
  learned?: boolean;
}

/**
 * The weighted terms of a query: its distinct stems (at most MAX_QUERY_TERMS, weight 1), then their
 * synonyms from the hand table (weight SYNONYM_WEIGHT), then those learned from the catalog (weight
 * LEARNED_SYNONYM_WEIGHT), each unless the query already has it.
 */
export function queryTerms(
  query: string,
  learned: ReadonlyMap<string, readonly LearnedSynonym[]> = new Map(),
): QueryTerm[] {
  const originals: string[] = [];
  for (const term of tokenize(query)) {
    if (originals.length >= MAX_QUERY_TERMS) break;
    if (!originals.includes(term)) originals.push(term);
  }
  const terms: QueryTerm[] = originals.map((term, source) => ({ term, weight: 1, source }));
  const present = new Set(originals);
  originals.forEach((term, source) => {
    for (const synonym of synonymsOf(term)) {
      if (present.has(synonym)) continue;
      present.add(synonym);
      terms.push({ term: synonym, weight: SYNONYM_WEIGHT, source });
    }
  });
  originals.forEach((term, source) => {
    for (const { term: synonym } of learned.get(term) ?? []) {
      if (present.has(synonym)) continue;
      present.add(synonym);
      terms.push({ term: synonym, weight: LEARNED_SYNONYM_WEIGHT, source, learned: true });
    }
  });
  return terms;
}

/** Inverse document frequency, BM25's form: ln(1 + (N - df + 0.5) / (df + 0.5)); never negative. */
export function inverseDocumentFrequency(docCount: number, docFrequency: number): number {
  return Math.log(1 + (docCount - docFrequency + 0.5) / (docFrequency + 0.5));
}

/**
 * BM25F score of one term in one tool: the field counts are merged first (name x NAME_FIELD_WEIGHT,
 * description / its length divisor, server name x SERVER_FIELD_WEIGHT), then saturated once with k1.
 */
export function termScore(
  idf: number,
  nameCount: number,
  descriptionCount: number,
  descriptionNorm: number,
  serverCount: number,
): number {
  return idf * saturatedFrequency(nameCount, descriptionCount, descriptionNorm, serverCount);
}

/**
 * Coverage factor: (matched query words / known query words) ^ COVERAGE_EXPONENT, where a query word matched
 * only through a learned synonym counts LEARNED_COVERAGE_SHARE of a word.
 */
export function coverageFactor(matched: number, known: number, matchedByLearned = 0): number {
  return known === 0 ? 0 : ((matched + LEARNED_COVERAGE_SHARE * matchedByLearned) / known) ** COVERAGE_EXPONENT;
}

function bitCount(mask: number): number {
  let value = mask - ((mask >>> 1) & 0x55555555);
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333);
  return (((value + (value >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The tools a query touches and their text match, 0 to 1: the weighted BM25F sum, times coverage, divided
 * by the best sum the query could reach (each known term saturated, idf x (k1 + 1) x weight). Terms absent
 * from the index are left out of both, since no tool can match them. Calls `visit(doc, textMatch)` for every
 * touched tool, in the order the tools were first touched.
 */
export function matchText(state: IndexState, query: string, visit: (doc: number, textMatch: number) => void): void {
  const terms = queryTerms(query, state.learnedSynonyms);
  const { scratchScore: score, scratchMask: mask, scratchLearnedMask: learnedMask, scratchTouched: touched } = state;
  const docCount = state.docServer.length;
  let touchedCount = 0;
  let best = 0;
  let knownSources = 0;
  for (const { term, weight, source, learned } of terms) {
    const id = state.termIds.get(term);
    if (id === undefined) continue;
    const docs = state.postingDocs[id] as Int32Array;
    const saturation = state.postingSaturation[id] as Float64Array;
    const idf = inverseDocumentFrequency(docCount, docs.length);
    best += idf * (BM25_K1 + 1) * weight;
    const bit = 1 << source;
    // A query word whose only known terms are learned synonyms still counts as known: a tool can match it.
    knownSources |= bit;
    const scale = weight * idf;
    const marks = learned === true ? learnedMask : mask;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as number;
      const direct = mask[doc] as number;
      // A learned synonym stands in for its word where the tool lacks it; it adds nothing where the word is.
      if (learned === true && (direct & bit) !== 0) continue;
      if (direct === 0 && (learnedMask[doc] as number) === 0) touched[touchedCount++] = doc;
      marks[doc] = (marks[doc] as number) | bit;
      score[doc] = (score[doc] as number) + scale * (saturation[i] as number);
    }
  }
  const known = bitCount(knownSources);
  try {
    for (let i = 0; i < touchedCount; i++) {
      const doc = touched[i] as number;
      const direct = mask[doc] as number;
      const coverage = coverageFactor(bitCount(direct), known, bitCount((learnedMask[doc] as number) & ~direct));
      visit(doc, ((score[doc] as number) / best) * coverage);
    }
  } finally {
    // Leave the scratch space clean for the next query, even when `visit` throws.
    for (let i = 0; i < touchedCount; i++) {
      const doc = touched[i] as number;
      score[doc] = 0;
      mask[doc] = 0;
      learnedMask[doc] = 0;
    }
  }
}
