// Pure module: tool and tool-list hashes. The default SHA-256 comes from @noble/hashes, so the same code
// runs in Node, browsers and edge runtimes without node:crypto, and stays synchronous. A caller with a
// native SHA-256 (Node's createHash) can pass it in through HashOptions; the hashes do not change.
import { describeType } from '@mcp-atlas/base';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { canonicalToolJson } from './canonical-json.js';
import { HASH_SCRATCH_BYTES, LIST_HASH_SEPARATOR, SHA256_DIGEST_BYTES } from './constants.js';
import { assertToolsArray, FindingsInputError } from './errors.js';

/**
 * A SHA-256 implementation: the bytes to hash in, the 32-byte digest out. It must be synchronous, must
 * not keep `bytes` after it returns, and must not call this package's hashing functions itself: the
 * array may be a view of a buffer that is reused for the next hash.
 *
 * @example
 * // createHash is Node's, from the node:crypto module
 * const nodeSha256: Sha256 = (bytes) => createHash('sha256').update(bytes).digest();
 */
export type Sha256 = (bytes: Uint8Array) => Uint8Array;

/**
 * Options for every function that hashes (`hashTool`, `hashToolList`, `combineToolHashes`,
 * `sha256Hex`). `sha256` replaces the default @noble/hashes SHA-256, for instance with Node's native
 * one, which is several times faster; the hashes are the same either way. Its result is checked: a
 * function that does not return 32 bytes throws {@link FindingsInputError} (`sha256-wrong-digest`).
 *
 * @example
 * // createHash is Node's, from the node:crypto module
 * const options: HashOptions = { sha256: (bytes) => createHash('sha256').update(bytes).digest() };
 * hashToolList(tools, options);
 */
export interface HashOptions {
  /** SHA-256 to use instead of @noble/hashes; must return the 32-byte digest. */
  sha256?: Sha256;
}

// TextEncoder and TextDecoder are globals in every runtime this package targets; one of each serves every call.
const utf8 = new TextEncoder();
const ascii = new TextDecoder();
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

// Hex digits are written as ASCII bytes and decoded once: about eight times faster than joining 32
// two-digit strings, whose rope the later sort and join would have to flatten again.
const HEX_DIGITS = new Uint8Array([...'0123456789abcdef'].map((digit) => digit.charCodeAt(0)));
const hexScratch = new Uint8Array(SHA256_DIGEST_BYTES * 2);

function toHex(digest: Uint8Array): string {
  for (let i = 0; i < SHA256_DIGEST_BYTES; i++) {
    const byte = digest[i] as number;
    hexScratch[2 * i] = HEX_DIGITS[byte >>> 4] as number;
    hexScratch[2 * i + 1] = HEX_DIGITS[byte & 0x0f] as number;
  }
  return ascii.decode(hexScratch);
}

function describeDigest(digest: unknown): string {
  return digest instanceof Uint8Array ? `${digest.length} bytes` : describeType(digest);
}

/**
 * The caller's SHA-256, or undefined for the default. Options that are not an object are ignored, so
 * plain JavaScript written before options existed, such as `tools.map(hashTool)` (which passes each
 * index as the second argument), keeps giving the same hashes.
 */
function chosenSha256(options: HashOptions | undefined, where: string): Sha256 | undefined {
  if (typeof options !== 'object' || options === null) return undefined;
  const chosen: unknown = options.sha256;
  if (chosen === undefined) return undefined;
  if (typeof chosen !== 'function') {
    throw new FindingsInputError(
      'sha256-not-a-function',
      `${where}: options.sha256 must be a function from bytes to the 32-byte digest, got ${describeType(chosen)}`,
    );
  }
  return chosen as Sha256;
}

// SHA-256 of the text's UTF-8 bytes, as hex, with the caller's function when there is one.
function digestHex(text: string, sha256: Sha256 | undefined, where: string): string {
  const bytes = utf8Bytes(text);
  if (sha256 === undefined) return toHex(nobleSha256(bytes));
  const digest: unknown = sha256(bytes);
  if (!(digest instanceof Uint8Array) || digest.length !== SHA256_DIGEST_BYTES) {
    throw new FindingsInputError(
      'sha256-wrong-digest',
      `${where}: options.sha256 must return the ${SHA256_DIGEST_BYTES}-byte digest as a Uint8Array, got ${describeDigest(digest)}`,
    );
  }
  return toHex(digest);
}

