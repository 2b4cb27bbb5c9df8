// Runtime-neutral module (network only through the injected client): the facts about a GitHub repository
// that the quality score's repository dimensions need, read from the GitHub REST API with the probe's
// guard, DNS pinning, time limit and size caps (through requestOutsideJson, like every outside reader). The
// token, when given, is sent only to the API's own origin and never appears in a result.
import { describeType } from '@mcp-atlas/base';
import { z } from 'zod';
import { ProbeInputError } from './errors.js';
import {
  DEFAULT_GITHUB_API_URL,
  GITHUB_ACCEPT,
  GITHUB_ANSWER_CAP_BYTES,
  GITHUB_API_VERSION,
  GITHUB_COMMITS_PAGE_SIZE,
  GITHUB_MAX_REDIRECTS,
  GITHUB_RATE_LIMIT_HEADERS,
  GITHUB_RELEASES_PAGE_SIZE,
  GITHUB_TAGS_PAGE_SIZE,
  GITHUB_TEXT_MAX_LENGTH,
  GITHUB_TIMEOUT_MS,
  GITHUB_TOKEN_MAX_LENGTH,
  GITHUB_TREE_CAP_BYTES,
} from './github-constants.js';
import { type NetworkOptions, type NetworkSettings, resolveNetworkSettings } from './options.js';
import {
  normalizeBaseUrl,
  type OutsideAnswer,
  type OutsideFailureReason,
  redactSecrets,
  requestOutsideJson,
} from './outside-request.js';

/** Options of `readGitHubRepository`. */
export interface GitHubReadOptions extends NetworkOptions {
  /** The REST API's base URL. Default https://api.github.com. */
  apiUrl?: string;
  /**
   * A GitHub token, sent as `Authorization: Bearer <token>` to the API's own origin only (never to a
   * host a redirect points elsewhere). It is never logged and never part of a result. Without one,
   * GitHub allows 60 requests an hour; a read takes five.
   */
  token?: string;
}

/** One release as the reader returns it (newest first). */
export interface GitHubRelease {
  tagName: string;
  publishedAt: string | null;
  body: string;
  prerelease: boolean;
}

/**
 * The facts read about a repository. The same fields as `RepositoryFacts` of `@mcp-atlas/score` (kept
 * structural so neither package depends on the other): pass them to `analyzeRepository` as they are.
 */
export interface GitHubRepositoryFacts {
  /** `owner/name` as GitHub spells it now (a renamed repository gives its new name). */
  fullName: string;
  defaultBranch: string;
  archived: boolean;
  pushedAt: string | null;
  stars: number;
  forks: number;
  openIssues: number;
  license: { spdxId: string | null; name: string | null } | null;
  /** Every path of the default branch's tree; empty for an empty repository. */
  paths: string[];
  treeTruncated: boolean;
  /** Commits on the first page of the commit list (at most GITHUB_COMMITS_PAGE_SIZE). */
  recentCommits: number;
  /** At most GITHUB_RELEASES_PAGE_SIZE, newest first. */
  releases: GitHubRelease[];
  /** At most GITHUB_TAGS_PAGE_SIZE tag names. */
  tags: string[];
}

/** Why a repository read gave no facts. */
export type GitHubFailureReason =
  | OutsideFailureReason
  /** The URL is not `https://github.com/<owner>/<repo>`; nothing was sent. */
  | 'not-github-url'
  /** The API answered 404: no such repository, or a private one the token cannot see. */
  | 'not-found'
  /** The API's rate limit is used up (or a secondary limit hit); try again after `rateLimitResetAt`. */
  | 'rate-limited'
  /** The API answered 401 or 403 for another reason: a token it refuses, or a repository it blocks. */
  | 'access-denied';

/** What `readGitHubRepository` found: the facts, or why there are none (the dimensions then stay pending). */
export type GitHubRepositoryRead =
  | {
      ok: true;
      owner: string;
      repo: string;
      facts: GitHubRepositoryFacts;
      /**
       * Lists the API answered 404 or 409 for (an empty repository has no tree and no commits); each
       * counts as empty, as the scoring engine counts them.
       */
      emptyLists: ('tree' | 'commits' | 'releases' | 'tags')[];
      /** Requests sent, redirect hops included. */
      requests: number;
    }
  | {
      ok: false;
      owner: string | null;
      repo: string | null;
      reason: GitHubFailureReason;
      message: string;
      /** The URL asked (never with the token), or null when nothing was asked. */
      url: string | null;
      httpStatus: number | null;
      /** When GitHub says the rate limit resets (ISO time), or null. */
      rateLimitResetAt: string | null;
    };

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;
const GITHUB_HOSTS = new Set(['github.com', 'www.github.com']);

