// Sealing: every file of a day folder becomes a line, the lines chain to the previous root, and the root is
// signed. Catch-up signs any recent day that has files but no root, oldest first.
//
// A root is forever, so only a finished day is signed: one with its summary (written last by the day's
// scan) and a file for every shard its index lists, except the shards the daily cost cap left for the next
// day. A partial folder (a scan that died, a shard lost) is refused, never signed as if it were whole. A day
// on which no scan started (no index.json, only other day files such as agents' reports) has nothing
// partial and is signed as it is. And a day is never signed after a later day: that later root already
// chained past it, so signing it now would leave the chain with a root nothing points to.
//
// The store reads the day and writes its root in one step (Storage.createRoot), and every check of a finished
// day is made on that read: no write can land between what the root signs and the root itself.
import { type DayRoot, daysToSign, parseDayRoot, previousRootFor, sealDay } from '@mcp-atlas/history';
import { nodeSha256 } from '@mcp-atlas/history/node';
import { type DayUnfinished, findUnfinishedPart } from '@mcp-atlas/operations';
import { DAYS_PREFIX, dayFolder, dayIndexPath, dayShardPath, daySummaryPath, ROOTS_PREFIX } from '../data/paths.js';
import { DayIndexSchema, SummarySchema } from '../data/schemas.js';
import {
  getJson,
  getJsonOrNull,
  jsonBytes,
  readFilesUnder,
  type Storage,
  type StoredFile,
} from '../storage/storage.js';
import type { SigningKeys } from './keys.js';

/** Every root on disk, by day. */
export async function readRoots(storage: Storage): Promise<Map<string, DayRoot>> {
  const roots = new Map<string, DayRoot>();
  for (const path of await storage.list(ROOTS_PREFIX)) {
    const record = parseDayRoot(await getJson(storage, path));
    roots.set(record.day, record);
  }
  return roots;
}

/** The files of one day folder, with paths relative to it. */
export async function readDayFiles(storage: Storage, day: string): Promise<StoredFile[]> {
  return relativeToDay(day, await readFilesUnder(storage, dayFolder(day)));
}

/** A day's files (store paths) with paths relative to the day's folder, as the root lists them. */
function relativeToDay(day: string, files: readonly StoredFile[]): StoredFile[] {
  const folder = dayFolder(day);
  return files.map((file) => ({ path: file.path.slice(folder.length), bytes: file.bytes }));
}

/** The store paths and bytes of files already read, as a reader (for checks made on exactly those files). */
function readerOf(files: readonly StoredFile[]): Pick<Storage, 'get' | 'list'> {
  const byPath = new Map(files.map((file) => [file.path, file.bytes]));
  return {
    get: async (path) => byPath.get(path) ?? null,
    list: async (prefix) => files.map((file) => file.path).filter((path) => path.startsWith(prefix)),
  };
}

/** Days that have a folder of files. */
export async function listDaysWithFiles(storage: Storage): Promise<Set<string>> {
  const days = new Set<string>();
  for (const path of await storage.list(DAYS_PREFIX)) days.add(path.slice(DAYS_PREFIX.length, DAYS_PREFIX.length + 10));
  return days;
}

/** Thrown by sealStoredDay for a day that is not finished: `reason` says what is missing. */
export class DayNotFinishedError extends Error {
  constructor(
    readonly day: string,
    readonly reason: string,
  ) {
    super(`Day ${day} is not sealed: ${reason}`);
    this.name = 'DayNotFinishedError';
  }
}

/** The shards among the first `shards` that have a results file in the day's folder. */
async function shardsWithFile(storage: Pick<Storage, 'list'>, day: string, shards: number): Promise<Set<number>> {
  const present = new Set(await storage.list(`${dayFolder(day)}results/`));
  const withFile = new Set<number>();
  for (let shard = 0; shard < shards; shard++) if (present.has(dayShardPath(day, shard))) withFile.add(shard);
  return withFile;
}

/** The finished-day rule's answer in words, naming the day's files. */
function describeUnfinished(day: string, unfinished: DayUnfinished): string {
  if (unfinished.missing === 'summary')
    return `days/${day}/summary.json is missing or unreadable, so the day's scan has not finished`;
  if (unfinished.missing === 'index') return `days/${day}/index.json is missing or unreadable`;
  const names = unfinished.shards.map((shard) => dayShardPath(day, shard).slice(dayFolder(day).length)).join(', ');
  return (
    `shard files ${names} are missing (${unfinished.serversInMissing} servers), ` +
    `and the summary says the daily cost cap skipped ${unfinished.skippedByCap}` +
    (unfinished.leftAtStop > 0 ? ` and a stopped check left ${unfinished.leftAtStop}` : '') +
    ': the folder is partial'
  );
}

/**
 * Why a day cannot be sealed yet, or null when it is finished: reads the day's index, summary and shard
 * files and applies the finished-day rule (`findUnfinishedPart` of @mcp-atlas/operations). Files that
 * cannot be read count as missing.
 */
