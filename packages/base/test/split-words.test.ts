import { describe, expect, it } from 'vitest';
import { splitWords } from '../src/index.js';

describe('splitWords cuts names into lower-cased words', () => {
  it.each([
    ['delete_page', ['delete', 'page']],
    ['delete-page', ['delete', 'page']],
    ['pages.create', ['pages', 'create']],
    ['repo/files:read', ['repo', 'files', 'read']],
    ['createPage', ['create', 'page']],
    ['CreatePage', ['create', 'page']],
    ['getHTTPStatus', ['get', 'http', 'status']],
    ['listS3Buckets', ['list', 's3', 'buckets']],
    ['HTML', ['html']],
    ['parseJSON', ['parse', 'json']],
    ['v2_get_item', ['v2', 'get', 'item']],
    ['__a__b__', ['a', 'b']],
    ['send email', ['send', 'email']],
    ['', []],
    ['___', []],
    ['rotateAPIKey', ['rotate', 'api', 'key']],
  ])('%s -> %j', (name, words) => {
    expect(splitWords(name)).toEqual(words);
  });
});
