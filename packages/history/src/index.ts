/**
 * @mcp-atlas/history: the signed, chained daily history. Pure: bytes in, records out; no I/O,
 * no clock, no randomness except in `generateKeyPair`. Node-only helpers live in `./node`.
 */
export {
  CATCH_UP_DAYS,
  DAY_INDEX_FIELD,
  DAY_INDEX_PATH,
  DAY_PATTERN,
  ED25519_PKCS8_PREFIX,
  ED25519_PRIVATE_KEY_BYTES,
  ED25519_PUBLIC_KEY_BYTES,
  ED25519_SIGNATURE_BYTES,
  ED25519_SPKI_PREFIX,
  EXIT_BROKEN,
  EXIT_INTERNAL_ERROR,
  EXIT_USAGE,
  EXIT_VERIFIED,
  FILE_READ_CONCURRENCY,
  KEY_FETCH_TIMEOUT_MS,
  LINE_HASH_PATH_SEPARATOR,
  MAX_FILES_NAMED_IN_REASON,
  MAX_QUOTED_INPUT_LENGTH,
  MAX_YEAR,
  MIN_YEAR,
  MS_PER_DAY,
  NO_PREVIOUS_ROOT,
  PEM_LINE_WIDTH,
  PEM_PRIVATE_KEY_LABEL,
  PEM_PUBLIC_KEY_LABEL,
  PREVIOUS_ROOT_WINDOW_DAYS,
  ROOT_PREIMAGE_SEPARATOR,
  SEAL_TIME_UTC,
  SHA256_BYTES,
  SHA256_HEX_LENGTH,
  VERIFY_WITH_ZIP215,
  WELL_KNOWN_PATH,
} from './constants.js';
export { dayFromTime, daysToSign, isDay, previousRootFor, shiftDay } from './day.js';
export { checkDayLabel, type DayLabelCheck, type DayLabelInput, readSealedDay } from './day-label.js';
export { HistoryError, type HistoryErrorCode } from './errors.js';
export type { HashOptions, Sha256 } from './hash.js';
export {
  generateKeyPair,
  type KeyPair,
  privateKeyFromPem,
  privateKeyPem,
  publicKeyFor,
  publicKeyFromPem,
  publicKeyPem,
} from './keys.js';
export { type DayFile, dayLines, type FileLineParts, fileLine, parseFileLine } from './lines.js';
export { assertDayPath, compareDayPaths } from './paths.js';
export { computeRoot } from './root.js';
export { type DayRoot, type SealDayInput, sealDay, sealDaySync } from './seal.js';
export {
  type ChainOptions,
  type ChainVerdict,
  checkDayRoot,
  type DayRootCheck,
  type FilesCheck,
  parseDayRoot,
  verifyChain,
  verifyChainSync,
  verifyDayRoot,
  verifyFileHashes,
  verifyFiles,
} from './verify.js';
