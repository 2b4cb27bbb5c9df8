// Sealing: every file of a day folder becomes a line, the lines chain to the previous root, and the root is
// signed. Catch-up signs any recent day that has files but no root, oldest first.
import { daysToSign, parseDayRoot, previousRootFor, sealDay, type DayRoot } from '@mcp-atlas/history';
import { nodeSha256 } from '@mcp-atlas/history/node';
import { DAYS_PREFIX, dayFolder, ROOTS_PREFIX, rootPath } from '../data/paths.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';
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
export async function readDayFiles(storage: Storage, day: string): Promise<{ path: string; bytes: Uint8Array }[]> {
  const folder = dayFolder(day);
  const files: { path: string; bytes: Uint8Array }[] = [];
  for (const path of await storage.list(folder)) {
    const bytes = await storage.get(path);
    if (bytes !== null) files.push({ path: path.slice(folder.length), bytes });
  }
  return files;
}

/** Days that have a folder of files. */
export async function listDaysWithFiles(storage: Storage): Promise<Set<string>> {
  const days = new Set<string>();
  for (const path of await storage.list(DAYS_PREFIX)) days.add(path.slice(DAYS_PREFIX.length, DAYS_PREFIX.length + 10));
  return days;
}

/** Seals one day and writes its root. Refuses a day that already has a root, or one with no files. */
export async function sealStoredDay(storage: Storage, day: string, keys: SigningKeys): Promise<DayRoot> {
  const roots = await readRoots(storage);
  const files = await readDayFiles(storage, day);
  if (files.length === 0) throw new Error(`Day ${day} has no files to seal`);
  const previousRoots = new Map([...roots].map(([d, record]) => [d, record.root]));
  const record = await sealDay({
    day,
    files,
    previousRoot: previousRootFor(day, previousRoots),
    privateKey: keys.privateKey,
    sealed: new Set(roots.keys()),
    // The app runs on Node, so it hashes with node:crypto; the package's default is portable JavaScript.
    sha256: nodeSha256,
  });
  await putJson(storage, rootPath(day), record);
  return record;
}

/**
 * Signs the day before `today` and any of the days before it (within the catch-up window) that have
 * files but no root, oldest first. Returns the records written.
 */
export async function sealDueDays(storage: Storage, today: string, keys: SigningKeys): Promise<DayRoot[]> {
  const sealed = new Set((await readRoots(storage)).keys());
  const withFiles = await listDaysWithFiles(storage);
  const written: DayRoot[] = [];
  for (const day of daysToSign(today, sealed)) {
    if (!withFiles.has(day)) continue;
    written.push(await sealStoredDay(storage, day, keys));
  }
  return written;
}
