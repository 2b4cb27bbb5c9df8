/**
 * The SHA-256 function the seal uses, and the hook to swap in a faster one.
 *
 * Pure module. The default is @noble/hashes, audited pure JavaScript that runs in every runtime.
 * A caller on a platform with native hashing (Node's `createHash`, see the `./node` entry) can
 * pass its own function; the result is checked to be 32 bytes so a wrong hook cannot silently
 * produce short roots.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { SHA256_BYTES } from './constants.js';
import { describeValue, HistoryError } from './errors.js';

/**
 * A SHA-256 implementation: bytes in, the 32-byte digest out. Must be synchronous.
 *
 * @example
 * import { createHash } from 'node:crypto';
 * const nodeSha256: Sha256 = (bytes) => createHash('sha256').update(bytes).digest();
 */
export type Sha256 = (bytes: Uint8Array) => Uint8Array;

/** Options shared by every function that hashes. */
export interface HashOptions {
  /** SHA-256 to use instead of @noble/hashes; must return 32 bytes. */
  sha256?: Sha256;
}

const nobleSha256: Sha256 = (bytes) => sha256(bytes);

/** The caller's SHA-256 (checked) or the default. @internal */
export function resolveSha256(options: HashOptions | undefined): Sha256 {
  const chosen: unknown = options?.sha256;
  if (chosen === undefined) return nobleSha256;
  if (typeof chosen !== 'function') {
    throw new HistoryError(
      'invalid-hash',
      `sha256 must be a function from bytes to 32 bytes, got ${describeValue(chosen)}`,
    );
  }
  const hook = chosen as Sha256;
  return (bytes) => {
    const digest: unknown = hook(bytes);
    if (!(digest instanceof Uint8Array) || digest.length !== SHA256_BYTES) {
      throw new HistoryError('invalid-hash', `sha256 must return 32 bytes, got ${describeValue(digest)}`);
    }
    return digest;
  };
}
