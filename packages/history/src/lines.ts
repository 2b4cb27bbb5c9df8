/**
 * File lines: `<sha256 hex>  <path>`, one per file of a day, sorted by path.
 *
 * Pure module. The format is the one `sha256sum` prints, so `sha256sum -c` can check a day folder
 * against a record's lines too.
 */
import { LINE_HASH_PATH_SEPARATOR, SHA256_HEX_LENGTH } from './constants.js';
import { bytesToHex, isSha256Hex } from './encoding.js';
import { describeValue, HistoryError } from './errors.js';
import { type HashOptions, resolveSha256 } from './hash.js';
import { assertDayPath, compareDayPaths, pathProblem } from './paths.js';

/** One file of a day: its path relative to the day folder and its exact bytes. */
export interface DayFile {
  path: string;
  bytes: Uint8Array;
}

/** A file line taken apart. */
export interface FileLineParts {
  /** The file's SHA-256, 64 lowercase hex characters. */
  hash: string;
  /** The file's path relative to the day folder. */
  path: string;
}

const PREFIX_LENGTH = SHA256_HEX_LENGTH + LINE_HASH_PATH_SEPARATOR.length;

function assertBytes(bytes: unknown, path: string): asserts bytes is Uint8Array {
  if (!(bytes instanceof Uint8Array)) {
    throw new HistoryError(
      'invalid-bytes',
      `bytes of ${describeValue(path)} must be a Uint8Array, got ${describeValue(bytes)}`,
    );
  }
}

/**
 * The line for one file: its SHA-256 in lowercase hex, two spaces, then its path relative to the
 * day folder. Throws `invalid-path` for a refused path and `invalid-bytes` when bytes are not a
 * Uint8Array.
 *
 * @example
 * fileLine('index.json', new TextEncoder().encode('abc'))
 * // 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  index.json'
 */
export function fileLine(path: string, bytes: Uint8Array, options?: HashOptions): string {
  assertDayPath(path);
  assertBytes(bytes, path);
  return `${bytesToHex(resolveSha256(options)(bytes))}${LINE_HASH_PATH_SEPARATOR}${path}`;
}

/** Why `line` is not a valid file line, or `null`. @internal */
export function lineProblem(line: unknown): string | null {
  if (typeof line !== 'string') return `a line must be a string, got ${describeValue(line)}`;
  const hash = line.slice(0, SHA256_HEX_LENGTH);
  if (!isSha256Hex(hash) || line.slice(SHA256_HEX_LENGTH, PREFIX_LENGTH) !== LINE_HASH_PATH_SEPARATOR) {
    return `line ${describeValue(line)} is not "<64 lowercase hex>  <path>"`;
  }
  return pathProblem(line.slice(PREFIX_LENGTH));
}

/**
 * Splits a file line into its hash and path. Throws `invalid-line` when the line is not
 * `<64 lowercase hex>  <valid path>`.
 *
 * @example
 * parseFileLine('ba78…15ad  index.json') // { hash: 'ba78…15ad', path: 'index.json' }
 */
export function parseFileLine(line: string): FileLineParts {
  const problem = lineProblem(line);
  if (problem !== null) throw new HistoryError('invalid-line', problem);
  return { hash: line.slice(0, SHA256_HEX_LENGTH), path: line.slice(PREFIX_LENGTH) };
}

/** Every file's hash and path, sorted by path, with paths and duplicates checked. @internal */
export function hashDayFiles(files: readonly DayFile[], options?: HashOptions): FileLineParts[] {
  if (!Array.isArray(files)) {
    throw new HistoryError('invalid-input', `files must be an array of { path, bytes }, got ${describeValue(files)}`);
  }
  const sha256 = resolveSha256(options);
  const checked = files.map((file: unknown, index) => {
    if (typeof file !== 'object' || file === null) {
      throw new HistoryError(
        'invalid-input',
        `files[${index}] must be an object { path, bytes }, got ${describeValue(file)}`,
      );
    }
    const { path, bytes } = file as Partial<DayFile>;
    assertDayPath(path);
    assertBytes(bytes, path);
    return { path, bytes };
  });
  checked.sort((a, b) => compareDayPaths(a.path, b.path));
  for (let i = 1; i < checked.length; i++) {
    const path = checked[i]?.path ?? '';
    if (path === checked[i - 1]?.path) {
      throw new HistoryError('duplicate-path', `path ${describeValue(path)} appears more than once`);
    }
  }
  return checked.map(({ path, bytes }) => ({ hash: bytesToHex(sha256(bytes)), path }));
}

/**
 * The lines of a whole day, sorted by path (UTF-16 code unit order, see `compareDayPaths`). Throws
 * `duplicate-path` when a path appears twice, and the `fileLine` errors for a bad file.
 *
 * @example
 * dayLines([{ path: 'b.json', bytes: b }, { path: 'a.json', bytes: a }]) // ['…  a.json', '…  b.json']
 */
export function dayLines(files: readonly DayFile[], options?: HashOptions): string[] {
  return hashDayFiles(files, options).map(({ hash, path }) => `${hash}${LINE_HASH_PATH_SEPARATOR}${path}`);
}

// Most lines are plain ASCII paths; one regex clears them. A line that does not match this fast
// pattern is not wrong, it just gets the full check (`lineProblem`). No segment of the pattern can
// be "." or ".." because a segment never starts with a dot.
const PLAIN_LINE = /^[0-9a-f]{64} {2}[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

/**
 * Checks a record's lines: each must be valid and the paths strictly ascending (sorted, no path
 * twice), as `dayLines` writes them. Returns the first problem found, or `null`. @internal
 */
export function recordLinesProblem(lines: readonly unknown[]): string | null {
  let previousPath: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (typeof line !== 'string' || !PLAIN_LINE.test(line)) {
      const problem = lineProblem(line);
      if (problem !== null) return `files[${i}]: ${problem}`;
    }
    const path = (line as string).slice(PREFIX_LENGTH);
    if (previousPath !== null && !(previousPath < path)) {
      return previousPath === path
        ? `files[${i}]: path ${describeValue(path)} appears more than once`
        : `files[${i}]: path ${describeValue(path)} is out of order (lines are sorted by path)`;
    }
    previousPath = path;
  }
  return null;
}

/** The hash and path of each line of a record whose lines passed `recordLinesProblem`. @internal */
export function splitRecordLines(lines: readonly string[]): FileLineParts[] {
  return lines.map((line) => ({ hash: line.slice(0, SHA256_HEX_LENGTH), path: line.slice(PREFIX_LENGTH) }));
}
