/**
 * The catalog's primary key: a GitHub repository URL in one form, `https://github.com/{owner}/{repo}`, lowercased
 * (GitHub's owner and repository names are case-insensitive). Pure module.
 */
import { GITHUB_ORIGIN, GITHUB_RESERVED_OWNERS } from './constants.js';

// GitHub's rules for names: an owner is letters, digits and single hyphens, at most 39 characters; a repository is
// letters, digits, `.`, `_` and `-`, at most 100.
const OWNER = /^[a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38}$/i;
const REPO = /^[\w.-]{1,100}$/;
const RESERVED = new Set(GITHUB_RESERVED_OWNERS);

/** The text after `github.com` in any way a directory writes a repository, or null for another host. */
function pathAfterHost(text: string): string | null {
  const trimmed = text.trim();
  // git@github.com:owner/repo.git, the SSH form package manifests use.
  const ssh = /^git@github\.com:(.+)$/i.exec(trimmed);
  if (ssh) return `/${ssh[1]}`;
  // https://, http://, git+https://, git://, ssh://git@ and no scheme at all; www. is the same site.
  const web =
    /^(?:(?:git\+)?(?:https?|git|ssh):\/\/)?(?:[^@/]+@)?(?:www\.)?github\.com(?::\d+)?(\/[^?#]*)?(?:[?#].*)?$/i.exec(
      trimmed,
    );
  return web ? (web[1] ?? '') : null;
}

/**
 * `text` as the catalog's key, or null when it names no GitHub repository (another host, an owner's page, a
 * gist, one of GitHub's own pages). Removed: the scheme's variants, `www.`, a user name, `.git`, trailing
 * slashes, a query or fragment, and everything after the repository (`tree/…`, `blob/…`, `issues`).
 *
 * @example
 * normalizeGithubUrl('git+https://github.com/Acme/Notes-MCP.git'); // 'https://github.com/acme/notes-mcp'
 * normalizeGithubUrl('https://github.com/acme/notes/tree/main/servers/a'); // 'https://github.com/acme/notes'
 * normalizeGithubUrl('https://gitlab.com/acme/notes'); // null
 */
export function normalizeGithubUrl(text: unknown): string | null {
  if (typeof text !== 'string' || text.length > 2048) return null;
  const path = pathAfterHost(text);
  if (path === null) return null;
  const [owner, rawRepo] = path.split('/').filter((part) => part !== '');
  if (owner === undefined || rawRepo === undefined) return null;
  const repo = rawRepo.replace(/\.git$/i, '');
  if (!OWNER.test(owner) || !REPO.test(repo) || repo === '.' || repo === '..') return null;
  if (RESERVED.has(owner.toLowerCase())) return null;
  return `${GITHUB_ORIGIN}/${owner.toLowerCase()}/${repo.toLowerCase()}`;
}
