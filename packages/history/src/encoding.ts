/**
 * Hex, base64 and UTF-8 helpers the record format needs.
 *
 * Pure module, internal. Base64 is written here rather than taken from `btoa`/`Buffer` so that the
 * package behaves the same in every runtime and so that decoding is strict: only canonical, padded
 * standard base64 is accepted, which makes a signature string map to exactly one byte string.
 * @internal
 */
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { SHA256_HEX_LENGTH } from './constants.js';

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64_VALUES: ReadonlyMap<string, number> = new Map([...BASE64_ALPHABET].map((char, index) => [char, index]));
const LOWER_HEX_256 = new RegExp(`^[0-9a-f]{${SHA256_HEX_LENGTH}}$`);

/** True for exactly 64 lowercase hex characters: the only spelling of a root or file hash. */
export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && LOWER_HEX_256.test(value);
}

export { bytesToHex, hexToBytes, utf8ToBytes };

/** Standard base64 with `=` padding (RFC 4648 §4). */
export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] ?? 0;
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    const chunk = (a << 16) | (b << 8) | c;
    const remaining = bytes.length - i;
    out += BASE64_ALPHABET[(chunk >> 18) & 63];
    out += BASE64_ALPHABET[(chunk >> 12) & 63];
    out += remaining > 1 ? BASE64_ALPHABET[(chunk >> 6) & 63] : '=';
    out += remaining > 2 ? BASE64_ALPHABET[chunk & 63] : '=';
  }
  return out;
}

/**
 * Decodes canonical standard base64, or returns `null`. Non-canonical spellings (stray bits in the
 * last character, missing padding, whitespace, the URL-safe alphabet) are refused, because two
 * strings that decode to the same signature would make a record's bytes ambiguous.
 */
export function base64ToBytes(text: string): Uint8Array | null {
  if (!BASE64_PATTERN.test(text)) return null;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let written = 0;
  for (let i = 0; i < text.length; i += 4) {
    let chunk = 0;
    for (let j = 0; j < 4; j++) chunk = (chunk << 6) | (BASE64_VALUES.get(text[i + j] ?? '=') ?? 0);
    for (const shift of [16, 8, 0]) {
      if (written < out.length) out[written++] = (chunk >> shift) & 0xff;
    }
  }
  return bytesToBase64(out) === text ? out : null;
}
