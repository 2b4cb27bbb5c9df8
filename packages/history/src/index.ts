/**
 * @mcp-atlas/history: the signed, chained daily history. Pure: bytes in, records out; no I/O,
 * no clock, no randomness except in `generateKeyPair`. Node-only helpers live in `./node`, and the rule
 * constants (windows, separators, key sizes) in `./rules`, one frozen object per concern.
 */
export { type ChainEnds, type ChainEndsCheck, type ChainSpan, checkChainEnds } from './chain-ends.js';
export { dayFromTime, daysToSign, previousRootFor } from './day.js';
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
