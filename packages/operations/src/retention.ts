/**
 * The retention decision: whether the daily clean-up deletes one day of one short-lived store. Pure module:
 * no I/O, no clock; `today` and whether the day's aggregate exists come from the caller, which lists the
 * folders and deletes.
 *
 * A limit of N days (`RETENTION_DAYS`) keeps today and the N - 1 days before it: a day goes once it is N or
 * more days old. Raw sensor batches and raw demand records go only once that day's aggregate exists
 * (`RETENTION_NEEDS_AGGREGATE`); daily-call markers never go within the current UTC month
 * (`RETENTION_KEEPS_CURRENT_MONTH`). Stores not in `RETENTION_DAYS` (signed days, roots, reports, every
 * aggregate) are never deleted on a schedule, so this module has no answer for them. The raw days that feed an
 * aggregate are summed only once their day is closed (`isDayClosed`, `AGGREGATE_GRACE_MINUTES` after midnight).
 */

import { MS_PER_DAY, shiftDay } from '@mcp-atlas/base';
import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describeValue, instantOfDate, startOfDay } from './validate.js';

const MS_PER_MINUTE = 60_000;

/**
 * Days each short-lived store keeps its day folders before the daily clean-up deletes them. Signed day
 * files, roots, reports and daily aggregates are never deleted on a schedule. Raw sensor batches and raw
 * demand records go only once their day's aggregate exists; daily-call markers are never deleted within
 * the current month.
 */
export const RETENTION_DAYS = Object.freeze({
  rawSensorBatches: 35,
  rawDemandRecords: 35,
  refusedSensorRequests: 35,
  askMarkers: 30,
  badgeSightings: 30,
  viewCounts: 90,
  dailyCallMarkers: 7,
  rateCounters: 7,
  // The methodology keeps a log of MCP calls to run the service and stop abuse, and names no limit for it. We keep
  // 30 days: long enough to trace an abuse report, short enough that the log never becomes a record of agents.
  mcpCallLog: 30,
});

/**
 * Stores of `RETENTION_DAYS` whose raw day goes only once that day's aggregate exists: deleting the raw
 * files first would lose the day's figures for good.
 */
export const RETENTION_NEEDS_AGGREGATE = Object.freeze([
  'rawSensorBatches',
  'rawDemandRecords',
  'dailyCallMarkers',
] as const);

/** Stores of `RETENTION_DAYS` that never lose a day of the current UTC calendar month, however old. */
export const RETENTION_KEEPS_CURRENT_MONTH = Object.freeze(['dailyCallMarkers'] as const);

/**
 * Minutes after midnight UTC before the day just ended counts as closed and its raw demand records and
 * sensor batches are summed into the day's aggregate: room for writes still in flight at midnight. An
 * aggregate is written once and never rewritten, so summing too early would lose those writes.
 */
export const AGGREGATE_GRACE_MINUTES = 5;

/** A short-lived store the daily clean-up deletes from: a key of `RETENTION_DAYS`. */
export type RetentionStore = keyof typeof RETENTION_DAYS;

/** Every short-lived store, in the order of the methodology's list. */
export const RETENTION_STORES: readonly RetentionStore[] = Object.freeze(
  Object.keys(RETENTION_DAYS) as RetentionStore[],
);

/** Why a day is kept. */
export type RetentionKeepReason = 'within-limit' | 'current-month' | 'no-aggregate';

/** The clean-up's answer for one day of one store. */
export type RetentionDecision = { action: 'delete' } | { action: 'keep'; reason: RetentionKeepReason };

/** What {@link decideRetention} is asked. */
export interface RetentionQuestion {
  store: RetentionStore;
  /** The day the files belong to (their folder or file name), `YYYY-MM-DD`. */
  day: string;
  /** Today, UTC, `YYYY-MM-DD`. */
  today: string;
  /** Whether that day's aggregate exists; read only for stores that need one. */
  aggregateExists: boolean;
}

