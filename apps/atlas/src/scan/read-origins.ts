// Robots.txt and the well-known files, read once per origin and UTC day before any check of that day. An
// origin whose robots.txt shuts our bot out is left out of every check that day.
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
import { getJson, type Storage } from '../storage/storage.js';
import { mapWithLimit } from './pool.js';

const SavedOriginsSchema = z.object({ day: z.string(), excluded: z.array(z.string()) });

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
function encodeOriginRead(read: OriginRead): string {
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
export function encodeOriginsFile(day: string, excluded: readonly string[], reads: readonly OriginRead[]): Uint8Array {
  const head = JSON.stringify({ day, excluded });
  return new TextEncoder().encode(`${head.slice(0, -1)},"origins":[${reads.map(encodeOriginRead).join(',')}]}\n`);
}

/** Reads robots.txt and the well-known files once per origin and day; returns the origins that said no. */
export async function readOriginsOfDay(
  deps: OriginReadDeps,
  day: string,
  servers: readonly WatchedServer[],
): Promise<Set<string>> {
  const saved = SavedOriginsSchema.safeParse(await getJson(deps.storage, ORIGINS_PATH));
  if (saved.success && saved.data.day === day) return new Set(saved.data.excluded);
  const origins = [...new Set(servers.map((s) => new URL(s.url).origin))];
  const reads = await mapWithLimit(origins, deps.concurrency, (origin) => readOrigin(origin, deps.network));
  const excluded = reads.filter((r) => r.robots?.excludesOrigin === true).map((r) => r.origin);
  await deps.storage.put(ORIGINS_PATH, encodeOriginsFile(day, excluded, reads));
  return new Set(excluded);
}
