import { describe, expect, it } from 'vitest';
import { countObservedDays, isAnsweringLetter, ReliabilityInputError } from '../src/index.js';
import { appendDailyLetter, countLetters, isDailyLetters } from '../src/letters.js';

describe('daily letters', () => {
  it('accepts only o a p d n, at most 30, the empty string included', () => {
    expect(isDailyLetters('')).toBe(true);
    expect(isDailyLetters('oapdn')).toBe(true);
    expect(isDailyLetters('o'.repeat(30))).toBe(true);
    expect(isDailyLetters('o'.repeat(31))).toBe(false);
    expect(isDailyLetters('oox')).toBe(false);
    expect(isDailyLetters('O')).toBe(false);
    expect(isDailyLetters(null)).toBe(false);
    expect(isDailyLetters(5)).toBe(false);
  });

  it('counts n toward days but not toward observed days', () => {
    expect(countLetters('oondd')).toEqual({ days: 5, observed: 4, answering: 2, down: 2 });
    expect(countLetters('apn')).toEqual({ days: 3, observed: 2, answering: 2, down: 0 });
    expect(countLetters('')).toEqual({ days: 0, observed: 0, answering: 0, down: 0 });
    expect(countObservedDays('nnnon')).toBe(1);
  });

  it('treats sign-in and payment answers as up', () => {
    expect(isAnsweringLetter('o')).toBe(true);
    expect(isAnsweringLetter('a')).toBe(true);
    expect(isAnsweringLetter('p')).toBe(true);
    expect(isAnsweringLetter('d')).toBe(false);
    expect(isAnsweringLetter('n')).toBe(false);
  });

  it('throws a typed error naming the field for a bad letter string', () => {
    expect(() => countLetters('ooz')).toThrow(ReliabilityInputError);
    try {
      countLetters('o'.repeat(31));
    } catch (error) {
      expect(error).toBeInstanceOf(ReliabilityInputError);
      expect((error as ReliabilityInputError).code).toBe('invalid-letters');
      expect((error as ReliabilityInputError).field).toBe('letters');
      expect((error as ReliabilityInputError).message).toMatch(/at most 30 letters/);
    }
  });
});

describe('appendDailyLetter', () => {
  it('adds a day, with n for each skipped day first', () => {
    expect(appendDailyLetter('', 'o')).toBe('o');
    expect(appendDailyLetter('oo', 'd', 1)).toBe('oond');
    expect(appendDailyLetter('o', 'a', 3)).toBe('onnna');
  });

  it('keeps only the newest 30 letters', () => {
    const full = `d${'o'.repeat(29)}`;
    expect(appendDailyLetter(full, 'p')).toBe(`${'o'.repeat(29)}p`);
    expect(appendDailyLetter('o'.repeat(30), 'o', 40)).toBe(`${'n'.repeat(29)}o`);
    expect(appendDailyLetter('oo', 'd', 27)).toBe(`oo${'n'.repeat(27)}d`); // exactly 30
    expect(appendDailyLetter('oo', 'd', 28)).toBe(`o${'n'.repeat(28)}d`); // 31: the oldest goes
  });

  it('rejects a bad letter or a bad skip count', () => {
    expect(() => appendDailyLetter('o', 'x' as 'o')).toThrow(/letter: expected one of "oapdn"/);
    expect(() => appendDailyLetter('o', 'oo' as 'o')).toThrow(ReliabilityInputError);
    expect(() => appendDailyLetter('o', 'o', -1)).toThrow(/skippedDays/);
    expect(() => appendDailyLetter('o', 'o', 1.5)).toThrow(/skippedDays/);
  });
});
