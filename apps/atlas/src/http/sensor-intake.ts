// Gateway sensor batches: fixed fields only, at most 100 outcomes, the reliability package's intake limits,
// and one file per accepted batch under sensors/<day>/<sensor>/. Sensor data is kept out of days/ because
// the signed roots do not cover it. The sender's address is never stored: it is hashed with a key drawn at
// random each UTC day and held only in memory, and only to stop one network from posing as many sensors.
import { dayFromTime } from '@mcp-atlas/history';
import { admitSensorBatch, ReliabilityInputError, reporterKey, type SensorOutcome } from '@mcp-atlas/reliability';
import { parseJsonOrNull } from '../storage/parse-json.js';
import { createSerialQueue } from '../storage/serial-queue.js';
import { putJson } from '../storage/storage.js';
import { createDailyKeyedIds } from './client-address.js';
import type { ResolvedHttpDeps } from './deps.js';
import { type Answer, invalidInput, type Refusal, refuse } from './errors.js';
import { countSubmission, countUnreadable, type IntakeHooks } from './intake-hooks.js';
import { SENSOR_BATCH_SEQUENCE_DIGITS } from './limits.js';
import {
  type SensorAccepted,
  SensorBatchBodySchema,
  StoredSensorBatchSchema,
  type StoredSensorOutcome,
} from './schemas.js';
import { resolveServer } from './server-ref.js';

/** Folder of one sensor's batches on one UTC day (arrival day). Not under days/: no root covers it. */
export const sensorDayFolder = (day: string, sensor: string): string => `sensors/${day}/${sensor}/`;

/** Path of one stored batch: its sequence number within the sensor's day, zero-padded so paths sort in order. */
export const sensorBatchPath = (day: string, sensor: string, sequence: number): string =>
  `${sensorDayFolder(day, sensor)}${String(sequence).padStart(SENSOR_BATCH_SEQUENCE_DIGITS, '0')}.json`;

/** Takes sensor batches in; one per app, since it holds the day's counts and the day's address key. */
export interface SensorIntake {
  /** Validates, limits and stores one batch, or says why not; a refused batch stores nothing. Counted by `onIntake`. */
  submit(input: unknown, caller: { address: string | null }): Promise<Answer<SensorAccepted>>;
  /**
   * For a POST whose body could not be read, so submit never ran: counts it as a refused batch in the intake
   * metrics (not in the refused-sensor-requests store, which counts the intake's own refusals) and returns `refusal`.
   */
  refuseUnreadable(refusal: Refusal): Refusal;
}

/** The dependencies of the sensor intake. */
export type SensorIntakeDeps = Pick<ResolvedHttpDeps, 'getView' | 'storage' | 'now' | 'logger'> & IntakeHooks;

/** What this process counted today for one sensor: outcomes accepted and batches stored. */
interface SensorDay {
  accepted: number;
  batches: number;
}

/** Today's outcomes accepted per keyed network id; replaced at each new UTC day. */
interface AddressDay {
  day: string;
  accepted: Map<string, number>;
}

