// The schedule's search-eval task: on its day of each month (UTC) the service runs the frozen set against its
// own /api/toolsearch and appends the run to search-eval/history.json, once per month. When it is due is the
// operating rule `isSearchEvalDue` of @mcp-atlas/operations.
import { isSearchEvalDue } from '@mcp-atlas/operations';
import type { Logger } from '../log.js';
import type { Storage } from '../storage/storage.js';
import { appendSearchEvalRecord, readSearchEvalHistory, recordOfRun } from './history.js';
import { runSearchEval } from './run-search-eval.js';
import { packagedSearchEvalSetPath, readSearchEvalSet } from './search-set.js';

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
