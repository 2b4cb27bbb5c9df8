// The two document directories read at their edges: CSV quoting (commas, doubled quotes, line breaks in a
// field, a cut file, CRLF) and the awesome list's sections, badges and descriptions.
import { describe, expect, it } from 'vitest';
import { nextLink } from '../src/directory-formats.js';
import { parseCsv, readAwesomeList, readBestOfSnapshot } from '../src/directory-lists.js';

describe('parseCsv', () => {
  it('reads quoted commas, doubled quotes and line breaks inside a field', () => {
    expect(parseCsv('a,"b,c"\r\n1,"say ""hi"""\n2,"two\nlines"\n')).toEqual([
      ['a', 'b,c'],
      ['1', 'say "hi"'],
      ['2', 'two\nlines'],
    ]);
  });
  it('keeps empty fields and a last line without a line break', () => {
    expect(parseCsv(',x,\n1,,3')).toEqual([
      ['', 'x', ''],
      ['1', '', '3'],
    ]);
  });
  it('refuses a file cut inside a quoted field', () => {
    expect(parseCsv('a,"open\n')).toBeNull();
  });
});

describe('readBestOfSnapshot', () => {
  it('takes the repository from github_id, else github_url, and leaves nameless rows out', () => {
    const read = readBestOfSnapshot(
      [
        ',name,github_id,github_url,projectrank,contributor_count,star_count,category',
        '0,Alpha,o/alpha,,20,3,,search',
        '1,Beta,,https://github.com/o/beta,x,,,',
        '2,,o/nameless,,,,,',
      ].join('\n'),
    );
    expect(read).toEqual({
      ok: true,
      entries: [
        {
          sourceId: 'o/alpha',
          name: 'Alpha',
          description: null,
          repositoryUrl: 'https://github.com/o/alpha',
          facts: { projectRank: 20, contributors: 3, stars: null, category: 'search' },
        },
        {
          sourceId: 'Beta',
          name: 'Beta',
          description: null,
          repositoryUrl: 'https://github.com/o/beta',
          facts: { projectRank: null, contributors: null, stars: null, category: null },
        },
      ],
    });
  });
  it('says why a file is not a snapshot', () => {
    expect(readBestOfSnapshot('id,title\n1,x\n')).toEqual({ ok: false, why: 'the snapshot has no name column' });
    expect(readBestOfSnapshot(',name\n0,"cut')).toEqual({ ok: false, why: 'the snapshot ends inside a quoted field' });
  });
});

describe('readAwesomeList', () => {
  const readme = [
    '## Server Implementations',
    '- [before any category](https://github.com/o/none) - no heading yet',
    '### 📂 <a name="files"></a>File Systems',
    '- [o/files](https://github.com/o/files) 🐍 🦀 🏠 🍎 - Files, with - a dash',
    '* [o/bare](https://github.com/o/bare)',
    'Not a list line [o/x](https://github.com/o/x)',
    '## Clients',
    '- [o/client](https://github.com/o/client) - a client, not a server',
  ].join('\n');
  it('reads entries under category headings of the servers section only, with their badges', () => {
    expect(readAwesomeList(readme)).toEqual({
      ok: true,
      entries: [
        {
          sourceId: 'o/files',
          name: 'o/files',
          description: 'Files, with - a dash',
          repositoryUrl: 'https://github.com/o/files',
          facts: { language: 'python,rust', scope: 'local', category: 'File Systems' },
        },
        {
          sourceId: 'o/bare',
          name: 'o/bare',
          description: null,
          repositoryUrl: 'https://github.com/o/bare',
          facts: { category: 'File Systems' },
        },
      ],
    });
  });
  it('says a README without the servers section is not the list', () => {
    expect(readAwesomeList('# Some other list\n- [a](https://github.com/a/b)')).toEqual({
      ok: false,
      why: 'the README has no "Server Implementations" section',
    });
  });
});

describe('nextLink', () => {
  it('finds rel="next" among the Link header parts', () => {
    expect(nextLink('<https://api/x?page=1>; rel="prev", <https://api/x?page=3>; rel="next"')).toBe(
      'https://api/x?page=3',
    );
    expect(nextLink('<https://api/x?page=1>; rel="last"')).toBeNull();
    expect(nextLink(undefined)).toBeNull();
  });
});
