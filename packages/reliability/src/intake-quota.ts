/**
 * How many server submissions and ownership checks (reads of an owner's token file) one requester and one
 * host may cause per UTC day. Pure module: the caller counts, this module decides.
 *
 * The numbers are the project's own defaults (the source rules keep rate counters for 7 days but give no
 * limits): SUBMISSIONS_PER_REQUESTER_PER_DAY, SUBMISSIONS_PER_HOST_PER_DAY,
 * OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY and OWNERSHIP_CHECKS_PER_HOST_PER_DAY. A requester is a network,
 * named by reporterKey (IPv4 /24, IPv6 /48), never a user agent. The host limit protects the host: it
 * bounds what anyone can make us send it.
 */
import { describeValue, ReliabilityInputError } from './errors.js';
import {
  OWNERSHIP_CHECKS_PER_HOST_PER_DAY,
  OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY,
  SUBMISSIONS_PER_HOST_PER_DAY,
  SUBMISSIONS_PER_REQUESTER_PER_DAY,
} from './rules.js';
import { assertCount } from './validate.js';

/** What a requester and a host already used today (UTC), counting only what was admitted. */
export interface IntakeUsage {
  /** Admitted today from this requester. */
  requesterToday: number;
  /** Admitted today about this host, from anyone. */
  hostToday: number;
}

/** Whether one more may be admitted, and which limit refused it. */
export type IntakeQuotaDecision =
  | { admitted: true }
  | { admitted: false; reason: 'requester_daily_limit' | 'host_daily_limit'; limit: number };

function decide(usage: IntakeUsage, requesterLimit: number, hostLimit: number): IntakeQuotaDecision {
  if (typeof usage !== 'object' || usage === null) {
    throw new ReliabilityInputError('invalid_number', 'usage', `expected { requesterToday, hostToday }, received ${describeValue(usage)}`);
  }
  const requester = assertCount(usage.requesterToday, 'requesterToday');
  const host = assertCount(usage.hostToday, 'hostToday');
  if (requester >= requesterLimit) return { admitted: false, reason: 'requester_daily_limit', limit: requesterLimit };
  if (host >= hostLimit) return { admitted: false, reason: 'host_daily_limit', limit: hostLimit };
  return { admitted: true };
}

/**
 * Decides whether one more server submission may be taken: at most 10 new submissions per requester and
 * 3 per host name per UTC day. The requester limit is checked first. Repeating a submission that is
 * already pending or watched creates nothing and should not be counted.
 *
 * @example
 * checkSubmissionQuota({ requesterToday: 2, hostToday: 3 });
 * // { admitted: false, reason: 'host_daily_limit', limit: 3 }
 */
export function checkSubmissionQuota(usage: IntakeUsage): IntakeQuotaDecision {
  return decide(usage, SUBMISSIONS_PER_REQUESTER_PER_DAY, SUBMISSIONS_PER_HOST_PER_DAY);
}

/**
 * Decides whether one more ownership check (one read of an owner's token file, for verification, an
 * owner's change, or the opt-out form) may run: at most 20 per requester and 10 per host per UTC day.
 * The requester limit is checked first.
 *
 * @example
 * checkOwnershipCheckQuota({ requesterToday: 20, hostToday: 0 });
 * // { admitted: false, reason: 'requester_daily_limit', limit: 20 }
 */
export function checkOwnershipCheckQuota(usage: IntakeUsage): IntakeQuotaDecision {
  return decide(usage, OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY, OWNERSHIP_CHECKS_PER_HOST_PER_DAY);
}
