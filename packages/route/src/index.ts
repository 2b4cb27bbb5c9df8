// Pure module: the public API of @mcp-atlas/route. Synchronous, no I/O, no clock; depends on @mcp-atlas/risk only.
// The rule constants (weights, limits, word lists, the rules version) are the `./rules` subpath (rules.ts), one
// frozen object per concern.

export { CATEGORIES, categorize, scoreCategories } from './categories.js';
export { RouteInputError, type RouteInputErrorCode } from './errors.js';
export { type EvaluateOptions, evaluateSearch, gradeHit, metricsOfGrades, parseSearchJobs } from './evaluate.js';
export {
  type EvaluateOneToolOptions,
  evaluateOneTool,
  type OneToolPair,
  type OneToolPrompt,
  type OneToolPromptResult,
  type OneToolReport,
  type OneToolSet,
  parseOneToolSet,
} from './evaluate-one-tool.js';
export { routeTask } from './route.js';
export {
  agentsFactor,
  directoryFactor,
  type GuardInput,
  guardFactor,
  highRiskShareFactor,
  leastPrivilegeFactor,
  type RouteScoreInput,
  scoreRoute,
  verbBonusFactor,
} from './route-score.js';
export { searchTools } from './search.js';
export { readTaskIntent } from './task.js';
export { splitText, stemWord, tokenize } from './text.js';
export {
  createToolIndex,
  type LiveServerFields,
  type LiveServerUpdate,
  type ToolIndex,
  withLiveFields,
} from './tool-index.js';
export type {
  CategoryResult,
  EvalMetrics,
  EvalReport,
  IndexServer,
  JobResult,
  RiskAllowance,
  RouteCandidate,
  RouteFactors,
  RouteOptions,
  RouteResult,
  SearchHit,
  SearchJob,
  SearchOptions,
  SetAside,
  TaskIntent,
  TaskRisk,
} from './types.js';
