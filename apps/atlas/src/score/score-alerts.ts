// Score-drop alerts for owners: when a server's composite falls by the drop threshold or more from its previous
// scored day, the alert joins the owner's feed (state/owner-alerts.json, next to the second-failure alerts). Only
// servers with a verified owner have an owner's feed; the public feed of every server's drops is read from the
// signed scores files instead (view/score-view.ts). Rolling state, not signed; re-running a day replaces that
// day's alert.
import { shiftDay } from '@mcp-atlas/base';
import { DAILY_SCORE_RULES } from '@mcp-atlas/operations/rules';
import { type ScoredDay, scoreDropsOf } from '@mcp-atlas/score';
import { OWNER_ALERTS_KEPT, readOwnerAlerts, type ScoreDropAlert, writeOwnerAlerts } from '../data/owner-alerts.js';
import { readOwnerRecords } from '../owners/owner-records.js';
import type { Storage } from '../storage/storage.js';
import { readDayScores, type ServerScore } from './day-scores.js';

/** A server's scores of the look-back days before `day` that have one, oldest first. */
async function earlierScoresOf(storage: Storage, day: string, serverId: string): Promise<ScoredDay[]> {
  const days: ScoredDay[] = [];
  for (let back = DAILY_SCORE_RULES.dropLookbackDays; back >= 1; back--) {
    const earlier = shiftDay(day, -back);
    const score = (await readDayScores(storage, earlier)).get(serverId);
    if (score !== undefined) days.push({ day: earlier, compositeScore: score.compositeScore, grade: score.grade });
  }
  return days;
}

/**
 * The drops of `day`: each server of `scores` whose composite fell by the threshold or more from its newest
 * earlier score (looking back up to a week, so a day the cost cap skipped does not hide a fall), by the score
 * package's `scoreDropsOf`.
 */
export async function findScoreDrops(
  storage: Storage,
  day: string,
  scores: readonly ServerScore[],
): Promise<{ serverId: string; alert: ScoreDropAlert }[]> {
  const drops: { serverId: string; alert: ScoreDropAlert }[] = [];
  for (const score of scores) {
    const history = [
      ...(await earlierScoresOf(storage, day, score.serverId)),
      { day, compositeScore: score.compositeScore, grade: score.grade },
    ];
    const alert = scoreDropsOf(history, DAILY_SCORE_RULES.dropLookbackDays).find((d) => d.day === day);
    if (alert !== undefined) drops.push({ serverId: score.serverId, alert });
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
