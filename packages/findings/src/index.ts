// Pure module: the public API of @mcp-atlas/findings. Synchronous, no I/O, no clock, no node: imports;
// runs in Node, browsers and edge runtimes. The rule constants (thresholds, field lists, word lists) are not
// here: they are the `./rules` subpath (rules.ts), one frozen object per concern.
export { canonicalJson } from './canonical-json.js';
export { diffToolLists, type RiskRise, type ToolListDiff, type ToolListSnapshot, type ToolRename } from './diff.js';
export { FindingsInputError, type FindingsInputErrorCode } from './errors.js';
export {
  analyzeToolList,
  FINDING_IDS,
  FINDING_TITLES,
  type Finding,
  type FindingId,
  type ToolListCut,
  type ToolListInput,
} from './findings.js';
export { combineToolHashes, type HashOptions, hashTool, hashToolList, type Sha256, sha256Hex } from './hash.js';
export { isOlderProtocol, parseProtocolDate } from './protocol.js';
// Review only: these two pattern checks feed a person's review queue; their results stay off pages, APIs and agent answers.
export {
  findReviewOnlyPatterns,
  findReviewOnlyPatternsInTools,
  REVIEW_ONLY_CHECK_IDS,
  REVIEW_ONLY_CHECK_TITLES,
  type ReviewOnlyCheckId,
  type ReviewOnlyMatch,
  type ReviewOnlyToolMatch,
} from './review-patterns.js';
export { estimateTokens } from './tokens.js';
export {
  hasAnnotations,
  hasDescription,
  hasInputSchema,
  isJsonObject,
  isUsableSchema,
  labelTool,
  readToolDescription,
  readToolName,
} from './tool-facts.js';
