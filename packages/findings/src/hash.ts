// Pure module: tool and tool-list hashes. SHA-256 comes from @noble/hashes, so the same code runs in
// Node, browsers and edge runtimes without node:crypto, and stays synchronous.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { canonicalToolJson } from './canonical-json.js';
import { FindingsInputError, assertToolsArray, describeType } from './errors.js';
import { HASH_SCRATCH_BYTES, LIST_HASH_SEPARATOR } from './rules.js';

// TextEncoder is a global in every runtime this package targets; one instance serves every call.
const utf8 = new TextEncoder();
const TOOL_HASH_PATTERN = /^[0-9a-f]{64}$/;

// Tool texts are small and hashed by the million, so they are encoded into one reused buffer rather
// than a new array each time (that allocation cost more than the hashing itself). Texts too large for
// the buffer get their own array, so one huge tool cannot pin a huge buffer for the life of the process.
const scratch = new Uint8Array(HASH_SCRATCH_BYTES);

function utf8Bytes(text: string): Uint8Array {
  // A UTF-16 code unit never takes more than 3 UTF-8 bytes.
  if (text.length * 3 > HASH_SCRATCH_BYTES) return utf8.encode(text);
  const { written } = utf8.encodeInto(text, scratch);
  return scratch.subarray(0, written);
}

/**
 * The SHA-256 of a string's UTF-8 bytes, as 64 lower-case hex digits. Lone surrogates are encoded as
 * U+FFFD, as TextEncoder does.
 *
 * @example sha256Hex('abc') // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8Bytes(text)));
}

/**
 * The hash of one tool: hex SHA-256 of the canonical JSON of its `annotations`, `description`,
 * `inputSchema` and `name` (fields that are absent are left out; other fields such as `title` are not
 * covered). Key order, whitespace and number spelling in the server's JSON do not change it. Accepts any
 * value: an entry that is not a tool object is hashed whole, and never matches a tool object's hash.
 *
 * @example hashTool({ name: 'get_page', inputSchema: { type: 'object' } }) // 64 hex digits
 */
export function hashTool(tool: unknown): string {
  return sha256Hex(canonicalToolJson(tool));
}

/**
 * Combines tool hashes into a list hash: SHA-256 of the hashes sorted, each followed by a newline.
 * Use it when the tool hashes are already stored; `hashToolList(tools)` equals
 * `combineToolHashes(tools.map(hashTool))`. Throws {@link FindingsInputError} (`not-a-tool-hash`)
 * for anything but an array of 64-digit lower-case hex strings.
 *
 * @example combineToolHashes([]) // 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 */
export function combineToolHashes(hashes: readonly string[]): string {
  if (!Array.isArray(hashes)) {
    throw new FindingsInputError('not-a-tool-hash', `combineToolHashes: hashes must be an array, got ${describeType(hashes)}`);
  }
  for (const hash of hashes) {
    if (typeof hash !== 'string' || !TOOL_HASH_PATTERN.test(hash)) {
      throw new FindingsInputError('not-a-tool-hash', 'combineToolHashes: every hash must be 64 lower-case hex digits, as hashTool returns');
    }
  }
  return sha256Hex(joinSorted(hashes));
}

function joinSorted(hashes: readonly string[]): string {
  const sorted = [...hashes].sort();
  let text = '';
  for (const hash of sorted) text += hash + LIST_HASH_SEPARATOR;
  return text;
}

/**
 * The hash of a whole tool list, independent of tool order: the tool hashes sorted, each followed by
 * a newline, then hashed again. Duplicates count, so a list with a tool twice differs from the list
 * with it once. Any JSON value may sit in the list; only a `tools` that is not an array throws
 * {@link FindingsInputError} (`tools-not-array`).
 *
 * @example hashToolList([b, a]) === hashToolList([a, b]) // true
 */
export function hashToolList(tools: readonly unknown[]): string {
  assertToolsArray(tools, 'hashToolList: tools');
  const hashes = new Array<string>(tools.length);
  for (let i = 0; i < tools.length; i++) hashes[i] = hashTool(tools[i]);
  return sha256Hex(joinSorted(hashes));
}
