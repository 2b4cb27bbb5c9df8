// Score-drop alerts: when a server's composite falls by the drop threshold or more from its previous scored day,
// the alert joins the owner's feed (state/owner-alerts.json, next to the second-failure alerts). Only servers
// with a verified owner have a feed. Rolling state, not signed; re-running a day replaces that day's alert.
import { shiftDay } from '@mcp-atlas/base';
import { DAILY_SCORE_RULES } from '@mcp-atlas/operations/rules';
import { scoreDropOf } from '@mcp-atlas/score';
import { OWNER_ALERTS_KEPT, readOwnerAlerts, type ScoreDropAlert, writeOwnerAlerts } from '../data/owner-alerts.js';
import { readOwnerRecords } from '../owners/owner-records.js';
import type { Storage } from '../storage/storage.js';
import { readDayScores, type ServerScore } from './day-scores.js';

/** A server's newest score before `day` within the look-back window, with its day; null when there is none. */
async function previousScoreOf(
  storage: Storage,
  day: string,
  serverId: string,
): Promise<{ day: string; score: ServerScore } | null> {
  for (let back = 1; back <= DAILY_SCORE_RULES.dropLookbackDays; back++) {
    const earlier = shiftDay(day, -back);
    const score = (await readDayScores(storage, earlier)).get(serverId);
    if (score !== undefined) return { day: earlier, score };
  }
  return null;
}

/**
 * The drops of `day`: each server of `scores` whose composite fell by the threshold or more from its newest
 * earlier score (looking back up to a week, so a day the cost cap skipped does not hide a fall).
 */
export async function findScoreDrops(
  storage: Storage,
  day: string,
  scores: readonly ServerScore[],
): Promise<{ serverId: string; alert: ScoreDropAlert }[]> {
  const drops: { serverId: string; alert: ScoreDropAlert }[] = [];
  for (const score of scores) {
    const previous = await previousScoreOf(storage, day, score.serverId);
    if (previous === null) continue;
    const drop = scoreDropOf(previous.score.compositeScore, score.compositeScore);
    if (drop === null) continue;
    drops.push({
      serverId: score.serverId,
      alert: {
        day,
        previousDay: previous.day,
        from: previous.score.compositeScore as number,
        to: score.compositeScore as number,
        drop,
        fromGrade: previous.score.grade,
        toGrade: score.grade,
      },
    });
  }
  return drops;
}

/**
 * Records the day's drops of servers with a verified owner in the owner alerts file; returns the alerts
 * recorded. The file is written only when something changed.
 */
export async function recordScoreDropAlerts(
  storage: Storage,
  day: string,
  scores: readonly ServerScore[],
): Promise<{ serverId: string; alert: ScoreDropAlert }[]> {
  const { records } = await readOwnerRecords(storage);
  if (records.size === 0) return [];
  const owned = scores.filter((s) => records.has(s.serverId));
  const drops = await findScoreDrops(storage, day, owned);
  if (drops.length === 0) return [];
  const file = await readOwnerAlerts(storage);
  for (const { serverId, alert } of drops) {
    const entry = file.servers[serverId] ?? { open: false, alerts: [] };
    const kept = (entry.scoreDrops ?? []).filter((a) => a.day !== day);
    file.servers[serverId] = { ...entry, scoreDrops: [...kept, alert].slice(-OWNER_ALERTS_KEPT) };
  }
  await writeOwnerAlerts(storage, file);
  return drops;
}
