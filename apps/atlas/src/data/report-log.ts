// The day log of agents' reports (days/<day>/reports.jsonl): one JSON line per accepted report. Read by the
// intake (for quotas) and by the read model (for ratings and incidents); a line that does not parse counts
// for neither.
import { parseJsonOrNull } from '../storage/parse-json.js';
import { type StoredReport, StoredReportSchema } from './stored-records.js';

const decoder = new TextDecoder();

/** The reports of one day log, and how many of its lines did not parse. */
export function parseReportLog(bytes: Uint8Array): { reports: StoredReport[]; unreadable: number } {
  const reports: StoredReport[] = [];
  let unreadable = 0;
  for (const line of decoder.decode(bytes).split('\n')) {
    if (line.trim() === '') continue;
    const parsed = StoredReportSchema.safeParse(parseJsonOrNull(line));
    if (parsed.success) reports.push(parsed.data);
    else unreadable++;
  }
  return { reports, unreadable };
}
