// One server's entry in the hourly file, shared by the schedule's hourly check and the demo's simulated
// hours: the new observation, the one before it (for the second-failure rule), the 24-slot hour-of-day
// profile carried over from the previous file, and the per-day tallies of every hourly check (the quality
// score's reliability counts them all, though only two observations are kept).
//
// The profile keeps the latest result any of our checks saw at each UTC hour, so the five-minute checks and
// the daily check record theirs in it too (recordHourResults). They run beside the hourly check (the daily
// scan has a lane of its own), so every write of the file in this process holds one lock from its read to its
// write, and the hourly check, whose round reads the file long before it writes it, takes in the slots
// recorded meanwhile. Processes do not share the lock (see the README's note on several processes).
import type { ProbeResult } from '@mcp-atlas/probe';
import { isAnsweringLetter } from '@mcp-atlas/reliability';
import {
  createHourProfile,
  type HourProfile,
  isHourSlotNews,
  recordCheckTally,
  recordHourResult,
} from '@mcp-atlas/reliability/live';
import { observationOfCheck } from '../data/check-observation.js';
import { HOURLY_PATH } from '../data/paths.js';
import { type HourlyFile, HourlyFileSchema } from '../data/schemas.js';
import { SharedExclusiveLock } from '../storage/day-locks.js';
import { getJsonOrNull, putJson, type Storage } from '../storage/storage.js';

/** What the hourly file keeps for one server. */
export type HourlyEntry = HourlyFile['results'][string];

/**
 * The entry after a check at `at` gave `result`, given the server's entry in the previous hourly file. A
 * rate-limited check observed nothing, so the entry stays as it was (none when there was none).
 */
export function nextHourlyEntry(
  before: HourlyEntry | undefined,
  result: ProbeResult,
  at: string,
): HourlyEntry | undefined {
  const observation = observationOfCheck(result, at);
  if (observation === null) return before;
  const previous =
    before === undefined
      ? null
      : {
          letter: before.letter,
          reason: before.reason,
          notMcp: before.notMcp,
          httpStatus: before.httpStatus,
          at: before.at,
          ...(before.elapsedMs !== undefined ? { elapsedMs: before.elapsedMs } : {}),
        };
  const hours = recordHourResult(before?.hours ?? createHourProfile(), { letter: observation.letter, at });
  const tally = recordCheckTally(before?.tally, {
    at,
    answered: isAnsweringLetter(observation.letter),
    elapsedMs: observation.elapsedMs,
  });
  return { ...observation, previous, hours: [...hours], tally };
}

/** A result of a check of one server, for the hour-of-day profile. */
export interface HourResultOf {
  id: string;
  letter: HourlyEntry['letter'];
  /** When the check started, ISO 8601. */
  at: string;
}

/** Held by every read-change-write of the hourly file in this process. */
const hourlyFileLock = new SharedExclusiveLock();

/** The stored hourly file, or null when there is none or it cannot be read. */
async function readHourlyFile(storage: Storage): Promise<HourlyFile | null> {
  const parsed = HourlyFileSchema.safeParse(await getJsonOrNull(storage, HOURLY_PATH));
  return parsed.success ? parsed.data : null;
}

/** `profile` with every slot of `other` that is newer than its own (a slot whose time does not parse is left). */
function mergeHourProfiles(profile: HourProfile, other: HourProfile): HourProfile {
  let merged = profile;
  for (const slot of other)
    if (slot !== null && !Number.isNaN(Date.parse(slot.at))) merged = recordHourResult(merged, slot);
  return merged;
}

/**
 * Writes the hourly file of `hour` with `results`, the entries the hourly round made from the file it read
 * when it began. Each entry's profile first takes in the slots the stored file gained since (five-minute and
 * daily results recorded while the round ran), so the round never undoes them.
 */
export async function writeHourlyFile(
  storage: Storage,
  hour: string,
  results: Readonly<Record<string, HourlyEntry>>,
): Promise<void> {
  await hourlyFileLock.run(true, async () => {
    const stored = (await readHourlyFile(storage))?.results ?? {};
    const merged: Record<string, HourlyEntry> = {};
    for (const [id, entry] of Object.entries(results)) {
      const since = stored[id]?.hours;
      merged[id] =
        since === undefined
          ? entry
          : { ...entry, hours: [...mergeHourProfiles(entry.hours ?? createHourProfile(), since)] };
    }
    await putJson(storage, HOURLY_PATH, { hour, results: merged });
  });
}

/**
 * Records results of checks other than the hourly one (five-minute, daily) in the hour-of-day profile of the
 * servers the hourly file has an entry for; each slot keeps the newer result. A server without an entry (no
 * hourly check yet) has no profile to hold it. A result that repeats the letter its slot already holds for that
 * same UTC hour is left out (the slot keeps the time of the first); the file is written only when a slot
 * changed. Returns how many did.
 */
export async function recordHourResults(storage: Storage, results: readonly HourResultOf[]): Promise<number> {
  if (results.length === 0) return 0;
  return hourlyFileLock.run(true, async () => {
    const file = await readHourlyFile(storage);
    if (file === null) return 0;
    let changed = 0;
    for (const result of results) {
      const entry = file.results[result.id];
      if (entry === undefined || Number.isNaN(Date.parse(result.at))) continue;
      const before = entry.hours ?? createHourProfile();
      const after = recordHourResult(before, { letter: result.letter, at: result.at });
      const hour = new Date(result.at).getUTCHours();
      if (!isHourSlotNews(before[hour] ?? null, after[hour] ?? null)) continue;
      file.results[result.id] = { ...entry, hours: [...after] };
      changed++;
    }
    if (changed > 0) await putJson(storage, HOURLY_PATH, file);
    return changed;
  });
}
