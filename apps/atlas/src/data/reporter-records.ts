// Reporter and sensor records (state/reporters.json): each agent's and each gateway sensor's agreement with
// our checks over the report window, written by the schedule's hourly agreement task and read by the read
// model, which weighs every reporter and sensor by it.
import type { AgreementTally } from '@mcp-atlas/reliability';
import { z } from 'zod';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { REPORTERS_PATH } from './paths.js';

const TallySchema = z.object({
  agree: z.number().nonnegative(),
  disagree: z.number().nonnegative(),
  compared: z.number().int().nonnegative(),
});

/** The records file: when it was computed, and one tally per reporter and per sensor. */
export const ReporterRecordsSchema = z.object({
  computedAt: z.string(),
  reporters: z.record(z.string(), TallySchema),
  sensors: z.record(z.string(), TallySchema),
});
export type ReporterRecords = z.infer<typeof ReporterRecordsSchema>;

/** The tallies as ratings read them: by reporter, and by sensor. Empty before the first run or when the file is torn. */
export async function readAgreementLookups(
  storage: Storage,
): Promise<{ reporters: Map<string, AgreementTally>; sensors: Map<string, AgreementTally> }> {
  const parsed = ReporterRecordsSchema.safeParse(await getJson(storage, REPORTERS_PATH));
  if (!parsed.success) return { reporters: new Map(), sensors: new Map() };
  const lookup = (records: ReporterRecords['reporters']) =>
    new Map(Object.entries(records).map(([id, t]) => [id, { agree: t.agree, disagree: t.disagree }]));
  return { reporters: lookup(parsed.data.reporters), sensors: lookup(parsed.data.sensors) };
}

/** Replaces the records file. */
export async function writeReporterRecords(storage: Storage, records: ReporterRecords): Promise<void> {
  await putJson(storage, REPORTERS_PATH, records);
}
