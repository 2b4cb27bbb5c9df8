/**
 * How many server submissions and ownership checks (reads of an owner's token file) one requester and one
 * host may cause per UTC day. Pure module: the caller counts, this module decides.
 *
 * The numbers are the project's own defaults (the source rules keep rate counters for 7 days but give no
 * limits): SUBMISSIONS_PER_REQUESTER_PER_DAY, SUBMISSIONS_PER_HOST_PER_DAY,
 * OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY and OWNERSHIP_CHECKS_PER_HOST_PER_DAY. A requester is a network,
 * named by @mcp-atlas/reliability's reporterKey (IPv4 /24, IPv6 /48), never a user agent. The host limit
 * protects the host: it bounds what anyone can make us send it.
 */

import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { assertCount, describeValue } from './validate.js';

/** New submissions one requester (a network, as reporterKey names it) may make per UTC day. */
export const SUBMISSIONS_PER_REQUESTER_PER_DAY = 10;

/** New submissions of URLs on one host name per UTC day, whoever sends them. */
export const SUBMISSIONS_PER_HOST_PER_DAY = 3;

/** Reads of an owner's token file one requester may cause per UTC day (verify, owner changes, opt-out). */
export const OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY = 20;

/**
 * Reads of one host's token file per UTC day from all networks together, as counted only by the deprecated
 * checkOwnershipCheckQuota. The current rules never refuse a read on a host-wide count (a stranger could
 * spend it and lock the owner out): decideOwnershipCheck limits each network's own reads and failed reads,
 * and chargeOwnershipFailure uses the host's failures from everyone (OWNERSHIP_FAILURES_PER_HOST_PER_DAY,
 * the same 10) only to make further failures cost a network all its remaining tries.
 */
export const OWNERSHIP_CHECKS_PER_HOST_PER_DAY = 10;

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
    throw new ReliabilityInputError(
      'invalid-number',
      'usage',
      `expected { requesterToday, hostToday }, received ${describeValue(usage)}`,
    );
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
 *
 * @deprecated Its host limit counts every read from anyone, so strangers can spend a host's allowance and
 * lock its owner out. Use decideOwnershipCheck and chargeOwnershipFailure, which count failures per network.
 */
export function checkOwnershipCheckQuota(usage: IntakeUsage): IntakeQuotaDecision {
  return decide(usage, OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY, OWNERSHIP_CHECKS_PER_HOST_PER_DAY);
}

// ---------------------------------------------------------------------------------------------------------
// Who-counts-what, so that a stranger cannot spend an owner's chances.
//
// The host-wide counters above do not care who asks: ten failed token-file reads from anyone would lock a
// host's real owner out until midnight, and three junk submissions on a host would block its owner's own.
// The rules below keep each network's spending to itself: a network's failures on a host are counted for
// that network, a read that finds the token is never refused by anyone else's failures, and an owner who
// proves control of a host is not held back by the host's submission count.
// ---------------------------------------------------------------------------------------------------------

/**
 * Failed token-file reads of one host that one requester network may cause per UTC day (our default): room
 * for an owner's mistakes (the file not yet uploaded, a typo, a stale cache), and no more. Once a network
 * reaches it, it is refused for that host until the next UTC day without a read. Other networks, the
 * owner's among them, keep their own allowance.
 */
export const OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY = 3;

/**
 * Failed token-file reads of one host per UTC day from all networks together (our default, the number the
 * older host-wide limit used). It never refuses a read by itself: once a host has this many failures, a
 * failing read spends all of the failing network's remaining tries on that host ("one strike"), so each
 * further network can cost the host at most one more failed read, while a network that has tries left (the
 * owner's) is still read, and a read that finds the token still succeeds.
 */
export const OWNERSHIP_FAILURES_PER_HOST_PER_DAY = 10;

/** What is known today (UTC) about one requester network and one host, before one more token-file read. */
export interface OwnershipCheckUsage {
  /** Reads this network caused today, of any host, whatever they found (and reads in flight). */
  requesterToday: number;
  /** Failed reads of this host this network caused today (reads in flight count as failed until they end). */
  requesterHostFailuresToday: number;
  /** Failed reads of this host from all networks today (reads in flight count as failed until they end). */
  hostFailuresToday: number;
}

/** Whether one more token-file read may run, and which of the requester's own limits refused it. */
export type OwnershipCheckDecision =
  | { admitted: true }
  | { admitted: false; reason: 'requester_daily_limit' | 'requester_host_failure_limit'; limit: number };

