// The quality scores in the read model: each server's newest score and its trend, read once per view from the
// days' scores files (days/<day>/scores.json, covered by each day's seal). The pages and the API show them from
// here, as they show everything else from the view.
import { shiftDay } from '@mcp-atlas/history';
import { readDayScores, type ScoreTrendPoint, type ServerScore } from '../score/day-scores.js';
import type { Storage } from '../storage/storage.js';

/** Days of scores the server page's trend covers, the newest day included. */
export const SCORE_TREND_DAYS = 30;

/**
 * How many days old a server's newest score may be and still be shown as its score (the newest day included):
 * a server skipped on the newest day by the daily cost cap keeps the score of the day it was last checked, for
 * a week, as its reliability window does.
 */
export const SCORE_SHOWN_MAX_DAYS = 7;

/** The scores part of the read model. */
export interface ScoresView {
  /** Each server's newest score within {@link SCORE_SHOWN_MAX_DAYS}, with the day it is from. */
  latest: Map<string, { day: string; score: ServerScore }>;
  /** Each server's scores over the last {@link SCORE_TREND_DAYS} days, oldest first. */
  trends: Map<string, ScoreTrendPoint[]>;
}

/** A read model without scores (before the first scan). */
export function emptyScoresView(): ScoresView {
  return { latest: new Map(), trends: new Map() };
}

function trendPointOf(day: string, score: ServerScore): ScoreTrendPoint {
  return {
    day,
    compositeScore: score.compositeScore,
    grade: score.grade,
    visibilityLevel: score.visibilityLevel,
    dimensionsScored: score.dimensionsScored,
    dimensionsApplicable: score.dimensionsApplicable,
  };
}

/**
 * Reads the scores of the {@link SCORE_TREND_DAYS} days ending `day` (the view's newest scanned day) once, for
 * every server: the trends, and each server's newest score of the last {@link SCORE_SHOWN_MAX_DAYS} days. A day
 * without a scores file, or with one that does not parse, adds nothing.
 */
export async function readScoresView(storage: Storage, day: string | null): Promise<ScoresView> {
  const view = emptyScoresView();
  if (day === null) return view;
  const shownFrom = shiftDay(day, -(SCORE_SHOWN_MAX_DAYS - 1));
  for (let back = SCORE_TREND_DAYS - 1; back >= 0; back--) {
    const scoredDay = shiftDay(day, -back);
    for (const [id, score] of await readDayScores(storage, scoredDay)) {
      const trend = view.trends.get(id);
      if (trend === undefined) view.trends.set(id, [trendPointOf(scoredDay, score)]);
      else trend.push(trendPointOf(scoredDay, score));
      if (scoredDay >= shownFrom) view.latest.set(id, { day: scoredDay, score });
    }
  }
  return view;
}
