import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import {
  chargeOwnershipFailure,
  decideOwnershipCheck,
  decideSubmission,
  type IntakeUsage,
  type OwnershipCheckUsage,
  type SubmissionUsage,
} from '../src/index.js';
import {
  checkOwnershipCheckQuota,
  checkSubmissionQuota,
  OWNERSHIP_CHECKS_PER_HOST_PER_DAY,
  OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY,
  OWNERSHIP_FAILURES_PER_HOST_PER_DAY,
  OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY,
  SUBMISSIONS_PER_HOST_PER_DAY,
  SUBMISSIONS_PER_REQUESTER_PER_DAY,
} from '../src/intake-quota.js';

describe('the intake limits', () => {
  it('are our published defaults', () => {
    expect([SUBMISSIONS_PER_REQUESTER_PER_DAY, SUBMISSIONS_PER_HOST_PER_DAY]).toEqual([10, 3]);
    expect([OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY, OWNERSHIP_CHECKS_PER_HOST_PER_DAY]).toEqual([20, 10]);
  });
});

describe('checkSubmissionQuota', () => {
  it('takes the 10th submission of a requester and the 3rd of a host', () => {
    expect(checkSubmissionQuota({ requesterToday: 0, hostToday: 0 })).toEqual({ admitted: true });
    expect(checkSubmissionQuota({ requesterToday: 9, hostToday: 2 })).toEqual({ admitted: true });
  });

  it('refuses the 11th of a requester and the 4th of a host', () => {
    expect(checkSubmissionQuota({ requesterToday: 10, hostToday: 0 })).toEqual({
      admitted: false,
      reason: 'requester_daily_limit',
      limit: 10,
    });
    expect(checkSubmissionQuota({ requesterToday: 0, hostToday: 3 })).toEqual({
      admitted: false,
      reason: 'host_daily_limit',
      limit: 3,
    });
  });

  it('names the requester limit first when both are reached', () => {
    expect(checkSubmissionQuota({ requesterToday: 10, hostToday: 3 })).toMatchObject({
      reason: 'requester_daily_limit',
    });
  });
});

describe('checkOwnershipCheckQuota', () => {
  it('takes the 20th check of a requester and the 10th of a host', () => {
    expect(checkOwnershipCheckQuota({ requesterToday: 19, hostToday: 9 })).toEqual({ admitted: true });
  });

  it('refuses the 21st of a requester and the 11th of a host', () => {
    expect(checkOwnershipCheckQuota({ requesterToday: 20, hostToday: 0 })).toEqual({
      admitted: false,
      reason: 'requester_daily_limit',
      limit: 20,
    });
    expect(checkOwnershipCheckQuota({ requesterToday: 0, hostToday: 10 })).toEqual({
      admitted: false,
      reason: 'host_daily_limit',
      limit: 10,
    });
    expect(checkOwnershipCheckQuota({ requesterToday: 20, hostToday: 10 })).toMatchObject({
      reason: 'requester_daily_limit',
    });
  });
});

describe('bad usage', () => {
  it('throws on counts that are not whole numbers, naming the field', () => {
    expect(() => checkSubmissionQuota({ requesterToday: -1, hostToday: 0 })).toThrow(/requesterToday/);
    expect(() => checkOwnershipCheckQuota({ requesterToday: 0, hostToday: 1.5 })).toThrow(/hostToday/);
    expect(() => checkSubmissionQuota(null as unknown as IntakeUsage)).toThrow(ReliabilityInputError);
    expect(() => checkSubmissionQuota(null as unknown as IntakeUsage)).toThrow(
      /usage: expected \{ requesterToday, hostToday \}/,
    );
  });
});

