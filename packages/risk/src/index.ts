// Pure module: the public API of @mcp-atlas/risk. Zero dependencies; runs in Node, browsers and edge runtimes.
// This file re-exports functions, types, the error class, the frozen collection classes and the vocabulary of
// levels. The word lists and the rules version are the `./rules` subpath (rules.ts). The secret-name words sit on
// the root with the function that reads them: they decide what a recorder hides, not a risk level.

export { classifyTool, classifyTools, findRaisePhrase, findSensitiveNoun, serverHasAnnotations } from './classify.js';
export { createClassifier, DEFAULT_POLICY, decideToolCall, decideToolCalls } from './decide.js';
export { RiskOptionsError, type RiskOptionsErrorCode } from './errors.js';
export { FrozenMap, FrozenSet } from './frozen.js';
export { looksSecretName, SECRET_NAME_WORDS } from './secret-names.js';
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
export { RISK_LEVELS } from './types.js';
export type { RaisePhrase, VerbClass } from './vocabulary.js';
export { toolVerb } from './words.js';
