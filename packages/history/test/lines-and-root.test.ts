// File lines ("<sha256>  <path>", sorted by path), refused paths, and the chained root formula.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertDayPath,
  compareDayPaths,
  computeRoot,
  dayLines,
  fileLine,
  HistoryError,
  parseFileLine,
} from '../src/index.js';
import { text } from './helpers.js';

const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function thrown(action: () => unknown): HistoryError {
  try {
    action();
  } catch (error) {
    if (error instanceof HistoryError) return error;
    throw error;
  }
  throw new Error('expected a HistoryError');
}

function nodeHex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

describe('fileLine', () => {
  it('writes the sha256 hex, two spaces and the path, as sha256sum does', () => {
    expect(fileLine('index.json', text('abc'))).toBe(`${ABC}  index.json`);
    expect(fileLine('results/000.json', new Uint8Array(0))).toBe(`${EMPTY}  results/000.json`);
  });

  it('keeps non-ASCII and space characters in the path as they are', () => {
    expect(fileLine('catalogs/météo server.json', text('abc'))).toBe(`${ABC}  catalogs/météo server.json`);
  });

  it('refuses bytes that are not a Uint8Array', () => {
    const error = thrown(() => fileLine('a.json', 'abc' as unknown as Uint8Array));
    expect(error.code).toBe('invalid-bytes');
    expect(error.message).toBe('bytes of "a.json" must be a Uint8Array, got "abc"');
  });

  it('uses a sha256 hook when given one, and refuses a hook that does not return 32 bytes', () => {
    const hook = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());
    expect(fileLine('a.json', text('abc'), { sha256: hook })).toBe(`${ABC}  a.json`);
    const short = thrown(() => fileLine('a.json', text('abc'), { sha256: () => new Uint8Array(20) }));
    expect(short.code).toBe('invalid-hash');
    expect(short.message).toBe('sha256 must return 32 bytes, got 20 bytes');
    expect(
      thrown(() => fileLine('a.json', text('abc'), { sha256: 'sha256' as unknown as () => Uint8Array })).message,
    ).toBe('sha256 must be a function from bytes to 32 bytes, got "sha256"');
  });
});

describe('refused paths', () => {
  it.each([
    ['', 'path must not be empty'],
    ['../keys/private.pem', 'path "../keys/private.pem" is refused: it has a ".." segment'],
    ['results/../../etc', 'path "results/../../etc" is refused: it has a ".." segment'],
    ['results/..', 'path "results/.." is refused: it has a ".." segment'],
    ['./index.json', 'path "./index.json" is refused: it has a "." segment'],
    ['results\\000.json', 'path "results\\\\000.json" is refused: it contains a backslash (use forward slashes)'],
    ['/etc/passwd', 'path "/etc/passwd" is refused: it starts with a slash (paths are relative to the day folder)'],
    ['results//000.json', 'path "results//000.json" is refused: it has an empty segment'],
    ['results/', 'path "results/" is refused: it has an empty segment'],
    ['a\nb.json', 'path "a\\nb.json" is refused: it contains a control character'],
    ['a\u0000.json', 'path "a\\u0000.json" is refused: it contains a control character'],
    ['a\uD800.json', 'path "a\\ud800.json" is refused: it is not well-formed Unicode (a lone surrogate)'],
  ])('refuses %j', (path, message) => {
    const error = thrown(() => assertDayPath(path));
    expect(error.code).toBe('invalid-path');
    expect(error.message).toBe(message);
    expect(thrown(() => fileLine(path, text('x'))).message).toBe(message);
  });

  it('refuses a path that is not a string', () => {
    expect(thrown(() => assertDayPath(7)).message).toBe('path must be a string, got number 7');
  });

  it.each(['index.json', 'results/000.json', 'a/b/c/d.json', '..hidden', 'file..json', '.well-known', 'emoji-😀.json'])(
    'accepts %j',
    (path) => {
      expect(() => assertDayPath(path)).not.toThrow();
    },
  );
});

describe('dayLines', () => {
  it('sorts lines by path by code unit, whatever order the files came in', () => {
    const lines = dayLines([
      { path: 'summary.json', bytes: text('abc') },
      { path: 'Index.json', bytes: text('abc') },
      { path: 'results/000.json', bytes: text('abc') },
      { path: 'results.json', bytes: text('abc') },
      { path: 'catalogs/b.json', bytes: text('abc') },
    ]);
    // Upper case (0x49) before lower case; '.' (0x2e) before '/' (0x2f), so results.json precedes results/000.json.
    expect(lines.map((line) => line.slice(66))).toEqual([
      'Index.json',
      'catalogs/b.json',
      'results.json',
      'results/000.json',
      'summary.json',
    ]);
  });

  it('orders by UTF-16 code unit, which differs from UTF-8 byte order above U+FFFF', () => {
    // U+FF21 (fullwidth A) is one code unit 0xFF21; U+1F600 is the pair 0xD83D 0xDE00, so it sorts first here,
    // although its UTF-8 bytes (F0 …) sort after EF BC A1.
    expect(['\uFF21.json', '\u{1F600}.json'].sort(compareDayPaths)).toEqual(['\u{1F600}.json', '\uFF21.json']);
    expect(compareDayPaths('a', 'a')).toBe(0);
    expect(compareDayPaths('B', 'a')).toBe(-1);
    expect(compareDayPaths('b', 'a')).toBe(1);
  });

  it('refuses a path given twice', () => {
    const error = thrown(() =>
      dayLines([
        { path: 'index.json', bytes: text('a') },
        { path: 'index.json', bytes: text('b') },
      ]),
    );
    expect(error.code).toBe('duplicate-path');
    expect(error.message).toBe('path "index.json" appears more than once');
  });

  it('refuses files that are not an array of objects', () => {
    expect(thrown(() => dayLines('index.json' as unknown as [])).message).toBe(
      'files must be an array of { path, bytes }, got "index.json"',
    );
    expect(thrown(() => dayLines([null] as unknown as [])).message).toBe(
      'files[0] must be an object { path, bytes }, got null',
    );
  });

  it('gives no lines for a day with no files', () => {
    expect(dayLines([])).toEqual([]);
  });

  it('gives the same lines for any order of the same files', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z0-9_]{1,8}(\/[a-z0-9_]{1,8}){0,2}\.json$/), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.infiniteStream(fc.nat()),
        (paths, randomness) => {
          const files = paths.map((path) => ({ path, bytes: text(path) }));
          const shuffled = [...files].sort(() => (randomness.next().value % 3) - 1);
          expect(dayLines(shuffled)).toEqual(dayLines(files));
        },
      ),
    );
  });
});

