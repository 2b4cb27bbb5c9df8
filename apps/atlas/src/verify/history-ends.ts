// What `mcp-atlas verify` prints about the ends of a history: the days it checked, and why ends that fail do.
import type { ChainEndsCheck, ChainSpan } from '@mcp-atlas/history';

/**
 * The broken-day line's day and reason for ends that fail: a history with no sealed day has no day to name
 * (`-`) and says how to accept one where an empty store is expected.
 */
export function describeEndsFailure(check: Extract<ChainEndsCheck, { ok: false }>): { day: string; reason: string } {
  return check.day === null
    ? { day: '-', reason: `${check.reason} (pass --allow-empty when that is expected)` }
    : { day: check.day, reason: check.reason };
}

/** The line naming the days a verification checked, so a reader sees at once where the history starts and ends. */
export function describeCheckedDays(days: number, span: ChainSpan): string {
  return `checked ${days} sealed ${days === 1 ? 'day' : 'days'}, ${span.first} to ${span.last}`;
}
