// Batched per-day counters for the short-lived stores that count requests: badge sightings, page and widget
// views, refused sensor requests, per-server ask markers and daily-call markers. A count never waits for the
// disk and never causes a write of its own: it goes into memory, and at most once a minute (and on shutdown)
// the process's whole count of each changed day is written to `<prefix><day>/<writer>.json`, replacing that
// file. Each process writes its own file (`writer` is random per counter), so processes never overwrite one
// another; readers add the files of a day up. The keys are what the store counts by (a server id, a page, a
// refusal reason, a keyed agent id): never an address, a user agent or a referrer.
import { randomBytes } from 'node:crypto';
import { dayFromTime } from '@mcp-atlas/history';
import { z } from 'zod';
import { getJsonOrNull, putJson, type Storage } from '../storage/storage.js';

/** Longest a count waits in memory before it is written (the stores are read daily, so a minute is plenty). */
export const DAY_COUNT_FLUSH_INTERVAL_MS = 60_000;

/**
 * Most distinct keys one counter keeps per day; counts for further keys go under {@link OVERFLOW_KEY}. Keys
 * such as keyed agent ids come from requests, so without a cap a caller rotating them could fill the memory.
 */
export const DAY_COUNT_MAX_KEYS = 50_000;

/** The key that collects counts past {@link DAY_COUNT_MAX_KEYS}. */
export const OVERFLOW_KEY = '(overflow)';

/** One process's counts of one day, as written. */
export const DayCountFileSchema = z.strictObject({
  day: z.string(),
  writer: z.string(),
  counts: z.record(z.string(), z.int().nonnegative()),
});
export type DayCountFile = z.infer<typeof DayCountFileSchema>;

/** Counts per day in memory, written in batches. */
export interface DayCounter {
  /** Adds `by` (default 1) to `key` on today's UTC day. Never throws, never waits for the disk. */
  add(key: string, by?: number): void;
  /** Resolves once every count added so far is on disk. */
  flush(): Promise<void>;
}

/** What a {@link DayCounter} needs. */
export interface DayCounterDeps {
  storage: Storage;
  now(): Date;
  /** Where one day's file of this writer goes. */
  pathOf(day: string, writer: string): string;
  logger?: { warn(fields: object, message?: string): void };
  /** This process's file name in each day folder; random by default. */
  writer?: string;
  /** Milliseconds between a first unwritten count and its write (default {@link DAY_COUNT_FLUSH_INTERVAL_MS}). */
  flushIntervalMs?: number;
}

/** A random writer name, one per counter and process. */
export function randomWriter(): string {
  return `w-${randomBytes(6).toString('hex')}`;
}

/** Creates a batched per-day counter. Its timer never keeps the process alive; call `flush` on shutdown. */
export function createDayCounter(deps: DayCounterDeps): DayCounter {
  const writer = deps.writer ?? randomWriter();
  const interval = deps.flushIntervalMs ?? DAY_COUNT_FLUSH_INTERVAL_MS;
  const days = new Map<string, Map<string, number>>();
  const dirty = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();

  async function writeDirty(): Promise<void> {
    for (const day of [...dirty]) {
      dirty.delete(day);
      const counts = days.get(day) ?? new Map<string, number>();
      try {
        await putJson(deps.storage, deps.pathOf(day, writer), {
          day,
          writer,
          counts: Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b))),
        });
      } catch (error) {
        dirty.add(day);
        deps.logger?.warn(
          { event: 'day_count_write_failed', day, error: error instanceof Error ? error.message : String(error) },
          'counts not written',
        );
      }
    }
    // A past day that is written gets no more counts: its memory can go.
    const today = dayFromTime(deps.now());
    for (const day of days.keys()) if (day !== today && !dirty.has(day)) days.delete(day);
  }

  // One write at a time: a flush asked for during a write runs after it, so counts added meanwhile go too.
  function startWriting(): Promise<void> {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    writing = writing.then(writeDirty);
    return writing;
  }

  return {
    add(key, by = 1) {
      const day = dayFromTime(deps.now());
      const counts = days.get(day) ?? new Map<string, number>();
      const target = counts.has(key) || counts.size < DAY_COUNT_MAX_KEYS ? key : OVERFLOW_KEY;
      counts.set(target, (counts.get(target) ?? 0) + by);
      days.set(day, counts);
      dirty.add(day);
      if (timer === null) {
        timer = setTimeout(() => void startWriting(), interval);
        timer.unref?.();
      }
    },
    async flush() {
      await startWriting();
    },
  };
}

/** Adds up every writer's file of one day of a store; files that do not parse are counted as unreadable. */
export async function sumDayCounts(
  storage: Storage,
  folder: string,
): Promise<{ counts: Record<string, number>; unreadable: number }> {
  const counts: Record<string, number> = {};
  let unreadable = 0;
  for (const path of await storage.list(folder)) {
    const file = DayCountFileSchema.safeParse(await getJsonOrNull(storage, path));
    if (!file.success) {
      unreadable++;
      continue;
    }
    for (const [key, count] of Object.entries(file.data.counts)) counts[key] = (counts[key] ?? 0) + count;
  }
  return { counts, unreadable };
}
