// Pure module: the public API of @mcp-atlas/risk. Zero dependencies; runs in Node, browsers and edge runtimes.

export { classifyTool, classifyTools, findRaisePhrase, findSensitiveNoun, serverHasAnnotations } from './classify.js';
export { createClassifier, DEFAULT_POLICY, decideToolCall, decideToolCalls } from './decide.js';
export { RiskOptionsError, type RiskOptionsErrorCode } from './errors.js';
export { FrozenMap, FrozenSet } from './frozen.js';
export type {
  ClassifyContext,
  CustomWords,
  GatewayDecision,
  GatewayPolicy,
  RiskClassifier,
  RiskLevel,
  RiskRule,
  RiskVerdict,
  ToolCallDecision,
  ToolLike,
} from './types.js';
export {
  CHANGING_VERBS,
  HIGH_RISK_VERBS,
  KNOWN_VERBS,
  NEGATION_WINDOW_WORDS,
  NEGATION_WORDS,
  RAISE_PHRASES,
  type RaisePhrase,
  READING_VERBS,
  RISK_RULES_VERSION,
  SENSITIVE_NOUN_PAIRS,
  SENSITIVE_NOUNS,
  VERB_CLASSES,
  type VerbClass,
} from './vocabulary.js';
export { splitWords, toolVerb } from './words.js';
