/**
 * Sealing a day: its files become sorted lines, the lines and the previous root become the root,
 * and the root's 32 bytes are signed with Ed25519.
 *
 * Pure module: the caller reads the files, picks the previous root (`previousRootFor`) and stores
 * the record. Nothing here touches a disk or a clock.
 */
import { assertDay } from './day.js';
import { assertKey, signBytes } from './ed25519.js';
import { bytesToBase64, hexToBytes } from './encoding.js';
import { describeValue, HistoryError } from './errors.js';
import type { HashOptions } from './hash.js';
import { type DayFile, dayLines } from './lines.js';
import { assertPreviousRoot, rootOf } from './root.js';

/**
 * The signed record of one day, as stored in `roots/YYYY-MM-DD.json` and served by
 * `/api/maps?a=root&day=…`. Field names are snake_case because they are a published wire format.
 */
export interface DayRoot {
  /** The UTC day sealed, `YYYY-MM-DD`. */
  day: string;
  /** sha256((previous_root ?? "") + "\n" + files.join("\n")), 64 lowercase hex characters. */
  root: string;
  /** The root this day chains to (newest root in the 14 days before), or null. */
  previous_root: string | null;
  /** One `<sha256 hex>  <path>` line per file of the day, sorted by path. */
  files: string[];
  /** Ed25519 signature over the 32 bytes of `root`, standard padded base64. */
  signature: string;
}

/** What `sealDay` needs. */
export interface SealDayInput extends HashOptions {
  /** The UTC day being sealed, `YYYY-MM-DD`. */
  day: string;
  /** Every file of that day, with paths relative to the day folder. Order does not matter. */
  files: readonly DayFile[];
  /** The root to chain to, from `previousRootFor(day, roots)`; null when there is none. */
  previousRoot: string | null;
  /** The 32-byte Ed25519 private key (RFC 8032 seed). */
  privateKey: Uint8Array;
  /**
   * Days that already have a root. When given, sealing one of them throws `already-sealed`: a day
   * that has a root is never signed again.
   */
  sealed?: ReadonlySet<string>;
}

/** `sealDay` without the promise, for callers that want a synchronous seal. */
export function sealDaySync(input: SealDayInput): DayRoot {
  if (typeof input !== 'object' || input === null) {
    throw new HistoryError(
      'invalid-input',
      `sealDay needs { day, files, previousRoot, privateKey }, got ${describeValue(input)}`,
    );
  }
  const { day, files, previousRoot, privateKey, sealed } = input;
  assertDay(day, 'day');
  if (sealed?.has(day)) {
    throw new HistoryError('already-sealed', `day ${day} already has a root; a sealed day is never signed again`);
  }
  assertPreviousRoot(previousRoot, 'previousRoot');
  assertKey(privateKey, 'private key');
  const lines = dayLines(files, input);
  const root = rootOf(previousRoot, lines, input);
  const signature = bytesToBase64(signBytes(hexToBytes(root), privateKey));
  return { day, root, previous_root: previousRoot, files: lines, signature };
}

/**
 * Seals one day: hashes every file into a sorted line, computes the chained root and signs its 32
 * bytes. Rejects with a `HistoryError` for a bad day, path, duplicate path, previous root or key,
 * and with `already-sealed` when `sealed` says the day already has a root.
 *
 * @example
 * const record = await sealDay({
 *   day: '2026-10-02',
 *   files: [{ path: 'index.json', bytes }],
 *   previousRoot: previousRootFor('2026-10-02', roots),
 *   privateKey,
 * });
 */
export async function sealDay(input: SealDayInput): Promise<DayRoot> {
  return sealDaySync(input);
}
