import { describe, expect, it } from 'vitest';
import type { ServerDayResult } from '../src/data/schemas.js';
import { shownStatusFromRecords } from '../src/view/build-view.js';

const daily = (letter: ServerDayResult['letter'], notStandardMcp = false) =>
  ({ letter, notStandardMcp }) as ServerDayResult;
const hour = (letter: 'o' | 'a' | 'p' | 'd', at: string, notMcp = false) => ({
  letter,
  reason: 'x',
  notMcp,
  httpStatus: null,
  at,
});

describe('what a server page shows', () => {
  it('shows the daily check as it is when no hourly check came after it', () => {
    expect(shownStatusFromRecords(daily('d'), '2026-11-30', undefined)).toMatchObject({
      state: 'down',
      heldBack: false,
    });
    expect(shownStatusFromRecords(daily('o'), '2026-11-30', undefined).state).toBe('answering');
  });
  it('holds back a single failed hourly check and shows the check before it', () => {
    const hourly = { ...hour('d', '2026-11-30T05:00:00Z'), previous: hour('o', '2026-11-30T04:00:00Z') };
    expect(shownStatusFromRecords(daily('o'), '2026-11-30', hourly)).toMatchObject({
      state: 'answering',
      heldBack: true,
      failuresInARow: 1,
    });
  });
  it('falls back to the daily check when the first hourly check fails', () => {
    const hourly = { ...hour('d', '2026-11-30T05:00:00Z'), previous: null };
    expect(shownStatusFromRecords(daily('a'), '2026-11-30', hourly)).toMatchObject({
      state: 'sign_in',
      heldBack: true,
    });
  });
  it('shows down from the second failed hourly check in a row', () => {
    const hourly = { ...hour('d', '2026-11-30T05:00:00Z'), previous: hour('d', '2026-11-30T04:00:00Z') };
    expect(shownStatusFromRecords(daily('o'), '2026-11-30', hourly)).toMatchObject({ state: 'down', heldBack: false });
  });
  it('ignores hourly checks older than the newest daily check', () => {
    const hourly = { ...hour('d', '2026-11-29T23:00:00Z'), previous: hour('d', '2026-11-29T22:00:00Z') };
    expect(shownStatusFromRecords(daily('o'), '2026-11-30', hourly).state).toBe('answering');
  });
  it('turns down from the second failed five-minute check in a row, and holds back the first', () => {
    const first = [hour('d', '2026-11-30T05:05:00Z')];
    expect(shownStatusFromRecords(daily('o'), '2026-11-30', undefined, first)).toMatchObject({
      state: 'answering',
      heldBack: true,
      failuresInARow: 1,
    });
    const second = [...first, hour('d', '2026-11-30T05:10:00Z')];
    expect(shownStatusFromRecords(daily('o'), '2026-11-30', undefined, second)).toMatchObject({
      state: 'down',
      heldBack: false,
      failuresInARow: 2,
    });
  });
  it('reads hourly and five-minute checks as one run, in time order', () => {
    const hourly = { ...hour('d', '2026-11-30T05:00:00Z'), previous: hour('o', '2026-11-30T04:00:00Z') };
    expect(shownStatusFromRecords(daily('o'), '2026-11-30', hourly, [hour('d', '2026-11-30T05:02:00Z')]).state).toBe(
      'down',
    );
    expect(shownStatusFromRecords(daily('o'), '2026-11-30', hourly, [hour('o', '2026-11-30T05:02:00Z')]).state).toBe(
      'answering',
    );
  });
  it('ignores checks made before a dated daily check ran', () => {
    const dated = { ...daily('o'), checkedAt: '2026-11-30T06:00:00.000Z' } as ServerDayResult;
    const hourly = { ...hour('d', '2026-11-30T05:00:00Z'), previous: hour('d', '2026-11-30T04:00:00Z') };
    expect(shownStatusFromRecords(dated, '2026-11-30', hourly).state).toBe('answering');
  });
  it('shows a non-standard answer as such, not as down', () => {
    expect(shownStatusFromRecords(daily('d', true), '2026-11-30', undefined).state).toBe('non_standard');
  });
});
