import { describe, expect, test } from 'vitest';
import { OLDER_PROTOCOL_BEFORE } from '../src/constants.js';
import { isOlderProtocol, parseProtocolDate } from '../src/index.js';

describe('isOlderProtocol compares versions as dates against 2025-03-26', () => {
  test('the cut-off is 2025-03-26', () => {
    expect(OLDER_PROTOCOL_BEFORE).toBe('2025-03-26');
  });

  test.each([
    ['2025-03-25', true], // the day before the cut-off
    ['2025-03-26', false], // the cut-off itself is current
    ['2025-03-27', false],
    ['2024-11-05', true],
    ['2024-10-07', true],
    ['2025-02-28', true],
    ['2024-12-31', true],
    ['2025-06-18', false],
    ['2025-11-25', false],
    ['0001-01-01', true],
    ['9999-12-31', false],
  ])('%s older: %s', (version, older) => {
    expect(isOlderProtocol(version)).toBe(older);
  });

  test.each([
    'draft',
    '',
    '2024-11-5',
    '2024-1-05',
    '24-11-05',
    ' 2024-11-05',
    '2024-11-05 ',
    '2024-11-05T00:00:00Z',
    '2024/11/05',
    '20241105',
    '2024-13-01',
    '2024-00-10',
    '2024-04-31',
    '2023-02-29',
    '2024-02-30',
    '2024-11-00',
    '２０２４-１１-０５',
  ])('"%s" is not a date, so never older', (version) => {
    expect(isOlderProtocol(version)).toBe(false);
  });

  test('values that are not strings are never older and never throw', () => {
    for (const version of [null, undefined, 20241105, {}, [], true]) expect(isOlderProtocol(version)).toBe(false);
  });
});

describe('parseProtocolDate', () => {
  test('reads a date as the number yyyymmdd', () => {
    expect(parseProtocolDate('2025-03-26')).toBe(20250326);
    expect(parseProtocolDate('2024-11-05')).toBe(20241105);
  });

  test('knows leap years: 29 February exists in 2024 and 2000, not in 2023 or 1900', () => {
    expect(parseProtocolDate('2024-02-29')).toBe(20240229);
    expect(parseProtocolDate('2000-02-29')).toBe(20000229);
    expect(parseProtocolDate('2023-02-29')).toBeNull();
    expect(parseProtocolDate('1900-02-29')).toBeNull();
  });

  test('accepts the last day of each month and refuses the day after', () => {
    const lastDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    lastDays.forEach((last, i) => {
      const month = String(i + 1).padStart(2, '0');
      expect(parseProtocolDate(`2025-${month}-${last}`)).toBe(20250000 + (i + 1) * 100 + last);
      expect(parseProtocolDate(`2025-${month}-${last + 1}`)).toBeNull();
    });
  });
});