function assertStore(store: unknown): RetentionStore {
  if (typeof store !== 'string' || !Object.hasOwn(RETENTION_DAYS, store)) {
    throw new ReliabilityInputError(
      'invalid-server',
      'store',
      `expected one of ${RETENTION_STORES.join(', ')}, received ${describeValue(store)}`,
    );
  }
  return store as RetentionStore;
}

/**
 * The oldest day a store keeps on `today`: today minus (limit - 1) days.
 *
 * @example
 * oldestKeptDay('rawSensorBatches', '2026-12-06'); // '2026-11-02' (35 days, today included)
 */
export function oldestKeptDay(store: RetentionStore, today: string): string {
  const offset = -(RETENTION_DAYS[assertStore(store)] - 1);
  // Checked first so that a bad day is reported as this package's input error, not as a RangeError.
  startOfDay(today, 'day');
  return shiftDay(today, offset);
}

/**
 * True when `store` keeps its days until their day's aggregate exists.
 *
 * @example
 * needsAggregateBeforeDelete('rawDemandRecords'); // true
 */
export function needsAggregateBeforeDelete(store: RetentionStore): boolean {
  return (RETENTION_NEEDS_AGGREGATE as readonly string[]).includes(assertStore(store));
}

/**
 * True when a day is past its store's limit on `today` (the current-month rule included, the aggregate
 * aside): the clean-up then asks whether the aggregate exists, for stores that need one.
 *
 * @example
 * isPastRetentionLimit('badgeSightings', '2026-11-01', '2026-12-01'); // true (30 days old)
 * isPastRetentionLimit('badgeSightings', '2026-11-02', '2026-12-01'); // false (29 days old)
 */
export function isPastRetentionLimit(store: RetentionStore, day: string, today: string): boolean {
  startOfDay(day, 'day');
  startOfDay(today, 'today');
  if (day >= oldestKeptDay(store, today)) return false;
  if ((RETENTION_KEEPS_CURRENT_MONTH as readonly string[]).includes(store) && day.slice(0, 7) === today.slice(0, 7))
    return false;
  return true;
}

/**
 * Whether the daily clean-up deletes the files of `day` in `store` on `today`: delete only when the day is
 * past the store's limit, not in the current month for a store that keeps it, and, for a raw store that is
 * aggregated, only once its aggregate exists.
 *
 * @example
 * decideRetention({ store: 'rawSensorBatches', day: '2026-11-01', today: '2026-12-06', aggregateExists: false });
 * // { action: 'keep', reason: 'no-aggregate' }
 */
export function decideRetention(question: RetentionQuestion): RetentionDecision {
  const store = assertStore(question?.store);
  if (typeof question.aggregateExists !== 'boolean') {
    throw new ReliabilityInputError(
      'invalid-check',
      'aggregateExists',
      `expected true or false, received ${describeValue(question.aggregateExists)}`,
    );
  }
  startOfDay(question.day, 'day');
  startOfDay(question.today, 'today');
  if (question.day >= oldestKeptDay(store, question.today)) return { action: 'keep', reason: 'within-limit' };
  if (!isPastRetentionLimit(store, question.day, question.today)) return { action: 'keep', reason: 'current-month' };
  if (needsAggregateBeforeDelete(store) && !question.aggregateExists) return { action: 'keep', reason: 'no-aggregate' };
  return { action: 'delete' };
}

/**
 * True once `day` has ended by the aggregates' grace period at `now`: from 00:05 UTC of the next day its raw
 * demand records and sensor batches may be summed into the day's aggregate.
 *
 * @example
 * isDayClosed('2026-11-10', new Date('2026-11-11T00:04:59.999Z')); // false
 * isDayClosed('2026-11-10', new Date('2026-11-11T00:05:00Z'));     // true
 */
export function isDayClosed(day: string, now: Date): boolean {
  return instantOfDate(now, 'now') >= startOfDay(day, 'day') + MS_PER_DAY + AGGREGATE_GRACE_MINUTES * MS_PER_MINUTE;
}
