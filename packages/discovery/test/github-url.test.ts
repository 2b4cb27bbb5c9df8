// The primary key: every form a directory writes a GitHub repository in, reduced to one, and everything that
// names no repository refused. Pure module under test.
import { describe, expect, it } from 'vitest';
import { normalizeGithubUrl } from '../src/index.js';

const KEY = 'https://github.com/acme/notes-mcp';

describe('normalizeGithubUrl', () => {
  it('reduces every way of writing one repository to the same key', () => {
    const forms = [
      'https://github.com/acme/notes-mcp',
      'https://github.com/Acme/Notes-MCP',
      'http://github.com/acme/notes-mcp',
      'https://www.github.com/acme/notes-mcp/',
      'https://github.com/acme/notes-mcp.git',
      'https://github.com/acme/notes-mcp.GIT/',
      'git+https://github.com/acme/notes-mcp.git',
      'git://github.com/acme/notes-mcp.git',
      'ssh://git@github.com/acme/notes-mcp.git',
      'git@github.com:acme/notes-mcp.git',
      'github.com/acme/notes-mcp',
      'https://github.com/acme/notes-mcp/tree/main/servers/notes',
      'https://github.com/acme/notes-mcp/blob/main/README.md',
      'https://github.com/acme/notes-mcp#readme',
      'https://github.com/acme/notes-mcp?tab=readme-ov-file',
      'https://github.com//acme//notes-mcp//',
      '  https://github.com/acme/notes-mcp  ',
    ];
    for (const form of forms) expect(normalizeGithubUrl(form), form).toBe(KEY);
  });

  it('keeps dots and underscores in a repository name, and drops only a final .git', () => {
    expect(normalizeGithubUrl('https://github.com/acme/mcp.server_v2')).toBe('https://github.com/acme/mcp.server_v2');
    expect(normalizeGithubUrl('https://github.com/acme/notes.github.io.git')).toBe(
      'https://github.com/acme/notes.github.io',
    );
  });

  it('refuses what names no repository', () => {
    const refused = [
      'https://gitlab.com/acme/notes-mcp',
      'https://github.com.evil.example/acme/notes',
      'https://notgithub.com/acme/notes',
      'https://github.com/acme',
      'https://github.com/',
      'https://github.com/orgs/acme/repositories',
      'https://github.com/topics/mcp-server',
      'https://github.com/-acme/notes',
      'https://github.com/ac--me/notes',
      'https://github.com/acme/..',
      'https://github.com/acme/no spaces',
      'https://gist.github.com/acme/123',
      '',
      null,
      42,
      `https://github.com/acme/${'x'.repeat(101)}`,
    ];
    for (const text of refused) expect(normalizeGithubUrl(text), String(text)).toBeNull();
  });
});
