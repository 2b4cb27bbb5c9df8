// describeType names a wrong argument in error messages; both forms are pinned here because published
// messages of risk, findings (bare) and probe (with an article) are built from them.
import { describe, expect, it } from 'vitest';
import { describeType } from '../src/index.js';

describe('describeType', () => {
  it.each([
    [null, 'null', 'null'],
    [[], 'an array', 'an array'],
    [{}, 'object', 'an object'],
    ['x', 'string', 'a string'],
    [1, 'number', 'a number'],
    [true, 'boolean', 'a boolean'],
    [undefined, 'undefined', 'a undefined'],
    [() => 1, 'function', 'a function'],
    [1n, 'bigint', 'a bigint'],
  ])('%s gives %s, or %s with an article', (value, bare, withArticle) => {
    expect(describeType(value)).toBe(bare);
    expect(describeType(value, {})).toBe(bare);
    expect(describeType(value, { article: true })).toBe(withArticle);
  });
});
