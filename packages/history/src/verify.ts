/**
 * Checking what `sealDay` produced: one record, a chain of records, and a day's files.
 *
 * Pure module. Records usually come from somewhere else (a server, a folder), so a record that fails
 * is a result with a reason, never an exception. Exceptions are kept for the caller's own mistakes:
 * a public key of the wrong length, files with refused paths.
 */

import { isDay } from '@mcp-atlas/base';
import { ED25519_SIGNATURE_BYTES, PREVIOUS_ROOT_WINDOW_DAYS } from './constants.js';
import { previousRootFor } from './day.js';
import { assertKey, verifyBytes } from './ed25519.js';
import { base64ToBytes, hexToBytes, isSha256Hex } from './encoding.js';
import { describeValue, HistoryError } from './errors.js';
import type { HashOptions } from './hash.js';
import { type DayFile, type FileLineParts, hashDayFiles, recordLinesProblem, splitRecordLines } from './lines.js';
import { assertDayPath, compareDayPaths } from './paths.js';
import { rootOf } from './root.js';
import type { DayRoot } from './seal.js';

/** The outcome of checking one record: fine, or the first thing wrong with it. */
export type DayRootCheck = { ok: true } | { ok: false; reason: string };

/** The outcome of checking a chain: every record fine, or the first broken day and why. */
export type ChainVerdict = { ok: true; days: number } | { ok: false; day: string; index: number; reason: string };

/** Options for `verifyChain`. */
export interface ChainOptions extends HashOptions {
  /**
   * The root the first record must chain to, when the chain continues one you already trust; `null`
   * when the records are a whole history from its first day, whose first root chains to nothing (a
   * first record with a `previous_root` then means earlier days were cut off). Left out, the first
   * record's `previous_root` is taken as given (it cannot be checked against days that are not in the
   * list).
   */
  anchorRoot?: string | null;
}

/** The outcome of comparing a day's files with its record. */
export interface FilesCheck {
  /** True when every listed file is present with the same hash, and no other file is. */
  ok: boolean;
  /** Paths present on both sides whose bytes no longer hash to the line's value. */
  mismatched: string[];
  /** Paths the record lists that are not among the files. */
  missing: string[];
  /** Paths among the files that the record does not list. */
  extra: string[];
}

function fieldProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `record must be an object, got ${describeValue(value)}`;
  }
  const record = value as Record<string, unknown>;
  if (!isDay(record.day)) {
    return `day must be a real calendar date written YYYY-MM-DD, got ${describeValue(record.day)}`;
  }
  if (!isSha256Hex(record.root)) return `root must be 64 lowercase hex characters, got ${describeValue(record.root)}`;
  if (record.previous_root !== null && !isSha256Hex(record.previous_root)) {
    return `previous_root must be null or 64 lowercase hex characters, got ${describeValue(record.previous_root)}`;
  }
  if (!Array.isArray(record.files)) return `files must be an array of lines, got ${describeValue(record.files)}`;
  if (typeof record.signature !== 'string') {
    return `signature must be a base64 string, got ${describeValue(record.signature)}`;
  }
  return null;
}

// Fields first, then lines: returns the record typed, or the first problem.
function readRecord(value: unknown): { record: DayRoot } | { problem: string } {
  const problem = fieldProblem(value) ?? recordLinesProblem((value as DayRoot).files);
  return problem === null ? { record: value as DayRoot } : { problem };
}

function sealProblem(record: DayRoot, publicKey: Uint8Array, options: HashOptions | undefined): string | null {
  if (rootOf(record.previous_root, record.files, options) !== record.root) {
    return 'root does not match the sha256 of previous_root and files';
  }
  const signature = base64ToBytes(record.signature);
  if (signature === null || signature.length !== ED25519_SIGNATURE_BYTES) {
    return 'signature is not canonical base64 of 64 bytes';
  }
  return verifyBytes(signature, hexToBytes(record.root), publicKey)
    ? null
    : 'signature does not verify against the public key';
}

/**
 * Checks one record and says what is wrong with it: its fields, its lines (valid, sorted by path,
 * no path twice), its root (recomputed from `files` and `previous_root`) and its signature. Throws
 * `invalid-key` only for a public key that is not 32 bytes.
 *
 * @example
 * checkDayRoot(record, publicKey) // { ok: false, reason: 'signature does not verify against the public key' }
 */
export function checkDayRoot(record: unknown, publicKey: Uint8Array, options?: HashOptions): DayRootCheck {
  assertKey(publicKey, 'public key');
  const read = readRecord(record);
  if ('problem' in read) return { ok: false, reason: read.problem };
  const problem = sealProblem(read.record, publicKey, options);
  return problem === null ? { ok: true } : { ok: false, reason: problem };
}

