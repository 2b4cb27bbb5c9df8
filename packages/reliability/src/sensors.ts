/**
 * Gateway sensors: the intake limits on their outcomes, and their reduction to one entry per
 * sensor, server and UTC day. Pure module: `now` is an argument.
 */
import type { FailureReason } from './agreement.js';
import {
  FAILURE_REASONS,
  MS_PER_HOUR,
  SENSOR_OUTCOME_MAX_AGE_HOURS,
  SENSOR_OUTCOMES_PER_BATCH,
  SENSOR_OUTCOMES_PER_DAY,
} from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import type { SensorDayEntry } from './ratings.js';
import {
  assertBoolean,
  assertCount,
  assertNonNegative,
  assertOneOf,
  assertText,
  formatDay,
  instantOf,
  instantOfDate,
} from './validate.js';

/** One call a gateway saw to a server. */
export interface SensorOutcome {
  /** The server's id. */
  server: string;
  ok: boolean;
  /** When the call happened: a Date or an ISO 8601 time with offset. */
  at: Date | string;
  reason?: FailureReason | null;
  ms?: number;
}

/** A batch of outcomes from one sensor. */
export interface SensorBatch {
  sensor: string;
  outcomes: readonly SensorOutcome[];
}

/** The intake's answer to a batch. */
export type SensorBatchDecision =
  | {
      status: 'refused';
      /** `batch_too_large`: more than 100 outcomes. `daily_limit_reached`: 20,000 already taken today. */
      reason: 'batch_too_large' | 'daily_limit_reached';
      limit: number;
    }
  | {
      status: 'accepted';
      /** The outcomes to store, in the batch's order. */
      accepted: SensorOutcome[];
      dropped: {
        /** Older than 24 hours on arrival. */
        tooOld: number;
        /** Dated after `now`: a sensor's clock ahead of ours cannot vouch for the future. */
        fromFuture: number;
        /** Beyond the sensor's 20,000 outcomes for the day. */
        overDailyLimit: number;
      };
    };

/** A sensor day entry with the server it is about. */
export interface ServerSensorDayEntry extends SensorDayEntry {
  server: string;
}

function checkOutcome(outcome: SensorOutcome, field: string): number {
  if (outcome === null || typeof outcome !== 'object') {
    throw new ReliabilityInputError(
      'invalid-sensor-entry',
      field,
      `expected an outcome object, received ${describeValue(outcome)}`,
    );
  }
  assertText(outcome.server, `${field}.server`, 'invalid-sensor-entry');
  assertBoolean(outcome.ok, `${field}.ok`, 'invalid-sensor-entry');
  assertOneOf(outcome.reason, FAILURE_REASONS, `${field}.reason`, 'invalid-sensor-entry');
  if (outcome.ms !== undefined && outcome.ms !== null)
    assertNonNegative(outcome.ms, `${field}.ms`, 'invalid-sensor-entry');
  return instantOf(outcome.at, `${field}.at`, 'invalid-sensor-entry');
}

/**
 * Applies the sensor intake limits to one batch: a batch of more than 100 outcomes is refused
 * whole, as is any batch once the sensor has 20,000 outcomes for the UTC day; outcomes older than
 * 24 hours (or dated after `now`) are dropped; the rest are accepted in order until the daily
 * limit is reached. `acceptedToday` is how many outcomes from this sensor were accepted earlier
 * on the same UTC day. Throws {@link ReliabilityInputError} on malformed outcomes.
 *
 * @example
 * admitSensorBatch({ sensor: 'gw-1', outcomes }, { now, acceptedToday: 19_990 });
 * // { status: 'accepted', accepted: [...10 outcomes], dropped: { tooOld: 0, fromFuture: 0, overDailyLimit: 5 } }
 */
export function admitSensorBatch(
  batch: SensorBatch,
  context: { now: Date; acceptedToday: number },
): SensorBatchDecision {
  const nowMs = instantOfDate(context.now, 'now');
  const acceptedToday = assertCount(context.acceptedToday, 'acceptedToday');
  assertText(batch?.sensor, 'batch.sensor', 'invalid-sensor-entry');
  if (!Array.isArray(batch.outcomes)) {
    throw new ReliabilityInputError(
      'invalid-sensor-entry',
      'batch.outcomes',
      `expected an array, received ${describeValue(batch.outcomes)}`,
    );
  }
  if (batch.outcomes.length > SENSOR_OUTCOMES_PER_BATCH) {
    return { status: 'refused', reason: 'batch_too_large', limit: SENSOR_OUTCOMES_PER_BATCH };
  }
  const room = Math.max(0, SENSOR_OUTCOMES_PER_DAY - acceptedToday);
  if (room === 0 && batch.outcomes.length > 0) {
    return { status: 'refused', reason: 'daily_limit_reached', limit: SENSOR_OUTCOMES_PER_DAY };
  }
  const oldest = nowMs - SENSOR_OUTCOME_MAX_AGE_HOURS * MS_PER_HOUR;
  const accepted: SensorOutcome[] = [];
  const dropped = { tooOld: 0, fromFuture: 0, overDailyLimit: 0 };
  batch.outcomes.forEach((outcome, index) => {
    const atMs = checkOutcome(outcome, `batch.outcomes[${index}]`);
    if (atMs < oldest) dropped.tooOld++;
    else if (atMs > nowMs) dropped.fromFuture++;
    else if (accepted.length >= room) dropped.overDailyLimit++;
    else accepted.push(outcome);
  });
  return { status: 'accepted', accepted, dropped };
}

/**
 * Reduces one sensor's outcomes to one entry per server and UTC day (calls seen and calls that
 * worked), the form {@link rateServer} counts. Entries come out sorted by server, then day.
 *
 * @example
 * summarizeSensorOutcomes('gw-1', [
 *   { server: 's1', ok: true, at: '2025-06-01T10:00:00Z' },
 *   { server: 's1', ok: false, at: '2025-06-01T11:00:00Z', reason: 'timeout' },
 * ]); // [{ sensor: 'gw-1', server: 's1', day: '2025-06-01', worked: 1, calls: 2 }]
 */
export function summarizeSensorOutcomes(sensor: string, outcomes: readonly SensorOutcome[]): ServerSensorDayEntry[] {
  assertText(sensor, 'sensor', 'invalid-sensor-entry');
  const entries = new Map<string, ServerSensorDayEntry>();
  outcomes.forEach((outcome, index) => {
    const day = formatDay(checkOutcome(outcome, `outcomes[${index}]`));
    const key = `${outcome.server}\u0000${day}`;
    let entry = entries.get(key);
    if (entry === undefined) {
      entry = { sensor, server: outcome.server, day, worked: 0, calls: 0 };
      entries.set(key, entry);
    }
    entry.calls++;
    if (outcome.ok) entry.worked++;
  });
  return [...entries.values()].sort((a, b) =>
    a.server < b.server ? -1 : a.server > b.server ? 1 : a.day < b.day ? -1 : a.day > b.day ? 1 : 0,
  );
}
