// Pure module: the tool search's feedback re-ranking, a light form of pseudo-relevance feedback (RM3). The
// best candidates of a query show the words tools for it tend to use ("list_commits" and "get_commit" share
// "commit" with a query that only said "changed"); the other candidates are compared with those words, so
// ranks two to five fill with tools about the same thing. Only names and first sentences are read: the rest
// of a description holds parameters and examples, which are not what a tool does.
import { FEEDBACK_DOCS, FEEDBACK_WEIGHT } from './constants.js';
import { splitLeadSentence, tokenize } from './text.js';

/** The stemmed terms a candidate lends to and is compared with the feedback: its name and first sentence. */
export function feedbackTermsOf(name: string, description: string): ReadonlySet<string> {
  return new Set(tokenize(`${name} ${splitLeadSentence(description).lead}`));
}

/**
 * The feedback model: for each of the best `docs` candidates, its score's share of their total, spread evenly
 * over its terms (a tool with few words lends each more), summed by term.
 */
export function feedbackModel(
  ranked: readonly { score: number }[],
  terms: readonly ReadonlySet<string>[],
  docs: number = FEEDBACK_DOCS,
): Map<string, number> {
  const model = new Map<string, number>();
  const count = Math.min(docs, ranked.length);
  let total = 0;
  for (let at = 0; at < count; at++) total += (ranked[at] as { score: number }).score;
  if (!(total > 0)) return model;
  for (let at = 0; at < count; at++) {
    const set = terms[at] as ReadonlySet<string>;
    if (set.size === 0) continue;
    const share = (ranked[at] as { score: number }).score / total / set.size;
    for (const term of set) model.set(term, (model.get(term) ?? 0) + share);
  }
  return model;
}

/**
 * Re-ranks candidates (best first) by their likeness to the best ones: likeness is the sum of the model's
 * weights over a candidate's terms, and every candidate but the first has its score multiplied by
 * (1 - weight) + weight x likeness / the highest likeness. The first keeps its place and score: the model is
 * built from it, so it must not decide the first place. Ties keep the incoming order. Returns new entries.
 */
export function feedbackRerank<T extends { score: number }>(
  ranked: readonly T[],
  termsOf: (entry: T) => ReadonlySet<string>,
  weight: number = FEEDBACK_WEIGHT,
  docs: number = FEEDBACK_DOCS,
): T[] {
  if (ranked.length < 2 || weight <= 0) return ranked.map((entry) => ({ ...entry }));
  const terms = ranked.map(termsOf);
  const model = feedbackModel(ranked, terms, docs);
  const likeness = terms.map((set) => {
    let sum = 0;
    for (const term of set) sum += model.get(term) ?? 0;
    return sum;
  });
  const most = Math.max(...likeness);
  if (!(most > 0)) return ranked.map((entry) => ({ ...entry }));
  const [first, ...rest] = ranked as [T, ...T[]];
  const adjusted = rest.map((entry, at) => ({
    ...entry,
    score: entry.score * (1 - weight + (weight * (likeness[at + 1] as number)) / most),
  }));
  // Array sort is stable, so equal scores keep the order the first stage gave them.
  adjusted.sort((a, b) => b.score - a.score);
  return [{ ...first }, ...adjusted];
}
