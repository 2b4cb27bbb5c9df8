// The schedule's search-eval task: on the 1st of each month (UTC) the service runs the frozen set against its
// own /api/toolsearch and appends the run to search-eval/history.json, once per month.
import type { Logger } from '../log.js';
import type { Storage } from '../storage/storage.js';
import { appendSearchEvalRecord, readSearchEvalHistory, recordOfRun, type SearchEvalHistory } from './history.js';
import { runSearchEval } from './run-search-eval.js';
import { packagedSearchEvalSetPath, readSearchEvalSet } from './search-set.js';

/** The day of the month (UTC) the scheduled run happens on. */
export const SEARCH_EVAL_DAY_OF_MONTH = 1;

/** True on the run day of a month that has no scheduled run yet. */
export function isSearchEvalDue(now: Date, history: SearchEvalHistory): boolean {
  if (now.getUTCDate() !== SEARCH_EVAL_DAY_OF_MONTH) return false;
  const month = now.toISOString().slice(0, 7);
  return !history.runs.some((record) => record.source === 'schedule' && record.date.slice(0, 7) === month);
}

/** What the monthly run needs: the store, a log, and how to reach the service itself. */
export interface MonthlySearchEvalDeps {
  storage: Storage;
  log: Logger;
  /** The service's own base URL (the address it listens on). */
  baseUrl: string;
  /** How requests are sent (global fetch by default). */
  fetch?: typeof fetch;
  /** The set file; the route package's frozen set by default. */
  setPath?: string;
}

/** Runs the month's search evaluation when it is due; true when a run was appended. */
export async function runMonthlySearchEvalIfDue(deps: MonthlySearchEvalDeps, now: Date): Promise<boolean> {
  if (!isSearchEvalDue(now, await readSearchEvalHistory(deps.storage))) return false;
  const set = await readSearchEvalSet(deps.setPath ?? packagedSearchEvalSetPath());
  const run = await runSearchEval({ baseUrl: deps.baseUrl, set, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  // A run where no request was answered measured nothing: it fails (the schedule retries), and is not published.
  if (run.failedRequests === run.jobs.length)
    throw new Error(`search-eval: no request to ${deps.baseUrl} was answered`);
  const runs = await appendSearchEvalRecord(
    deps.storage,
    recordOfRun(run, { date: now, source: 'schedule', url: deps.baseUrl }),
  );
  deps.log.info(
    { set: run.setVersion, p1: run.p1, p5: run.p5, ndcg5: run.ndcg5, mrr: run.mrr, median_ms: run.medianMs, runs },
    'search-eval run appended',
  );
  return true;
}
