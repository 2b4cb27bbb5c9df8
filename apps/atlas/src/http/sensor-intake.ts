// Gateway sensor batches: fixed fields only, at most 100 outcomes, the reliability package's intake limits,
// and one file per accepted batch under sensors/<day>/<sensor>/. Sensor data is kept out of days/ because
// the signed roots do not cover it.
//
// Whose allowance a batch spends is @mcp-atlas/operations/sensors' rule: a registered sensor's batch, sent with
// its token (Authorization: Bearer), spends that sensor's own allowance; a registered id without its token is
// refused; an unregistered id spends the allowance of the network it came from. So a stranger can neither spend
// a real sensor's allowance nor another network's. The sender's address is never stored: a batch without a
// token keeps only a keyed id of its network and day (the reporter secret's hash, as reports name their
// anonymous reporters), so the day's counts come back after a restart and two days cannot be linked.
import { dayFromTime } from '@mcp-atlas/history';
import { decideSensorAllowance, type SensorCredential } from '@mcp-atlas/operations/sensors';
import { admitSensorBatch, ReliabilityInputError, reporterKey, type SensorOutcome } from '@mcp-atlas/reliability';
import { keyedId } from '../data/keyed-id.js';
import { SENSOR_BATCHES_PREFIX } from '../data/paths.js';
import {
  readSensorRegistration,
  type SensorRegistration,
  sensorTokenKeyOf,
  sensorTokenMatches,
} from '../data/sensor-registrations.js';
import { parseJsonOrNull } from '../storage/parse-json.js';
import { createSerialQueue } from '../storage/serial-queue.js';
import { putJson } from '../storage/storage.js';
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
  submit(input: unknown, caller: SensorCaller): Promise<Answer<SensorAccepted>>;
  /**
   * For a POST whose body could not be read, so submit never ran: counts it as a refused batch in the intake
   * metrics (not in the refused-sensor-requests store, which counts the intake's own refusals) and returns `refusal`.
   */
  refuseUnreadable(refusal: Refusal): Refusal;
}

/** Who sent a batch: the client's address, and the request's Authorization header when it had one. */
export interface SensorCaller {
  address: string | null;
  authorization?: string | null;
}

/** The dependencies of the sensor intake. */
export type SensorIntakeDeps = Pick<ResolvedHttpDeps, 'getView' | 'storage' | 'now' | 'logger' | 'reporterSecret'> &
  IntakeHooks;

/** The counts of one UTC day, rebuilt from the stored batches the first time the day is seen. */
interface CountsDay {
  day: string;
  /** Batches stored per sensor id (their sequence numbers), whoever sent them. */
  batches: Map<string, number>;
  /** Outcomes accepted per registered sensor, sent with its token. */
  registered: Map<string, number>;
  /** Outcomes accepted per keyed network id, sent without a token. */
  networks: Map<string, number>;
}

/** The label network ids of a day are keyed under; the day is part of it, so two days' ids never match. */
const networkLabel = (day: string): string => `sensor network ${day}`;

const BEARER = /^Bearer ([^\s]+)$/;

const tokenRefusal = (message: string): Refusal => refuse(401, 'invalid_sensor_token', message);

