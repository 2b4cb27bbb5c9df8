// The newest five-minute observations per server (state/five-minute.json): one rolling file like the hourly
// one, replaced after each round of five-minute checks, read by the read model (shown status, incidents) and
// by the owner alerts. The daily counters live in each server's state; this file keeps what each check saw.
import { z } from 'zod';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { FIVE_MINUTE_CHECKS_PATH } from './paths.js';
import { HourlyObservationSchema } from './schemas.js';

/** One five-minute check: letter, reason, HTTP status, not-MCP flag, time and wall time (the hourly shape). */
export const FiveMinuteObservationSchema = HourlyObservationSchema;
export type FiveMinuteObservation = z.infer<typeof FiveMinuteObservationSchema>;

/** The file: each server's newest observations, oldest first. */
export const FiveMinuteChecksFileSchema = z.object({
  results: z.record(z.string(), z.array(FiveMinuteObservationSchema)),
});
export type FiveMinuteChecksFile = z.infer<typeof FiveMinuteChecksFileSchema>;

/** Each server's kept five-minute observations; none when the file is missing or torn (a rolling file, rewritten next round). */
export async function readFiveMinuteChecks(storage: Storage): Promise<Record<string, FiveMinuteObservation[]>> {
  const parsed = FiveMinuteChecksFileSchema.safeParse(await getJson(storage, FIVE_MINUTE_CHECKS_PATH));
  return parsed.success ? parsed.data.results : {};
}

/** Replaces the file (atomically, through the storage layer). */
export async function writeFiveMinuteChecks(
  storage: Storage,
  results: Record<string, FiveMinuteObservation[]>,
): Promise<void> {
  await putJson(storage, FIVE_MINUTE_CHECKS_PATH, { results });
}