/**
 * The owner and repository of a GitHub repository URL (`https://github.com/<owner>/<repo>`, with or
 * without `.git`, a trailing slash or a deeper path such as `/tree/main`), or null for anything else.
 *
 * @example parseGitHubRepoUrl('https://github.com/acme/weather-mcp.git') // { owner: 'acme', repo: 'weather-mcp' }
 */
export function parseGitHubRepoUrl(url: unknown): { owner: string; repo: string } | null {
  if (typeof url !== 'string') return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (!GITHUB_HOSTS.has(parsed.hostname.toLowerCase()) || parsed.username !== '' || parsed.password !== '') return null;
  const [owner = '', rawRepo = ''] = parsed.pathname.split('/').filter((part) => part !== '');
  const repo = rawRepo.endsWith('.git') ? rawRepo.slice(0, -4) : rawRepo;
  if (!OWNER.test(owner) || !REPO.test(repo) || repo === '.' || repo === '..') return null;
  return { owner, repo };
}

function checkToken(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.trim() === '')
    throw new ProbeInputError(
      'invalid-option',
      `token must be a non-empty string, got ${describeType(value, { article: true })}`,
    );
  if (value.length > GITHUB_TOKEN_MAX_LENGTH || /[\x00-\x20\x7f]/.test(value))
    throw new ProbeInputError(
      'invalid-option',
      `token must be at most ${GITHUB_TOKEN_MAX_LENGTH} characters with no spaces or control characters`,
    );
  return value;
}

// ---------------------------------------------------------------------------------------------------
// One request
// ---------------------------------------------------------------------------------------------------

interface RequestContext {
  readonly network: NetworkSettings;
  /** The API version, and the token as a Bearer credential (sent to the API's own origin only). */
  readonly headers: Readonly<Record<string, string>>;
  requests: number;
}

function headersFor(token: string | null): Record<string, string> {
  const headers: Record<string, string> = { 'x-github-api-version': GITHUB_API_VERSION };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return headers;
}

// Every URL asked starts with the API's base, so requestOutsideJson's rule (credentials to the first URL's
// origin only) keeps the token on the API's origin and drops it on a redirect elsewhere.
async function requestGitHubJson(url: string, capBytes: number, context: RequestContext): Promise<OutsideAnswer> {
  const answer = await requestOutsideJson(
    {
      url,
      method: 'GET',
      accept: GITHUB_ACCEPT,
      timeoutMs: GITHUB_TIMEOUT_MS,
      capBytes,
      maxRedirects: GITHUB_MAX_REDIRECTS,
      headers: context.headers,
      responseHeaders: GITHUB_RATE_LIMIT_HEADERS,
    },
    context.network,
  );
  context.requests += answer.requests;
  return answer;
}

// ---------------------------------------------------------------------------------------------------
// The answers' shapes (only the fields read)
// ---------------------------------------------------------------------------------------------------

const TEXT = z.string().max(GITHUB_TEXT_MAX_LENGTH);
const COUNT = z.number().int().nonnegative();

/** The part of `GET /repos/{owner}/{repo}` read here. */
export const GitHubRepoRecordSchema = z.looseObject({
  full_name: TEXT,
  default_branch: TEXT.min(1),
  archived: z.boolean().optional(),
  pushed_at: TEXT.nullable().optional(),
  stargazers_count: COUNT,
  forks_count: COUNT,
  open_issues_count: COUNT,
  license: z
    .looseObject({ spdx_id: TEXT.nullable().optional(), name: TEXT.nullable().optional() })
    .nullable()
    .optional(),
});

/** The part of `GET /repos/{owner}/{repo}/git/trees/{branch}?recursive=1` read here. */
export const GitHubTreeSchema = z.looseObject({
  tree: z.array(z.looseObject({ path: TEXT })),
  truncated: z.boolean().optional(),
});

/** The part of one entry of `GET /repos/{owner}/{repo}/releases` read here. */
export const GitHubReleaseEntrySchema = z.looseObject({
  tag_name: TEXT.nullable().optional(),
  published_at: TEXT.nullable().optional(),
  body: z.string().nullable().optional(),
  prerelease: z.boolean().nullable().optional(),
});

/** The part of one entry of `GET /repos/{owner}/{repo}/tags` read here. */
export const GitHubTagEntrySchema = z.looseObject({ name: TEXT });

const LIST = z.array(z.unknown());

