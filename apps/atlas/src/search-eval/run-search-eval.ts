// The production search evaluation: every job of a set is one GET of BASE/api/toolsearch with the search's defaults
// (any risk level, answering servers only, 10 results), timed from request to parsed body, then graded by
// the route package's judge. Nothing here ranks or grades: the figures are evaluateSearch's.
import { median } from '@mcp-atlas/reliability';
import { type EvalMetrics, evaluateSearch, type RiskAllowance, type SearchHit } from '@mcp-atlas/route';
import { SEARCH_EVAL_RULES } from '@mcp-atlas/route/rules';
import { z } from 'zod';
import type { SearchEvalSet } from './search-set.js';

/** How long one request may take before the job counts as failed (a slow answer is still an answer below this). */
export const SEARCH_EVAL_REQUEST_TIMEOUT_MS = 30_000;

/** The largest answer body read, in bytes: ten hits with long descriptions fit many times over. */
export const SEARCH_EVAL_MAX_BODY_BYTES = 2_000_000;

const HitSchema = z.object({
  serverId: z.string(),
  tool: z.string(),
  description: z.string(),
  level: z.enum(['read-only', 'changes-data', 'high-risk']),
  score: z.number(),
});
const AnswerSchema = z.object({ results: z.array(HitSchema) });

/**
 * One job as a run reports it: the risk levels it allows, the top five `server/tool`, the judge's grades of the
 * top ten, its P@5 and nDCG@5.
 */
export interface SearchEvalJob {
  id: string;
  category: string;
  query: string;
  allow: RiskAllowance;
  top5: string[];
  grades: number[];
  p5: number;
  ndcg5: number;
  /** Why the request gave no usable answer (the job then scores 0), or absent. */
  error?: string;
}

/** A whole run: the overall figures, the median request time, the set it used and every job. */
export interface SearchEvalRun extends EvalMetrics {
  medianMs: number;
  setVersion: string;
  setSha256: string;
  jobs: SearchEvalJob[];
  /** nDCG@5 (and the other figures) per category. */
  byCategory: Record<string, EvalMetrics & { jobs: number }>;
  /** How many requests failed (no answer, an error status, or an answer of the wrong shape). */
  failedRequests: number;
}

/** What a run needs: the service's base URL and the set; fetch and the timer are injectable for tests. */
export interface RunSearchEvalOptions {
  baseUrl: string;
  set: SearchEvalSet;
  fetch?: typeof fetch;
  /** Milliseconds from an arbitrary origin (performance.now by default). */
  clock?: () => number;
  timeoutMs?: number;
}

/**
 * The median request time of a run, by the methodology's median (@mcp-atlas/reliability's `median`: the mean of
 * the middle two for an even count); 0 when no request was answered, a run that is then not recorded.
 */
export function medianOf(values: readonly number[]): number {
  return values.length === 0 ? 0 : median(values);
}

/** The search URL of one query: the base URL (any path kept, trailing slashes dropped) + /api/toolsearch?q=. */
export function toolSearchUrlOf(baseUrl: string, query: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/toolsearch?q=${encodeURIComponent(query)}`;
}

/** Reads a body up to SEARCH_EVAL_MAX_BODY_BYTES; a longer one is refused rather than buffered whole. */
async function readCappedText(response: Response): Promise<string> {
  const length = Number(response.headers.get('content-length') ?? '0');
  if (length > SEARCH_EVAL_MAX_BODY_BYTES) throw new Error(`answer larger than ${SEARCH_EVAL_MAX_BODY_BYTES} bytes`);
  const text = await response.text();
  if (text.length > SEARCH_EVAL_MAX_BODY_BYTES)
    throw new Error(`answer larger than ${SEARCH_EVAL_MAX_BODY_BYTES} bytes`);
  return text;
}

/** One job's request: the hits, the time it took, or the reason it gave nothing usable. */
async function requestJob(
  url: string,
  doFetch: typeof fetch,
  clock: () => number,
  timeoutMs: number,
): Promise<{ hits: SearchHit[]; ms: number; error: string | null }> {
  const started = clock();
  try {
    const response = await doFetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await readCappedText(response);
    const ms = clock() - started;
    if (response.status !== 200) return { hits: [], ms, error: `status ${response.status}` };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { hits: [], ms, error: 'the answer is not JSON' };
    }
    const parsed = AnswerSchema.safeParse(body);
    if (!parsed.success) return { hits: [], ms, error: 'the answer is not a tool search answer ({ results: [...] })' };
    return { hits: parsed.data.results, ms, error: null };
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    return { hits: [], ms: clock() - started, error: reason };
  }
}

/**
 * Runs every job of the set against the service at `baseUrl`, one request after another, and grades the
 * answers with the set's judge. A job whose request fails scores 0 and carries the reason; the median
 * request time is over the requests that were answered.
 *
 * @example const run = await runSearchEval({ baseUrl: 'https://atlas.example.org', set }); run.ndcg5;
 */
export async function runSearchEval(options: RunSearchEvalOptions): Promise<SearchEvalRun> {
  const doFetch = options.fetch ?? fetch;
  const clock = options.clock ?? (() => performance.now());
  const timeoutMs = options.timeoutMs ?? SEARCH_EVAL_REQUEST_TIMEOUT_MS;
  const answers: { hits: SearchHit[]; ms: number; error: string | null }[] = [];
  for (const job of options.set.jobs) {
    answers.push(await requestJob(toolSearchUrlOf(options.baseUrl, job.query), doFetch, clock, timeoutMs));
  }
  // evaluateSearch asks for each job's hits in the set's order, once: hand it the answers in that order.
  let next = 0;
  const report = evaluateSearch(options.set.jobs, () => answers[next++]?.hits ?? [], {
    set: { version: options.set.version, sha256: options.set.sha256 },
  });
  const jobs: SearchEvalJob[] = report.jobs.map((result, at) => {
    const error = answers[at]?.error ?? null;
    return {
      id: result.id,
      category: result.category,
      query: result.query,
      allow: result.allow,
      top5: result.top.slice(0, 5),
      grades: result.grades,
      p5: result.p5,
      ndcg5: result.ndcg5,
      ...(error !== null ? { error } : {}),
    };
  });
  const answered = answers.filter((answer) => answer.error === null);
  return {
    ...report.overall,
    medianMs: medianOf(answered.map((answer) => answer.ms)),
    setVersion: options.set.version,
    setSha256: options.set.sha256,
    jobs,
    byCategory: report.byCategory,
    failedRequests: answers.length - answered.length,
  };
}

/** The jobs with the lowest nDCG@5, worst first (ties in the set's order), at most `count`. */
export function weakestJobs(
  jobs: readonly SearchEvalJob[],
  count: number = SEARCH_EVAL_RULES.weakestJobsShown,
): SearchEvalJob[] {
  return jobs
    .map((job, at) => ({ job, at }))
    .sort((a, b) => a.job.ndcg5 - b.job.ndcg5 || a.at - b.at)
    .slice(0, count)
    .map(({ job }) => job);
}