/**
 * The SHA-256 of a string's UTF-8 bytes, as 64 lower-case hex digits. Lone surrogates are encoded as
 * U+FFFD, as TextEncoder does. `options.sha256` replaces the default SHA-256 (see {@link HashOptions}).
 *
 * @example sha256Hex('abc') // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 */
export function sha256Hex(text: string, options?: HashOptions): string {
  return digestHex(text, chosenSha256(options, 'sha256Hex'), 'sha256Hex');
}

/**
 * The hash of one tool: hex SHA-256 of the canonical JSON of its `annotations`, `description`,
 * `inputSchema` and `name` (fields that are absent are left out; other fields such as `title` are not
 * covered). Key order, whitespace and number spelling in the server's JSON do not change it. Accepts any
 * value: an entry that is not a tool object is hashed whole, and never matches a tool object's hash.
 * `options.sha256` replaces the default SHA-256 (see {@link HashOptions}).
 *
 * @example hashTool({ name: 'get_page', inputSchema: { type: 'object' } }) // 64 hex digits
 */
export function hashTool(tool: unknown, options?: HashOptions): string {
  return digestHex(canonicalToolJson(tool), chosenSha256(options, 'hashTool'), 'hashTool');
}

/**
 * Combines tool hashes into a list hash: SHA-256 of the hashes sorted, each followed by a newline.
 * Use it when the tool hashes are already stored; `hashToolList(tools)` equals
 * `combineToolHashes(tools.map((tool) => hashTool(tool)))`. Throws {@link FindingsInputError} (`not-a-tool-hash`)
 * for anything but an array of 64-digit lower-case hex strings. `options.sha256` replaces the default
 * SHA-256 (see {@link HashOptions}).
 *
 * @example combineToolHashes([]) // 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 */
export function combineToolHashes(hashes: readonly string[], options?: HashOptions): string {
  const sha256 = chosenSha256(options, 'combineToolHashes');
  if (!Array.isArray(hashes)) {
    throw new FindingsInputError(
      'not-a-tool-hash',
      `combineToolHashes: hashes must be an array, got ${describeType(hashes)}`,
    );
  }
  for (const hash of hashes) {
    if (typeof hash !== 'string' || !TOOL_HASH_PATTERN.test(hash)) {
      throw new FindingsInputError(
        'not-a-tool-hash',
        'combineToolHashes: every hash must be 64 lower-case hex digits, as hashTool returns',
      );
    }
  }
  return digestHex(joinSorted([...hashes]), sha256, 'combineToolHashes');
}

// Sorts `hashes` in place (callers pass their own copy) and writes each followed by the separator.
function joinSorted(hashes: string[]): string {
  hashes.sort();
  let text = '';
  for (const hash of hashes) text += hash + LIST_HASH_SEPARATOR;
  return text;
}

/**
 * The hash of a whole tool list, independent of tool order: the tool hashes sorted, each followed by
 * a newline, then hashed again. Duplicates count, so a list with a tool twice differs from the list
 * with it once. Any JSON value may sit in the list; only a `tools` that is not an array throws
 * {@link FindingsInputError} (`tools-not-array`). `options.sha256` replaces the default SHA-256 (see
 * {@link HashOptions}); it is called once per tool and once for the list.
 *
 * @example hashToolList([b, a]) === hashToolList([a, b]) // true
 */
export function hashToolList(tools: readonly unknown[], options?: HashOptions): string {
  assertToolsArray(tools, 'hashToolList: tools');
  const sha256 = chosenSha256(options, 'hashToolList');
  const hashes = new Array<string>(tools.length);
  for (let i = 0; i < tools.length; i++) hashes[i] = digestHex(canonicalToolJson(tools[i]), sha256, 'hashToolList');
  return digestHex(joinSorted(hashes), sha256, 'hashToolList');
}