/** Creates the sensor intake. */
export function createSensorIntake(deps: SensorIntakeDeps): SensorIntake {
  const queue = createSerialQueue();
  let addresses: AddressDay | null = null;
  // The network's id under a key of the day, held in memory only: a day's counts cannot be tied to another's.
  const networkIdOf = createDailyKeyedIds('sensor network');
  let sensorsDay: string | null = null;
  const sensors = new Map<string, SensorDay>();

  function addressDay(day: string): AddressDay {
    if (addresses?.day !== day) addresses = { day, accepted: new Map() };
    return addresses;
  }

  // After a restart the day's counts come back from the stored batches, so a restart does not reset a limit.
  async function sensorDay(day: string, sensor: string): Promise<SensorDay> {
    if (sensorsDay !== day) {
      sensors.clear();
      sensorsDay = day;
    }
    const known = sensors.get(sensor);
    if (known !== undefined) return known;
    const loaded: SensorDay = { accepted: 0, batches: 0 };
    for (const path of await deps.storage.list(sensorDayFolder(day, sensor))) {
      const bytes = await deps.storage.get(path);
      const parsed =
        bytes === null ? null : StoredSensorBatchSchema.safeParse(parseJsonOrNull(new TextDecoder().decode(bytes)));
      loaded.batches++;
      if (parsed?.success === true) loaded.accepted += parsed.data.outcomes.length;
    }
    sensors.set(sensor, loaded);
    return loaded;
  }

  // Every refusal is counted by its code for the day's refused-sensor-requests store; nothing about the sender.
  // Every outcome, a throw included, is counted in the intake metrics.
  function submitCounted(input: unknown, caller: { address: string | null }): Promise<Answer<SensorAccepted>> {
    return countSubmission(deps, 'sensors', async () => {
      const answer = await submitBatch(input, caller);
      if (!answer.ok) deps.onSensorRefused?.(answer.refusal.code);
      return answer;
    });
  }

  async function submitBatch(input: unknown, caller: { address: string | null }): Promise<Answer<SensorAccepted>> {
    const parsed = SensorBatchBodySchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_body', parsed.error, '(body)') };
    const batch = parsed.data;
    if (caller.address === null) {
      return {
        ok: false,
        refusal: refuse(
          400,
          'no_client_address',
          'the network this batch came from cannot be told, so it cannot be limited',
        ),
      };
    }
    let network: string;
    try {
      network = reporterKey(caller.address);
    } catch (error) {
      if (error instanceof ReliabilityInputError) {
        return { ok: false, refusal: refuse(400, 'invalid_client_address', 'the client address is not an IP address') };
      }
      throw error;
    }
    const view = deps.getView();
    const known: SensorOutcome[] = [];
    let unknownServer = 0;
    for (const outcome of batch.outcomes) {
      const server = resolveServer(view, outcome.server);
      if (server === null) {
        unknownServer++;
        continue;
      }
      known.push({
        server: server.id,
        ok: outcome.ok,
        at: new Date(outcome.at).toISOString(),
        ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
        ...(outcome.ms !== undefined ? { ms: outcome.ms } : {}),
      });
    }
    return queue.run(async (): Promise<Answer<SensorAccepted>> => {
      const now = deps.now();
      const day = dayFromTime(now);
      const today = addressDay(day);
      const addressId = networkIdOf(day, network);
      const counts = await sensorDay(day, batch.sensor);
      // One network counts as at most one sensor's daily budget, and one sensor id as one budget across
      // networks: the larger of the two counts decides.
      const acceptedToday = Math.max(counts.accepted, today.accepted.get(addressId) ?? 0);
      const decision = admitSensorBatch({ sensor: batch.sensor, outcomes: known }, { now, acceptedToday });
      if (decision.status === 'refused') {
        const refusal =
          decision.reason === 'daily_limit_reached'
            ? refuse(
                429,
                'daily_limit_reached',
                `this sensor (or its network) already sent ${decision.limit} outcomes today (UTC)`,
                {
                  limit: decision.limit,
                },
              )
            : refuse(400, 'batch_too_large', `a batch carries at most ${decision.limit} outcomes`, {
                limit: decision.limit,
              });
        deps.logger?.info({ event: 'sensor_refused', code: refusal.code }, 'sensor batch refused');
        return { ok: false, refusal };
      }
      const outcomes: StoredSensorOutcome[] = decision.accepted.map((outcome) => ({
        server: outcome.server,
        ok: outcome.ok,
        at: typeof outcome.at === 'string' ? outcome.at : outcome.at.toISOString(),
        ...(outcome.reason !== undefined && outcome.reason !== null ? { reason: outcome.reason } : {}),
        ...(outcome.ms !== undefined ? { ms: outcome.ms } : {}),
      }));
      if (outcomes.length > 0) {
        await putJson(deps.storage, sensorBatchPath(day, batch.sensor, counts.batches), {
          sensor: batch.sensor,
          day,
          received: now.toISOString(),
          outcomes,
        });
        counts.batches++;
        counts.accepted += outcomes.length;
        today.accepted.set(addressId, (today.accepted.get(addressId) ?? 0) + outcomes.length);
      }
      deps.logger?.info({ event: 'sensor_batch', accepted: outcomes.length }, 'sensor batch taken');
      // The servers with new outcomes on disk may have a new rating or incident: ask for a live update.
      if (outcomes.length > 0) deps.onServerEvidence?.([...new Set(outcomes.map((outcome) => outcome.server))]);
      return { ok: true, value: { accepted: outcomes.length, dropped: { ...decision.dropped, unknownServer } } };
    });
  }

  return { submit: submitCounted, refuseUnreadable: (refusal) => countUnreadable(deps, 'sensors', refusal) };
}
