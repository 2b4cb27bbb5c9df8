// splitText, the free-text twin of splitWords: the same camelCase humps, but every character that is not a
// letter or digit (in any script) separates words. route reads all its text with it.
import { describe, expect, it } from 'vitest';
import { splitText, splitWords } from '../src/index.js';

describe('splitText cuts names and prose into lower-cased words', () => {
  it.each([
    ['send_email', ['send', 'email']],
    ['list-open-issues', ['list', 'open', 'issues']],
    ['pages.createPage', ['pages', 'create', 'page']],
    ['repos/list:all', ['repos', 'list', 'all']],
    ['getHTTPStatus', ['get', 'http', 'status']],
    ['parseJSON', ['parse', 'json']],
    ['s3ListBuckets', ['s3', 'list', 'buckets']],
    ['ListObjectsV2', ['list', 'objects', 'v2']],
    ['list_pullRequests (GitHub)', ['list', 'pull', 'requests', 'git', 'hub']],
    ['Reads a file; returns its contents.', ['reads', 'a', 'file', 'returns', 'its', 'contents']],
  ])('%s', (input, expected) => {
    expect(splitText(input)).toEqual(expected);
  });

  it('keeps letters outside ASCII, including characters beyond the basic plane', () => {
    expect(splitText('Übersetze café naïve')).toEqual(['übersetze', 'café', 'naïve']);
    expect(splitText('tag 𝒜bc done')).toEqual(['tag', '𝒜bc', 'done']);
  });

  it('returns nothing for text without letters or digits', () => {
    expect(splitText('')).toEqual([]);
    expect(splitText(' -_./: ')).toEqual([]);
  });
});

describe('splitWords and splitText differ only in what separates words', () => {
  it('agree on names written with the separators tool names use', () => {
    for (const name of ['delete_page', 'pages.createPage', 'repo/files:read', 'getHTTPStatus', 'send email'])
      expect(splitWords(name)).toEqual(splitText(name));
  });

  it('splitWords keeps other punctuation inside a word, splitText breaks on it', () => {
    expect(splitWords('get(item)')).toEqual(['get(item)']);
    expect(splitText('get(item)')).toEqual(['get', 'item']);
    expect(splitWords('user@host')).toEqual(['user@host']);
    expect(splitText('user@host')).toEqual(['user', 'host']);
  });
});