function issueOf(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.message ?? 'invalid'} at ${issue?.path.join('.') || 'the top'}`;
}

// ---------------------------------------------------------------------------------------------------
// The read
// ---------------------------------------------------------------------------------------------------

type Failure = Extract<GitHubRepositoryRead, { ok: false }>;

function isoFromEpochSeconds(text: string | null): string | null {
  if (text === null || !/^\d{1,12}$/.test(text.trim())) return null;
  const date = new Date(Number(text.trim()) * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

// Maps a failed answer to the read's failure, telling a used-up rate limit from a refused token.
function failureOf(answer: Extract<OutsideAnswer, { ok: false }>, owner: string, repo: string, what: string): Failure {
  const base = {
    ok: false as const,
    owner,
    repo,
    url: answer.url,
    httpStatus: answer.httpStatus,
    rateLimitResetAt: null,
  };
  const status = answer.httpStatus;
  // A 403 or 429 always came with an answer, whose rate-limit headers requestGitHubJson asked back.
  const rate = answer.headers ?? {};
  if (status === 403 || status === 429) {
    const limited =
      status === 429 || rate['x-ratelimit-remaining']?.trim() === '0' || rate['retry-after'] !== undefined;
    if (limited) {
      const resetAt = isoFromEpochSeconds(rate['x-ratelimit-reset'] ?? null);
      return {
        ...base,
        reason: 'rate-limited',
        message: `GitHub's rate limit is used up${resetAt === null ? '' : ` until ${resetAt}`} (HTTP ${status}); the repository dimensions stay pending`,
        rateLimitResetAt: resetAt,
      };
    }
  }
  if (status === 401 || status === 403)
    return {
      ...base,
      reason: 'access-denied',
      message: `GitHub refused to show the ${what} (HTTP ${status}): check the token`,
    };
  if (status === 404)
    return {
      ...base,
      reason: 'not-found',
      message: `GitHub has no repository ${owner}/${repo}, or it is private (HTTP 404)`,
    };
  return { ...base, reason: answer.reason, message: `the ${what}: ${answer.message}` };
}

// A list the API answers 404 or 409 for is empty (409: "Git Repository is empty"), as the engine counts it.
const EMPTY_LIST_STATUSES: ReadonlySet<number> = new Set([404, 409]);

/**
 * Reads what the repository dimensions of the quality score need about a GitHub repository: the
 * repository record, the default branch's file tree, and the first page of commits, releases and tags
 * (five requests). Never throws for what GitHub (or the network) does: a repository that does not
 * exist, a used-up rate limit, a refused token, an oversized or too-deep answer all come back as a
 * reason, and the repository dimensions then stay pending. Throws ProbeInputError for bad options.
 *
 * @example
 * const read = await readGitHubRepository('https://github.com/acme/weather-mcp', { ...nodeNetwork, token });
 * if (read.ok) analyzeRepository(read.facts, { now });
 */
export async function readGitHubRepository(url: string, options?: GitHubReadOptions): Promise<GitHubRepositoryRead> {
  const apiBase = normalizeBaseUrl(options?.apiUrl ?? DEFAULT_GITHUB_API_URL);
  if (apiBase === null)
    throw new ProbeInputError(
      'invalid-origin',
      `apiUrl must be an absolute http(s) URL without query, got ${String(options?.apiUrl).slice(0, 100)}`,
    );
  const token = checkToken(options?.token);
  const network = resolveNetworkSettings(options);
  const named = parseGitHubRepoUrl(url);
  if (named === null) {
    return {
      ok: false,
      owner: null,
      repo: null,
      reason: 'not-github-url',
      message: `${JSON.stringify(String(url).slice(0, 200))} is not a https://github.com/<owner>/<repo> URL`,
      url: null,
      httpStatus: null,
      rateLimitResetAt: null,
    };
  }
  const { owner, repo } = named;
  const context: RequestContext = { network, headers: headersFor(token), requests: 0 };
  const result = await readAll(apiBase, owner, repo, context);
  // The answers come back redacted already; this also covers what the reader wrote itself.
  return redactSecrets(result, token === null ? [] : [token]);
}

