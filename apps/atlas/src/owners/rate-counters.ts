// The day's rate counters for submissions and ownership checks, kept in state/rate-counters/<day>.json so a
// restart does not reset a limit, and deleted after 7 days by the retention job. A requester is a keyed hash
// of its network (never its address or user agent); a host is the host name it concerns. Which counter
// refuses what is decided by @mcp-atlas/operations (decideSubmission, decideOwnershipCheck,
// chargeOwnershipFailure); this file only reads, counts and writes.
import { dayFromTime } from '@mcp-atlas/history';
import {
  chargeOwnershipFailure,
  decideOwnershipCheck,
  decideSubmission,
  type IntakeQuotaDecision,
  type OwnershipCheckDecision,
} from '@mcp-atlas/operations';
import { ReliabilityInputError, reporterKey } from '@mcp-atlas/reliability';
import { z } from 'zod';
import { keyedId } from '../data/keyed-id.js';
import { rateCountersPath } from '../data/paths.js';
import { createSerialQueue } from '../storage/serial-queue.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';

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

/** An admitted token-file read: the caller must settle it with what the read found. */
export interface OwnershipReservation {
  /** Records the read's outcome: a read that found the token gives back the failure it was held as. */
  settle(matched: boolean): Promise<void>;
}

/** The answer of takeOwnershipCheck: a refusal, or an admission with its reservation to settle. */
export type OwnershipTake =
  | Exclude<OwnershipCheckDecision, { admitted: true }>
  | { admitted: true; reservation: OwnershipReservation };

/** Takes units of a day's allowances, or says which limit refused them. */
export interface RateCounters {
  /**
   * Admits and counts one new submission for `requester` on `host`, or refuses it and counts nothing.
   * `provenOwner` (the requester just proved control of the host) lifts the host's limit, never the requester's.
   */
  takeSubmission(requester: string, host: string, provenOwner: boolean): Promise<IntakeQuotaDecision>;
  /**
   * Admits one read of `host`'s token file for `requester`, or refuses it without a read. An admitted read
   * is held as a failure until it is settled, so concurrent reads from one network cannot run past its
   * failure limit; settling with a match gives the failure back. A crash before settling leaves it counted.
   */
  takeOwnershipCheck(requester: string, host: string): Promise<OwnershipTake>;
}

/** The counter names in the day's file; the kind comes first so the two families never mix. */
const names = {
  submissionRequester: (requester: string) => `submission:requester:${requester}`,
  submissionHost: (host: string) => `submission:host:${host}`,
  ownershipRequester: (requester: string) => `ownership:requester:${requester}`,
  ownershipRequesterHostFailures: (requester: string, host: string) => `ownership:failures:${requester}:${host}`,
  ownershipHostFailures: (host: string) => `ownership:host-failures:${host}`,
};

/** Creates the counters over `storage`, dated by `now`. Every read-modify-write runs one at a time. */
export function createRateCounters(storage: Storage, now: () => Date): RateCounters {
  const queue = createSerialQueue();

  async function readCounts(day: string): Promise<Record<string, number>> {
    const data = await getJson(storage, rateCountersPath(day));
    return data === null ? {} : RateCountersFileSchema.parse(data).counts;
  }

  async function writeCounts(day: string, counts: Record<string, number>): Promise<void> {
    await putJson(storage, rateCountersPath(day), { day, counts });
  }

  function takeSubmission(requester: string, host: string, provenOwner: boolean): Promise<IntakeQuotaDecision> {
    return queue.run(async () => {
      const day = dayFromTime(now());
      const counts = await readCounts(day);
      const requesterName = names.submissionRequester(requester);
      const hostName = names.submissionHost(host);
      const usage = { requesterToday: counts[requesterName] ?? 0, hostToday: counts[hostName] ?? 0 };
      const decision = decideSubmission({ ...usage, provenOwner });
      if (!decision.admitted) return decision;
      await writeCounts(day, { ...counts, [requesterName]: usage.requesterToday + 1, [hostName]: usage.hostToday + 1 });
      return decision;
    });
  }

  function settleOwnership(day: string, pairName: string, hostName: string, held: { pair: number; host: number }) {
    let settled = false;
    return async (matched: boolean): Promise<void> => {
      if (settled) return;
      settled = true;
      // A failure was counted when the read was admitted; only a read that found the token gives it back.
      if (!matched) return;
      await queue.run(async () => {
        const counts = await readCounts(day);
        await writeCounts(day, {
          ...counts,
          [pairName]: Math.max(0, (counts[pairName] ?? 0) - held.pair),
          [hostName]: Math.max(0, (counts[hostName] ?? 0) - held.host),
        });
      });
    };
  }

  function takeOwnershipCheck(requester: string, host: string): Promise<OwnershipTake> {
    return queue.run(async (): Promise<OwnershipTake> => {
      const day = dayFromTime(now());
      const counts = await readCounts(day);
      const requesterName = names.ownershipRequester(requester);
      const pairName = names.ownershipRequesterHostFailures(requester, host);
      const hostName = names.ownershipHostFailures(host);
      const usage = {
        requesterToday: counts[requesterName] ?? 0,
        requesterHostFailuresToday: counts[pairName] ?? 0,
        hostFailuresToday: counts[hostName] ?? 0,
      };
      const decision = decideOwnershipCheck(usage);
      if (!decision.admitted) return decision;
      // Held as a failure until the read ends (see settle), so concurrent reads cannot outrun the limits.
      const charge = chargeOwnershipFailure(usage);
      await writeCounts(day, {
        ...counts,
        [requesterName]: usage.requesterToday + 1,
        [pairName]: charge.requesterHostFailures,
        [hostName]: charge.hostFailures,
      });
      const held = {
        pair: charge.requesterHostFailures - usage.requesterHostFailuresToday,
        host: charge.hostFailures - usage.hostFailuresToday,
      };
      return { admitted: true, reservation: { settle: settleOwnership(day, pairName, hostName, held) } };
    });
  }

  return {
    takeSubmission,
    takeOwnershipCheck,
  };
}
