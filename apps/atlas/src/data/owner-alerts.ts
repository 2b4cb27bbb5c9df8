// Owners' second-failure alerts (state/owner-alerts.json): for each server whose owner opted in, whether an
// alert is open (failures in a row at or past the threshold) and its newest alerts, for a person to read.
// Rolling state, not signed; the schedule is its only writer.
import { z } from 'zod';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { OWNER_ALERTS_PATH } from './paths.js';

/** Alerts kept per server, newest last: enough for a person to see the recent runs of failures. */
export const OWNER_ALERTS_KEPT = 20;

/** One alert: when, which check raised it, what it saw, and the failures in a row. */
export const OwnerAlertSchema = z.object({
  at: z.string(),
  kind: z.enum(['hourly', 'five_minute']),
  letter: z.enum(['o', 'a', 'p', 'd']),
  reason: z.string(),
  httpStatus: z.number().int().nullable(),
  failuresInARow: z.number().int().positive(),
});
export type OwnerAlert = z.infer<typeof OwnerAlertSchema>;

/**
 * A fall of the quality score between two scored days, by at least the drop threshold (score/score-alerts.ts):
 * the day it was seen, the day compared with, both composites and grades.
 */
export const ScoreDropAlertSchema = z.object({
  day: z.string(),
  previousDay: z.string(),
  from: z.number(),
  to: z.number(),
  drop: z.number().positive(),
  fromGrade: z.string(),
  toGrade: z.string(),
});
export type ScoreDropAlert = z.infer<typeof ScoreDropAlertSchema>;

export const OwnerAlertsFileSchema = z.object({
  servers: z.record(
    z.string(),
    z.object({
      open: z.boolean(),
      alerts: z.array(OwnerAlertSchema),
      /** Score drops, newest last (at most OWNER_ALERTS_KEPT); absent in files written before they were kept. */
      scoreDrops: z.array(ScoreDropAlertSchema).optional(),
    }),
  ),
});
export type OwnerAlertsFile = z.infer<typeof OwnerAlertsFileSchema>;

/** The alerts file, or an empty one when it is missing or torn. */
export async function readOwnerAlerts(storage: Storage): Promise<OwnerAlertsFile> {
  const parsed = OwnerAlertsFileSchema.safeParse(await getJson(storage, OWNER_ALERTS_PATH));
  return parsed.success ? parsed.data : { servers: {} };
}

/** Replaces the alerts file. */
export async function writeOwnerAlerts(storage: Storage, file: OwnerAlertsFile): Promise<void> {
  await putJson(storage, OWNER_ALERTS_PATH, file);
}
