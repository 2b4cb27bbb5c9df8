// Pure module: the public API of @mcp-atlas/findings. Synchronous, no I/O, no clock, no node: imports;
// runs in Node, browsers and edge runtimes.
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
  EXCERPT_MATCH_CLOSE,
  EXCERPT_MATCH_OPEN,
  findReviewOnlyPatterns,
  findReviewOnlyPatternsInTools,
  INSTRUCTION_LIKE_PHRASES,
  INSTRUCTION_LIKE_TAGS,
  INVISIBLE_CHARACTER_RANGES,
  REVIEW_EXCERPT_CONTEXT_CHARS,
  REVIEW_MAX_DESCRIPTION_CHARS,
  REVIEW_ONLY_CHECK_IDS,
  REVIEW_ONLY_CHECK_TITLES,
  type ReviewOnlyCheckId,
  type ReviewOnlyMatch,
  type ReviewOnlyToolMatch,
} from './review-patterns.js';
export {
  CHARS_PER_TOKEN,
  HEAVY_TOOL_LIST_CHARS,
  LIST_HASH_SEPARATOR,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_NODES,
  OLDER_PROTOCOL_BEFORE,
  RENAME_MATCH_FIELDS,
  RISK_RANK,
  SLOW_CHECK_MS,
  TOOL_HASH_FIELDS,
  VERY_LONG_DESCRIPTION_CHARS,
} from './rules.js';
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
