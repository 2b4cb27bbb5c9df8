// Pure module: the rule constants of @mcp-atlas/findings, published as `@mcp-atlas/findings/rules`, one frozen
// object per concern. The values are written once, in constants.ts and review-patterns.ts; these objects only
// group them, so a reader of a finding or a hash can show the number behind it. The root entry exports none of
// them: a rule is read here, a function is called from the root.
import {
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
} from './constants.js';
import {
  EXCERPT_MATCH_CLOSE,
  EXCERPT_MATCH_OPEN,
  INSTRUCTION_LIKE_PHRASES,
  INSTRUCTION_LIKE_TAGS,
  INVISIBLE_CHARACTER_RANGES,
  REVIEW_EXCERPT_CONTEXT_CHARS,
  REVIEW_MAX_DESCRIPTION_CHARS,
} from './review-patterns.js';

/**
 * The token estimate (methodology, "Findings, token estimate and change detection" > "Token estimate"):
 * `tokens = round(characters / charsPerToken)`, halves rounding up.
 *
 * @example
 * // TOKEN_RULES is exported by the `@mcp-atlas/findings/rules` subpath
 * `about ${Math.round(40_000 / TOKEN_RULES.charsPerToken)} tokens`; // 'about 10000 tokens'
 */
export const TOKEN_RULES = Object.freeze({
  /** Characters (UTF-16 code units) counted as one token. */
  charsPerToken: CHARS_PER_TOKEN,
});

/**
 * The thresholds of the findings (methodology, "Findings, token estimate and change detection" > "Findings").
 * Every "more than" is strict: a value equal to the threshold does not raise the finding.
 */
export const FINDING_RULES = Object.freeze({
  /** A tool list is heavy when its JSON text is longer than this many characters. */
  heavyToolListChars: HEAVY_TOOL_LIST_CHARS,
  /** A description is very long when it has more than this many characters. */
  veryLongDescriptionChars: VERY_LONG_DESCRIPTION_CHARS,
  /** Protocol versions dated strictly before this day are older. */
  olderProtocolBefore: OLDER_PROTOCOL_BEFORE,
  /** A check is slow when its wall time, in milliseconds, is more than this. */
  slowCheckMs: SLOW_CHECK_MS,
  /** The deepest input schema still read as a schema (the schema object is depth 1). */
  maxSchemaDepth: MAX_SCHEMA_DEPTH,
  /** The most JSON values an input schema may hold and still be read as a schema. */
  maxSchemaNodes: MAX_SCHEMA_NODES,
});

/**
 * What a tool hash and a list hash cover (methodology, "Findings, token estimate and change detection" >
 * "Tool and list hashes").
 */
export const TOOL_HASH_RULES = Object.freeze({
  /** The tool fields a tool hash covers, in canonical (sorted) order. */
  toolHashFields: TOOL_HASH_FIELDS,
  /** The separator written after each sorted tool hash before the list hash is taken. */
  listHashSeparator: LIST_HASH_SEPARATOR,
});

/**
 * How two daily tool lists are compared (methodology, "Findings, token estimate and change detection" >
 * "Change detection between two daily checks").
 */
export const TOOL_DIFF_RULES = Object.freeze({
  /** A removed and an added tool are one renamed tool when these fields are equal. */
  renameMatchFields: RENAME_MATCH_FIELDS,
  /** Risk levels from least to most able to do harm; a rise is a move to a higher rank. */
  riskRank: RISK_RANK,
});

/**
 * The two description checks kept for a person's review (methodology, "Findings, token estimate and change
 * detection" > "Two description checks kept for a person, never published").
 */
export const REVIEW_PATTERN_RULES = Object.freeze({
  /** Phrases that read like instructions to the model rather than a description. */
  instructionLikePhrases: INSTRUCTION_LIKE_PHRASES,
  /** Tag names that read like instructions to the model. */
  instructionLikeTags: INSTRUCTION_LIKE_TAGS,
  /** Code point ranges of invisible characters, each `[first, last]` inclusive. */
  invisibleCharacterRanges: INVISIBLE_CHARACTER_RANGES,
  /** Characters of context kept on each side of a match in an excerpt. */
  excerptContextChars: REVIEW_EXCERPT_CONTEXT_CHARS,
  /** The longest description the checks read; a longer one is read up to this many characters. */
  maxDescriptionChars: REVIEW_MAX_DESCRIPTION_CHARS,
  /** The mark written before the matched text in an excerpt. */
  excerptMatchOpen: EXCERPT_MATCH_OPEN,
  /** The mark written after the matched text in an excerpt. */
  excerptMatchClose: EXCERPT_MATCH_CLOSE,
});
