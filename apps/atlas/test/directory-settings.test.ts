// The three directory settings: which directories, their URLs and their tokens; every bad value is a usage
// error naming its flag, and a token is never repeated in one.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/commands/shared.js';
import { DIRECTORY_SOURCES } from '../src/discovery/sync-catalog.js';
import { directorySettingsOf } from '../src/serve/directory-settings.js';

const none = { directories: null, urls: null, tokens: null };

describe('directorySettingsOf', () => {
  it('reads no directory by default, or with none', () => {
    expect(directorySettingsOf(none)).toEqual([]);
    expect(directorySettingsOf({ ...none, directories: 'none' })).toEqual([]);
  });

  it('reads all seven, or the ones named once each, with their URLs and tokens', () => {
    expect(directorySettingsOf({ ...none, directories: 'all' }).map((d) => d.source)).toEqual([...DIRECTORY_SOURCES]);
    expect(DIRECTORY_SOURCES).toHaveLength(7);
    expect(
      directorySettingsOf({
        directories: ' Glama, smithery,glama ',
        urls: 'glama=http://127.0.0.1:9000',
        tokens: 'smithery=abc.def,docker-hub=zzz',
      }),
    ).toEqual([
      { source: 'glama', baseUrl: 'http://127.0.0.1:9000' },
      { source: 'smithery', token: 'abc.def' },
    ]);
  });

  it('refuses an unknown directory, a pair without a value, a URL that is not one and a token with a space', () => {
    const cases = [
      [{ ...none, directories: 'glama,npm' }, /--directories: "npm" is not one of all, none, glama/],
      [{ ...none, directories: 'official-registry' }, /--directories: "official-registry" is not one of/],
      [{ ...none, urls: 'glama' }, /--directory-urls: glama has no value after =/],
      [{ ...none, urls: 'nowhere=http://x' }, /--directory-urls: each item is <directory>=<value>/],
      [
        { ...none, directories: 'glama', urls: 'glama=ftp://x' },
        /the URL of glama must be an absolute http or https URL/,
      ],
      [{ ...none, tokens: 'glama=se cret' }, /--directory-tokens: the token of glama must be visible ASCII/],
    ] as const;
    for (const [given, message] of cases) {
      expect(() => directorySettingsOf(given)).toThrow(UsageError);
      expect(() => directorySettingsOf(given)).toThrow(message);
    }
    try {
      directorySettingsOf({ ...none, tokens: 'glama=se cret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('se cret');
    }
  });
});
