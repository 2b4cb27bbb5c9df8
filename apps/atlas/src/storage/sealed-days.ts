// The rule every store keeps, whatever it is built on: once a day has a root (`roots/<day>.json`), the files
// under `days/<day>/` are final, and the root itself is written once. A signed history that a bug or a second
// process could quietly rewrite would prove nothing, so the stores refuse such writes themselves instead of
// trusting every caller to avoid them.
//
// What is refused is a change of content. A put of the very bytes a sealed file (or a root) already holds changes
// nothing and passes: Ed25519 signatures are deterministic, so a seal that runs twice over the same day, files,
// previous root and key writes the same record, and a day's fold that runs again after the seal writes the same
// summary; neither repeat should fail. Appends, removals and new files under a sealed day are always refused.

/** Thrown for a write under a day whose root already exists: a sealed day's files are never rewritten. */
export class SealedDayWriteError extends Error {
  constructor(
    readonly path: string,
    readonly day: string,
    message = `Refusing to write ${path}: day ${day} is sealed (roots/${day}.json exists) and its files are final`,
  ) {
    super(message);
    this.name = 'SealedDayWriteError';
  }
}

/**
 * Thrown for a put of other bytes over an existing root, an append to one, or its removal: a root is written
 * once. A SealedDayWriteError too, so a caller that guards against writing sealed history catches both.
 */
export class SealedRootWriteError extends SealedDayWriteError {
  constructor(path: string, day: string) {
    super(
      path,
      day,
      `Refusing to change ${path}: the root of day ${day} is written once and is never replaced, extended or removed`,
    );
    this.name = 'SealedRootWriteError';
  }
}

const DAY_FILE = /^days\/(\d{4}-\d{2}-\d{2})\//;
const ROOT_FILE = /^roots\/(\d{4}-\d{2}-\d{2})\.json$/;

/**
 * The root path that seals `path`'s day when `path` lies under a day folder, else null.
 *
 * @example
 * sealingRootOf('days/2026-03-01/index.json'); // 'roots/2026-03-01.json'
 * sealingRootOf('state/servers.json');         // null
 */
export function sealingRootOf(path: string): string | null {
  const match = DAY_FILE.exec(path);
  return match === null ? null : `roots/${match[1]}.json`;
}

/**
 * The folder and root path of `day`, which must be a date as YYYY-MM-DD (a store's `createRoot` takes a day).
 *
 * @example
 * dayPathsOf('2026-03-01'); // { folder: 'days/2026-03-01/', root: 'roots/2026-03-01.json' }
 */
export function dayPathsOf(day: string): { folder: string; root: string } {
  const root = `roots/${day}.json`;
  if (!ROOT_FILE.test(root)) throw new TypeError(`A day is a date as YYYY-MM-DD, got "${day}"`);
  return { folder: `days/${day}/`, root };
}

/** The day of a path under `days/` or of a root file, or '' for any other path. */
export function sealedDayOf(path: string): string {
  return DAY_FILE.exec(path)?.[1] ?? ROOT_FILE.exec(path)?.[1] ?? '';
}

/**
 * Whether `path` is a day's root record (`roots/YYYY-MM-DD.json`), the file that is written once.
 *
 * @example
 * isRootPath('roots/2026-03-01.json'); // true
 * isRootPath('roots/notes.txt');       // false
 */
export function isRootPath(path: string): boolean {
  return ROOT_FILE.test(path);
}

/** True when both byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Refuses a write of `path` when its day is sealed; `exists` says whether a path is stored. For a put, `unchanged`
 * says whether the file already holds the bytes being put, and then the write passes (it changes nothing). The
 * stores without a transaction call it right before the write lands, to keep the time between the check and the
 * write short.
 */
export async function assertDayNotSealed(
  path: string,
  exists: (path: string) => Promise<boolean>,
  unchanged?: () => Promise<boolean>,
): Promise<void> {
  const root = sealingRootOf(path);
  if (root === null || !(await exists(root))) return;
  if (unchanged !== undefined && (await unchanged())) return;
  throw new SealedDayWriteError(path, sealedDayOf(path));
}
