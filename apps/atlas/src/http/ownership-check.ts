// One ownership check: read an owner's token file once, within the day's limits. Shared by the opt-out form
// and owner verification (and every later owner change, which re-reads the file), so every read of a
// host's token file is limited and refused the same way.

import type { RateCounters } from '../owners/rate-counters.js';
import { type OwnerTokenFileReader, type OwnerTokenKind, ownerTokenPath } from '../owners/token.js';
import { type Answer, refuse } from './errors.js';

/** What one check needs: which file, where, the token it must hold, and who asked. */
export interface OwnershipCheckInput {
  kind: OwnerTokenKind;
  /** The origin whose token file is read, e.g. `https://mcp.example.com`. */
  origin: string;
  /** The host name the check concerns, for the per-host limit. */
  host: string;
  token: string;
  /** The requester id (a keyed hash of its network; see requesterIdOf). */
  requester: string;
}

/** Runs ownership checks. */
export interface OwnershipChecks {
  /**
   * Asks the day's counters for one read (a refusal reads nothing), then reads the token file once. Only
   * failed reads are limited per host: a read that finds the token is accepted whatever strangers' failures
   * the host has, and only the requester's own spending can refuse the read (see decideOwnershipCheck).
   */
  check(input: OwnershipCheckInput): Promise<Answer<{ checkedAt: Date }>>;
}

function limitMessage(
  reason: 'requester_daily_limit' | 'requester_host_failure_limit',
  limit: number,
  host: string,
): string {
  return reason === 'requester_daily_limit'
    ? `this network already asked for ${limit} token-file checks today (UTC); try again tomorrow`
    : `this network's last ${limit} checks of the token file of ${host} found no token today (UTC); try again tomorrow, or from the host owner's own network`;
}

/** Creates the checks over the day's counters and a token-file reader; `now` dates a successful check. */
export function createOwnershipChecks(
  counters: RateCounters,
  read: OwnerTokenFileReader,
  now: () => Date,
): OwnershipChecks {
  return {
    async check(input) {
      const quota = await counters.takeOwnershipCheck(input.requester, input.host);
      if (!quota.admitted) {
        return {
          ok: false,
          refusal: refuse(429, quota.reason, limitMessage(quota.reason, quota.limit, input.host), {
            limit: quota.limit,
          }),
        };
      }
      let result: { matches: boolean; detail: string | null };
      try {
        result = await read(input.origin, input.kind, input.token);
      } catch (error) {
        // A reader that throws is a bug, but the read was sent: it stays counted as a failure.
        await quota.reservation.settle(false);
        throw error;
      }
      await quota.reservation.settle(result.matches);
      if (!result.matches) {
        const where = `${input.origin}${ownerTokenPath(input.kind)}`;
        return {
          ok: false,
          refusal: refuse(403, 'token_not_found', `${where} does not hold the token (${result.detail ?? 'no detail'})`),
        };
      }
      return { ok: true, value: { checkedAt: now() } };
    },
  };
}