// A stranger's network must not spend an owner's chances. Hand-computed cases at and around
// every limit: 20 reads a network a day, 3 failures a network a host, 10 failures a host, 3 submissions a host.
describe('decideOwnershipCheck', () => {
  const usage = (requesterToday: number, requesterHostFailuresToday: number, hostFailuresToday: number) => ({
    requesterToday,
    requesterHostFailuresToday,
    hostFailuresToday,
  });

  it('are our published defaults', () => {
    expect(OWNERSHIP_FAILURES_PER_REQUESTER_PER_HOST_PER_DAY).toBe(3);
    expect(OWNERSHIP_FAILURES_PER_HOST_PER_DAY).toBe(10);
  });

  it("takes a network's 20th read and refuses its 21st", () => {
    expect(decideOwnershipCheck(usage(19, 0, 0))).toEqual({ admitted: true });
    expect(decideOwnershipCheck(usage(20, 0, 0))).toEqual({
      admitted: false,
      reason: 'requester_daily_limit',
      limit: 20,
    });
    expect(decideOwnershipCheck(usage(21, 0, 0))).toMatchObject({ reason: 'requester_daily_limit' });
  });

  it('reads for a network with 2 failures on the host and refuses one with 3', () => {
    expect(decideOwnershipCheck(usage(2, 2, 2))).toEqual({ admitted: true });
    expect(decideOwnershipCheck(usage(3, 3, 3))).toEqual({
      admitted: false,
      reason: 'requester_host_failure_limit',
      limit: 3,
    });
    expect(decideOwnershipCheck(usage(4, 4, 4))).toMatchObject({ reason: 'requester_host_failure_limit' });
  });

  it("never refuses a network because of other networks' failures on the host, at, below or far above 10", () => {
    for (const hostFailures of [9, 10, 11, 1000])
      expect(decideOwnershipCheck(usage(0, 0, hostFailures))).toEqual({ admitted: true });
    expect(decideOwnershipCheck(usage(2, 2, 50))).toEqual({ admitted: true });
  });

  it('names the daily limit first when both of the network limits are reached', () => {
    expect(decideOwnershipCheck(usage(20, 3, 10))).toMatchObject({ reason: 'requester_daily_limit' });
  });

  it('throws on counts that are not whole numbers, naming the field', () => {
    expect(() => decideOwnershipCheck(usage(0, -1, 0))).toThrow(/requesterHostFailuresToday/);
    expect(() => decideOwnershipCheck(usage(0, 0, 0.5))).toThrow(/hostFailuresToday/);
    expect(() => decideOwnershipCheck(null as unknown as OwnershipCheckUsage)).toThrow(ReliabilityInputError);
  });
});

describe('chargeOwnershipFailure', () => {
  it('adds one failure to the network and the host while the host has fewer than 10', () => {
    expect(chargeOwnershipFailure({ requesterToday: 1, requesterHostFailuresToday: 0, hostFailuresToday: 0 })).toEqual({
      requesterHostFailures: 1,
      hostFailures: 1,
    });
    expect(chargeOwnershipFailure({ requesterToday: 5, requesterHostFailuresToday: 2, hostFailuresToday: 9 })).toEqual({
      requesterHostFailures: 3,
      hostFailures: 10,
    });
  });

  it("spends all of a network's tries on a host that already has 10 failures (one strike)", () => {
    expect(chargeOwnershipFailure({ requesterToday: 1, requesterHostFailuresToday: 0, hostFailuresToday: 10 })).toEqual(
      { requesterHostFailures: 3, hostFailures: 11 },
    );
    expect(chargeOwnershipFailure({ requesterToday: 1, requesterHostFailuresToday: 2, hostFailuresToday: 11 })).toEqual(
      { requesterHostFailures: 3, hostFailures: 12 },
    );
  });

  it('bounds what strangers can make a host receive: at most one failed read per extra network once it has 10', () => {
    let hostFailures = 0;
    let reads = 0;
    for (let network = 0; network < 50; network++) {
      let mine = 0;
      for (let attempt = 0; attempt < 30; attempt++) {
        const usage = { requesterToday: attempt, requesterHostFailuresToday: mine, hostFailuresToday: hostFailures };
        if (!decideOwnershipCheck(usage).admitted) break;
        reads++;
        ({ requesterHostFailures: mine, hostFailures } = chargeOwnershipFailure(usage));
      }
    }
    // Networks 1 to 3 spend 3 each (host at 9); network 4 fails once (the 10th) and once more on the full host,
    // which spends its last try; each of the other 46 networks gets exactly one read.
    expect(reads).toBe(3 + 3 + 3 + 2 + 46);
    expect(hostFailures).toBe(reads);
  });
});

describe('decideSubmission', () => {
  it('takes the 3rd submission on a host and refuses the 4th from anyone who has not proved control', () => {
    expect(decideSubmission({ requesterToday: 0, hostToday: 2, provenOwner: false })).toEqual({ admitted: true });
    expect(decideSubmission({ requesterToday: 0, hostToday: 3, provenOwner: false })).toEqual({
      admitted: false,
      reason: 'host_daily_limit',
      limit: 3,
    });
  });

  it('lets a proven owner past the host limit, at 3 and far above it', () => {
    expect(decideSubmission({ requesterToday: 0, hostToday: 3, provenOwner: true })).toEqual({ admitted: true });
    expect(decideSubmission({ requesterToday: 9, hostToday: 40, provenOwner: true })).toEqual({ admitted: true });
  });

  it("keeps the requester's own limit for a proven owner: the 10th is taken, the 11th refused", () => {
    expect(decideSubmission({ requesterToday: 9, hostToday: 0, provenOwner: true })).toEqual({ admitted: true });
    expect(decideSubmission({ requesterToday: 10, hostToday: 0, provenOwner: true })).toEqual({
      admitted: false,
      reason: 'requester_daily_limit',
      limit: 10,
    });
    expect(decideSubmission({ requesterToday: 10, hostToday: 3, provenOwner: true })).toMatchObject({
      reason: 'requester_daily_limit',
    });
  });

  it('throws without a provenOwner flag', () => {
    expect(() => decideSubmission({ requesterToday: 0, hostToday: 0 } as SubmissionUsage)).toThrow(/provenOwner/);
  });
});
