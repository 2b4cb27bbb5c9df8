import { SEAL_RULES } from '@mcp-atlas/history/rules';
import { describe, expect, it } from 'vitest';
import { isPeriodOver, isSealTime, isSearchEvalDue, nameHourSlot, namePeriodSlot } from '../src/index.js';
import { CHECK_SCHEDULE_RULES } from '../src/rules.js';

const FIVE_MINUTES = CHECK_SCHEDULE_RULES.fiveMinuteCheckPeriodMs;

describe('the check periods', () => {
  it('five-minute checks and the look for submitted servers both come every 5 minutes', () => {
    expect(CHECK_SCHEDULE_RULES.fiveMinuteCheckPeriodMs).toBe(300_000);
    expect(CHECK_SCHEDULE_RULES.submissionLookPeriodMs).toBe(300_000);
    expect(Object.isFrozen(CHECK_SCHEDULE_RULES)).toBe(true);
  });

  it('a period is over at its last run plus the period, not a millisecond before', () => {
    const last = Date.parse('2026-11-10T04:00:00Z');
    expect(isPeriodOver(new Date(last + FIVE_MINUTES - 1), last, FIVE_MINUTES)).toBe(false);
    expect(isPeriodOver(new Date(last + FIVE_MINUTES), last, FIVE_MINUTES)).toBe(true);
    expect(isPeriodOver(new Date(last + FIVE_MINUTES + 1), last, FIVE_MINUTES)).toBe(true);
  });

  it('a task that never ran is due at once', () => {
    expect(isPeriodOver(new Date('2026-11-10T04:00:00Z'), Number.NEGATIVE_INFINITY, FIVE_MINUTES)).toBe(true);
    // A last run of 0 (the epoch) is long past any real clock.
    expect(isPeriodOver(new Date('2026-11-10T04:00:00Z'), 0, FIVE_MINUTES)).toBe(true);
  });

  it('period slots change at each multiple of the period since the epoch', () => {
    const boundary = Date.parse('2026-11-10T04:05:00Z');
    expect(boundary % FIVE_MINUTES).toBe(0);
    const before = namePeriodSlot(new Date(boundary - 1), FIVE_MINUTES);
    expect(namePeriodSlot(new Date(boundary), FIVE_MINUTES)).toBe(String(Number(before) + 1));
    expect(namePeriodSlot(new Date(boundary + FIVE_MINUTES - 1), FIVE_MINUTES)).toBe(String(Number(before) + 1));
    expect(namePeriodSlot(new Date(boundary), FIVE_MINUTES)).toBe(String(boundary / FIVE_MINUTES));
  });

  it('the hour slot is the UTC hour, whatever the offset it was written with', () => {
    expect(nameHourSlot(new Date('2026-11-10T04:59:59.999Z'))).toBe('2026-11-10T04');
    expect(nameHourSlot(new Date('2026-11-10T05:00:00Z'))).toBe('2026-11-10T05');
    expect(nameHourSlot(new Date('2026-11-10T07:00:00+02:00'))).toBe('2026-11-10T05');
    expect(nameHourSlot(new Date('2026-11-10T23:59:59.999Z'))).toBe('2026-11-10T23');
    expect(nameHourSlot(new Date('2026-11-11T00:00:00Z'))).toBe('2026-11-11T00');
  });
});

describe('the seal time', () => {
  it('is the history package’s 01:05 UTC', () => {
    expect(SEAL_RULES.sealTimeUtc).toEqual({ hour: 1, minute: 5 });
  });

  it('starts at 01:05:00.000 UTC and lasts to the end of the day', () => {
    expect(isSealTime(new Date('2026-11-10T00:00:00Z'))).toBe(false);
    expect(isSealTime(new Date('2026-11-10T01:04:59.999Z'))).toBe(false);
    expect(isSealTime(new Date('2026-11-10T01:05:00Z'))).toBe(true);
    expect(isSealTime(new Date('2026-11-10T01:06:00Z'))).toBe(true);
    expect(isSealTime(new Date('2026-11-10T23:59:59.999Z'))).toBe(true);
    expect(isSealTime(new Date('2026-11-11T00:00:00Z'))).toBe(false);
  });

  it('reads the UTC time, not the offset it was written with', () => {
    expect(isSealTime(new Date('2026-11-10T03:04:59+02:00'))).toBe(false);
    expect(isSealTime(new Date('2026-11-10T03:05:00+02:00'))).toBe(true);
  });
});

describe('the monthly search evaluation', () => {
  const scheduled = (date: string) => ({ source: 'schedule', date });

  it('runs on the 1st of the month (UTC), all day, and on no other day', () => {
    expect(CHECK_SCHEDULE_RULES.searchEvalDayOfMonth).toBe(1);
    expect(isSearchEvalDue(new Date('2026-11-30T23:59:59.999Z'), { runs: [] })).toBe(false);
    expect(isSearchEvalDue(new Date('2026-12-01T00:00:00Z'), { runs: [] })).toBe(true);
    expect(isSearchEvalDue(new Date('2026-12-01T23:59:59.999Z'), { runs: [] })).toBe(true);
    expect(isSearchEvalDue(new Date('2026-12-02T00:00:00Z'), { runs: [] })).toBe(false);
    // The 1st in UTC, not in the offset the time was written with.
    expect(isSearchEvalDue(new Date('2026-12-01T01:00:00+02:00'), { runs: [] })).toBe(false);
  });

  it('once per month: a scheduled run of the same month stops it, a run by hand or of another month does not', () => {
    const now = new Date('2026-12-01T10:00:00Z');
    expect(isSearchEvalDue(now, { runs: [scheduled('2026-12-01T00:10:00.000Z')] })).toBe(false);
    expect(isSearchEvalDue(now, { runs: [{ source: 'command', date: '2026-12-01T00:10:00.000Z' }] })).toBe(true);
    expect(isSearchEvalDue(now, { runs: [scheduled('2026-11-01T00:10:00.000Z')] })).toBe(true);
    expect(isSearchEvalDue(new Date('2027-01-01T00:00:00Z'), { runs: [scheduled('2026-12-01T00:10:00.000Z')] })).toBe(
      true,
    );
  });
});
