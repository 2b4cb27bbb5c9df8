// Pure module: the private word lists the classifier reads. They are copied from the exported lists when the
// package loads, before any caller's code runs, and never leave the package: even a caller who mutates an
// exported set with `Set.prototype.add.call(...)` changes only that set, never a verdict.
import { NEGATION_WORDS, SENSITIVE_NOUN_PAIRS, SENSITIVE_NOUNS, VERB_CLASSES, type VerbClass } from './vocabulary.js';

/**
 * @internal The word lists one classifier reads, compiled once.
 * `verbClasses` is looked up first; `gapReadVerbs` (a caller's extra reading verbs) only when it finds no verb
 * in a name, so an extra reading verb fills a gap and never takes a name from a verb the lists already know.
 */
export interface WordLists {
  readonly verbClasses: ReadonlyMap<string, VerbClass>;
  readonly gapReadVerbs: ReadonlyMap<string, VerbClass> | null;
  readonly sensitiveNouns: ReadonlySet<string>;
  /** Two-word sensitive nouns: first word to the second words that complete it. */
  readonly nounPairs: ReadonlyMap<string, ReadonlySet<string>>;
}

/** @internal The built-in lists, as private copies. */
export const BUILT_IN_LISTS: WordLists = {
  verbClasses: new Map(VERB_CLASSES),
  gapReadVerbs: null,
  sensitiveNouns: new Set(SENSITIVE_NOUNS),
  nounPairs: new Map(SENSITIVE_NOUN_PAIRS.map(([first, seconds]) => [first, new Set(seconds)])),
};

/** @internal A private copy of the negation words the description raise reads. */
export const BUILT_IN_NEGATION_WORDS: ReadonlySet<string> = new Set(NEGATION_WORDS);