function assertOwnershipUsage(usage: OwnershipCheckUsage): OwnershipCheckUsage {
  if (typeof usage !== 'object' || usage === null) {
    throw new ReliabilityInputError(
      'invalid-number',
      'usage',
      `expected { requesterToday, requesterHostFailuresToday, hostFailuresToday }, received ${describeValue(usage)}`,
    );
  }
  return {
    requesterToday: assertCount(usage.requesterToday, 'requesterToday'),
    requesterHostFailuresToday: assertCount(usage.requesterHostFailuresToday, 'requesterHostFailuresToday'),
    hostFailuresToday: assertCount(usage.hostFailuresToday, 'hostFailuresToday'),
  };
}

/**
 * Decides whether one more read of a host's token file may run for a requester network. Only the
 * network's own spending can refuse it: its 20 reads a day (OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY), then
 * its 3 failed reads of this host (OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY). The host's failures
 * from other networks never refuse a read, so a stranger cannot lock an owner out; they only make the
 * next failure more costly (see chargeOwnershipFailure). Checked in that order.
 *
 * @example
 * decideOwnershipCheck({ requesterToday: 0, requesterHostFailuresToday: 0, hostFailuresToday: 40 });
 * // { admitted: true }: strangers' failures do not stop the owner's read
 * decideOwnershipCheck({ requesterToday: 3, requesterHostFailuresToday: 3, hostFailuresToday: 3 });
 * // { admitted: false, reason: 'requester_host_failure_limit', limit: 3 }
 */
export function decideOwnershipCheck(usage: OwnershipCheckUsage): OwnershipCheckDecision {
  const checked = assertOwnershipUsage(usage);
  if (checked.requesterToday >= OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY) {
    return { admitted: false, reason: 'requester_daily_limit', limit: OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY };
  }
  if (checked.requesterHostFailuresToday >= OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY) {
    return {
      admitted: false,
      reason: 'requester_host_failure_limit',
      limit: OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY,
    };
  }
  return { admitted: true };
}

/** The requester's and the host's failure counts after one failed read. */
export interface OwnershipFailureCharge {
  requesterHostFailures: number;
  hostFailures: number;
}

/**
 * The counts after one failed read of a host's token file (the usage is what decideOwnershipCheck saw).
 * The host gains one failure. The network gains one, unless the host already had
 * OWNERSHIP_FAILURES_PER_HOST_PER_DAY failures: then the network's failures on that host jump to
 * OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY, which spends its remaining tries ("one strike").
 *
 * @example
 * chargeOwnershipFailure({ requesterToday: 1, requesterHostFailuresToday: 0, hostFailuresToday: 9 });
 * // { requesterHostFailures: 1, hostFailures: 10 }
 * chargeOwnershipFailure({ requesterToday: 1, requesterHostFailuresToday: 0, hostFailuresToday: 10 });
 * // { requesterHostFailures: 3, hostFailures: 11 }
 */
export function chargeOwnershipFailure(usage: OwnershipCheckUsage): OwnershipFailureCharge {
  const checked = assertOwnershipUsage(usage);
  const hostFull = checked.hostFailuresToday >= OWNERSHIP_FAILURES_PER_HOST_PER_DAY;
  const requesterHostFailures = hostFull
    ? Math.max(checked.requesterHostFailuresToday + 1, OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY)
    : checked.requesterHostFailuresToday + 1;
  return { requesterHostFailures, hostFailures: checked.hostFailuresToday + 1 };
}

/** What a requester network and a host already used today (UTC), and whether the requester proved control of the host. */
export interface SubmissionUsage extends IntakeUsage {
  /**
   * True when this request read the host's token file (an ownership check, under its own limits) and found
   * the token: the requester controls the host, so strangers' submissions on it do not count against it.
   */
  provenOwner: boolean;
}

/**
 * Decides whether one more new submission may be taken: at most SUBMISSIONS_PER_REQUESTER_PER_DAY (10) per
 * requester network, always, and SUBMISSIONS_PER_HOST_PER_DAY (3) per host, unless the requester proved
 * control of the host. The host limit exists so strangers cannot make us observe many URLs of a host that
 * did not ask; it must not let them block the host's owner, who can lift it by proving control. The
 * requester limit is checked first.
 *
 * @example
 * decideSubmission({ requesterToday: 0, hostToday: 3, provenOwner: false });
 * // { admitted: false, reason: 'host_daily_limit', limit: 3 }
 * decideSubmission({ requesterToday: 0, hostToday: 3, provenOwner: true });
 * // { admitted: true }
 */
export function decideSubmission(usage: SubmissionUsage): IntakeQuotaDecision {
  if (typeof usage !== 'object' || usage === null || typeof usage.provenOwner !== 'boolean') {
    throw new ReliabilityInputError(
      'invalid-number',
      'usage',
      `expected { requesterToday, hostToday, provenOwner }, received ${describeValue(usage)}`,
    );
  }
  const decision = checkSubmissionQuota(usage);
  if (!decision.admitted && decision.reason === 'host_daily_limit' && usage.provenOwner) return { admitted: true };
  return decision;
}
