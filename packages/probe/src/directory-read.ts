// Runtime-neutral module (no node: imports; network only through the injected client): reading one directory's
// whole list for the day's catalog. Every page goes through the outside-service request (the guard, address
// pinning, the time limit and size cap); a 429, or a 503 that names a wait, is waited out and asked again a
// bounded number of times; a page that cannot be read or is not in the directory's shape ends the read and marks
// the list cut, so the catalog merge never takes a part for the whole.
import type { SourceEntry, SourceName, SourceRead } from '@mcp-atlas/discovery';
import type { ProbeClock } from './clock.js';
import {
  DIRECTORY_DEFAULTS,
  DIRECTORY_MAX_PAGES,
  DIRECTORY_MAX_REDIRECTS,
  DIRECTORY_PAGE_CAP_BYTES,
  DIRECTORY_PAGE_TIMEOUT_MS,
  DIRECTORY_RATE_LIMIT_DEFAULT_WAIT_MS,
  DIRECTORY_RATE_LIMIT_RETRIES,
  DIRECTORY_RATE_LIMIT_WAIT_MAX_MS,
} from './directory-constants.js';
import { DIRECTORY_FORMATS, type DirectoryFormat, type PageRequest } from './directory-formats.js';
import { ProbeInputError } from './errors.js';
import { type NetworkOptions, type NetworkSettings, resolveNetworkSettings } from './options.js';
import { normalizeBaseUrl, requestOutsideJson } from './outside-request.js';
import { parseRetryAfter } from './retry-after.js';

/** Options of `readDirectory`. */
export interface DirectoryReadOptions extends NetworkOptions {
  /** The directory's base URL; default its public one (DIRECTORY_RULES.defaults). */
  baseUrl?: string;
  /**
   * The directory's token, sent to the base URL's origin only (`Authorization: Bearer`, or PulseMCP's
   * `X-API-Key`). It never appears in a result.
   */
  token?: string;
}

/** One directory's read: what `mergeCatalog` takes, plus what happened. */
export interface DirectoryRead extends SourceRead {
  /** Pages answered and read. */
  pages: number;
  /** Requests sent, retries and redirects included. */
  requests: number;
  /** Milliseconds spent waiting on rate limits. */
  waitedMs: number;
  /** Why the list is cut or missing; null when it was read whole. */
  note: string | null;
}

const RATE_HEADERS = ['retry-after', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

type PageGot = { ok: true; body: unknown; headers: Readonly<Record<string, string>> } | { ok: false; message: string };

function waitOn(clock: ProbeClock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', done);
      resolve();
    }, ms);
    const done = (): void => {
      clock.clearTimeout(handle);
      resolve();
    };
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The wait a rate-limited answer asks for: Retry-After, else GitHub's reset time, else the default. */
function rateLimitWait(headers: Readonly<Record<string, string>>): number {
  const now = Date.now();
  const asked = parseRetryAfter(headers['retry-after'] ?? null, now);
  if (asked !== null) return asked;
  const reset = Number(headers['x-ratelimit-reset']);
  if (headers['x-ratelimit-remaining']?.trim() === '0' && Number.isFinite(reset))
    return Math.max(0, reset * 1000 - now);
  return DIRECTORY_RATE_LIMIT_DEFAULT_WAIT_MS;
}

function isRateLimited(status: number | null, headers: Readonly<Record<string, string>>): boolean {
  if (status === 429) return true;
  if (status === 503) return headers['retry-after'] !== undefined;
  return status === 403 && headers['x-ratelimit-remaining']?.trim() === '0';
}

/** A reader of one directory's pages, counting requests and waits. */
class PageReader {
  requests = 0;
  waitedMs = 0;

  constructor(
    private readonly format: DirectoryFormat,
    private readonly network: NetworkSettings,
    private readonly tokenOrigin: string,
    private readonly token: string | undefined,
  ) {}

