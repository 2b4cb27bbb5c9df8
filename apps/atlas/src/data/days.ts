// Day arithmetic on YYYY-MM-DD strings (UTC), for the places that need a distance rather than a shift.
import { MS_PER_DAY } from '@mcp-atlas/reliability';

/** Whole days from `earlier` to `later` (negative when `later` comes first). */
export function daysBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / MS_PER_DAY);
}