describe('parseFileLine', () => {
  it('splits a line into hash and path', () => {
    expect(parseFileLine(`${ABC}  results/000.json`)).toEqual({ hash: ABC, path: 'results/000.json' });
  });

  it('keeps a path that itself contains two spaces', () => {
    expect(parseFileLine(`${ABC}  a  b.json`)).toEqual({ hash: ABC, path: 'a  b.json' });
  });

  it.each([
    [`${ABC.toUpperCase()}  a.json`, `line "${ABC.toUpperCase()}  a.json" is not "<64 lowercase hex>  <path>"`],
    [`${ABC} a.json`, `line "${ABC} a.json" is not "<64 lowercase hex>  <path>"`],
    [`${ABC.slice(2)}  a.json`, `line "${ABC.slice(2)}  a.json" is not "<64 lowercase hex>  <path>"`],
    [`${ABC}  ../a.json`, 'path "../a.json" is refused: it has a ".." segment'],
    [`${ABC}  `, 'path must not be empty'],
  ])('refuses %j', (line, message) => {
    const error = thrown(() => parseFileLine(line));
    expect(error.code).toBe('invalid-line');
    expect(error.message).toBe(message);
  });

  it('reads back every line fileLine writes', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-zA-Z0-9_ -]{1,10}(\/[a-zA-Z0-9_ .-]{1,10}){0,3}$/),
        fc.uint8Array(),
        (path, bytes) => {
          fc.pre(!path.split('/').some((segment) => segment === '.' || segment === '..'));
          const line = fileLine(path, bytes);
          expect(parseFileLine(line).path).toBe(path);
          expect(parseFileLine(line).hash).toBe(createHash('sha256').update(bytes).digest('hex'));
        },
      ),
    );
  });
});

describe('computeRoot', () => {
  const PREVIOUS = '0f'.repeat(32);
  const lines = [`${ABC}  index.json`, `${EMPTY}  results/000.json`];

  it('hashes the previous root, a newline and the lines joined by newlines', () => {
    expect(computeRoot(PREVIOUS, lines)).toBe(nodeHex(`${PREVIOUS}\n${lines[0]}\n${lines[1]}`));
  });

  it('uses an empty string for a missing previous root', () => {
    expect(computeRoot(null, lines)).toBe(nodeHex(`\n${lines[0]}\n${lines[1]}`));
  });

  it('hashes the lines exactly as given: order changes the root', () => {
    expect(computeRoot(null, [...lines].reverse())).not.toBe(computeRoot(null, lines));
  });

  it('changes when the previous root changes, so every later day depends on every earlier one', () => {
    expect(computeRoot('1f'.repeat(32), lines)).not.toBe(computeRoot(PREVIOUS, lines));
  });

  it('hashes non-ASCII paths as UTF-8', () => {
    const line = `${ABC}  météo.json`;
    expect(computeRoot(null, [line])).toBe(nodeHex(`\n${line}`));
  });

  it('matches the independent formula for any lines and previous root', () => {
    fc.assert(
      fc.property(
        fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: null }),
        fc.array(fc.string({ unit: 'grapheme' })),
        (previous, anyLines) => {
          expect(computeRoot(previous, anyLines)).toBe(nodeHex(`${previous ?? ''}\n${anyLines.join('\n')}`));
        },
      ),
    );
  });

  it.each([
    ['', 'previous root must be null or 64 lowercase hex characters, got ""'],
    [
      'ABCDEF'.padEnd(64, '0'),
      `previous root must be null or 64 lowercase hex characters, got "${'ABCDEF'.padEnd(64, '0')}"`,
    ],
    ['0'.repeat(63), `previous root must be null or 64 lowercase hex characters, got "${'0'.repeat(63)}"`],
    ['g'.repeat(64), `previous root must be null or 64 lowercase hex characters, got "${'g'.repeat(64)}"`],
  ])('refuses the previous root %j', (previous, message) => {
    const error = thrown(() => computeRoot(previous, []));
    expect(error.code).toBe('invalid-root');
    expect(error.message).toBe(message);
  });

  it('refuses lines that are not strings', () => {
    expect(thrown(() => computeRoot(null, 'line' as unknown as string[])).message).toBe(
      'lines must be an array of strings, got "line"',
    );
    const error = thrown(() => computeRoot(null, ['ok', 3 as unknown as string]));
    expect(error.code).toBe('invalid-line');
    expect(error.message).toBe('lines[1] must be a string, got number 3');
  });

  it('cuts a very long bad input short in the message', () => {
    const long = 'x'.repeat(500);
    expect(thrown(() => computeRoot(long, [])).message).toBe(
      `previous root must be null or 64 lowercase hex characters, got "${'x'.repeat(78)}…" (500 characters)`,
    );
  });
});
