// The stored shapes of agents' reports and gateway sensors' batches: what `days/<day>/reports.jsonl` and
// `sensors/<day>/<sensor>/` hold. The HTTP layer writes them; the read model and the daily aggregates read them.
import { RATING_RULES } from '@mcp-atlas/reliability/rules';
import { z } from 'zod';
import { SERVER_ID_PATTERN } from './paths.js';
import { DAY } from './schemas.js';

/**
 * A gateway sensor's id: chosen by the sensor, stable across days, safe as a storage path segment.
 * Lower-case letters, digits, `_` and `-`, 1 to 64 characters, starting with a letter or digit. Lower
 * case only, so two ids never share a folder on a file system that ignores case.
 */
export const SENSOR_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Bytes of the keyed hash kept as an anonymous reporter's id (128 bits: no collisions in practice). */
export const REPORTER_ID_BYTES = 16;

/**
 * One line of `days/<day>/reports.jsonl`: the report's fixed fields with the server resolved to its id,
 * who sent it (`paid:` or `anon:` and a keyed hash of its license key or network), whether the reporter paid, and
 * when it arrived. No address, user agent or free text is ever part of it.
 */
export const StoredReportSchema = z.strictObject({
  server: z.string().regex(SERVER_ID_PATTERN),
  tool: z.string(),
  ok: z.boolean(),
  reason: z.enum(RATING_RULES.failureReasons).optional(),
  ms: z.number().optional(),
  matched: z.boolean().optional(),
  resultTokens: z.int().optional(),
  charged: z.number().optional(),
  surprise: z.enum(RATING_RULES.surprises).optional(),
  toolsHash: z.string().optional(),
  reporter: z.string(),
  paid: z.boolean(),
  at: z.iso.datetime(),
});
export type StoredReport = z.infer<typeof StoredReportSchema>;

/** One accepted sensor outcome as stored: the server resolved to its id, the time normalized to UTC. */
export const StoredSensorOutcomeSchema = z.strictObject({
  server: z.string().regex(SERVER_ID_PATTERN),
  ok: z.boolean(),
  at: z.iso.datetime(),
  reason: z.enum(RATING_RULES.failureReasons).optional(),
  ms: z.number().optional(),
});
export type StoredSensorOutcome = z.infer<typeof StoredSensorOutcomeSchema>;

/**
 * One accepted sensor batch, as stored under `sensors/<day>/<sensor>/`. Never holds the sender's address: a
 * batch sent with the sensor's token says `registered: true`; one sent without a token holds a keyed id of its
 * network for that day (`network`), which only the service's secret can recompute. Older batches have neither.
 */
export const StoredSensorBatchSchema = z.strictObject({
  sensor: z.string().regex(SENSOR_ID_PATTERN),
  day: DAY,
  received: z.iso.datetime(),
  registered: z.literal(true).optional(),
  network: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional(),
  outcomes: z.array(StoredSensorOutcomeSchema),
});
export type StoredSensorBatch = z.infer<typeof StoredSensorBatchSchema>;
