// Robots.txt and the well-known files, read once per origin and UTC day before any check of that day. An
// origin whose robots.txt shuts our bot out is left out of every check that day.
//
// An origin first listed after the day's file was written (a server admitted mid-day, a scan still running
// past midnight, another process's file) is read when a check first needs it and added to the file, so it is
// not checked as "allowed, unread" for the rest of the day. Within one process the reads and the file's
// rewrite hold one lock, so two callers never read the same origin twice in a day.
//
// One origin cannot stop the day: a read that throws becomes that origin's error entry (and, robots.txt
// unread, the origin counts as allowed, as a robots.txt that does not answer does), and the day's file is
// written entry by entry, so a document that cannot be written is replaced by a note instead of failing
// the whole save. The probe already refuses documents nested past its limit.
import {
  type NetworkOptions,
  ProbeInputError,
  type RobotsPolicy,
  readRobots,
  readWellKnown,
  type WellKnownResult,
} from '@mcp-atlas/probe';
import { IDENTITY_RULES } from '@mcp-atlas/probe/rules';
import { z } from 'zod';
import { ORIGINS_PATH } from '../data/paths.js';
import type { WatchedServer } from '../data/schemas.js';
import { SharedExclusiveLock } from '../storage/day-locks.js';
import { getJson, type Storage } from '../storage/storage.js';
import { mapWithLimit } from './pool.js';

// Each origin's entry is kept as written when the file is rewritten with new origins; only its origin is read.
const SavedOriginsSchema = z.object({
  day: z.string(),
  excluded: z.array(z.string()),
  origins: z.array(z.unknown()).optional(),
});
const SavedOriginEntrySchema = z.looseObject({ origin: z.string() });

/** One origin's entry of the day's file: a read made now, or one read back from the file as it was written. */
type OriginEntry = OriginRead | z.infer<typeof SavedOriginEntrySchema>;

/** The day's file as read back: its excluded origins and the entries whose origin can be read. */
interface SavedOrigins {
  excluded: string[];
  entries: OriginEntry[];
}

/** Held by every read-change-write of the origins file in this process. */
const originsFileLock = new SharedExclusiveLock();

/** What reading the origins needs. */
export interface OriginReadDeps {
  storage: Storage;
  network: NetworkOptions;
  concurrency: number;
}

/** What was read for one origin: robots.txt and the well-known files, or the error that stopped the read. */
export interface OriginRead {
  origin: string;
  robots: RobotsPolicy | null;
  wellKnown: WellKnownResult | null;
  /** Why the read could not finish (`internal-error: ...`), else absent. */
  error?: string;
}

/** The longest error message kept for an origin. */
const ORIGIN_ERROR_CHARS = 300;

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `internal-error: ${text.slice(0, ORIGIN_ERROR_CHARS)}`;
}

/**
 * Reads one origin. Whatever fails for this origin alone becomes its error entry. A ProbeInputError is
 * thrown on: it means our own options are wrong for every origin, and a day's file saying "robots.txt
 * unread, allowed" for all of them would let the day's checks ignore every robots.txt.
 */
export async function readOrigin(origin: string, network: NetworkOptions): Promise<OriginRead> {
  try {
    const robots = await readRobots(origin, IDENTITY_RULES.botToken, network);
    const wellKnown = robots.excludesOrigin ? null : await readWellKnown(origin, network);
    return { origin, robots, wellKnown };
  } catch (error) {
    if (error instanceof ProbeInputError) throw error;
    return { origin, robots: null, wellKnown: null, error: describeError(error) };
  }
}

/** One entry of the day's file as JSON text; an entry that cannot be written becomes its error note. */
function encodeOriginRead(read: OriginEntry): string {
  try {
    return JSON.stringify(read);
  } catch (error) {
    return JSON.stringify({ origin: read.origin, robots: null, wellKnown: null, error: describeError(error) });
  }
}

/**
 * The bytes of the day's origins file: `day`, the `excluded` origins and every origin's read, each entry
 * serialized on its own so that none can fail the whole file.
 */
export function encodeOriginsFile(day: string, excluded: readonly string[], reads: readonly OriginEntry[]): Uint8Array {
  const head = JSON.stringify({ day, excluded });
  return new TextEncoder().encode(`${head.slice(0, -1)},"origins":[${reads.map(encodeOriginRead).join(',')}]}\n`);
}

/** The day's file as stored, or null when there is none for `day` (another day's, none, or unreadable). */
async function readSavedOrigins(storage: Storage, day: string): Promise<SavedOrigins | null> {
  const saved = SavedOriginsSchema.safeParse(await getJson(storage, ORIGINS_PATH));
  if (!saved.success || saved.data.day !== day) return null;
  const entries = (saved.data.origins ?? []).flatMap((entry) => {
    const parsed = SavedOriginEntrySchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
  return { excluded: saved.data.excluded, entries };
}

/** The origins a saved file has read: every entry's, and the excluded ones (an entry may have been torn). */
function listHeldOrigins(saved: SavedOrigins | null): Set<string> {
  return new Set([...(saved?.excluded ?? []), ...(saved?.entries ?? []).map((entry) => entry.origin)]);
}

/**
 * The file after `reads`: the saved file's entries and excluded origins first, as written, then each read of
 * an origin it does not hold yet (another process may have added some while these were read).
 */
function mergeOrigins(saved: SavedOrigins | null, reads: readonly OriginRead[]): SavedOrigins {
  const known = listHeldOrigins(saved);
  const added = reads.filter((read) => !known.has(read.origin));
  const excluded = [
    ...(saved?.excluded ?? []),
    ...added.filter((r) => r.robots?.excludesOrigin === true).map((r) => r.origin),
  ];
  return { excluded, entries: [...(saved?.entries ?? []), ...added] };
}

/**
 * Reads robots.txt and the well-known files once per origin and day; returns the origins that said no. The
 * first call of a day writes the day's file; a later call reads only the origins of `servers` the file does
 * not hold yet and adds them to it.
 */
export async function readOriginsOfDay(
  deps: OriginReadDeps,
  day: string,
  servers: readonly WatchedServer[],
): Promise<Set<string>> {
  return originsFileLock.run(true, async () => {
    const saved = await readSavedOrigins(deps.storage, day);
    const known = listHeldOrigins(saved);
    const missing = [...new Set(servers.map((s) => new URL(s.url).origin))].filter((o) => !known.has(o));
    if (saved !== null && missing.length === 0) return new Set(saved.excluded);
    const reads = await mapWithLimit(missing, deps.concurrency, (origin) => readOrigin(origin, deps.network));
    // Read again just before the write: what another process wrote meanwhile is kept, not overwritten.
    const merged = mergeOrigins((await readSavedOrigins(deps.storage, day)) ?? saved, reads);
    await deps.storage.put(ORIGINS_PATH, encodeOriginsFile(day, merged.excluded, merged.entries));
    return new Set(merged.excluded);
  });
}
