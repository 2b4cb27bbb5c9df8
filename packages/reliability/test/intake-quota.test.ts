import { describe, expect, it } from 'vitest';
import {
  checkOwnershipCheckQuota,
  checkSubmissionQuota,
  OWNERSHIP_CHECKS_PER_HOST_PER_DAY,
  OWNERSHIP_CHECKS_PER_REQUESTER_PER_DAY,
  ReliabilityInputError,
  SUBMISSIONS_PER_HOST_PER_DAY,
  SUBMISSIONS_PER_REQUESTER_PER_DAY,
  type IntakeUsage,
} from '../src/index.js';

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
    expect(checkSubmissionQuota({ requesterToday: 10, hostToday: 0 })).toEqual({ admitted: false, reason: 'requester_daily_limit', limit: 10 });
    expect(checkSubmissionQuota({ requesterToday: 0, hostToday: 3 })).toEqual({ admitted: false, reason: 'host_daily_limit', limit: 3 });
  });

  it('names the requester limit first when both are reached', () => {
    expect(checkSubmissionQuota({ requesterToday: 10, hostToday: 3 })).toMatchObject({ reason: 'requester_daily_limit' });
  });
});

describe('checkOwnershipCheckQuota', () => {
  it('takes the 20th check of a requester and the 10th of a host', () => {
    expect(checkOwnershipCheckQuota({ requesterToday: 19, hostToday: 9 })).toEqual({ admitted: true });
  });

  it('refuses the 21st of a requester and the 11th of a host', () => {
    expect(checkOwnershipCheckQuota({ requesterToday: 20, hostToday: 0 })).toEqual({ admitted: false, reason: 'requester_daily_limit', limit: 20 });
    expect(checkOwnershipCheckQuota({ requesterToday: 0, hostToday: 10 })).toEqual({ admitted: false, reason: 'host_daily_limit', limit: 10 });
    expect(checkOwnershipCheckQuota({ requesterToday: 20, hostToday: 10 })).toMatchObject({ reason: 'requester_daily_limit' });
  });
});

describe('bad usage', () => {
  it('throws on counts that are not whole numbers, naming the field', () => {
    expect(() => checkSubmissionQuota({ requesterToday: -1, hostToday: 0 })).toThrow(/requesterToday/);
    expect(() => checkOwnershipCheckQuota({ requesterToday: 0, hostToday: 1.5 })).toThrow(/hostToday/);
    expect(() => checkSubmissionQuota(null as unknown as IntakeUsage)).toThrow(ReliabilityInputError);
    expect(() => checkSubmissionQuota(null as unknown as IntakeUsage)).toThrow(/usage: expected \{ requesterToday, hostToday \}/);
  });
});
