// Pure module: the address, time limit, size caps and page sizes of the GitHub REST API reader (github.ts).
// Like outside-constants.ts, it holds every number of that reader and nothing else does.

/** The GitHub REST API; GitHub Enterprise Server or a test server can replace it through `apiUrl`. */
export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

/** The `Accept` header GitHub documents for its REST API. */
export const GITHUB_ACCEPT = 'application/vnd.github+json';

/** The REST API version asked for (sent as `X-GitHub-Api-Version`). */
export const GITHUB_API_VERSION = '2022-11-28';

/**
 * The answer headers by which GitHub says a rate limit is used up, asked back from every request:
 * `x-ratelimit-remaining` (0 when the hourly limit is spent), `x-ratelimit-reset` (when it fills again, in epoch
 * seconds) and `retry-after` (the seconds a secondary limit asks to wait).
 */
export const GITHUB_RATE_LIMIT_HEADERS: readonly string[] = Object.freeze([
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
]);

/** One request to the API, redirect hops included (the scoring engine 0.9.0 allows 20 s too). */
export const GITHUB_TIMEOUT_MS = 20_000;

/**
 * One answer of the repository record, commits, releases or tags. Ten releases with long notes are the
 * largest of these in practice (GitHub allows 125,000 characters of notes each).
 */
export const GITHUB_ANSWER_CAP_BYTES = 4 * 1024 * 1024;

/** The default branch's recursive tree; GitHub itself stops at 100,000 entries and about 7 MB. */
export const GITHUB_TREE_CAP_BYTES = 16 * 1024 * 1024;

/** Redirect hops followed: GitHub answers a renamed or moved repository with a 301 to its new address. */
export const GITHUB_MAX_REDIRECTS = 2;

/** Commits asked for (the engine's `per_page`): the first page's length is the recent-commit count. */
export const GITHUB_COMMITS_PAGE_SIZE = 30;

/** Releases asked for (the engine's `per_page`); a longer answer is cut to this many. */
export const GITHUB_RELEASES_PAGE_SIZE = 10;

/** Tags asked for (the engine's `per_page`); a longer answer is cut to this many. */
export const GITHUB_TAGS_PAGE_SIZE = 10;

/** A token longer than this is refused as a caller's mistake (real GitHub tokens are under 300 characters). */
export const GITHUB_TOKEN_MAX_LENGTH = 1024;

/** A path, tag or name longer than this in an answer makes the answer unusable. */
export const GITHUB_TEXT_MAX_LENGTH = 4096;
