// The rules of check's redaction and change detail, with hand-computed cases at and around each limit: how URLs,
// command words and headers are recorded, the scrubber's shortest value, the description excerpt length and the
// number of schema paths listed. Which names look secret is @mcp-atlas/risk's looksSecretName, tested there.
import { describe, expect, it } from 'vitest';
import { CHANGE_EXCERPT_CHARS, CHANGE_MAX_PATHS } from '../src/check/constants.js';
import { describeToolChange, diffAnnotations, diffJsonPaths, shortenText } from '../src/check/describe-change.js';
import {
  MIN_SCRUBBED_VALUE_LENGTH,
  REDACTED,
  redactCommandWords,
  redactHeader,
  redactUrl,
  SecretScrubber,
} from '../src/check/redact.js';
import { parseHeader, splitUserInfo } from '../src/check/target-access.js';

describe('recording a target', () => {
  it('hides a URL’s user info and its secret-looking query values, keeping the rest in order', () => {
    expect(redactUrl('https://me:pw@x.test/mcp?lang=en&api_key=1&token=2&q=3')).toBe(
      'https://***:***@x.test/mcp?lang=en&api_key=***&token=***&q=3',
    );
    expect(redactUrl('https://x.test/mcp?lang=en')).toBe('https://x.test/mcp?lang=en');
    expect(redactUrl('not a url')).toBe('not a url');
  });

  it('hides NAME=value words with a secret-looking name, the word after a secret flag, and URLs inside words', () => {
    expect(
      redactCommandWords([
        'env',
        'API_KEY=abc',
        'API_URL=http://127.0.0.1:9',
        'DATABASE_URL=postgres://u:p@db/x',
        'node',
        'server.js',
        '--token',
        'tok',
        '--port',
        '3000',
        '--client-secret=s3',
        'https://u:p@h.test/?auth=1',
      ]),
    ).toEqual([
      'env',
      'API_KEY=***',
      'API_URL=http://127.0.0.1:9',
      'DATABASE_URL=postgres://***:***@db/x',
      'node',
      'server.js',
      '--token',
      '***',
      '--port',
      '3000',
      '--client-secret=***',
      'https://***:***@h.test/?auth=***',
    ]);
  });

  it('records a header by its name only', () => {
    expect(redactHeader('Authorization')).toBe(`Authorization: ${REDACTED}`);
  });
});

describe('SecretScrubber', () => {
  it(`hides values of ${MIN_SCRUBBED_VALUE_LENGTH} characters or more, as written, percent-encoded and JSON-escaped`, () => {
    const scrubber = new SecretScrubber();
    scrubber.add('abc'); // under the limit: left alone
    scrubber.add('abcd');
    scrubber.add('a"b/c d');
    expect(scrubber.scrub('abc abcd')).toBe('abc ***');
    expect(scrubber.scrub(JSON.stringify({ v: 'a"b/c d' }))).toBe('{"v":"***"}');
    expect(scrubber.scrub(encodeURIComponent('a"b/c d'))).toBe('***');
  });

  it('finds the secrets of a URL and a command line, and scrubs strings and keys of a value', () => {
    const scrubber = new SecretScrubber();
    scrubber.addUrl('https://user1:pass1@x.test/?access_token=tok123&q=visible');
    scrubber.addCommandWords(['env', 'MY_SECRET=hidden1', 'LOG=visible2', '--password', 'pw9999']);
    expect(scrubber.scrubValue({ a: ['user1 pass1 tok123 visible', 'hidden1'], pw9999: 'LOG=visible2' })).toEqual({
      a: ['*** *** *** visible', '***'],
      '***': 'LOG=visible2',
    });
  });
});

describe('reaching a server', () => {
  it('reads --header Name: value, and refuses a missing colon, a bad name, a line break', () => {
    expect(parseHeader('Authorization: Bearer x y')).toEqual({ name: 'Authorization', value: 'Bearer x y' });
    expect(() => parseHeader('Bearer x')).toThrow('--header must look like');
    expect(() => parseHeader('Bad Name: x')).toThrow('--header must look like');
    expect(() => parseHeader('X-A: a\nb')).toThrow('line break');
  });

  it('moves a URL’s user info into a Basic authorization header', () => {
    expect(splitUserInfo('http://ci:p%40ss@127.0.0.1:9/mcp?x=1')).toEqual({
      url: 'http://127.0.0.1:9/mcp?x=1',
      authorization: { name: 'Authorization', value: `Basic ${Buffer.from('ci:p@ss').toString('base64')}` },
    });
    expect(splitUserInfo('http://127.0.0.1:9/mcp').authorization).toBeNull();
  });
});

describe('the detail of a changed tool', () => {
  it(`shortens descriptions to ${CHANGE_EXCERPT_CHARS} characters: exactly at the limit is kept whole`, () => {
    const at = 'a'.repeat(CHANGE_EXCERPT_CHARS);
    expect(shortenText(at)).toBe(at);
    const over = 'b'.repeat(CHANGE_EXCERPT_CHARS + 1);
    expect(shortenText(over)).toBe(`${'b'.repeat(CHANGE_EXCERPT_CHARS - 1)}…`);
    expect(shortenText(over)).toHaveLength(CHANGE_EXCERPT_CHARS);
  });

  it('lists JSON paths added, removed and changed, escaping / and ~ as JSON Pointer does', () => {
    expect(
      diffJsonPaths(
        { type: 'object', properties: { 'a/b': { type: 'string' }, gone: {} }, required: ['a/b'] },
        { type: 'object', properties: { 'a/b': { type: 'number' }, 'x~y': {} }, required: ['a/b', 'x~y'] },
      ),
    ).toEqual({
      added: ['/properties/x~0y', '/required/1'],
      removed: ['/properties/gone'],
      changed: ['/properties/a~1b/type'],
    });
    // Key order and number spelling are not changes (canonical JSON).
    expect(diffJsonPaths({ a: 1, b: 2 }, { b: 2, a: 1.0 })).toEqual({ added: [], removed: [], changed: [] });
  });

  it(`lists at most ${CHANGE_MAX_PATHS} paths per kind, then says how many more`, () => {
    const props = (n: number): Record<string, object> =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${String(i).padStart(2, '0')}`, {}]));
    const atLimit = describeToolChange('t', { inputSchema: {} }, { inputSchema: props(CHANGE_MAX_PATHS) });
    expect(atLimit.inputSchema?.added).toHaveLength(CHANGE_MAX_PATHS);
    const over = describeToolChange('t', { inputSchema: {} }, { inputSchema: props(CHANGE_MAX_PATHS + 1) });
    expect(over.inputSchema?.added).toHaveLength(CHANGE_MAX_PATHS + 1);
    expect(over.inputSchema?.added.at(-1)).toBe('… 1 more');
  });

  it('names each annotation hint that changed, appeared or went away', () => {
    expect(
      diffAnnotations({ readOnlyHint: true, title: 'x' }, { readOnlyHint: false, destructiveHint: true, title: 'x' }),
    ).toEqual(['destructiveHint: absent -> true', 'readOnlyHint: true -> false']);
    expect(diffAnnotations(undefined, { readOnlyHint: true })).toEqual(['readOnlyHint: absent -> true']);
  });
});
