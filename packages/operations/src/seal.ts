/**
 * The finished-day rule: when a day's folder may be sealed. A root is forever, so only a finished day is
 * signed; a partial folder (a scan that died, a shard lost) is refused with the reason. The caller reads
 * the folder and says what it found; this module only decides. Pure module: no I/O, no clock.
 */

/** What a day's folder holds of its scan, as read by the caller. */
export interface DayScanFacts {
  /** False when the folder has neither an index nor a summary file at all: no scan started that day. */
  scanStarted: boolean;
  /**
   * The servers the day's summary counts as skipped by the daily cost cap, or null when the summary is
   * missing or cannot be read (the scan writes it last, so then the scan has not finished).
   */
  skippedByCap: number | null;
  /**
   * The servers the day's summary counts as left unchecked because the day's check stopped before their
   * shard and a later start closed the day (0 when absent).
   */
  leftAtStop?: number;
  /** The day's index (its shard count and the shard of each server it lists), or null when missing or unreadable. */
  index: { shards: number; serverShards: readonly number[] } | null;
  /** The shards that have a results file; a file that cannot be read counts as missing. */
  shardsWithFile: ReadonlySet<number>;
}

/** Why a day is not finished. */
export type DayUnfinished =
  | { missing: 'summary' }
  | { missing: 'index' }
  | {
      missing: 'shards';
      /** The shards the index lists that have no file, in shard order. */
      shards: number[];
      /** The servers the index puts in those shards. */
      serversInMissing: number;
      /** The servers the summary counts as skipped by the daily cost cap. */
      skippedByCap: number;
      /** The servers the summary counts as left when a later start closed the stopped day. */
      leftAtStop: number;
    };

/**
 * Why a day cannot be sealed yet, or null when it is finished. A day whose scan never started is finished:
 * its other files (reports, package results) are all it will have. A day whose scan started must have its
 * summary, a readable index and a file for every shard the index lists, unless the daily cost cap skipped
 * it or the check stopped before it and a later start closed the day: the missing shards must hold exactly the
 * servers the summary counts as skipped by the cap plus those left at the stop.
 *
 * @example
 * findUnfinishedPart({ scanStarted: false, skippedByCap: null, index: null, shardsWithFile: new Set() }); // null
 * findUnfinishedPart({ scanStarted: true, skippedByCap: null, index: null, shardsWithFile: new Set() });  // { missing: 'summary' }
 */
export function findUnfinishedPart(facts: DayScanFacts): DayUnfinished | null {
  if (!facts.scanStarted) return null;
  if (facts.skippedByCap === null) return { missing: 'summary' };
  if (facts.index === null) return { missing: 'index' };
  const shards: number[] = [];
  for (let shard = 0; shard < facts.index.shards; shard++) if (!facts.shardsWithFile.has(shard)) shards.push(shard);
  if (shards.length === 0) return null;
  const missingSet = new Set(shards);
  const serversInMissing = facts.index.serverShards.filter((shard) => missingSet.has(shard)).length;
  const leftAtStop = facts.leftAtStop ?? 0;
  if (serversInMissing === facts.skippedByCap + leftAtStop) return null;
  return { missing: 'shards', shards, serversInMissing, skippedByCap: facts.skippedByCap, leftAtStop };
}
