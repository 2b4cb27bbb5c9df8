/**
 * The Ed25519 calls the seal makes, on @noble/ed25519.
 *
 * Pure module, internal. @noble/ed25519 3 leaves its synchronous API unwired until a SHA-512 is
 * set on `ed.hashes.sha512`. We set it lazily, on first use, instead of at import time, so that
 * importing this package has no side effect (`sideEffects: false` stays true) and so that a SHA-512
 * the application already installed is kept. The synchronous path needs no WebCrypto, so signing
 * and verifying work in runtimes without `crypto.subtle`.
 * @internal
 */
import * as ed from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import {
  ED25519_PRIVATE_KEY_BYTES,
  ED25519_PUBLIC_KEY_BYTES,
  ED25519_SIGNATURE_BYTES,
  VERIFY_WITH_ZIP215,
} from './constants.js';
import { describeValue, HistoryError } from './errors.js';

function ensureSha512(): void {
  if (ed.hashes.sha512 === undefined) ed.hashes.sha512 = sha512;
}

/** Throws `invalid-key` unless `key` is a Uint8Array of exactly 32 bytes. */
export function assertKey(key: unknown, label: 'private key' | 'public key'): asserts key is Uint8Array {
  const expected = label === 'private key' ? ED25519_PRIVATE_KEY_BYTES : ED25519_PUBLIC_KEY_BYTES;
  if (!(key instanceof Uint8Array)) {
    throw new HistoryError(
      'invalid-key',
      `${label} must be a Uint8Array of ${expected} bytes, got ${describeValue(key)}`,
    );
  }
  if (key.length !== expected) {
    throw new HistoryError('invalid-key', `${label} must be ${expected} bytes, got ${key.length}`);
  }
}

/** The public key of a 32-byte private key (RFC 8032 seed). */
export function derivePublicKey(privateKey: Uint8Array): Uint8Array {
  ensureSha512();
  return ed.getPublicKey(privateKey);
}

/** A fresh private key from the runtime's secure random source. */
export function randomPrivateKey(): Uint8Array {
  ensureSha512();
  try {
    return ed.utils.randomSecretKey();
  } catch {
    throw new HistoryError(
      'no-random-source',
      'generating a key needs crypto.getRandomValues, which this runtime does not provide',
    );
  }
}

/** Ed25519 signature over `message`. */
export function signBytes(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  ensureSha512();
  return ed.sign(message, privateKey);
}

/**
 * Whether `signature` is a valid RFC 8032 signature of `message` under `publicKey`. A public key
 * that is not a curve point, or a malformed signature, is simply not valid: it never throws.
 */
export function verifyBytes(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  ensureSha512();
  if (signature.length !== ED25519_SIGNATURE_BYTES) return false;
  try {
    return ed.verify(signature, message, publicKey, { zip215: VERIFY_WITH_ZIP215 });
  } catch {
    return false;
  }
}
