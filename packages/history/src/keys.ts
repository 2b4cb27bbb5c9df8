/**
 * Ed25519 keys: generating them and moving them between raw bytes and PEM.
 *
 * Pure module. Raw keys are 32 bytes each (RFC 8032). PEM is what Node, OpenSSL and browsers'
 * WebCrypto importers understand: SPKI for the public key (published in the well-known document),
 * PKCS#8 for the private key (kept by the operator).
 */
import {
  ED25519_PKCS8_PREFIX,
  ED25519_PRIVATE_KEY_BYTES,
  ED25519_PUBLIC_KEY_BYTES,
  ED25519_SPKI_PREFIX,
  PEM_LINE_WIDTH,
  PEM_PRIVATE_KEY_LABEL,
  PEM_PUBLIC_KEY_LABEL,
} from './constants.js';
import { assertKey, derivePublicKey, randomPrivateKey } from './ed25519.js';
import { base64ToBytes, bytesToBase64, bytesToHex } from './encoding.js';
import { describeValue, HistoryError } from './errors.js';

/** A signing key pair, both halves raw 32-byte Uint8Arrays. */
export interface KeyPair {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

/**
 * A new Ed25519 key pair from the runtime's secure random source (`crypto.getRandomValues`).
 * Throws `no-random-source` in a runtime without one.
 *
 * @example
 * const { privateKey, publicKey } = await generateKeyPair();
 */
export async function generateKeyPair(): Promise<KeyPair> {
  const privateKey = randomPrivateKey();
  return { privateKey, publicKey: derivePublicKey(privateKey) };
}

/**
 * The public key that belongs to a 32-byte private key. Throws `invalid-key` for a wrong length.
 *
 * @example
 * const publicKey = publicKeyFor(privateKey);
 */
export function publicKeyFor(privateKey: Uint8Array): Uint8Array {
  assertKey(privateKey, 'private key');
  return derivePublicKey(privateKey);
}

function toPem(label: string, der: Uint8Array): string {
  const body = bytesToBase64(der);
  const lines: string[] = [];
  for (let i = 0; i < body.length; i += PEM_LINE_WIDTH) lines.push(body.slice(i, i + PEM_LINE_WIDTH));
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

function withPrefix(prefix: readonly number[], key: Uint8Array): Uint8Array {
  const der = new Uint8Array(prefix.length + key.length);
  der.set(prefix);
  der.set(key, prefix.length);
  return der;
}

function fromPem(pem: unknown, label: string, prefix: readonly number[], keyBytes: number, kind: string): Uint8Array {
  if (typeof pem !== 'string') {
    throw new HistoryError('invalid-pem', `${kind} PEM must be a string, got ${describeValue(pem)}`);
  }
  const begin = `-----BEGIN ${label}-----`;
  const end = `-----END ${label}-----`;
  const start = pem.indexOf(begin);
  const stop = pem.indexOf(end, start + begin.length);
  if (start === -1 || stop === -1) {
    throw new HistoryError('invalid-pem', `${kind} PEM must contain a "${begin}" … "${end}" block`);
  }
  const der = base64ToBytes(pem.slice(start + begin.length, stop).replace(/\s+/g, ''));
  if (der === null) throw new HistoryError('invalid-pem', `${kind} PEM body is not valid base64`);
  const expected = prefix.length + keyBytes;
  if (der.length !== expected || prefix.some((byte, i) => der[i] !== byte)) {
    throw new HistoryError(
      'invalid-pem',
      `${kind} PEM does not hold an Ed25519 key: expected ${expected} DER bytes starting ${bytesToHex(Uint8Array.from(prefix))}`,
    );
  }
  return der.slice(prefix.length);
}

/**
 * The public key as an SPKI PEM block, the form `createPublicKey` in node:crypto (and OpenSSL)
 * accepts and the well-known document publishes as `integrity.public_key_pem`.
 *
 * @example
 * publicKeyPem(publicKey)
 * // '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA…\n-----END PUBLIC KEY-----\n'
 */
export function publicKeyPem(publicKey: Uint8Array): string {
  assertKey(publicKey, 'public key');
  return toPem(PEM_PUBLIC_KEY_LABEL, withPrefix(ED25519_SPKI_PREFIX, publicKey));
}

/**
 * The raw 32-byte public key in an SPKI PEM block (surrounding text and line breaks are ignored).
 * Throws `invalid-pem` when there is no such block or it holds anything but an Ed25519 key.
 *
 * @example
 * publicKeyFromPem(publicKeyPem(publicKey)) // equal to publicKey
 */
export function publicKeyFromPem(pem: string): Uint8Array {
  return fromPem(pem, PEM_PUBLIC_KEY_LABEL, ED25519_SPKI_PREFIX, ED25519_PUBLIC_KEY_BYTES, 'public key');
}

/**
 * The private key as a PKCS#8 PEM block, the form `createPrivateKey` in node:crypto and
 * `openssl pkey` read. Keep it secret (the reference app stores it with mode 0600).
 *
 * @example
 * privateKeyPem(privateKey) // '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI…\n-----END PRIVATE KEY-----\n'
 */
export function privateKeyPem(privateKey: Uint8Array): string {
  assertKey(privateKey, 'private key');
  return toPem(PEM_PRIVATE_KEY_LABEL, withPrefix(ED25519_PKCS8_PREFIX, privateKey));
}

/**
 * The raw 32-byte private key in a PKCS#8 PEM block. Throws `invalid-pem` when there is no such
 * block or it holds anything but an Ed25519 key.
 *
 * @example
 * privateKeyFromPem(privateKeyPem(privateKey)) // equal to privateKey
 */
export function privateKeyFromPem(pem: string): Uint8Array {
  return fromPem(pem, PEM_PRIVATE_KEY_LABEL, ED25519_PKCS8_PREFIX, ED25519_PRIVATE_KEY_BYTES, 'private key');
}
