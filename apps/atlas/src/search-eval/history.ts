// search-eval/history.json: one record per search-eval run, oldest first, published as it is stored. Each
// record carries the set's version and SHA-256, so figures are compared only within one version of a set.
import { z } from 'zod';
import { SEARCH_EVAL_HISTORY_PATH } from '../data/paths.js';
import { createSerialQueue, type SerialQueue } from '../storage/serial-queue.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { type SearchEvalJob, type SearchEvalRun, weakestJobs } from './run-search-eval.js';

const FIGURE = z.number().min(0).max(1);

/** The five figures of a run, each from 0 to 1. */
export const SearchEvalMetricsSchema = z.object({ p1: FIGURE, p5: FIGURE, ndcg5: FIGURE, mrr: FIGURE, hit5: FIGURE });
export type SearchEvalMetrics = z.infer<typeof SearchEvalMetricsSchema>;

/** One of a run's weakest jobs, with what the search put in its top five. */
export const WeakJobSchema = z.object({
  id: z.string(),
  category: z.string(),
  query: z.string(),
  ndcg5: FIGURE,
  top5: z.array(z.string()).max(5),
  grades: z.array(z.number().int().min(0).max(2)).max(10),
  error: z.string().optional(),
});
export type WeakJob = z.infer<typeof WeakJobSchema>;

/** One job of a run, every one of them: the levels it allows, its P@5 and nDCG@5, and its top five. */
export const RunJobSchema = WeakJobSchema.extend({ allow: z.enum(['read', 'change', 'any']), p5: FIGURE });
export type RunJob = z.infer<typeof RunJobSchema>;

/** One run as history.json keeps it. */
export const SearchEvalRecordSchema = z.object({
  date: z.iso.datetime(),
  /** `schedule`: the monthly run of `serve`; `command`: a run of `mcp-atlas search-eval`. */
  source: z.enum(['schedule', 'command']),
  url: z.string(),
  setVersion: z.string(),
  setSha256: z.string().regex(/^[0-9a-f]{64}$/),
  metrics: SearchEvalMetricsSchema,
  medianMs: z.number().min(0),
  jobCount: z.number().int().min(1),
  failedRequests: z.number().int().min(0),
  /** nDCG@5 and the job count of each category. */
  byCategory: z.record(z.string(), z.object({ jobs: z.number().int().min(1), ndcg5: FIGURE })),
  weakest: z.array(WeakJobSchema),
  /** Every job of the run, in the set's order; absent in runs recorded before every job was kept. */
  jobs: z.array(RunJobSchema).optional(),
});
export type SearchEvalRecord = z.infer<typeof SearchEvalRecordSchema>;

/** The whole file. */
export const SearchEvalHistorySchema = z.object({ runs: z.array(SearchEvalRecordSchema) });
export type SearchEvalHistory = z.infer<typeof SearchEvalHistorySchema>;

/** The history file exists but is not a history: it is never overwritten, so a person can look at it. */
export class SearchEvalHistoryError extends Error {}

/** The record of a finished run, as the history keeps it. */
export function recordOfRun(
  run: SearchEvalRun,
  context: { date: Date; source: SearchEvalRecord['source']; url: string },
): SearchEvalRecord {
  return {
    date: context.date.toISOString(),
    source: context.source,
    url: context.url,
    setVersion: run.setVersion,
    setSha256: run.setSha256,
    metrics: { p1: run.p1, p5: run.p5, ndcg5: run.ndcg5, mrr: run.mrr, hit5: run.hit5 },
    medianMs: run.medianMs,
    jobCount: run.jobs.length,
    failedRequests: run.failedRequests,
    byCategory: Object.fromEntries(
      Object.entries(run.byCategory).map(([category, figures]) => [
        category,
        { jobs: figures.jobs, ndcg5: figures.ndcg5 },
      ]),
    ),
    weakest: weakestJobs(run.jobs).map(weakJobOf),
    jobs: run.jobs.map((job) => ({ ...weakJobOf(job), allow: job.allow, p5: job.p5 })),
  };
}

/** The part of a job every stored list keeps: what it asked, its nDCG@5, its top five and their grades. */
function weakJobOf(job: SearchEvalJob): WeakJob {
  return {
    id: job.id,
    category: job.category,
    query: job.query,
    ndcg5: job.ndcg5,
    top5: job.top5,
    grades: job.grades,
    ...(job.error !== undefined ? { error: job.error } : {}),
  };
}

/** The stored history: empty when there is none yet; a SearchEvalHistoryError when the file is not a history. */
export async function readSearchEvalHistory(storage: Storage): Promise<SearchEvalHistory> {
  let value: unknown;
  try {
    value = await getJson(storage, SEARCH_EVAL_HISTORY_PATH);
  } catch (error) {
    throw new SearchEvalHistoryError(`${SEARCH_EVAL_HISTORY_PATH} is not JSON: ${(error as Error).message}`);
  }
  if (value === null) return { runs: [] };
  const parsed = SearchEvalHistorySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SearchEvalHistoryError(
      `${SEARCH_EVAL_HISTORY_PATH} is not a search-eval history (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`,
    );
  }
  return parsed.data;
}

// Appends in one process run one at a time, so two runs finishing together both land; each write replaces
// the whole file atomically (temp file, fsync, rename), so a reader sees the history before or after a run.
const queues = new WeakMap<Storage, SerialQueue>();

function queueOf(storage: Storage): SerialQueue {
  let queue = queues.get(storage);
  if (queue === undefined) {
    queue = createSerialQueue();
    queues.set(storage, queue);
  }
  return queue;
}

/** Adds a run at the end of the history; resolves to the number of runs now kept. */
export function appendSearchEvalRecord(storage: Storage, record: SearchEvalRecord): Promise<number> {
  const checked = SearchEvalRecordSchema.parse(record);
  return queueOf(storage).run(async () => {
    const history = await readSearchEvalHistory(storage);
    const runs = [...history.runs, checked];
    await putJson(storage, SEARCH_EVAL_HISTORY_PATH, { runs });
    return runs.length;
  });
}

/** The month of a record (`YYYY-MM`, UTC). */
export function monthOfRecord(record: Pick<SearchEvalRecord, 'date'>): string {
  return record.date.slice(0, 7);
}

/**
 * The history as the page draws it: per month, the newest run of that month (so a rerun by hand replaces the
 * month's point), oldest month first.
 */
export function monthlyPoints(history: SearchEvalHistory): SearchEvalRecord[] {
  const byMonth = new Map<string, SearchEvalRecord>();
  for (const record of history.runs) byMonth.set(monthOfRecord(record), record);
  return [...byMonth.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, record]) => record);
}
