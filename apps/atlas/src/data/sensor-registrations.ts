// Registered gateway sensors. A sensor id is a name anyone can send, so an operator who runs a real sensor
// registers it and gets a secret token; batches that carry the token spend that sensor's own allowance, and
// batches under its id without the token are refused. The token is shown once and never kept: the record holds
// its HMAC-SHA256 under a key derived from the service's reporter secret (itself derived from the signing key,
// which a PostgreSQL store never holds), so a copy of the store does not let anyone post as the sensor.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { getJson, getJsonOrNull, putJson, type Storage } from '../storage/storage.js';
import { SENSOR_REGISTRATIONS_PREFIX, sensorRegistrationPath } from './paths.js';
import { SENSOR_ID_PATTERN } from './stored-records.js';

/** Random bytes in a sensor token: 256 bits, which nobody guesses. */
export const SENSOR_TOKEN_BYTES = 32;

/** What every sensor token starts with, so one is recognized in a config file (and by secret scanners). */
export const SENSOR_TOKEN_PREFIX = 'mcp-atlas-sensor-';

/** A token's shape: the prefix and 43 base64url characters. Anything else is refused before it is hashed. */
export const SENSOR_TOKEN_PATTERN = /^mcp-atlas-sensor-[A-Za-z0-9_-]{43}$/;

/** One registered sensor as stored: its id, the keyed digest of its token, and when it was made or revoked. */
export const SensorRegistrationSchema = z.strictObject({
  sensor: z.string().regex(SENSOR_ID_PATTERN),
  tokenDigest: z.string().regex(/^[0-9a-f]{64}$/),
  created: z.iso.datetime(),
  revoked: z.iso.datetime().nullable(),
});
export type SensorRegistration = z.infer<typeof SensorRegistrationSchema>;

/** The key sensor tokens are hashed under, derived from the reporter secret so it needs no storing of its own. */
export function sensorTokenKeyOf(reporterSecret: Uint8Array): Buffer {
  return createHmac('sha256', reporterSecret).update('mcp-atlas sensor tokens').digest();
}

function digestOf(key: Uint8Array, sensor: string, token: string): Buffer {
  // The sensor id is part of the hashed text, so one sensor's token never opens another's record.
  return createHmac('sha256', key).update(`${sensor}\n${token}`, 'utf8').digest();
}

/**
 * The stored record of a sensor, or null when it was never registered. An unreadable record throws: the id may
 * be registered, so the caller must not treat it as free.
 */
export async function readSensorRegistration(storage: Storage, sensor: string): Promise<SensorRegistration | null> {
  const data = await getJson(storage, sensorRegistrationPath(sensor));
  return data === null ? null : SensorRegistrationSchema.parse(data);
}

/** Every stored registration, revoked ones included, in id order; unreadable records are left out. */
export async function listSensorRegistrations(storage: Storage): Promise<SensorRegistration[]> {
  const records: SensorRegistration[] = [];
  for (const path of (await storage.list(SENSOR_REGISTRATIONS_PREFIX)).sort()) {
    const parsed = SensorRegistrationSchema.safeParse(await getJsonOrNull(storage, path).catch(() => null));
    if (parsed.success) records.push(parsed.data);
  }
  return records;
}

/**
 * Registers `sensor` (or gives a revoked or registered one a new token, which ends the old one) and returns the
 * new token: the only time it exists outside the sensor operator's hands.
 */
export async function registerSensor(
  storage: Storage,
  key: Uint8Array,
  sensor: string,
  now: Date,
): Promise<{ token: string; replaced: boolean }> {
  if (!SENSOR_ID_PATTERN.test(sensor)) throw new RangeError(`not a sensor id: ${JSON.stringify(sensor)}`);
  const previous = await readSensorRegistration(storage, sensor);
  const token = `${SENSOR_TOKEN_PREFIX}${randomBytes(SENSOR_TOKEN_BYTES).toString('base64url')}`;
  const record: SensorRegistration = {
    sensor,
    tokenDigest: digestOf(key, sensor, token).toString('hex'),
    created: now.toISOString(),
    revoked: null,
  };
  await putJson(storage, sensorRegistrationPath(sensor), record);
  return { token, replaced: previous !== null };
}

/** Revokes a sensor's token; false when the sensor was never registered. Its id stays taken. */
export async function revokeSensor(storage: Storage, sensor: string, now: Date): Promise<boolean> {
  const record = await readSensorRegistration(storage, sensor);
  if (record === null) return false;
  if (record.revoked === null)
    await putJson(storage, sensorRegistrationPath(sensor), { ...record, revoked: now.toISOString() });
  return true;
}

/**
 * True when `token` is the registered sensor's token: the digests are compared in constant time. A revoked
 * record matches nothing.
 */
export function sensorTokenMatches(record: SensorRegistration, key: Uint8Array, token: string): boolean {
  if (record.revoked !== null || !SENSOR_TOKEN_PATTERN.test(token)) return false;
  return timingSafeEqual(digestOf(key, record.sensor, token), Buffer.from(record.tokenDigest, 'hex'));
}
