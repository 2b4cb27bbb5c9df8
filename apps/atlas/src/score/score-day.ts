// The day's quality scores: gathered from what the service keeps, scored by @mcp-atlas/score, written to
// days/<day>/scores.json before the day's summary (so the seal, which waits for the summary, always covers it).
// On the way, the description-injection scan's matches go to a person's review queue, and only matches a person
// confirmed raise PROMPT_INJECTION; drops of 10 points or more join the owner's feed.
import { scoreInstantOf } from '@mcp-atlas/operations';
import { scanToolDescriptions, scoreServer } from '@mcp-atlas/score';
import { dayScoresPath } from '../data/paths.js';
import {
  addReviewItems,
  injectionItemId,
  type NewReviewItem,
  readConfirmedInjectionIds,
  reviewItemsOfInjectionMatches,
} from '../data/review-queue.js';
import type { ServerDayResult, WatchedServer } from '../data/schemas.js';
import type { Storage } from '../storage/storage.js';
import { type ServerScore, serverScoreOf, writeDayScores } from './day-scores.js';
import { recordScoreDropAlerts } from './score-alerts.js';
import { type RepositoryReader, scoreInputsOf } from './score-inputs.js';

/** Options of the day's scoring that the schedule may set. */
export interface ScoreDayOptions {
  /** Reads a GitHub repository (the probe's reader with the operator's token); without it those dimensions stay pending. */
  readRepository?: RepositoryReader;
  /** When review items are queued; default the day's last second (the demo's past days have no wall clock). */
  now?: Date;
  /** The operator's verified publishers; without them the score's built-in list applies. */
  verifiedPublishers?: readonly string[];
}

/** What the day's scoring did. */
export interface ScoreDayOutcome {
  /** False when the day already had its scores file (kept as it is: the seal may cover it). */
  written: boolean;
  scores: ServerScore[];
  /** Injection-scan matches newly queued for review. */
  queued: number;
  /** Score drops recorded in owners' feeds. */
  drops: number;
}

function describeError(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 300);
}

/**
 * Scores every server checked on `day` and writes the day's scores file, unless the day already has one.
 * Call it after the day's states are rolled and before its summary is written (foldDay does).
 */
export async function scoreDay(input: {
  storage: Storage;
  day: string;
  results: readonly ServerDayResult[];
  servers: readonly WatchedServer[];
  methodologyVersion: string;
  options?: ScoreDayOptions;
}): Promise<ScoreDayOutcome> {
  const { storage, day } = input;
  if ((await storage.get(dayScoresPath(day))) !== null) return { written: false, scores: [], queued: 0, drops: 0 };
  const options = input.options ?? {};
  const gathered = await scoreInputsOf(storage, {
    day,
    results: input.results,
    servers: input.servers,
    ...(options.readRepository !== undefined ? { readRepository: options.readRepository } : {}),
    ...(options.verifiedPublishers !== undefined ? { verifiedPublishers: options.verifiedPublishers } : {}),
  });

  // Matches go to a person first; a confirmation already on file applies while the server serves that text.
  const items: NewReviewItem[] = [];
  const matchIds = new Map<string, string[]>();
  for (const entry of gathered) {
    if (entry.tools === null) continue;
    const { matches } = scanToolDescriptions(entry.tools);
    items.push(...reviewItemsOfInjectionMatches(entry.serverId, day, matches));
    matchIds.set(
      entry.serverId,
      matches.map((m) => injectionItemId(entry.serverId, m)),
    );
  }
  const queued = await addReviewItems(storage, items, options.now ?? new Date(scoreInstantOf(day)));
  const confirmed = await readConfirmedInjectionIds(storage);

  const scores: ServerScore[] = [];
  const errors: { serverId: string; reason: string }[] = [];
  for (const entry of gathered) {
    const confirmedInjection = (matchIds.get(entry.serverId) ?? []).some((id) => confirmed.has(id));
    try {
      scores.push(serverScoreOf(entry.serverId, scoreServer({ ...entry.input, confirmedInjection }), entry.uptime));
    } catch (error) {
      // One server the score package cannot take must not cost the day its file.
      errors.push({ serverId: entry.serverId, reason: `internal-error: ${describeError(error)}` });
    }
  }
  await writeDayScores(storage, {
    day,
    methodologyVersion: input.methodologyVersion,
    scoredAt: scoreInstantOf(day),
    scores,
    errors,
  });
  const drops = await recordScoreDropAlerts(storage, day, scores);
  return { written: true, scores, queued: queued.length, drops: drops.length };
}
