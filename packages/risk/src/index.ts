// Pure module: the public API of @mcp-atlas/risk. Zero dependencies; runs in Node, browsers and edge runtimes.
export type { ClassifyContext, RiskLevel, RiskRule, RiskVerdict, ToolLike } from './types.js';
export { classifyTool, classifyTools, findRaisePhrase, findSensitiveNoun, serverHasAnnotations } from './classify.js';
export { splitWords, toolVerb } from './words.js';
export {
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
  type RaisePhrase,
  type VerbClass,
} from './vocabulary.js';
