import { describe, expect, it } from 'vitest';
import { splitWords, toolVerb } from '../src/index.js';

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

describe('toolVerb reads the first word, else the last, else the second of a prefixed name', () => {
  it.each([
    ['delete_page', 'delete'],
    ['pages_create', 'create'],
    ['get_pages_delete', 'get'],
    ['browser_navigate', 'navigate'],
    ['weather', null],
    ['github_create_issue', 'create'],
    ['zpa_delete_app_connector', 'delete'],
    ['acme_widget_report', null],
    ['acme_delete', 'delete'],
    ['acme_widget', null],
    ['', null],
    ['RunReport', 'run'],
  ])('%s -> %s', (name, verb) => {
    expect(toolVerb(name)).toBe(verb);
  });
});
