/**
 * Every number, separator and byte prefix the daily seal depends on, in one place.
 *
 * Pure module: no I/O, no clock. Changing any value here changes what a root means, so it is a
 * methodology change and bumps the methodology version.
 */

/**
 * How far back, in days, a day looks for the root it chains to. The previous root of day D is the
 * root of the newest sealed day among D-1 … D-14 (both ends included); with none, it is `null`.
 */
export const PREVIOUS_ROOT_WINDOW_DAYS = 14;

/**
 * How many days before the previous day a catch-up run still signs. A run on day T signs T-1 and
 * every unsealed day among T-2 … T-8 (7 days), oldest first; T-9 and older are left unsealed.
 */
export const CATCH_UP_DAYS = 7;

/**
 * The UTC time of day at which the previous UTC day is sealed. The package never reads a clock;
 * the scheduler that calls `sealDay` uses this. Later runs the same day catch up (see `daysToSign`).
 */
export const SEAL_TIME_UTC = Object.freeze({ hour: 1, minute: 5 });

/** Between the sha256 hex and the path in a file line: two spaces, as `sha256sum` prints. */
export const LINE_HASH_PATH_SEPARATOR = '  ';

/** Joins the previous root to the lines, and the lines to each other, in the root's preimage. */
export const ROOT_PREIMAGE_SEPARATOR = '\n';

/** What stands in for the previous root in the preimage when a day chains to nothing. */
export const NO_PREVIOUS_ROOT = '';

/** Bytes in a SHA-256 digest, and so in a root. The signature covers exactly these 32 bytes. */
export const SHA256_BYTES = 32;

/** A root, a previous root and a file hash are written as this many lowercase hex characters. */
export const SHA256_HEX_LENGTH = 64;

/** An Ed25519 public key is 32 raw bytes (RFC 8032). */
export const ED25519_PUBLIC_KEY_BYTES = 32;

/** An Ed25519 private key is the 32-byte secret seed of RFC 8032 (not the 64-byte expanded form). */
export const ED25519_PRIVATE_KEY_BYTES = 32;

/** An Ed25519 signature is 64 raw bytes; in a record it is written as standard padded base64. */
export const ED25519_SIGNATURE_BYTES = 64;

/**
 * Verification follows RFC 8032 strictly rather than the more lenient ZIP-215 rules, so that every
 * signature this package accepts is one that OpenSSL (and so node:crypto) accepts too.
 */
export const VERIFY_WITH_ZIP215 = false;

/**
 * DER bytes that precede the 32 key bytes in an Ed25519 SubjectPublicKeyInfo (RFC 8410):
 * SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING (0 unused bits) }.
 */
export const ED25519_SPKI_PREFIX: readonly number[] = Object.freeze([
  0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
]);

/**
 * DER bytes that precede the 32 seed bytes in an Ed25519 PKCS#8 PrivateKeyInfo (RFC 8410):
 * SEQUENCE { INTEGER 0, SEQUENCE { OID 1.3.101.112 }, OCTET STRING { OCTET STRING (32) } }.
 */
export const ED25519_PKCS8_PREFIX: readonly number[] = Object.freeze([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

/** PEM label of a public key (SPKI). */
export const PEM_PUBLIC_KEY_LABEL = 'PUBLIC KEY';

/** PEM label of a private key (PKCS#8). */
export const PEM_PRIVATE_KEY_LABEL = 'PRIVATE KEY';

/** Base64 characters per PEM body line (RFC 7468). */
export const PEM_LINE_WIDTH = 64;

/** The first year a day string can carry (four digits: 0000); days are read by @mcp-atlas/base. */
export const MIN_YEAR = 0;

/** The last year a day string can carry (four digits: 9999). */
export const MAX_YEAR = 9999;

/**
 * The file of a day folder that names its day: a JSON object whose `DAY_INDEX_FIELD` is the day's
 * `YYYY-MM-DD`. Its hash is one of the day's lines, so a signed day cannot be moved to another date
 * (the root and signature cover the lines, not the record's `day` label) without the move showing.
 */
export const DAY_INDEX_PATH = 'index.json';

/** The field of `DAY_INDEX_PATH` that holds the day the folder says it is. */
export const DAY_INDEX_FIELD = 'day';

/** Where a published observatory serves its public key (`integrity.public_key_pem`). */
export const WELL_KNOWN_PATH = '/.well-known/mcp-atlas.json';

/** How long the CLI waits for a well-known document before giving up. */
export const KEY_FETCH_TIMEOUT_MS = 10_000;

/**
 * How many files `readDayFiles` and `verifyFolder` read at once. Enough to keep the disk busy;
 * opening thousands at once only makes the file system thrash.
 */
export const FILE_READ_CONCURRENCY = 16;

/** A failure reason names at most this many files, then says how many more there are. */
export const MAX_FILES_NAMED_IN_REASON = 5;

/** Longest quoted input an error message repeats back before cutting it short. */
export const MAX_QUOTED_INPUT_LENGTH = 80;

/** `mcp-history` exit code: every day verified. */
export const EXIT_VERIFIED = 0;

/** `mcp-history` exit code: a day is broken (bad record, broken chain or changed file). */
export const EXIT_BROKEN = 1;

/** `mcp-history` exit code: the command could not run (bad arguments, unreadable folder or key). */
export const EXIT_USAGE = 2;

/** `mcp-history` exit code: a bug inside the command itself (EX_SOFTWARE from sysexits.h). */
export const EXIT_INTERNAL_ERROR = 70;
