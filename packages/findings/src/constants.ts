// Pure module: every threshold, limit and formula constant of @mcp-atlas/findings, one name each, for the
// package's own modules. Users read them grouped and frozen through `@mcp-atlas/findings/rules` (rules.ts).
// Changing any value here changes published results, so it must bump the methodology version.

/**
 * A tool list is heavy when its JSON text is longer than this many characters (UTF-16 code units,
 * as `String.prototype.length` counts them). At {@link CHARS_PER_TOKEN} that is about 10,000 tokens.
 * "Longer than" is strict: exactly 40,000 characters is not heavy, 40,001 is.
 */
export const HEAVY_TOOL_LIST_CHARS = 40_000;

/**
 * Characters per token in the token estimate: `tokens = round(length / CHARS_PER_TOKEN)`, halves
 * rounding up. A fixed ratio, because each model's tokenizer differs and the estimate must treat every
 * server alike.
 */
export const CHARS_PER_TOKEN = 4;

/** A description is very long when it has more than this many characters (strictly more). */
export const VERY_LONG_DESCRIPTION_CHARS = 2_000;

/**
 * Protocol versions dated strictly before this day count as older. Versions are compared as calendar
 * dates; a version string that is not a `YYYY-MM-DD` date is never older.
 */
export const OLDER_PROTOCOL_BEFORE = '2025-03-26';

/** A check is slow when its whole wall time, in milliseconds, is more than this (strictly more). */
export const SLOW_CHECK_MS = 3_000;

/**
 * The deepest input schema still read as a schema. Depth counts nested objects and arrays on the
 * deepest path, the schema object itself being depth 1. A deeper schema counts as missing: no agent
 * can use it, and reading it must stay cheap. Real schemas in the corpus reach depth 10.
 */
export const MAX_SCHEMA_DEPTH = 64;

/**
 * The most JSON values (objects, arrays and primitives, the schema itself included) an input schema
 * may hold and still be read as a schema. A larger one counts as missing. Real schemas in the corpus
 * hold at most about 200.
 */
export const MAX_SCHEMA_NODES = 10_000;

/**
 * The tool fields a tool hash covers, in canonical (sorted) order. Other fields, such as `title` or
 * `outputSchema`, do not change a tool's hash.
 */
export const TOOL_HASH_FIELDS = ['annotations', 'description', 'inputSchema', 'name'] as const;

/**
 * A removed tool and an added tool are one renamed tool when these fields are equal (in canonical
 * JSON) and the description is not blank. Annotations may differ; any risk rise that brings is still
 * reported.
 */
export const RENAME_MATCH_FIELDS = ['description', 'inputSchema'] as const;

/**
 * The list hash is the SHA-256 of the sorted tool hashes, each followed by this separator. Sorting
 * makes it independent of tool order; an empty list hashes the empty string.
 */
export const LIST_HASH_SEPARATOR = '\n';

/**
 * Risk levels from least to most able to do harm. A rise is a move to a higher rank; a change that
 * keeps the rank of a tool that can change things (rank 1 or 2) is a rewrite.
 */
export const RISK_RANK = {
  'read-only': 0,
  'changes-data': 1,
  'high-risk': 2,
} as const;

/**
 * @internal Nesting depth past which canonical JSON switches from the fast recursive writer to an
 * explicit-stack writer, so that no value, however deep, can overflow the call stack. It never
 * changes the output, only how it is produced.
 */
export const CANONICAL_RECURSION_LIMIT = 256;

/**
 * @internal Size of the reused buffer texts are UTF-8 encoded into before hashing. A text that might
 * need more (over a third of this in UTF-16 code units) gets its own array. Never changes a hash.
 */
export const HASH_SCRATCH_BYTES = 64 * 1024;

/** @internal Bytes in a SHA-256 digest; an injected SHA-256 that returns any other length is refused. */
export const SHA256_DIGEST_BYTES = 32;
