// Thin adapters from the files the app keeps (the day's results, the hourly file, the five-minute file) to
// the live-check inputs of @mcp-atlas/reliability. Every rule (what comes after the daily check, the
// second-failure rule, which checks confirm an incident) is the package's; this file only reshapes.
import {
  type DailyObservation,
  failedHttpStatus,
  type LiveChecks,
  type TimedObservation,
} from '@mcp-atlas/reliability/live';
import type { FiveMinuteObservation } from '../data/five-minute-checks.js';
import type { HourlyFile, ServerDayResult } from '../data/schemas.js';

/** One server's entry in the hourly file. */
export type HourlyEntry = HourlyFile['results'][string];

/**
 * The daily check as the live rules read it; `day` is the day the result belongs to (null when not known). Null
 * for a rate-limited check (n), which observed nothing.
 */
export function dailyObservationOf(latest: ServerDayResult, day: string | null): DailyObservation | null {
  const { letter } = latest;
  if (letter === 'n') return null;
  return {
    day,
    checkedAt: latest.checkedAt ?? null,
    letter,
    reason: latest.reason,
    httpStatus: failedHttpStatus(latest.steps ?? []),
    notMcp: latest.notStandardMcp,
    elapsedMs: typeof latest.elapsedMs === 'number' ? latest.elapsedMs : null,
  };
}

/** A kept observation as the live rules read it; one whose time does not parse is left out rather than failing the view. */
function timedOf(observation: FiveMinuteObservation | null | undefined): TimedObservation[] {
  if (observation === null || observation === undefined || Number.isNaN(Date.parse(observation.at))) return [];
  return [
    {
      at: observation.at,
      letter: observation.letter,
      reason: observation.reason,
      httpStatus: observation.httpStatus,
      notMcp: observation.notMcp,
      ...(observation.elapsedMs !== undefined ? { elapsedMs: observation.elapsedMs } : {}),
    },
  ];
}

/** The hourly observations kept for a server: this hour's and the one before. */
export function hourlyObservationsOf(hourly: HourlyEntry | undefined): TimedObservation[] {
  return [...timedOf(hourly?.previous), ...timedOf(hourly)];
}

/** Everything our own checks say about one server, from the files that keep it. */
export function liveChecksOf(
  latest: ServerDayResult | null,
  latestDay: string | null,
  hourly: HourlyEntry | undefined,
  fiveMinute: readonly FiveMinuteObservation[] | undefined,
): LiveChecks {
  return {
    daily: latest === null ? null : dailyObservationOf(latest, latestDay),
    hourly: hourlyObservationsOf(hourly),
    fiveMinute: (fiveMinute ?? []).flatMap((o) => timedOf(o)),
  };
}
