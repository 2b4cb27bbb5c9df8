import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CHARS_PER_TOKEN } from '../src/constants.js';
import { estimateTokens, FindingsInputError } from '../src/index.js';
import { thrownBy, toolsJsonOfLength } from './fixtures.js';

describe('estimateTokens divides the length by 4 and rounds to the nearest integer', () => {
  test.each([
    [0, 0],
    [1, 0], // 0.25
    [2, 1], // 0.5 rounds up
    [3, 1], // 0.75
    [4, 1],
    [5, 1], // 1.25
    [6, 2], // 1.5 rounds up
    [7, 2], // 1.75
    [39_998, 10_000], // 9,999.5 rounds up
    [40_000, 10_000],
    [40_001, 10_000], // 10,000.25
    [40_002, 10_001], // 10,000.5 rounds up
  ])('%i characters are about %i tokens', (length, tokens) => {
    expect(estimateTokens('x'.repeat(length))).toBe(tokens);
  });

  test('uses 4 characters a token', () => {
    expect(CHARS_PER_TOKEN).toBe(4);
  });

  test('counts UTF-16 code units, so an astral character counts as 2', () => {
    expect('\u{1F600}'.length).toBe(2);
    expect(estimateTokens('\u{1F600}\u{1F600}')).toBe(1);
  });

  test('takes the text as sent: whitespace counts', () => {
    expect(estimateTokens(toolsJsonOfLength(400))).toBe(100);
  });

  test('is round(length / 4) for any string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 500 }), (text) => {
        expect(estimateTokens(text)).toBe(Math.round(text.length / 4));
      }),
    );
  });

  test('a toolsJson that is not a string is a typed error', () => {
    for (const bad of [null, undefined, 42, [], {}]) {
      const error = thrownBy(() => estimateTokens(bad as unknown as string));
      expect(error).toBeInstanceOf(FindingsInputError);
      expect((error as FindingsInputError).code).toBe('tools-json-not-string');
    }
  });
});
