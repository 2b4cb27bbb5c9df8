// One hourly or five-minute check as the rolling files keep it, made from the probe's result. The hourly task,
// the five-minute task and the demo all record checks in this one shape.
import type { ProbeResult } from '@mcp-atlas/probe';
import { failedHttpStatus } from '@mcp-atlas/reliability/live';
import type { HourlyObservation } from './schemas.js';

/** The observation a check at `at` left: letter, reason, not-MCP flag, the failing HTTP status and its wall time. */
export function observationOfCheck(result: ProbeResult, at: string): HourlyObservation | null {
  const { letter } = result;
  // A rate-limited check (n) measured nothing, so it leaves no observation: it counts neither up nor down.
  if (letter === 'n') return null;
  // The wall time is kept so the rankings' handshake tie-break can read the newest check's time.
  return {
    letter,
    reason: result.reason,
    notMcp: result.notStandardMcp,
    httpStatus: failedHttpStatus(result.steps),
    at,
    elapsedMs: Math.round(result.elapsedMs),
  };
}