/**
 * True when the record is well formed, its root matches its `files` and `previous_root`, and its
 * signature verifies under `publicKey`. Use `checkDayRoot` for the reason when it is false.
 * Rejects with `invalid-key` only for a public key that is not 32 bytes.
 *
 * @example
 * if (!(await verifyDayRoot(record, publicKey))) console.log('mismatch');
 */
export async function verifyDayRoot(record: DayRoot, publicKey: Uint8Array, options?: HashOptions): Promise<boolean> {
  return checkDayRoot(record, publicKey, options).ok;
}

function dayLabel(value: unknown, index: number): string {
  const day = (value as { day?: unknown } | null)?.day;
  return typeof value === 'object' && value !== null && typeof day === 'string' && isDay(day)
    ? day
    : `records[${index}]`;
}

function linkProblem(
  record: DayRoot,
  roots: ReadonlyMap<string, string>,
  daysByRoot: ReadonlyMap<string, string>,
  laterDaysByRoot: ReadonlyMap<string, string>,
): string | null {
  const expected = previousRootFor(record.day, roots);
  const actual = record.previous_root;
  if (actual === expected) return null;
  const window = `${PREVIOUS_ROOT_WINDOW_DAYS} days before it`;
  const expectation =
    expected === null
      ? `it should be null, since no earlier day in the chain falls in the ${window}`
      : `it should be the root of ${daysByRoot.get(expected) ?? 'an earlier day'}, the newest earlier day in the ${window}`;
  const pointsTo = actual === null ? undefined : daysByRoot.get(actual);
  const pointsLater = actual === null ? undefined : laterDaysByRoot.get(actual);
  const observed =
    actual === null
      ? 'previous_root is null'
      : pointsTo !== undefined
        ? `previous_root is the root of ${pointsTo}`
        : pointsLater !== undefined
          ? `previous_root is the root of ${pointsLater}, which comes later in the list (records must be oldest first)`
          : 'previous_root matches no day in the chain (a day is missing, or previous_root is wrong)';
  return `${observed}; ${expectation}`;
}

interface ChainState {
  roots: Map<string, string>;
  daysByRoot: Map<string, string>;
  // Roots of every record in the list, so a link to a day listed later reads as a reordering.
  laterDaysByRoot: Map<string, string>;
}

function listedRoots(records: readonly unknown[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const value of records) {
    const { day, root } = (typeof value === 'object' && value !== null ? value : {}) as Partial<DayRoot>;
    if (typeof day === 'string' && isSha256Hex(root) && !found.has(root)) found.set(root, day);
  }
  return found;
}

function chainStep(
  value: unknown,
  previous: DayRoot | null,
  state: ChainState,
  publicKey: Uint8Array,
  options: ChainOptions | undefined,
): string | null {
  const read = readRecord(value);
  if ('problem' in read) return read.problem;
  const { record } = read;
  if (previous !== null && record.day === previous.day) {
    return 'day appears twice in the chain (a sealed day is never signed again)';
  }
  if (previous !== null && record.day < previous.day) {
    return `day is out of order: it comes after ${previous.day} (records must be oldest first)`;
  }
  const sealed = sealProblem(record, publicKey, options);
  if (sealed !== null) return sealed;
  if (previous === null) {
    if (options?.anchorRoot === null && record.previous_root !== null) {
      // A whole history's first day has no earlier day to chain to, so a link here points at a day cut off.
      return 'previous_root is not null, but this is the first day of the history: the days before it are missing';
    }
    if (options?.anchorRoot !== undefined && record.previous_root !== options.anchorRoot) {
      return 'previous_root is not the anchor root the chain was asked to continue';
    }
    return null;
  }
  return linkProblem(record, state.roots, state.daysByRoot, state.laterDaysByRoot);
}

/** `verifyChain` without the promise. */
export function verifyChainSync(
  records: readonly DayRoot[],
  publicKey: Uint8Array,
  options?: ChainOptions,
): ChainVerdict {
  assertKey(publicKey, 'public key');
  if (!Array.isArray(records)) {
    throw new HistoryError('invalid-input', `records must be an array of day roots, got ${describeValue(records)}`);
  }
  const state: ChainState = { roots: new Map(), daysByRoot: new Map(), laterDaysByRoot: listedRoots(records) };
  let previous: DayRoot | null = null;
  for (let index = 0; index < records.length; index++) {
    const value: unknown = records[index];
    const problem = chainStep(value, previous, state, publicKey, options);
    if (problem !== null) return { ok: false, day: dayLabel(value, index), index, reason: problem };
    previous = value as DayRoot;
    state.roots.set(previous.day, previous.root);
    state.daysByRoot.set(previous.root, previous.day);
  }
  return { ok: true, days: records.length };
}

