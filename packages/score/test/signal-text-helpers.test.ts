import { describe, expect, it } from 'vitest';
import { parseIsoTime } from '../src/iso-time.js';
import { codePointLength, sliceCodePoints, splitLinesPython, stripPython } from '../src/python-text.js';

describe('parseIsoTime (internal): the times Python fromisoformat reads, no offset meaning UTC', () => {
  const cases: Array<[string, number | null]> = [
    ['2026-12-02', Date.UTC(2026, 11, 2)],
    ['2026-12-02T10:20:30Z', Date.UTC(2026, 11, 2, 10, 20, 30)],
    ['2026-12-02T10:20:30', Date.UTC(2026, 11, 2, 10, 20, 30)],
    ['2026-12-02 10:20', Date.UTC(2026, 11, 2, 10, 20)],
    ['2026-12-02T10', Date.UTC(2026, 11, 2, 10)],
    ['2026-12-02T10:20:30.123456+02:00', Date.UTC(2026, 11, 2, 8, 20, 30, 123)],
    ['2026-12-02T10:20:30-0530', Date.UTC(2026, 11, 2, 15, 50, 30)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['2026-02-29T00:00:00Z', null],
    ['2026-13-01', null],
    ['2026-12-02T24:00:00Z', null],
    ['2026-12-02T10:60', null],
    ['2026-12-02T10:20:30+24:00', null],
    ['12/02/2026', null],
    ['', null],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} -> ${expected}`, () => {
      expect(parseIsoTime(text)).toBe(expected);
    });
  }

  it('reads years before 100 as they are', () => {
    expect(new Date(parseIsoTime('0050-01-01') as number).getUTCFullYear()).toBe(50);
  });

  it('gives null for a value that is not text', () => {
    expect(parseIsoTime(1700000000000)).toBeNull();
    expect(parseIsoTime(null)).toBeNull();
  });
});

describe('python-text (internal)', () => {
  it('strips the whitespace Python strips', () => {
    expect(stripPython('\u001c\u0085\u3000 a b \t\n')).toBe('a b');
    expect(stripPython('\ufeffa')).toBe('\ufeffa');
  });

  it('splits lines as str.splitlines does', () => {
    expect(splitLinesPython('')).toEqual([]);
    expect(splitLinesPython('a\n')).toEqual(['a']);
    expect(splitLinesPython('a\n\nb')).toEqual(['a', '', 'b']);
    expect(splitLinesPython('a\r\nb\rc\u2028d\u000be')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('counts and slices code points', () => {
    expect(codePointLength('a😀b')).toBe(3);
    expect(sliceCodePoints('a😀b', 1, 2)).toBe('😀');
  });
});
