// One ownership check: read an owner's token file once, within the day's limits. Shared by the opt-out form
// and owner verification (and every later owner change, which re-reads the file), so every read of a
// host's token file is limited and refused the same way.
import { refuse, type Answer } from '../http/errors.js';
import type { RateCounters } from './rate-counters.js';
import { ownerTokenPath, type OwnerTokenFileReader, type OwnerTokenKind } from './token.js';

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
   * Counts one check against the day's limits (a refusal reads nothing), then reads the token file once.
   * The read counts whether or not the file holds the token: it was sent either way.
   */
  check(input: OwnershipCheckInput): Promise<Answer<{ checkedAt: Date }>>;
}

/** Creates the checks over the day's counters and a token-file reader; `now` dates a successful check. */
export function createOwnershipChecks(counters: RateCounters, read: OwnerTokenFileReader, now: () => Date): OwnershipChecks {
  return {
    async check(input) {
      const quota = await counters.take('ownership', input.requester, input.host);
      if (!quota.admitted) {
        const message =
          quota.reason === 'requester_daily_limit'
            ? `this network already asked for ${quota.limit} token-file checks today (UTC); try again tomorrow`
            : `the token file of ${input.host} was already checked ${quota.limit} times today (UTC); try again tomorrow`;
        return { ok: false, refusal: refuse(429, quota.reason, message, { limit: quota.limit }) };
      }
      const result = await read(input.origin, input.kind, input.token);
      if (!result.matches) {
        const where = `${input.origin}${ownerTokenPath(input.kind)}`;
        return { ok: false, refusal: refuse(403, 'token_not_found', `${where} does not hold the token (${result.detail ?? 'no detail'})`) };
      }
      return { ok: true, value: { checkedAt: now() } };
    },
  };
}
