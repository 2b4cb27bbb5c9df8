// The median of a rating's times (methodology, "Agent ratings": the middle time, or the mean of the two middle
// times for an even count), hand-computed at one, two, odd and even counts, and the inputs that have no median.
import { describe, expect, it } from 'vitest';
import { median, ReliabilityInputError } from '../src/index.js';

describe('median', () => {
  it('is the one value of a one-value list', () => {
    expect(median([5])).toBe(5);
    expect(median([0])).toBe(0);
  });

  it('is the middle value of an odd count, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([5, 9, 1])).toBe(5);
    expect(median([300, 100, 200, 500, 400])).toBe(300);
  });

  it('is the mean of the two middle values of an even count', () => {
    expect(median([1, 2])).toBe(1.5);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([300, 700])).toBe(500);
    expect(median([1, 1, 3, 3])).toBe(2);
  });

  it('sorts numerically, not as text, and reads negative values', () => {
    // As text, 10 would sort before 9.
    expect(median([10, 9, 100])).toBe(10);
    expect(median([-3, -1, -2])).toBe(-2);
  });

  it('leaves the list it is given as it was', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it('throws for an empty list, which has no median', () => {
    expect(() => median([])).toThrow(ReliabilityInputError);
    expect(() => median([])).toThrow('values: expected at least one number, received an empty list');
  });

  it('throws for a value that is not a finite number, naming its place', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, '4' as unknown as number]) {
      try {
        median([1, bad]);
        expect.unreachable(String(bad));
      } catch (error) {
        expect(error).toBeInstanceOf(ReliabilityInputError);
        expect((error as ReliabilityInputError).code).toBe('invalid-number');
        expect((error as ReliabilityInputError).field).toBe('values[1]');
      }
    }
  });
});
