import { describe, expect, it } from 'vitest';
import { weighDay } from '../src/chance.js';
import { countChangeDays, ReliabilityInputError, stability, successChance } from '../src/index.js';

describe('weighDay', () => {
  it('is 0.5 + i / n, oldest i = 1', () => {
    expect(weighDay(1, 4)).toBe(0.75);
    expect(weighDay(2, 4)).toBe(1);
    expect(weighDay(4, 4)).toBe(1.5);
    expect(weighDay(1, 1)).toBe(1.5);
    expect(weighDay(30, 30)).toBe(1.5);
  });

  it('throws for a day outside 1..n', () => {
    expect(() => weighDay(0, 4)).toThrow(/from 1 to 4/);
    expect(() => weighDay(5, 4)).toThrow(ReliabilityInputError);
    expect(() => weighDay(1, 0)).toThrow(ReliabilityInputError);
  });
});

describe('successChance', () => {
  it('is 1/2 with nothing observed', () => {
    expect(successChance('')).toBe(0.5);
    expect(successChance('n')).toBe(0.5);
    expect(successChance('nnnn')).toBe(0.5);
  });

  it('matches hand-computed values', () => {
    // n = 1: w = 1.5
    expect(successChance('o')).toBeCloseTo(2.5 / 3.5, 12);
    expect(successChance('d')).toBeCloseTo(1 / 3.5, 12);
    // n = 2: w = 1, 1.5
    expect(successChance('od')).toBeCloseTo(2 / 4.5, 12);
    expect(successChance('do')).toBeCloseTo(2.5 / 4.5, 12);
    // n = 4: w = 0.75, 1, 1.25, 1.5 (sum 4.5)
    expect(successChance('oooo')).toBeCloseTo(5.5 / 6.5, 12);
    expect(successChance('oapd')).toBeCloseTo(4 / 6.5, 12);
    // n day: counts toward n, adds nothing: up 0.75 + 1, observed + 1.5
    expect(successChance('oond')).toBeCloseTo(2.75 / 5.25, 12);
    // 30 answering days: sum w = 15 + 465 / 30 = 30.5
    expect(successChance('o'.repeat(30))).toBeCloseTo(31.5 / 32.5, 12);
  });

  it('lets an n day change n, and so the other days weights', () => {
    expect(successChance('no')).toBeCloseTo(2.5 / 3.5, 12); // the o is day 2 of 2
    expect(successChance('on')).toBeCloseTo(2 / 3, 12); // the o is day 1 of 2
  });

  it('is lowered more by a recent d than by an old one', () => {
    expect(successChance('ooood')).toBeLessThan(successChance('doooo'));
    expect(successChance('oodoo')).toBeLessThan(successChance('odooo'));
  });

  it('throws on bad letters', () => {
    expect(() => successChance('ooq')).toThrow(ReliabilityInputError);
  });
});

describe('stability', () => {
  it('is 1 / (1 + 0.5 x change days)', () => {
    expect(stability(0)).toBe(1);
    expect(stability(1)).toBeCloseTo(2 / 3, 12);
    expect(stability(2)).toBe(0.5);
    expect(stability(3)).toBeCloseTo(0.4, 12);
    expect(stability(30)).toBe(1 / 16);
  });

  it('throws beyond the 30 days a window holds, and on non-counts', () => {
    expect(() => stability(31)).toThrow(/at most 30 change days/);
    expect(() => stability(-1)).toThrow(ReliabilityInputError);
    expect(() => stability(0.5)).toThrow(ReliabilityInputError);
  });
});

describe('countChangeDays', () => {
  it('counts distinct change days in the 30 days ending today', () => {
    const today = '2025-06-01';
    expect(countChangeDays([], today)).toBe(0);
    expect(countChangeDays(['2025-05-03'], today)).toBe(1); // 29 days back: the window's first day
    expect(countChangeDays(['2025-05-02'], today)).toBe(0); // 30 days back: outside
    expect(countChangeDays(['2025-06-01', '2025-06-01', '2025-05-20'], today)).toBe(2);
    expect(countChangeDays(['2025-06-02'], today)).toBe(0); // after today
  });

  it('throws on a day that is not YYYY-MM-DD', () => {
    expect(() => countChangeDays(['2025-13-01'], '2025-06-01')).toThrow(/changeDays\[0\]/);
    expect(() => countChangeDays([], 'yesterday')).toThrow(/today/);
  });
});