  async get(request: PageRequest): Promise<PageGot> {
    const sameOrigin = new URL(request.url).origin === this.tokenOrigin;
    const headers = this.token !== undefined && sameOrigin ? this.format.tokenHeaders(this.token) : {};
    for (let retries = 0; ; retries++) {
      const answer = await requestOutsideJson(
        {
          url: request.url,
          method: 'GET',
          accept: request.kind === 'json' ? 'application/json' : 'text/plain, text/markdown, text/csv, */*',
          timeoutMs: DIRECTORY_PAGE_TIMEOUT_MS,
          capBytes: DIRECTORY_PAGE_CAP_BYTES,
          maxRedirects: DIRECTORY_MAX_REDIRECTS,
          headers,
          responseHeaders: [...RATE_HEADERS, ...(this.format.answerHeaders ?? [])],
          text: request.kind === 'text',
        },
        this.network,
      );
      this.requests += answer.requests;
      const answerHeaders = answer.headers ?? {};
      if (answer.ok) return { ok: true, body: answer.json, headers: answerHeaders };
      if (!isRateLimited(answer.httpStatus, answerHeaders)) return { ok: false, message: answer.message };
      if (retries >= DIRECTORY_RATE_LIMIT_RETRIES)
        return { ok: false, message: `still rate-limited after ${DIRECTORY_RATE_LIMIT_RETRIES} retries` };
      const waitMs = rateLimitWait(answerHeaders);
      if (waitMs > DIRECTORY_RATE_LIMIT_WAIT_MAX_MS)
        return {
          ok: false,
          message: `rate-limited, asked to wait ${Math.ceil(waitMs / 1000)} s, over the ${DIRECTORY_RATE_LIMIT_WAIT_MAX_MS / 1000} s honoured`,
        };
      await waitOn(this.network.clock, waitMs, this.network.signal);
      this.waitedMs += waitMs;
      if (this.network.signal?.aborted === true) return { ok: false, message: 'the read was aborted' };
    }
  }
}

function checkedBase(source: SourceName, baseUrl: unknown): string {
  const base = normalizeBaseUrl(baseUrl ?? DIRECTORY_DEFAULTS[source].baseUrl);
  if (base === null)
    throw new ProbeInputError('invalid-origin', `baseUrl of ${source} must be an absolute http or https URL`);
  return base;
}

/**
 * Reads one directory's whole list, page by page, in its own public format. Never throws for what the
 * directory does: a page that fails, is over the cap, is not in the documented shape, or stays rate-limited
 * ends the read with `truncated` (or `failed` when nothing was read), and `note` says why. Throws
 * ProbeInputError for an unknown source or an unusable base URL, before anything is sent.
 *
 * @example
 * const glama = await readDirectory('glama', { ...nodeNetwork });
 * const { servers } = mergeCatalog(previous, [glama], '2026-12-07');
 */
export async function readDirectory(source: SourceName, options?: DirectoryReadOptions): Promise<DirectoryRead> {
  const format = Object.hasOwn(DIRECTORY_FORMATS, source) ? DIRECTORY_FORMATS[source] : undefined;
  if (format === undefined)
    throw new ProbeInputError('invalid-option', `unknown directory: ${String(source).slice(0, 60)}`);
  const base = checkedBase(source, options?.baseUrl);
  const token = typeof options?.token === 'string' && options.token.trim() !== '' ? options.token.trim() : undefined;
  const reader = new PageReader(format, resolveNetworkSettings(options), new URL(base).origin, token);
  const entries = new Map<string, SourceEntry>();
  let pages = 0;
  let note: string | null = null;
  let stopped = false;
  chains: for (const start of format.first(base)) {
    const seen = new Set<string>();
    for (let request: PageRequest | null = start; request !== null; ) {
      if (pages >= DIRECTORY_MAX_PAGES) {
        note = `more than ${DIRECTORY_MAX_PAGES} pages`;
        stopped = true;
        break chains;
      }
      seen.add(request.url);
      const got = await reader.get(request);
      if (!got.ok) {
        note = `page ${pages + 1}: ${got.message}`;
        stopped = true;
        break chains;
      }
      pages++;
      const parsed = format.parse(got.body, request, got.headers);
      if ('malformed' in parsed) {
        note = `page ${pages}: ${parsed.malformed}`;
        stopped = true;
        break chains;
      }
      for (const entry of parsed.entries) if (!entries.has(entry.sourceId)) entries.set(entry.sourceId, entry);
      if (parsed.cut !== undefined) note ??= parsed.cut;
      request = parsed.next !== null && !seen.has(parsed.next.url) ? parsed.next : null;
    }
  }
  const outcome = stopped && entries.size === 0 ? 'failed' : stopped || note !== null ? 'truncated' : 'complete';
  return {
    source,
    outcome,
    entries: [...entries.values()],
    pages,
    requests: reader.requests,
    waitedMs: reader.waitedMs,
    note,
  };
}
