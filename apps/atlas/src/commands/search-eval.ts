// `mcp-atlas search-eval --url BASE --set FILE [--data DIR | --store URL] [--json]`: the production search
// evaluation, run by hand. Every job is one request to BASE/api/toolsearch with its defaults, graded by the set's judge;
// the run is printed and appended to search-eval/history.json in the store.
import { fileURLToPath } from 'node:url';
import { appendSearchEvalRecord, recordOfRun, SearchEvalHistoryError } from '../search-eval/history.js';
import { runSearchEval, type SearchEvalRun } from '../search-eval/run-search-eval.js';
import { readSearchEvalSet, type SearchEvalSet, SearchEvalSetError } from '../search-eval/search-set.js';
import { EXIT_FAILED, EXIT_OK, openDataFolder, parseSettings, UsageError } from './shared.js';

export const SEARCH_EVAL_USAGE = `  search-eval --url BASE --set FILE [--data DIR | --store URL] [--json]
          run every job of the set against BASE/api/toolsearch, grade it, print P@1, P@5, nDCG@5, MRR,
          hit@5 and the median request time, and append the run to search-eval/history.json in the store
          --store: a store URL; this build keeps stores in folders, so file:DIR (the same as --data DIR)`;

/** The base URL: http or https, no query or fragment (the search path is added to it). */
export function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--url must be an http or https URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--url must be an http or https URL, got "${value}"`);
  if (url.search !== '' || url.hash !== '') throw new UsageError('--url must not carry a query or a fragment');
  return url.href.replace(/\/+$/, '');
}

/** The data folder a --store URL names: only file: URLs (file:DIR or file:///abs/dir) are stores here. */
export function folderOfStoreUrl(value: string): string {
  if (!value.startsWith('file:'))
    throw new UsageError(`--store: only file: stores are supported (file:DIR), got "${value.split(':')[0]}:"`);
  const rest = value.slice('file:'.length);
  if (rest.startsWith('//')) {
    try {
      return fileURLToPath(value);
    } catch (error) {
      throw new UsageError(`--store: ${(error as Error).message}`);
    }
  }
  if (rest === '') throw new UsageError('--store: file: needs a folder (file:DIR)');
  return rest;
}

/** The figures and jobs `--json` prints. */
export function jsonOfRun(run: SearchEvalRun): object {
  return {
    p1: run.p1,
    p5: run.p5,
    ndcg5: run.ndcg5,
    mrr: run.mrr,
    hit5: run.hit5,
    medianMs: run.medianMs,
    setVersion: run.setVersion,
    setSha256: run.setSha256,
    jobs: run.jobs.map((job) => ({
      id: job.id,
      category: job.category,
      top5: job.top5,
      grades: job.grades,
      ndcg5: job.ndcg5,
      ...(job.error !== undefined ? { error: job.error } : {}),
    })),
  };
}

/** The plain-text summary of a run. */
export function textOfRun(run: SearchEvalRun, baseUrl: string, runs: number): string {
  const f = (value: number) => value.toFixed(3);
  return [
    `search-eval ${run.setVersion} (sha256 ${run.setSha256}) against ${baseUrl}: ${run.jobs.length} jobs`,
    `P@1 ${f(run.p1)}  P@5 ${f(run.p5)}  nDCG@5 ${f(run.ndcg5)}  MRR ${f(run.mrr)}  hit@5 ${f(run.hit5)}  median ${run.medianMs.toFixed(1)} ms`,
    ...(run.failedRequests > 0 ? [`failed requests: ${run.failedRequests} (those jobs score 0)`] : []),
    `appended to search-eval/history.json (${runs} run${runs === 1 ? '' : 's'})`,
    '',
  ].join('\n');
}

async function readSetFlag(path: string): Promise<SearchEvalSet> {
  try {
    return await readSearchEvalSet(path);
  } catch (error) {
    if (error instanceof SearchEvalSetError) throw new UsageError(`--set ${error.message}`);
    throw error;
  }
}

/** Runs `search-eval`; `now` dates the record. */
export async function commandSearchEval(args: readonly string[], now: Date = new Date()): Promise<number> {
  const flags = parseSettings(args, {
    url: { type: 'string' },
    set: { type: 'string' },
    data: { type: 'string' },
    store: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (typeof flags.url !== 'string') throw new UsageError('search-eval needs --url BASE');
  if (typeof flags.set !== 'string') throw new UsageError('search-eval needs --set FILE');
  if (flags.data !== undefined && flags.store !== undefined) throw new UsageError('give --data or --store, not both');
  const baseUrl = parseBaseUrl(flags.url);
  const set = await readSetFlag(flags.set);
  const folder = typeof flags.store === 'string' ? { data: folderOfStoreUrl(flags.store) } : flags;
  const run = await runSearchEval({ baseUrl, set });
  if (run.failedRequests === run.jobs.length) {
    process.stderr.write(
      `mcp-atlas: search-eval: no request to ${baseUrl}/api/toolsearch was answered (first reason: ${run.jobs[0]?.error ?? 'none'}); nothing was recorded\n`,
    );
    return EXIT_FAILED;
  }
  const { storage } = await openDataFolder(folder);
  let runs: number;
  try {
    runs = await appendSearchEvalRecord(storage, recordOfRun(run, { date: now, source: 'command', url: baseUrl }));
  } catch (error) {
    if (!(error instanceof SearchEvalHistoryError)) throw error;
    process.stderr.write(`mcp-atlas: search-eval: ${error.message}; the run was not recorded\n`);
    return EXIT_FAILED;
  }
  process.stdout.write(flags.json === true ? `${JSON.stringify(jsonOfRun(run))}\n` : textOfRun(run, baseUrl, runs));
  return EXIT_OK;
}
