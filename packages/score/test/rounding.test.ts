import { describe, expect, it } from 'vitest';
import { roundHalfEven, truncateScore } from '../src/rounding.js';

describe('roundHalfEven (Python round)', () => {
  it('sends a tie to the even neighbour', () => {
    expect(roundHalfEven(0.5)).toBe(0);
    expect(roundHalfEven(1.5)).toBe(2);
    expect(roundHalfEven(2.5)).toBe(2);
    expect(roundHalfEven(54.5)).toBe(54);
    expect(roundHalfEven(84.5)).toBe(84);
    expect(roundHalfEven(85.5)).toBe(86);
    expect(roundHalfEven(94.5)).toBe(94);
    expect(roundHalfEven(-2.5)).toBe(-2);
    expect(roundHalfEven(-3.5)).toBe(-4);
  });

  it('rounds anything off a tie to the nearest integer', () => {
    expect(roundHalfEven(84.49999999999999)).toBe(84);
    expect(roundHalfEven(84.50000000000001)).toBe(85);
    expect(roundHalfEven(78.33333333333333)).toBe(78);
    expect(roundHalfEven(0.4)).toBe(0);
    expect(roundHalfEven(99.6)).toBe(100);
    expect(roundHalfEven(7)).toBe(7);
  });

  it('differs from Math.round exactly on ties with an even floor', () => {
    expect(Math.round(54.5)).toBe(55);
    expect(roundHalfEven(54.5)).toBe(54);
    expect(roundHalfEven(55.5)).toBe(Math.round(55.5));
  });

  it('rounds the double it is given, as Python does', () => {
    // Python: round(0.285 * 100) == 28 (the product is 28.499999999999996); round(2.675 * 100) == 268 (exactly 267.5).
    expect(roundHalfEven(0.285 * 100)).toBe(28);
    expect(roundHalfEven(2.675 * 100)).toBe(268);
    expect(roundHalfEven(1.015 * 100)).toBe(101);
  });

  it('returns non-finite input unchanged', () => {
    expect(roundHalfEven(Number.NaN)).toBeNaN();
    expect(roundHalfEven(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('truncateScore (Python int)', () => {
  it('drops the fraction toward zero', () => {
    expect(truncateScore(79.99)).toBe(79);
    expect(truncateScore(82.2)).toBe(82);
    expect(truncateScore(100)).toBe(100);
    expect(truncateScore(-1.7)).toBe(-1);
  });

  it('never gives -0', () => {
    expect(Object.is(truncateScore(-0.5), 0)).toBe(true);
  });
});
