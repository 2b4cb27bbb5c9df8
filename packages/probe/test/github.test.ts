// The GitHub REST reader against a loopback node:http server that answers in GitHub's format (fixtures in
// test/fixtures/github, written by hand after GitHub's documented answers): the five requests and the facts
// they give, the token (sent to the API's origin only, never returned), and every way the API can say no
// or misbehave: 404, a used-up rate limit, a refused token, an empty repository, oversized, too-deep,
// misshapen and slow answers.
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGitHubRepoUrl, readGitHubRepository } from '../src/github.js';
import {
  DEFAULT_GITHUB_API_URL,
  GITHUB_ANSWER_CAP_BYTES,
  GITHUB_COMMITS_PAGE_SIZE,
  GITHUB_RELEASES_PAGE_SIZE,
  GITHUB_TAGS_PAGE_SIZE,
  GITHUB_TIMEOUT_MS,
} from '../src/github-constants.js';
import { ProbeInputError } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { scaledClock } from './fixtures/env.js';
import { type LocalServer, sendJson, startRawServer } from './fixtures/servers.js';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/github/${name}.json`, import.meta.url), 'utf8'));
}

const REPO = fixture('repo') as Record<string, unknown>;
const TREE = fixture('tree');
const COMMITS = fixture('commits') as unknown[];
const RELEASES = fixture('releases') as Record<string, unknown>[];
const TAGS = fixture('tags');
const NOT_FOUND = fixture('not-found');
const RATE_LIMITED = fixture('rate-limited');
const EMPTY_REPOSITORY = fixture('empty-repository');
const TOKEN = 'ghp_fixtureToken0123456789abcdefABCDEF';
// 2026-12-02T13:00:00Z as GitHub writes x-ratelimit-reset: epoch seconds.
const RESET_EPOCH = '1796216400';

let api: LocalServer;
let elsewhere: LocalServer;
const network = { allowPrivate: true, httpClient: createNodeHttpClient };

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

// One repository's five answers; a missing one is the normal fixture.
function routesFor(name: string): Partial<Record<'repo' | 'tree' | 'commits' | 'releases' | 'tags', Answer>> {
  const json = (value: unknown, status = 200, headers: Record<string, string> = {}): Answer => {
    return (_req, res) => sendJson(res, status, value, headers);
  };
  const renamed = { ...REPO, full_name: `acme/${name}`, name };
  switch (name) {
    case 'empty':
      return {
        repo: json(renamed),
        tree: json(EMPTY_REPOSITORY, 409),
        commits: json(EMPTY_REPOSITORY, 409),
        releases: json([]),
        tags: json([]),
      };
    case 'missing':
      return { repo: json(NOT_FOUND, 404) };
    case 'limited':
      return {
        repo: json(RATE_LIMITED, 403, {
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': RESET_EPOCH,
        }),
      };
    case 'too-many':
      return { repo: json({ message: 'You have exceeded a secondary rate limit.' }, 429, { 'retry-after': '60' }) };
    case 'blocked':
      return { repo: json({ message: 'Repository access blocked' }, 403, { 'x-ratelimit-remaining': '4999' }) };
    case 'bad-token':
      return { repo: json({ message: 'Bad credentials' }, 401) };
    case 'limited-later':
      return {
        repo: json(renamed),
        commits: json(RATE_LIMITED, 403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': RESET_EPOCH }),
      };
    case 'server-error':
      return { repo: json(renamed), releases: json({ message: 'Server Error' }, 502) };
    case 'huge':
      return {
        repo: (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ...renamed, description: 'x'.repeat(GITHUB_ANSWER_CAP_BYTES + 1024) }));
        },
      };
    case 'deep':
      return {
        repo: json(renamed),
        releases: (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(`${'['.repeat(5000)}${']'.repeat(5000)}`);
        },
      };
    case 'misshapen':
      return { repo: json({ ...renamed, stargazers_count: 'many' }) };
    case 'bad-tree':
      return { repo: json(renamed), tree: json({ tree: [{ path: 42 }] }) };
    case 'long-lists':
      return {
        repo: json(renamed),
        commits: json(Array.from({ length: 45 }, (_, i) => COMMITS[i % COMMITS.length])),
        releases: json(Array.from({ length: 25 }, (_, i) => ({ ...RELEASES[0], tag_name: `v1.0.${i}` }))),
        tags: json(Array.from({ length: 25 }, (_, i) => ({ name: `v1.0.${i}` }))),
      };
    case 'echo':
      // A hostile API that writes the Authorization header it got into the answers.
      return {
        repo: (req, res) => sendJson(res, 200, { ...renamed, full_name: `acme/${req.headers.authorization}` }),
        releases: (req, res) =>
          sendJson(res, 200, [
            { ...RELEASES[0], tag_name: String(req.headers.authorization), body: `seen ${req.headers.authorization}` },
          ]),
      };
    case 'moved-away':
      return {
        repo: (_req, res) => {
          res.writeHead(301, { location: `${elsewhere.origin}/repos/acme/weather-mcp` });
          res.end();
        },
      };
    case 'moved-here':
      return {
        repo: (_req, res) => {
          res.writeHead(301, { location: '/repos/acme/weather-mcp' });
          res.end();
        },
      };
    case 'slow':
      return { repo: (_req, res) => setTimeout(() => sendJson(res, 200, renamed), 3_000).unref() };
    default:
      return {};
  }
}

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://loopback');
  const match = /^\/repos\/acme\/([^/]+)(\/.*)?$/.exec(url.pathname);
  if (match === null) {
    sendJson(res, 404, NOT_FOUND);
    return;
  }
  const [, name = '', rest = ''] = match;
  const routes = routesFor(name);
  const normal: Record<string, [string, unknown]> = {
    '': ['repo', REPO],
    '/git/trees/main': ['tree', TREE],
    '/commits': ['commits', COMMITS],
    '/releases': ['releases', RELEASES],
    '/tags': ['tags', TAGS],
  };
  const known = normal[rest];
  if (known === undefined) {
    sendJson(res, 404, NOT_FOUND);
    return;
  }
  const [kind, value] = known;
  const answer = routes[kind as keyof typeof routes];
  if (answer !== undefined) answer(req, res);
  else sendJson(res, 200, value);
}

beforeAll(async () => {
  api = await startRawServer((req, res) => handle(req, res), '/');
  elsewhere = await startRawServer((req, res) => handle(req, res), '/');
});

afterAll(async () => {
  await api.close();
  await elsewhere.close();
});

function read(name: string, extra: Record<string, unknown> = {}) {
  return readGitHubRepository(`https://github.com/acme/${name}`, { ...network, apiUrl: api.origin, ...extra });
}

