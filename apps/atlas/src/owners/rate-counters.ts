// The day's rate counters for submissions and ownership checks, kept in state/rate-counters/<day>.json so a
// restart does not reset a limit, and deleted after 7 days by the retention job. A requester is a keyed hash
// of its network (never its address or user agent); a host is the host name it concerns.
import { dayFromTime } from '@mcp-atlas/history';
import {
  checkOwnershipCheckQuota,
  checkSubmissionQuota,
  ReliabilityInputError,
  reporterKey,
  type IntakeQuotaDecision,
} from '@mcp-atlas/reliability';
import { z } from 'zod';
import { rateCountersPath } from '../data/paths.js';
import { keyedId } from '../http/keyed-id.js';
import { createSerialQueue } from '../http/serial-queue.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';

/** What is counted: new submissions, and reads of an owner's token file. */
export type RateCounterKind = 'submission' | 'ownership';

/** The requester every request without a readable address shares (so such requests are limited together). */
export const UNKNOWN_REQUESTER = 'unknown';

const RateCountersFileSchema = z.object({ day: z.string(), counts: z.record(z.string(), z.int().nonnegative()) });

/** The keyed hash a requester is counted under: its network (IPv4 /24, IPv6 /48), hashed with the service's secret. */
export function requesterIdOf(secret: Uint8Array, address: string | null): string {
  if (address === null) return UNKNOWN_REQUESTER;
  try {
    return keyedId(secret, 'requester', reporterKey(address));
  } catch (error) {
    if (error instanceof ReliabilityInputError) return UNKNOWN_REQUESTER;
    throw error;
  }
}

/** Takes one unit of a day's allowance, or says which limit refused it. */
export interface RateCounters {
  /**
   * Admits and counts one `kind` for `requester` and `host` (the count is on disk before it answers), or
   * refuses it and counts nothing. Takes run one at a time, so two requests never both get the last unit.
   */
  take(kind: RateCounterKind, requester: string, host: string): Promise<IntakeQuotaDecision>;
}

/** Creates the counters over `storage`, dated by `now`. */
export function createRateCounters(storage: Storage, now: () => Date): RateCounters {
  const queue = createSerialQueue();
  return {
    take(kind, requester, host) {
      return queue.run(async () => {
        const day = dayFromTime(now());
        const data = await getJson(storage, rateCountersPath(day));
        const counts = data === null ? {} : RateCountersFileSchema.parse(data).counts;
        const requesterKeyName = `${kind}:requester:${requester}`;
        const hostKeyName = `${kind}:host:${host}`;
        const usage = { requesterToday: counts[requesterKeyName] ?? 0, hostToday: counts[hostKeyName] ?? 0 };
        const decision = kind === 'submission' ? checkSubmissionQuota(usage) : checkOwnershipCheckQuota(usage);
        if (!decision.admitted) return decision;
        const next = { ...counts, [requesterKeyName]: usage.requesterToday + 1, [hostKeyName]: usage.hostToday + 1 };
        await putJson(storage, rateCountersPath(day), { day, counts: next });
        return decision;
      });
    },
  };
}