export async function findUnfinishedReason(
  storage: Pick<Storage, 'get' | 'list'>,
  day: string,
): Promise<string | null> {
  const indexBytes = await storage.get(dayIndexPath(day));
  const summaryBytes = await storage.get(daySummaryPath(day));
  // No scan ran that day: nothing of a scan can be missing, so nothing more is read.
  const scanStarted = indexBytes !== null || summaryBytes !== null;
  if (!scanStarted) return null;
  const summary = SummarySchema.safeParse(await getJsonOrNull(storage, daySummaryPath(day)));
  // Each file is read only when the rule still needs it: without a summary, the index does not matter.
  const index = summary.success ? DayIndexSchema.safeParse(await getJsonOrNull(storage, dayIndexPath(day))) : null;
  const unfinished = findUnfinishedPart({
    scanStarted,
    skippedByCap: summary.success ? summary.data.skippedByCap : null,
    leftAtStop: summary.success ? summary.data.leftAtStop : 0,
    index: index?.success
      ? { shards: index.data.shards, serverShards: index.data.servers.map((entry) => entry.shard) }
      : null,
    shardsWithFile: index?.success ? await shardsWithFile(storage, day, index.data.shards) : new Set(),
  });
  return unfinished === null ? null : describeUnfinished(day, unfinished);
}

/**
 * Thrown by sealStoredDay for a day that has no root while a later day has one: the later root chained to
 * an earlier day, past this one, so this day can no longer join the chain. `laterDay` is the newest such day.
 */
export class DaySealedOutOfOrderError extends DayNotFinishedError {
  constructor(
    day: string,
    readonly laterDay: string,
  ) {
    super(
      day,
      `a later day (${laterDay}) is already sealed and its root chains past this day, so this day can no longer be sealed`,
    );
    this.name = 'DaySealedOutOfOrderError';
  }
}

/** The newest sealed day after `day`, or null when no later day has a root. */
function newestLaterRoot(roots: ReadonlyMap<string, DayRoot>, day: string): string | null {
  let newest: string | null = null;
  for (const sealedDay of roots.keys())
    if (sealedDay > day && (newest === null || sealedDay > newest)) newest = sealedDay;
  return newest;
}

/**
 * Seals one day and writes its root. Refuses a day that already has a root, one with no files, one that a
 * later day's root already chained past (DaySealedOutOfOrderError), and one that is not finished
 * (DayNotFinishedError: its scan started but has no summary, or a shard file is missing that the cap did
 * not skip).
 */
export async function sealStoredDay(storage: Storage, day: string, keys: SigningKeys): Promise<DayRoot> {
  const roots = await readRoots(storage);
  // A day that already has a root is refused by sealDay below (`already-sealed`), with its own message.
  const laterDay = roots.has(day) ? null : newestLaterRoot(roots, day);
  if (laterDay !== null) throw new DaySealedOutOfOrderError(day, laterDay);
  const previousRoots = new Map([...roots].map(([d, record]) => [d, record.root]));
  let record: DayRoot | null = null;
  await storage.createRoot(day, async (stored) => {
    if (stored.length === 0) throw new Error(`Day ${day} has no files to seal`);
    const unfinished = await findUnfinishedReason(readerOf(stored), day);
    if (unfinished !== null) throw new DayNotFinishedError(day, unfinished);
    record = await sealDay({
      day,
      files: relativeToDay(day, stored),
      previousRoot: previousRootFor(day, previousRoots),
      privateKey: keys.privateKey,
      sealed: new Set(roots.keys()),
      // The app runs on Node, so it hashes with node:crypto; the package's default is portable JavaScript.
      sha256: nodeSha256,
    });
    return jsonBytes(record);
  });
  if (record === null) throw new Error(`Day ${day}: the store wrote no root`);
  return record;
}

/**
 * Called for each due day that is left unsealed, with the reason: not finished, or a later day already
 * sealed (then the day stays unsealed for good; the reason says so).
 */
export type OnDayNotFinished = (day: string, reason: string) => void;

/**
 * Signs the day before `today` and any of the days before it (within the catch-up window) that have
 * files but no root, oldest first. A day that is not finished, or that a later root already chained past,
 * is skipped and reported to `onNotFinished` (the others are still signed). Returns the records written.
 */
export async function sealDueDays(
  storage: Storage,
  today: string,
  keys: SigningKeys,
  onNotFinished?: OnDayNotFinished,
): Promise<DayRoot[]> {
  const sealed = new Set((await readRoots(storage)).keys());
  const withFiles = await listDaysWithFiles(storage);
  const written: DayRoot[] = [];
  for (const day of daysToSign(today, sealed)) {
    if (!withFiles.has(day)) continue;
    try {
      written.push(await sealStoredDay(storage, day, keys));
    } catch (error) {
      if (!(error instanceof DayNotFinishedError)) throw error;
      onNotFinished?.(day, error.reason);
    }
  }
  return written;
}