/**
 * Checks a run of records, oldest first: each record on its own (as `checkDayRoot`), the days
 * strictly increasing (a reordered or repeated day is caught), and each `previous_root` equal to
 * the root of the newest earlier day in the 14 days before it (`previousRootFor`), which catches a
 * missing day and a wrong link. The first record's `previous_root` is taken as given unless
 * `anchorRoot` is passed (`null` for a whole history: its first root must chain to nothing). Stops at
 * the first broken day and names it.
 *
 * A truncated chain (days cut off the end) cannot be told apart from one that simply ends: check the
 * ends against what you know with `checkChainEnds`.
 *
 * @example
 * await verifyChain(records, publicKey)
 * // { ok: false, day: '2026-10-03', index: 1, reason: 'previous_root matches no day in the chain …' }
 */
export async function verifyChain(
  records: readonly DayRoot[],
  publicKey: Uint8Array,
  options?: ChainOptions,
): Promise<ChainVerdict> {
  return verifyChainSync(records, publicKey, options);
}

function compareHashes(parts: readonly FileLineParts[], actual: ReadonlyMap<string, string>): FilesCheck {
  const expected = new Map(parts.map(({ hash, path }) => [path, hash]));
  const mismatched: string[] = [];
  const missing: string[] = [];
  const extra: string[] = [];
  for (const [path, hash] of expected) {
    const found = actual.get(path);
    if (found === undefined) missing.push(path);
    else if (found !== hash) mismatched.push(path);
  }
  for (const path of actual.keys()) if (!expected.has(path)) extra.push(path);
  extra.sort(compareDayPaths);
  return { ok: mismatched.length + missing.length + extra.length === 0, mismatched, missing, extra };
}

function recordPartsOrThrow(record: unknown): FileLineParts[] {
  const read = readRecord(record);
  if ('problem' in read) throw new HistoryError('invalid-record', `record cannot be checked: ${read.problem}`);
  return splitRecordLines(read.record.files);
}

/**
 * Compares a day's files with the lines of its record, file by file: which files no longer match
 * their hash, which listed files are missing and which files are not listed. All three lists are
 * sorted by path. It does not check the root or the signature (use `verifyDayRoot` for that).
 * Throws `invalid-record` when the record's fields or lines are malformed, and the `dayLines`
 * errors for a refused path or a path given twice.
 *
 * @example
 * verifyFiles(record, files) // { ok: false, mismatched: ['results/003.json'], missing: [], extra: [] }
 */
export function verifyFiles(record: DayRoot, files: readonly DayFile[], options?: HashOptions): FilesCheck {
  const parts = recordPartsOrThrow(record);
  const actual = new Map(hashDayFiles(files, options).map(({ hash, path }) => [path, hash]));
  return compareHashes(parts, actual);
}

/**
 * `verifyFiles` for callers that hashed the files themselves, for example while streaming large
 * files from disk: takes each file's path and SHA-256 hex instead of its bytes. Throws
 * `invalid-record` for a malformed record, `invalid-path` / `invalid-line` / `duplicate-path`
 * for a bad entry.
 *
 * @example
 * verifyFileHashes(record, [{ path: 'index.json', hash: 'ba78…15ad' }])
 */
export function verifyFileHashes(record: DayRoot, hashes: readonly FileLineParts[]): FilesCheck {
  const parts = recordPartsOrThrow(record);
  if (!Array.isArray(hashes)) {
    throw new HistoryError('invalid-input', `hashes must be an array of { path, hash }, got ${describeValue(hashes)}`);
  }
  const actual = new Map<string, string>();
  hashes.forEach((entry: unknown, index) => {
    const { path, hash } = (typeof entry === 'object' && entry !== null ? entry : {}) as Partial<FileLineParts>;
    assertDayPath(path);
    if (!isSha256Hex(hash)) {
      throw new HistoryError(
        'invalid-line',
        `hashes[${index}].hash must be 64 lowercase hex characters, got ${describeValue(hash)}`,
      );
    }
    if (actual.has(path))
      throw new HistoryError('duplicate-path', `path ${describeValue(path)} appears more than once`);
    actual.set(path, hash);
  });
  return compareHashes(parts, actual);
}

/**
 * Checks that an untrusted value (parsed JSON from a file or a server) has the shape of a day
 * record and returns a clean copy with only the five fields. It checks fields and lines, not the
 * root or the signature. Throws `invalid-record` with the first problem found.
 *
 * @example
 * const record = parseDayRoot(JSON.parse(text));
 */
export function parseDayRoot(value: unknown): DayRoot {
  const read = readRecord(value);
  if ('problem' in read) throw new HistoryError('invalid-record', `not a day record: ${read.problem}`);
  const { day, root, previous_root, files, signature } = read.record;
  return { day, root, previous_root, files: [...files], signature };
}
