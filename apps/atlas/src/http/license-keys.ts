// The paying reporters' license keys, held as keyed hashes. A paying reporter decides whether ratings are shown
// and can confirm incidents, so a key is a credential: the service keeps only HMAC-SHA256 digests under a
// secret drawn per process, compares them in constant time, and never logs or stores a plain key.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Bytes of the per-process secret that keys the digests (the SHA-256 block's half, as HMAC advises at least). */
export const LICENSE_SECRET_BYTES = 32;

/**
 * Longest line taken from the operator's license key file; a longer line is refused rather than cut. Not the
 * limit on a key a reporter sends: that is LICENSE_HEADER_MAX_LENGTH (limits.ts), and a key in the file
 * longer than it can never be matched.
 */
export const LICENSE_KEY_FILE_LINE_MAX_LENGTH = 512;

/** A key file line that cannot be a key; the message names the line number, never the line. */
export class LicenseKeyFileError extends Error {}

/** A set of license keys that answers "is this one of them?" without holding any key in plain text. */
export interface LicenseKeyStore {
  /** How many distinct keys it holds. */
  readonly size: number;
  /** True when `key` is one of the keys; takes the same time whichever digest matches. */
  has(key: string): boolean;
}

/**
 * The keys of a key file: one per line, surrounding spaces trimmed, blank lines and lines starting with `#`
 * skipped. A line with inner whitespace or longer than {@link LICENSE_KEY_FILE_LINE_MAX_LENGTH} throws a
 * LicenseKeyFileError naming its line number (not its text, which may be a key).
 *
 * @example
 * parseLicenseKeyList('# paying reporters\nkey-one\n\nkey-two\n'); // ['key-one', 'key-two']
 */
export function parseLicenseKeyList(text: string): string[] {
  const keys: string[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (/\s/.test(line))
      throw new LicenseKeyFileError(`line ${index + 1} of the license key file holds whitespace inside a key`);
    if (line.length > LICENSE_KEY_FILE_LINE_MAX_LENGTH)
      throw new LicenseKeyFileError(
        `line ${index + 1} of the license key file is longer than ${LICENSE_KEY_FILE_LINE_MAX_LENGTH} characters`,
      );
    keys.push(line);
  });
  return keys;
}

/** HMAC-SHA256 of a key under the store's secret. */
function digestOf(secret: Uint8Array, key: string): Buffer {
  return createHmac('sha256', secret).update(key, 'utf8').digest();
}

/**
 * A store of `keys` as keyed digests under `secret` (a fresh random one unless given). A lookup compares the
 * candidate's digest with every stored digest by `timingSafeEqual` and never stops early, so the time taken
 * says nothing about which key, or how much of one, matched.
 *
 * @example
 * const store = createLicenseKeyStore(parseLicenseKeyList(await readFile(path, 'utf8')));
 * store.has('key-one'); // true
 */
export function createLicenseKeyStore(
  keys: Iterable<string>,
  secret: Uint8Array = randomBytes(LICENSE_SECRET_BYTES),
): LicenseKeyStore {
  const seen = new Set<string>();
  const digests: Buffer[] = [];
  for (const key of keys) {
    const digest = digestOf(secret, key);
    const hex = digest.toString('hex');
    if (seen.has(hex)) continue;
    seen.add(hex);
    digests.push(digest);
  }
  return {
    size: digests.length,
    has: (key) => {
      const candidate = digestOf(secret, key);
      let found = false;
      for (const digest of digests) found = timingSafeEqual(candidate, digest) || found;
      return found;
    },
  };
}

/** A license validator over a store, in the shape `createHttpApp` takes. */
export function licenseValidatorOf(store: LicenseKeyStore): (key: string) => Promise<boolean> {
  return async (key) => store.has(key);
}

/** The validator used when no key store is configured: every key is refused, so no report counts as paid. */
export const refuseEveryLicense = async (_key: string): Promise<boolean> => false;
