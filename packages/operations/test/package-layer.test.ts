import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import { isAtOrAfterTimeOfDay, isOsvCheckDue, packageLayerDays } from '../src/index.js';
import { OSV_RETRY_HOURS, PACKAGE_LAYER_LOOKBACK_DAYS, PACKAGES_PER_SERVER_MAX } from '../src/package-layer.js';
import { SUBMISSION_EARLIER_ATTEMPTS_KEPT } from '../src/submission.js';

const OSV_TIME = { hour: 4, minute: 5 };

describe('the OSV check: from its time of day, retried an hour after a failure', () => {
  it('is due from the time of day on, never before', () => {
    expect(isAtOrAfterTimeOfDay(new Date('2026-11-10T04:04:59.999Z'), OSV_TIME)).toBe(false);
    expect(isAtOrAfterTimeOfDay(new Date('2026-11-10T04:05:00Z'), OSV_TIME)).toBe(true);
    expect(isAtOrAfterTimeOfDay(new Date('2026-11-10T23:59:59Z'), OSV_TIME)).toBe(true);
    expect(isOsvCheckDue(new Date('2026-11-10T00:00:00Z'), OSV_TIME, null)).toBe(false);
    expect(isOsvCheckDue(new Date('2026-11-10T04:04:00Z'), OSV_TIME, null)).toBe(false);
    expect(isOsvCheckDue(new Date('2026-11-10T04:05:00Z'), OSV_TIME, null)).toBe(true);
    expect(isOsvCheckDue(new Date('2026-11-10T06:05:00+02:00'), OSV_TIME, null)).toBe(true);
  });

  it(`after a failure, waits ${OSV_RETRY_HOURS} hour (59 minutes: no; 60 and 61: yes); after a success, never`, () => {
    expect(OSV_RETRY_HOURS).toBe(1);
    const failed = { ok: false, checkedAt: '2026-11-10T04:05:30Z' };
    expect(isOsvCheckDue(new Date('2026-11-10T05:04:30Z'), OSV_TIME, failed)).toBe(false);
    expect(isOsvCheckDue(new Date('2026-11-10T05:05:29.999Z'), OSV_TIME, failed)).toBe(false);
    expect(isOsvCheckDue(new Date('2026-11-10T05:05:30Z'), OSV_TIME, failed)).toBe(true);
    expect(isOsvCheckDue(new Date('2026-11-10T05:06:30Z'), OSV_TIME, failed)).toBe(true);
    expect(
      isOsvCheckDue(new Date('2026-11-10T23:00:00Z'), OSV_TIME, { ok: true, checkedAt: '2026-11-10T04:05:30Z' }),
    ).toBe(false);
  });

  it('refuses a bad time of day or a bad last check time', () => {
    expect(() => isOsvCheckDue(new Date('2026-11-10T05:00:00Z'), { hour: 24, minute: 0 }, null)).toThrow(
      /checkTimeUtc/,
    );
    expect(() =>
      isOsvCheckDue(new Date('2026-11-10T05:00:00Z'), OSV_TIME, { ok: false, checkedAt: 'yesterday' }),
    ).toThrow(/checkedAt/);
  });
});

describe('the package layer shown: today and the 7 days before', () => {
  it('lists 8 days, newest first, across a month end', () => {
    expect(PACKAGE_LAYER_LOOKBACK_DAYS).toBe(7);
    expect(packageLayerDays('2026-12-03')).toEqual([
      '2026-12-03',
      '2026-12-02',
      '2026-12-01',
      '2026-11-30',
      '2026-11-29',
      '2026-11-28',
      '2026-11-27',
      '2026-11-26',
    ]);
    expect(() => packageLayerDays('03-12-2026')).toThrow(ReliabilityInputError);
  });
});

describe('counts of the outside layer and the submission records', () => {
  it('keep 10 packages per registry entry and 10 earlier attempts per submitted URL', () => {
    expect(PACKAGES_PER_SERVER_MAX).toBe(10);
    expect(SUBMISSION_EARLIER_ATTEMPTS_KEPT).toBe(10);
  });
});
