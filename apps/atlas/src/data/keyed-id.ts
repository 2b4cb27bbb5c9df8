// The keyed hashes that stand in for people's identifiers (a network, a license key): stored and counted
// under, never reversible without the service's secret. The label keeps hashes for different purposes apart.
import { createHmac } from 'node:crypto';
import { REPORTER_ID_BYTES } from './stored-records.js';

/** HMAC-SHA-256 of `label`, a NUL and `value` under `secret`, as 32 hex characters. */
export function keyedId(secret: Uint8Array, label: string, value: string): string {
  return createHmac('sha256', secret)
    .update(`${label}\u0000${value}`)
    .digest('hex')
    .slice(0, REPORTER_ID_BYTES * 2);
}
