/**
 * The methodology's rule constants of @mcp-atlas/risk, published as `@mcp-atlas/risk/rules`: the rules version
 * and one frozen object per concern, each naming the section of docs/methodology/risk.md ("Tool risk levels") that
 * explains it. The word lists are written once, in vocabulary.ts; these objects only group them. The root entry
 * exports the functions that apply them: a rule is read here, a function is called from the root.
 *
 * Pure module: no I/O, no clock, no dependency.
 */
import {
  CHANGING_VERBS,
  HIGH_RISK_VERBS,
  KNOWN_VERBS,
  NEGATION_WINDOW_WORDS,
  NEGATION_WORDS,
  RAISE_PHRASES,
  READING_VERBS,
  RISK_RULES_VERSION,
  SENSITIVE_NOUN_PAIRS,
  SENSITIVE_NOUNS,
  VERB_CLASSES,
} from './vocabulary.js';

/** The version of these rules; results record it, and any change to a list below bumps it. */
export { RISK_RULES_VERSION };

/**
 * The verb lists a tool name is read against (methodology, "Tool risk levels" > "Reading the name" and "The
 * eight rules"). Each list is a read-only FrozenSet; `verbClasses` maps every known verb to its list.
 *
 * @example
 * // VERB_RULES is exported by the `@mcp-atlas/risk/rules` subpath
 * VERB_RULES.highRiskVerbs.has('delete'); // true
 */
export const VERB_RULES = Object.freeze({
  /** Verbs of tools that delete, pay, grant, deploy or run code (rule 2). */
  highRiskVerbs: HIGH_RISK_VERBS,
  /** Verbs of tools that create or change data (rule 5). */
  changingVerbs: CHANGING_VERBS,
  /** Verbs of tools that only read (rule 6). */
  readingVerbs: READING_VERBS,
  /** Every verb of the three lists. */
  knownVerbs: KNOWN_VERBS,
  /** Each known verb and the list it belongs to. */
  verbClasses: VERB_CLASSES,
});

/** The nouns that make a tool high risk when its verb does not read (methodology, "Tool risk levels" > "The eight rules", rule 4). */
export const SENSITIVE_NOUN_RULES = Object.freeze({
  /** One-word sensitive nouns, plurals included. */
  nouns: SENSITIVE_NOUNS,
  /** Two-word sensitive nouns, as [first word, accepted second words]. */
  pairs: SENSITIVE_NOUN_PAIRS,
});

/** The wordings that raise a tool to high risk, and what cancels them (methodology, "Tool risk levels" > "The description raise"). */
export const DESCRIPTION_RAISE_RULES = Object.freeze({
  /** The raise phrases, each with its id, plain words and pattern. */
  phrases: RAISE_PHRASES,
  /** Words that cancel a raise phrase just before it in the same clause. */
  negationWords: NEGATION_WORDS,
  /** How many words before a raise phrase are searched for a negation. */
  negationWindowWords: NEGATION_WINDOW_WORDS,
});
