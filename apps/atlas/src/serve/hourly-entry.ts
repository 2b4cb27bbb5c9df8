// One server's entry in the hourly file, shared by the schedule's hourly check and the demo's simulated
// hours: the new observation, the one before it (for the second-failure rule) and the 24-slot hour-of-day
// profile carried over from the previous file.
import type { ProbeResult } from '@mcp-atlas/probe';
import { createHourProfile, recordHourResult } from '@mcp-atlas/reliability';
import { observationOfCheck } from '../data/check-observation.js';
import type { HourlyFile } from '../data/schemas.js';

/** What the hourly file keeps for one server. */
export type HourlyEntry = HourlyFile['results'][string];

/** The entry after a check at `at` gave `result`, given the server's entry in the previous hourly file. */
export function nextHourlyEntry(before: HourlyEntry | undefined, result: ProbeResult, at: string): HourlyEntry {
  const previous =
    before === undefined
      ? null
      : {
          letter: before.letter,
          reason: before.reason,
          notMcp: before.notMcp,
          httpStatus: before.httpStatus,
          at: before.at,
          ...(before.elapsedMs !== undefined ? { elapsedMs: before.elapsedMs } : {}),
        };
  const observation = observationOfCheck(result, at);
  const hours = recordHourResult(before?.hours ?? createHourProfile(), { letter: observation.letter, at });
  return { ...observation, previous, hours: [...hours] };
}