/** Creates the sensor intake. */
export function createSensorIntake(deps: SensorIntakeDeps): SensorIntake {
  const queue = createSerialQueue();
  const tokenKey = sensorTokenKeyOf(deps.reporterSecret);
  let counts: CountsDay | null = null;

  // The day's counts come back from the stored batches, so a restart does not reset a limit.
  async function countsOf(day: string): Promise<CountsDay> {
    if (counts?.day === day) return counts;
    const loaded: CountsDay = { day, batches: new Map(), registered: new Map(), networks: new Map() };
    for (const path of await deps.storage.list(`${SENSOR_BATCHES_PREFIX}${day}/`)) {
      const bytes = await deps.storage.get(path);
      const parsed =
        bytes === null ? null : StoredSensorBatchSchema.safeParse(parseJsonOrNull(new TextDecoder().decode(bytes)));
      const sensor = path.slice(`${SENSOR_BATCHES_PREFIX}${day}/`.length).split('/')[0] ?? '';
      add(loaded.batches, sensor, 1);
      if (parsed?.success !== true) continue;
      const batch = parsed.data;
      if (batch.registered === true) add(loaded.registered, batch.sensor, batch.outcomes.length);
      else if (batch.network !== undefined) add(loaded.networks, batch.network, batch.outcomes.length);
    }
    counts = loaded;
    return loaded;
  }

  // Every refusal is counted by its code for the day's refused-sensor-requests store; nothing about the sender.
  // Every outcome, a throw included, is counted in the intake metrics.
  function submitCounted(input: unknown, caller: SensorCaller): Promise<Answer<SensorAccepted>> {
    return countSubmission(deps, 'sensors', async () => {
      const answer = await submitBatch(input, caller);
      if (!answer.ok) deps.onSensorRefused?.(answer.refusal.code);
      return answer;
    });
  }

  /** The token check's result for `sensor`, or a refusal for a header that is not a bearer token. */
  async function credentialOf(
    sensor: string,
    authorization: string | null,
  ): Promise<{ ok: true; registered: boolean; credential: SensorCredential } | { ok: false; refusal: Refusal }> {
    let record: SensorRegistration | null;
    try {
      record = await readSensorRegistration(deps.storage, sensor);
    } catch (error) {
      // The id may be registered: refuse rather than let a batch without its token through.
      deps.logger?.warn({ event: 'sensor_registration_unreadable', error: String(error) }, 'sensor record unreadable');
      return {
        ok: false,
        refusal: refuse(503, 'sensor_registration_unreadable', 'this sensor’s registration cannot be read; try later'),
      };
    }
    // A revoked sensor keeps its id: nobody else may send under the name its history was built with.
    const registered = record !== null;
    if (authorization === null) return { ok: true, registered, credential: 'none' };
    const token = BEARER.exec(authorization.trim())?.[1];
    if (token === undefined)
      return { ok: false, refusal: tokenRefusal('the Authorization header must be "Bearer <sensor token>"') };
    const matches = record !== null && sensorTokenMatches(record, tokenKey, token);
    return { ok: true, registered, credential: matches ? 'valid' : 'wrong' };
  }

  async function submitBatch(input: unknown, caller: SensorCaller): Promise<Answer<SensorAccepted>> {
    const parsed = SensorBatchBodySchema.safeParse(input);
    if (!parsed.success) return { ok: false, refusal: invalidInput('invalid_body', parsed.error, '(body)') };
    const batch = parsed.data;
    const checked = await credentialOf(batch.sensor, caller.authorization ?? null);
    if (!checked.ok) return checked;
    const allowance = decideSensorAllowance({
      registered: checked.registered,
      credential: checked.credential,
      registeredToday: 0,
      networkToday: 0,
    });
    if (allowance.status === 'refused') {
      const refusal =
        allowance.reason === 'sensor_token_required'
          ? refuse(
              401,
              'sensor_token_required',
              `the sensor ${batch.sensor} is registered: send its token as "Authorization: Bearer <token>"`,
            )
          : tokenRefusal(`the token is not the one registered for the sensor ${batch.sensor} (or it was revoked)`);
      deps.logger?.info({ event: 'sensor_refused', code: refusal.code }, 'sensor batch refused');
      return { ok: false, refusal };
    }
    let network: string | null = null;
    if (allowance.spends === 'network') {
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
      try {
        network = reporterKey(caller.address);
      } catch (error) {
        if (error instanceof ReliabilityInputError) {
          return {
            ok: false,
            refusal: refuse(400, 'invalid_client_address', 'the client address is not an IP address'),
          };
        }
        throw error;
      }
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
      const today = await countsOf(day);
      const networkId = network === null ? null : keyedId(deps.reporterSecret, networkLabel(day), network);
      // The rule again, now with the day's counts: only the allowance it names is read, and then spent.
      const spend = decideSensorAllowance({
        registered: checked.registered,
        credential: checked.credential,
        registeredToday: today.registered.get(batch.sensor) ?? 0,
        networkToday: networkId === null ? 0 : (today.networks.get(networkId) ?? 0),
      });
      const acceptedToday = spend.status === 'admitted' ? spend.acceptedToday : 0;
      const decision = admitSensorBatch({ sensor: batch.sensor, outcomes: known }, { now, acceptedToday });
      if (decision.status === 'refused') {
        const refusal =
          decision.reason === 'daily_limit_reached'
            ? refuse(
                429,
                'daily_limit_reached',
                networkId === null
                  ? `this sensor already sent ${decision.limit} outcomes today (UTC)`
                  : `your network already sent ${decision.limit} outcomes today (UTC) without a sensor token; a registered sensor has its own allowance`,
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
        await putJson(deps.storage, sensorBatchPath(day, batch.sensor, today.batches.get(batch.sensor) ?? 0), {
          sensor: batch.sensor,
          day,
          received: now.toISOString(),
          ...(networkId === null ? { registered: true } : { network: networkId }),
          outcomes,
        });
        add(today.batches, batch.sensor, 1);
        if (networkId === null) add(today.registered, batch.sensor, outcomes.length);
        else add(today.networks, networkId, outcomes.length);
      }
      deps.logger?.info({ event: 'sensor_batch', accepted: outcomes.length }, 'sensor batch taken');
      // The servers with new outcomes on disk may have a new rating or incident: ask for a live update.
      if (outcomes.length > 0) deps.onServerEvidence?.([...new Set(outcomes.map((outcome) => outcome.server))]);
      return { ok: true, value: { accepted: outcomes.length, dropped: { ...decision.dropped, unknownServer } } };
    });
  }

  return { submit: submitCounted, refuseUnreadable: (refusal) => countUnreadable(deps, 'sensors', refusal) };
}

function add(map: Map<string, number>, key: string, count: number): void {
  map.set(key, (map.get(key) ?? 0) + count);
}
