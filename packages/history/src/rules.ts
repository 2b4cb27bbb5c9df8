/**
 * The rule constants of @mcp-atlas/history, published as `@mcp-atlas/history/rules`: one frozen object per
 * concern. The values are written once, in constants.ts; these objects only group them. The root entry exports
 * none of them: a rule is read here, a function is called from the root. Byte prefixes, PEM labels, exit codes
 * and read concurrency are plumbing and stay internal.
 *
 * Pure module: no I/O, no clock.
 */
import {
  CATCH_UP_DAYS,
  DAY_INDEX_FIELD,
  DAY_INDEX_PATH,
  ED25519_PRIVATE_KEY_BYTES,
  ED25519_PUBLIC_KEY_BYTES,
  ED25519_SIGNATURE_BYTES,
  LINE_HASH_PATH_SEPARATOR,
  MAX_YEAR,
  MIN_YEAR,
  NO_PREVIOUS_ROOT,
  PREVIOUS_ROOT_WINDOW_DAYS,
  ROOT_PREIMAGE_SEPARATOR,
  SEAL_TIME_UTC,
  SHA256_HEX_LENGTH,
  VERIFY_WITH_ZIP215,
  WELL_KNOWN_PATH,
} from './constants.js';

/**
 * When days are sealed and what a day chains to (methodology, "Signed daily history" > "Previous root: the
 * 14-day window" and "When days are sealed").
 *
 * @example
 * // SEAL_RULES is exported by the `@mcp-atlas/history/rules` subpath
 * const due = now.getUTCHours() * 60 + now.getUTCMinutes() >= SEAL_RULES.sealTimeUtc.hour * 60 + SEAL_RULES.sealTimeUtc.minute;
 */
export const SEAL_RULES = Object.freeze({
  /** The previous root of day D is the root of the newest sealed day among D-1 … D-this (both ends included). */
  previousRootWindowDays: PREVIOUS_ROOT_WINDOW_DAYS,
  /** A run on day T signs T-1 and every unsealed day among the this-many days before it, oldest first. */
  catchUpDays: CATCH_UP_DAYS,
  /** The UTC time of day at which the previous UTC day is sealed. */
  sealTimeUtc: SEAL_TIME_UTC,
});

/**
 * How a day's files become lines and the lines a root (methodology, "Signed daily history" > "What a day's seal
 * covers", "Lines" and "Root").
 */
export const LINE_RULES = Object.freeze({
  /** Between the sha256 hex and the path in a file line (two spaces, as `sha256sum` prints). */
  hashPathSeparator: LINE_HASH_PATH_SEPARATOR,
  /** Joins the previous root to the lines, and the lines to each other, in the root's preimage. */
  rootPreimageSeparator: ROOT_PREIMAGE_SEPARATOR,
  /** What stands in for the previous root in the preimage when a day chains to nothing. */
  noPreviousRoot: NO_PREVIOUS_ROOT,
  /** Hex characters of a root, a previous root and a file hash. */
  hashHexLength: SHA256_HEX_LENGTH,
  /** The file of a day folder that names its day, so a signed day cannot move to another date unnoticed. */
  dayIndexPath: DAY_INDEX_PATH,
  /** The field of `dayIndexPath` that holds the day the folder says it is. */
  dayIndexField: DAY_INDEX_FIELD,
});

/** What a day string may be (methodology, "Signed daily history" > "Constants"): a real UTC date `YYYY-MM-DD`. */
export const DAY_RULES = Object.freeze({
  /** The first year a day string can carry. */
  minYear: MIN_YEAR,
  /** The last year a day string can carry. */
  maxYear: MAX_YEAR,
});

/** The signature and where its key is published (methodology, "Signed daily history" > "Signature" and "Verifying"). */
export const SIGNATURE_RULES = Object.freeze({
  /** Bytes of an Ed25519 public key (RFC 8032). */
  publicKeyBytes: ED25519_PUBLIC_KEY_BYTES,
  /** Bytes of an Ed25519 private key: the 32-byte seed, not the expanded form. */
  privateKeyBytes: ED25519_PRIVATE_KEY_BYTES,
  /** Bytes of an Ed25519 signature; a record writes it as padded base64. */
  signatureBytes: ED25519_SIGNATURE_BYTES,
  /** False: verification follows RFC 8032 strictly, so every signature accepted here OpenSSL accepts too. */
  verifyWithZip215: VERIFY_WITH_ZIP215,
  /** Where a published observatory serves its public key. */
  wellKnownPath: WELL_KNOWN_PATH,
});