async function readAll(
  apiBase: string,
  owner: string,
  repo: string,
  context: RequestContext,
): Promise<GitHubRepositoryRead> {
  const repoPath = `${apiBase}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  const unexpected = (answerUrl: string, status: number, what: string, detail: string): Failure => ({
    ok: false,
    owner,
    repo,
    reason: 'unexpected-answer',
    message: `the ${what} is not in GitHub's shape: ${detail}`,
    url: answerUrl,
    httpStatus: status,
    rateLimitResetAt: null,
  });

  const recordAnswer = await requestGitHubJson(repoPath, GITHUB_ANSWER_CAP_BYTES, context);
  if (!recordAnswer.ok) return failureOf(recordAnswer, owner, repo, 'repository');
  const record = GitHubRepoRecordSchema.safeParse(recordAnswer.json);
  if (!record.success)
    return unexpected(recordAnswer.url, recordAnswer.status, 'repository record', issueOf(record.error));

  const emptyLists: ('tree' | 'commits' | 'releases' | 'tags')[] = [];
  // Reads one list; null means "counts as empty", a Failure ends the whole read.
  const readList = async (
    name: 'tree' | 'commits' | 'releases' | 'tags',
    listUrl: string,
    cap: number,
  ): Promise<{ json: unknown; url: string; status: number } | null | Failure> => {
    const answer = await requestGitHubJson(listUrl, cap, context);
    if (answer.ok) return answer;
    if (answer.httpStatus !== null && EMPTY_LIST_STATUSES.has(answer.httpStatus) && answer.reason === 'http-status') {
      emptyLists.push(name);
      return null;
    }
    return failureOf(answer, owner, repo, name === 'tree' ? 'file tree' : `list of ${name}`);
  };
  const isFailure = (value: unknown): value is Failure =>
    value !== null && typeof value === 'object' && (value as { ok?: unknown }).ok === false;

  const branch = encodeURIComponent(record.data.default_branch);
  const treeAnswer = await readList('tree', `${repoPath}/git/trees/${branch}?recursive=1`, GITHUB_TREE_CAP_BYTES);
  if (isFailure(treeAnswer)) return treeAnswer;
  let paths: string[] = [];
  let treeTruncated = false;
  if (treeAnswer !== null) {
    const tree = GitHubTreeSchema.safeParse(treeAnswer.json);
    if (!tree.success) return unexpected(treeAnswer.url, treeAnswer.status, 'file tree', issueOf(tree.error));
    paths = tree.data.tree.map((entry) => entry.path);
    treeTruncated = tree.data.truncated === true;
  }

  const commitsAnswer = await readList(
    'commits',
    `${repoPath}/commits?per_page=${GITHUB_COMMITS_PAGE_SIZE}`,
    GITHUB_ANSWER_CAP_BYTES,
  );
  if (isFailure(commitsAnswer)) return commitsAnswer;
  let recentCommits = 0;
  if (commitsAnswer !== null) {
    const list = LIST.safeParse(commitsAnswer.json);
    if (!list.success)
      return unexpected(commitsAnswer.url, commitsAnswer.status, 'list of commits', issueOf(list.error));
    recentCommits = Math.min(list.data.length, GITHUB_COMMITS_PAGE_SIZE);
  }

  const releasesAnswer = await readList(
    'releases',
    `${repoPath}/releases?per_page=${GITHUB_RELEASES_PAGE_SIZE}`,
    GITHUB_ANSWER_CAP_BYTES,
  );
  if (isFailure(releasesAnswer)) return releasesAnswer;
  let releases: GitHubRelease[] = [];
  if (releasesAnswer !== null) {
    const list = z.array(GitHubReleaseEntrySchema).safeParse(releasesAnswer.json);
    if (!list.success)
      return unexpected(releasesAnswer.url, releasesAnswer.status, 'list of releases', issueOf(list.error));
    releases = list.data.slice(0, GITHUB_RELEASES_PAGE_SIZE).map((entry) => ({
      tagName: entry.tag_name ?? '',
      publishedAt: entry.published_at ?? null,
      body: entry.body ?? '',
      prerelease: entry.prerelease === true,
    }));
  }

  const tagsAnswer = await readList(
    'tags',
    `${repoPath}/tags?per_page=${GITHUB_TAGS_PAGE_SIZE}`,
    GITHUB_ANSWER_CAP_BYTES,
  );
  if (isFailure(tagsAnswer)) return tagsAnswer;
  let tags: string[] = [];
  if (tagsAnswer !== null) {
    const list = z.array(GitHubTagEntrySchema).safeParse(tagsAnswer.json);
    if (!list.success) return unexpected(tagsAnswer.url, tagsAnswer.status, 'list of tags', issueOf(list.error));
    tags = list.data.slice(0, GITHUB_TAGS_PAGE_SIZE).map((entry) => entry.name);
  }

  const data = record.data;
  const license =
    data.license === null || data.license === undefined
      ? null
      : { spdxId: data.license.spdx_id ?? null, name: data.license.name ?? null };
  return {
    ok: true,
    owner,
    repo,
    facts: {
      fullName: data.full_name,
      defaultBranch: data.default_branch,
      archived: data.archived === true,
      pushedAt: data.pushed_at ?? null,
      stars: data.stargazers_count,
      forks: data.forks_count,
      openIssues: data.open_issues_count,
      license,
      paths,
      treeTruncated,
      recentCommits,
      releases,
      tags,
    },
    emptyLists,
    requests: context.requests,
  };
}