describe('reading a repository', () => {
  it('reads the record, the tree and the first page of commits, releases and tags', async () => {
    const before = api.requests.length;
    const result = await read('weather-mcp');
    expect(result).toEqual({
      ok: true,
      owner: 'acme',
      repo: 'weather-mcp',
      facts: {
        fullName: 'acme/weather-mcp',
        defaultBranch: 'main',
        archived: false,
        pushedAt: '2026-11-29T08:00:00Z',
        stars: 1500,
        forks: 80,
        openIssues: 20,
        license: { spdxId: 'MIT', name: 'MIT License' },
        paths: (TREE as { tree: { path: string }[] }).tree.map((entry) => entry.path),
        treeTruncated: false,
        recentCommits: 12,
        releases: [
          {
            tagName: 'v2.3.0',
            publishedAt: '2026-11-20T10:00:00Z',
            body: '## Fixes\n- forecast units',
            prerelease: false,
          },
          { tagName: 'v2.3.0-rc.1', publishedAt: '2026-11-10T10:00:00Z', body: '', prerelease: true },
          { tagName: 'v2.2.0', publishedAt: '2026-09-01T10:00:00Z', body: 'Adds the alerts tool', prerelease: false },
          { tagName: 'v2.1.0', publishedAt: '2026-06-01T10:00:00Z', body: '', prerelease: false },
        ],
        tags: ['v2.3.0', 'v2.3.0-rc.1', 'v2.2.0', 'v2.1.0', 'v2.0.0'],
      },
      emptyLists: [],
      requests: 5,
    });
    const sent = api.requests.slice(before);
    expect(sent.map((r) => r.path)).toEqual([
      '/repos/acme/weather-mcp',
      '/repos/acme/weather-mcp/git/trees/main?recursive=1',
      `/repos/acme/weather-mcp/commits?per_page=${GITHUB_COMMITS_PAGE_SIZE}`,
      `/repos/acme/weather-mcp/releases?per_page=${GITHUB_RELEASES_PAGE_SIZE}`,
      `/repos/acme/weather-mcp/tags?per_page=${GITHUB_TAGS_PAGE_SIZE}`,
    ]);
    for (const request of sent) {
      expect(request.method).toBe('GET');
      expect(request.headers.accept).toBe('application/vnd.github+json');
      expect(request.headers['x-github-api-version']).toBe('2022-11-28');
      expect(request.headers['user-agent']).toMatch(/^mcp-atlas-bot\//);
      expect(request.headers.authorization).toBeUndefined();
    }
    expect(await api.waitForNoSockets()).toBe(0);
  });

  it('counts the lists of an empty repository (409) as empty', async () => {
    const result = await read('empty');
    expect(result).toMatchObject({
      ok: true,
      facts: { fullName: 'acme/empty', paths: [], recentCommits: 0, releases: [], tags: [] },
      emptyLists: ['tree', 'commits'],
    });
  });

  it('keeps no more than one page of commits, releases and tags', async () => {
    const result = await read('long-lists');
    if (!result.ok) throw new Error(result.message);
    expect(result.facts.recentCommits).toBe(GITHUB_COMMITS_PAGE_SIZE);
    expect(result.facts.releases).toHaveLength(GITHUB_RELEASES_PAGE_SIZE);
    expect(result.facts.tags).toEqual(Array.from({ length: GITHUB_TAGS_PAGE_SIZE }, (_, i) => `v1.0.${i}`));
  });
});

describe('the token', () => {
  it('reaches the API on every request as a Bearer token', async () => {
    const before = api.requests.length;
    const result = await read('weather-mcp', { token: TOKEN });
    expect(result.ok).toBe(true);
    const sent = api.requests.slice(before);
    expect(sent).toHaveLength(5);
    for (const request of sent) expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('appears in no returned value, even when the answers echo it back', async () => {
    const result = await read('echo', { token: TOKEN });
    expect(api.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(result).toMatchObject({
      ok: true,
      facts: {
        fullName: 'acme/Bearer [token]',
        releases: [{ tagName: 'Bearer [token]', body: 'seen Bearer [token]' }],
      },
    });
    // And in no failure either.
    const failed = await read('missing', { token: TOKEN });
    expect(JSON.stringify(failed)).not.toContain(TOKEN);
  });

  it('follows a redirect to another origin without it, and keeps it on the same origin', async () => {
    const away = await read('moved-away', { token: TOKEN });
    expect(away).toMatchObject({ ok: true, facts: { fullName: 'acme/weather-mcp' } });
    expect(elsewhere.requests.at(0)?.path).toBe('/repos/acme/weather-mcp');
    expect(elsewhere.requests.at(0)?.headers.authorization).toBeUndefined();
    const before = api.requests.length;
    const here = await read('moved-here', { token: TOKEN });
    expect(here).toMatchObject({ ok: true, requests: 6 });
    expect(api.requests.slice(before, before + 2).map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/repos/acme/moved-here', `Bearer ${TOKEN}`],
      ['/repos/acme/weather-mcp', `Bearer ${TOKEN}`],
    ]);
  });

  it('is refused when it is not a usable header value', async () => {
    for (const token of ['', 'two words', 'line\nbreak', 'x'.repeat(1025), 42]) {
      await expect(read('weather-mcp', { token })).rejects.toBeInstanceOf(ProbeInputError);
    }
  });
});

describe('when GitHub says no', () => {
  it('says so for a repository that does not exist', async () => {
    expect(await read('missing')).toEqual({
      ok: false,
      owner: 'acme',
      repo: 'missing',
      reason: 'not-found',
      message: 'GitHub has no repository acme/missing, or it is private (HTTP 404)',
      url: `${api.origin}/repos/acme/missing`,
      httpStatus: 404,
      rateLimitResetAt: null,
    });
  });

  it('tells a used-up rate limit (403 with none remaining, or 429) from a refused token', async () => {
    expect(await read('limited')).toMatchObject({
      ok: false,
      reason: 'rate-limited',
      httpStatus: 403,
      rateLimitResetAt: '2026-12-02T13:00:00.000Z',
    });
    expect(await read('too-many')).toMatchObject({
      ok: false,
      reason: 'rate-limited',
      httpStatus: 429,
      rateLimitResetAt: null,
    });
    expect(await read('blocked')).toMatchObject({ ok: false, reason: 'access-denied', httpStatus: 403 });
    expect(await read('bad-token')).toMatchObject({ ok: false, reason: 'access-denied', httpStatus: 401 });
  });

  it('gives no facts when a later list fails, so the dimensions stay pending rather than wrong', async () => {
    expect(await read('limited-later')).toMatchObject({
      ok: false,
      reason: 'rate-limited',
      url: `${api.origin}/repos/acme/limited-later/commits?per_page=30`,
    });
    expect(await read('server-error')).toMatchObject({ ok: false, reason: 'http-status', httpStatus: 502 });
  });
});

describe('hostile or broken answers', () => {
  it('stops reading an answer over the cap', async () => {
    expect(await read('huge')).toMatchObject({ ok: false, reason: 'too-large', httpStatus: 200 });
    expect(await api.waitForNoSockets()).toBe(0);
  });

  it('refuses JSON nested too deep without parsing it', async () => {
    expect(await read('deep')).toMatchObject({
      ok: false,
      reason: 'too-deep',
      url: `${api.origin}/repos/acme/deep/releases?per_page=10`,
    });
  });

  it('refuses answers that are not in GitHub shape', async () => {
    expect(await read('misshapen')).toMatchObject({ ok: false, reason: 'unexpected-answer' });
    expect(await read('bad-tree')).toMatchObject({ ok: false, reason: 'unexpected-answer' });
  });

  it('gives up on an answer that does not come within the time limit', async () => {
    const clock = scaledClock(20);
    const result = await read('slow', { clock });
    expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    expect(clock.requested).toContain(GITHUB_TIMEOUT_MS);
  });
});

describe('addresses', () => {
  it('reads owner and repository from GitHub URLs only', () => {
    expect(parseGitHubRepoUrl('https://github.com/acme/weather-mcp')).toEqual({ owner: 'acme', repo: 'weather-mcp' });
    expect(parseGitHubRepoUrl('https://github.com/acme/weather-mcp.git')).toEqual({
      owner: 'acme',
      repo: 'weather-mcp',
    });
    expect(parseGitHubRepoUrl('https://www.github.com/Acme/x.y/tree/main/src/')).toEqual({
      owner: 'Acme',
      repo: 'x.y',
    });
    for (const bad of [
      'https://gitlab.com/acme/x',
      'https://github.com/acme',
      'https://github.com.evil.example/acme/x',
      'https://user:pass@github.com/acme/x',
      'https://github.com/-acme/x',
      'https://github.com/acme/..',
      'ftp://github.com/acme/x',
      'not a url',
      42,
    ])
      expect(parseGitHubRepoUrl(bad), String(bad)).toBeNull();
  });

  it('sends nothing for a URL that is not a GitHub repository', async () => {
    const before = api.requests.length;
    expect(await read('x/../../etc')).toMatchObject({ ok: false, reason: 'not-github-url' });
    const result = await readGitHubRepository('https://gitlab.com/acme/x', { ...network, apiUrl: api.origin });
    expect(result).toMatchObject({ ok: false, reason: 'not-github-url', owner: null, url: null });
    expect(api.requests.length).toBe(before);
  });

  it('defaults to api.github.com and refuses a base URL with a query', async () => {
    expect(DEFAULT_GITHUB_API_URL).toBe('https://api.github.com');
    await expect(read('weather-mcp', { apiUrl: 'https://api.example.com/?x=1' })).rejects.toBeInstanceOf(
      ProbeInputError,
    );
  });

  it('keeps the guard: a loopback API is refused unless private addresses are allowed', async () => {
    const result = await readGitHubRepository('https://github.com/acme/weather-mcp', {
      httpClient: createNodeHttpClient,
      apiUrl: api.origin,
      lookup: async () => ['127.0.0.1'],
    });
    expect(result).toMatchObject({ ok: false });
    if (result.ok) throw new Error('unreachable');
    expect(result.reason).toMatch(/^guard:/);
  });
});
