import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../src/retry-after.js';

const NOW = Date.parse('2026-10-21T07:27:00Z');

describe('parseRetryAfter', () => {
  it('reads a delay in seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('1', NOW)).toBe(1000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
  });

  it('reads an HTTP date as the time left until it, and a date already past as no wait', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:27:01 GMT', NOW)).toBe(1000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:26:59 GMT', NOW)).toBe(0);
    // The obsolete RFC 850 form names its weekday in full, without a comma.
    expect(parseRetryAfter('Wednesday, 21-Oct-26 07:28:00 GMT', NOW)).toBe(60_000);
  });

  it('reads nothing from an absent, empty, signed, fractional or worded field', () => {
    for (const value of [null, '', '   ', '-1', '+5', '1.5', '5s', 'soon', 'tomorrow 9am']) {
      expect(parseRetryAfter(value, NOW)).toBeNull();
    }
  });

  it('reads nothing from a bare number Date.parse would take as a year, or a date that is not one', () => {
    expect(parseRetryAfter('2026-10-21', NOW)).toBeNull();
    expect(parseRetryAfter('Wed, 99 Foo 2026 07:27:00 GMT', NOW)).toBeNull();
  });

  it('reads a field of 64 characters and nothing longer', () => {
    const sixtyFour = `${'0'.repeat(63)}7`;
    expect(sixtyFour).toHaveLength(64);
    expect(parseRetryAfter(sixtyFour, NOW)).toBe(7000);
    expect(parseRetryAfter(`0${sixtyFour}`, NOW)).toBeNull();
  });

  it('reads nothing from a delay too large to count in ms', () => {
    expect(parseRetryAfter(String(Math.floor(Number.MAX_SAFE_INTEGER / 1000)), NOW)).toBe(
      Math.floor(Number.MAX_SAFE_INTEGER / 1000) * 1000,
    );
    expect(parseRetryAfter('9'.repeat(20), NOW)).toBeNull();
  });
});
