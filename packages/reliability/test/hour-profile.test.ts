import { describe, expect, it } from 'vitest';
import { ReliabilityInputError } from '../src/index.js';
import {
  createHourProfile,
  describeHourProfile,
  type HourResult,
  isHourSlotNews,
  recordHourResult,
  viewHourProfile,
} from '../src/live.js';

const hourly = (hours: number[], day = '2025-06-01'): HourResult[] =>
  hours.map((h) => ({ letter: 'o', at: `${day}T${String(h).padStart(2, '0')}:05:00Z` }));

describe('hour-of-day profile', () => {
  it('starts with 24 empty UTC hours', () => {
    const profile = createHourProfile();
    expect(profile).toHaveLength(24);
    expect(describeHourProfile(profile)).toMatchObject({ hoursWithResult: 0, shown: false });
  });

  it('is shown once 6 hours have a result, not at 5', () => {
    expect(viewHourProfile(hourly([0, 1, 2, 3, 4]))).toMatchObject({ hoursWithResult: 5, shown: false });
    expect(viewHourProfile(hourly([0, 1, 2, 3, 4, 23]))).toMatchObject({ hoursWithResult: 6, shown: true });
    expect(viewHourProfile(hourly([0, 1, 2, 3, 4, 5, 6]))).toMatchObject({ hoursWithResult: 7, shown: true });
  });

  it('counts one hour seen on several days once', () => {
    const results = [...hourly([1, 2, 3]), ...hourly([1, 2, 3], '2025-06-02')];
    expect(viewHourProfile(results)).toMatchObject({ hoursWithResult: 3, shown: false });
  });

  it('keeps the latest result at each hour, whatever the order', () => {
    const newer: HourResult = { letter: 'd', at: '2025-06-02T13:10:00Z' };
    const older: HourResult = { letter: 'o', at: '2025-06-01T13:50:00Z' };
    expect(viewHourProfile([older, newer]).hours[13]).toEqual({ letter: 'd', at: '2025-06-02T13:10:00.000Z' });
    expect(viewHourProfile([newer, older]).hours[13]).toEqual({ letter: 'd', at: '2025-06-02T13:10:00.000Z' });
  });

  it('places results by UTC hour, offsets included', () => {
    expect(recordHourResult(createHourProfile(), { letter: 'a', at: '2025-06-01T08:30:00+05:00' })[3]).toEqual({
      letter: 'a',
      at: '2025-06-01T03:30:00.000Z',
    });
  });

  it('does not change the profile it is given', () => {
    const profile = createHourProfile();
    recordHourResult(profile, { letter: 'o', at: new Date('2025-06-01T05:00:00Z') });
    expect(profile[5]).toBeNull();
  });

  it('throws on a result it cannot place', () => {
    expect(() => recordHourResult(createHourProfile(), { letter: 'n' as 'o', at: '2025-06-01T05:00:00Z' })).toThrow(
      /result\.letter/,
    );
    expect(() => recordHourResult(createHourProfile(), { letter: 'o', at: 'dawn' })).toThrow(/result\.at/);
    expect(() => recordHourResult([], { letter: 'o', at: '2025-06-01T05:00:00Z' })).toThrow(/24 slots/);
    expect(() => viewHourProfile('x' as unknown as HourResult[])).toThrow(ReliabilityInputError);
  });
});

describe('isHourSlotNews (when a kept profile must be written again)', () => {
  const slot = (letter: 'o' | 'd', at: string) => ({ letter, at });
  const first = slot('o', '2026-12-10T13:00:00.000Z');

  it('is news for a first result and for another letter', () => {
    expect(isHourSlotNews(null, first)).toBe(true);
    expect(isHourSlotNews(first, slot('d', '2026-12-10T13:35:00.000Z'))).toBe(true);
  });

  it('is not news for the same letter within the same clock hour, up to its last millisecond', () => {
    expect(isHourSlotNews(first, slot('o', '2026-12-10T13:35:00.000Z'))).toBe(false);
    expect(isHourSlotNews(first, slot('o', '2026-12-10T13:59:59.999Z'))).toBe(false);
  });

  it('is news for the same letter in the next clock hour, or the same hour of another day', () => {
    expect(isHourSlotNews(slot('o', '2026-12-10T13:59:59.999Z'), slot('o', '2026-12-10T14:00:00.000Z'))).toBe(true);
    expect(isHourSlotNews(first, slot('o', '2026-12-11T13:00:00.000Z'))).toBe(true);
  });

  it('is not news when nothing changed or no slot is left', () => {
    expect(isHourSlotNews(first, first)).toBe(false);
    expect(isHourSlotNews(first, null)).toBe(false);
    expect(isHourSlotNews(null, null)).toBe(false);
  });
});
