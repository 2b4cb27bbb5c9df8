// Pure module: the search evaluation 7Maps describes. A deterministic judge (no model): synonym groups matched
// with light stemming, the job's risk allowance, and a prefer group for the higher grade.
import type { RiskLevel } from '@mcp-atlas/risk';
import {
  discountOfRank,
  EVAL_MRR_DEPTH,
  EVAL_TOP_K,
  GRADE_FIT,
  GRADE_PREFERRED,
  gainOfGrade,
  ROUTE_RULES_VERSION,
} from './constants.js';
import { RouteInputError } from './errors.js';
import { isLevelAllowed } from './search.js';
import { stemAll } from './text.js';
import type {
  CategoryResult,
  EvalMetrics,
  EvalReport,
  JobResult,
  RiskAllowance,
  SearchHit,
  SearchJob,
} from './types.js';

const ALLOWANCES: readonly RiskAllowance[] = ['read', 'change', 'any'];
const LEVELS: readonly RiskLevel[] = ['read-only', 'changes-data', 'high-risk'];

function badJob(at: number, id: unknown, message: string): never {
  const who = typeof id === 'string' && id !== '' ? `job "${id}"` : `job at index ${at}`;
  throw new RouteInputError('invalid-jobs', `${who}: ${message}`);
}

function isWordList(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((word) => typeof word === 'string' && stemAll(word).length > 0)
  );
}

function parseJob(value: unknown, at: number): SearchJob {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) badJob(at, undefined, 'must be an object.');
  const job = value as Record<string, unknown>;
  const { id, category, query, allow, groups, prefer } = job;
  if (typeof id !== 'string' || id === '') badJob(at, id, 'id must be a non-empty string.');
  if (typeof category !== 'string' || category === '') badJob(at, id, 'category must be a non-empty string.');
  if (typeof query !== 'string' || query.trim() === '') badJob(at, id, 'query must be a non-empty string.');
  if (!ALLOWANCES.includes(allow as RiskAllowance)) badJob(at, id, `allow must be 'read', 'change' or 'any'.`);
  if (!Array.isArray(groups) || groups.length === 0 || !groups.every(isWordList)) {
    badJob(at, id, 'groups must be a non-empty array of non-empty arrays of words or phrases.');
  }
  if (prefer !== undefined && !isWordList(prefer))
    badJob(at, id, 'prefer must be a non-empty array of words or phrases.');
  const parsed: SearchJob = {
    id,
    category,
    query,
    allow: allow as RiskAllowance,
    groups: groups.map((group) => [...group]),
  };
  if (prefer !== undefined) parsed.prefer = [...prefer];
  return parsed;
}

/**
 * Checks an evaluation set and returns its jobs. Accepts the set file's object (`{ version, jobs: [...] }`)
 * or a bare array of jobs. Throws {@link RouteInputError} (code `invalid-jobs`) naming the first bad job:
 * a missing id, an unknown allowance, an empty synonym group, a repeated id.
 *
 * @example parseSearchJobs(JSON.parse(readFileSync('eval/toolsearch-v1.json', 'utf8'))).length // 165
 */
export function parseSearchJobs(value: unknown): SearchJob[] {
  const list = Array.isArray(value)
    ? value
    : typeof value === 'object' && value !== null
      ? (value as { jobs?: unknown }).jobs
      : undefined;
  if (!Array.isArray(list))
    throw new RouteInputError('invalid-jobs', 'Expected an array of jobs or an object with a jobs array.');
  const jobs = list.map(parseJob);
  const seen = new Set<string>();
  jobs.forEach((job, at) => {
    if (seen.has(job.id)) badJob(at, job.id, 'id appears twice; ids must be unique.');
    seen.add(job.id);
  });
  return jobs;
}

/** A job's criteria with every word and phrase already cut into stems. */
interface CompiledJob {
  readonly job: SearchJob;
  readonly groups: readonly (readonly string[][])[];
  readonly prefer: readonly string[][] | null;
}

function compileJob(job: SearchJob): CompiledJob {
  return {
    job,
    groups: job.groups.map((group) => group.map(stemAll)),
    prefer: job.prefer === undefined || job.prefer.length === 0 ? null : job.prefer.map(stemAll),
  };
}

function containsPhrase(stems: readonly string[], phrase: readonly string[]): boolean {
  const first = phrase[0];
  if (first === undefined) return false;
  for (let i = 0; i + phrase.length <= stems.length; i++) {
    if (stems[i] !== first) continue;
    let at = 1;
    while (at < phrase.length && stems[i + at] === phrase[at]) at += 1;
    if (at === phrase.length) return true;
  }
  return false;
}

function containsAny(stems: readonly string[], phrases: readonly string[][]): boolean {
  return phrases.some((phrase) => containsPhrase(stems, phrase));
}

function gradeCompiled(compiled: CompiledJob, hit: Pick<SearchHit, 'tool' | 'description' | 'level'>): number {
  if (!isLevelAllowed(hit.level, compiled.job.allow)) return 0;
  const stems = stemAll(`${hit.tool} ${hit.description}`);
  if (!compiled.groups.every((group) => containsAny(stems, group))) return 0;
  if (compiled.prefer === null) return GRADE_PREFERRED;
  return containsAny(stems, compiled.prefer) ? GRADE_PREFERRED : GRADE_FIT;
}

/**
 * The judge's grade of one result for one job: 0 when it does not fit, 1 when it fits, 2 when it fits and
 * also matches the job's prefer group (or the job has none). A result fits when its tool name plus
 * description contains a word or phrase from every synonym group, compared by light stem, and its risk
 * level is within the job's allowance (read: read-only only; change: not high risk; any: every level).
 *
 * @example gradeHit({ id: 'j', category: 'email', query: 'send an email', allow: 'change',
 *   groups: [['send'], ['email', 'mail']] }, { tool: 'sendMail', description: '', level: 'changes-data' }) // 2
 */
export function gradeHit(job: SearchJob, hit: Pick<SearchHit, 'tool' | 'description' | 'level'>): number {
  return gradeCompiled(compileJob(job), hit);
}

/**
 * The five figures of one job from its grades in rank order: P@1, P@5 (fits in the top 5 over 5), nDCG@5
 * (gain grade/2, discount 1/log2(rank + 1), against five top-grade fits), reciprocal rank of the first fit
 * within the top 10, and hit@5 (1 when any of the top 5 fits).
 *
 * @example metricsOfGrades([0, 2, 0, 0, 0]) // { p1: 0, p5: 0.2, ndcg5: 0.2140 (0.6309 / 2.9485), mrr: 0.5, hit5: 1 }
 */
export function metricsOfGrades(grades: readonly number[]): EvalMetrics {
  const top = grades.slice(0, EVAL_TOP_K);
  let dcg = 0;
  let ideal = 0;
  for (let rank = 1; rank <= EVAL_TOP_K; rank++) {
    dcg += gainOfGrade(top[rank - 1] ?? 0) * discountOfRank(rank);
    ideal += gainOfGrade(GRADE_PREFERRED) * discountOfRank(rank);
  }
  const firstFit = grades.slice(0, EVAL_MRR_DEPTH).findIndex((grade) => grade > 0);
  const fitsInTop = top.filter((grade) => grade > 0).length;
  return {
    p1: (grades[0] ?? 0) > 0 ? 1 : 0,
    p5: fitsInTop / EVAL_TOP_K,
    ndcg5: dcg / ideal,
    mrr: firstFit < 0 ? 0 : 1 / (firstFit + 1),
    hit5: fitsInTop > 0 ? 1 : 0,
  };
}

/** The mean of each figure over a list (zeros for an empty list). */
export function meanMetrics(list: readonly EvalMetrics[]): EvalMetrics {
  const sum = { p1: 0, p5: 0, ndcg5: 0, mrr: 0, hit5: 0 };
  for (const metrics of list) {
    sum.p1 += metrics.p1;
    sum.p5 += metrics.p5;
    sum.ndcg5 += metrics.ndcg5;
    sum.mrr += metrics.mrr;
    sum.hit5 += metrics.hit5;
  }
  const count = list.length || 1;
  return {
    p1: sum.p1 / count,
    p5: sum.p5 / count,
    ndcg5: sum.ndcg5 / count,
    mrr: sum.mrr / count,
    hit5: sum.hit5 / count,
  };
}

function checkHits(hits: unknown, jobId: string): SearchHit[] {
  const ok =
    Array.isArray(hits) &&
    hits.every(
      (hit) =>
        typeof hit === 'object' &&
        hit !== null &&
        typeof (hit as SearchHit).tool === 'string' &&
        typeof (hit as SearchHit).description === 'string' &&
        LEVELS.includes((hit as SearchHit).level),
    );
  if (!ok) {
    throw new RouteInputError(
      'invalid-search-result',
      `job "${jobId}": search must return an array of hits with tool, description and level.`,
    );
  }
  return hits as SearchHit[];
}

/** Options of {@link evaluateSearch}. */
export interface EvaluateOptions {
  /** The set's version and SHA-256, copied into the report so a changed set shows. */
  set?: { version: string; sha256: string };
}

/**
 * Runs every job through `search` (one call per job, the query as written) and grades the top 10 with the
 * judge ({@link gradeHit}). Reports P@1, P@5, nDCG@5, MRR (top 10) and hit@5 per job, per category and
 * overall (the mean over jobs). The jobs are checked first ({@link parseSearchJobs}).
 *
 * @example
 * const report = evaluateSearch(jobs, (query) => searchTools(index, query), { set: { version: 'v1', sha256 } });
 * report.overall.ndcg5;
 */
export function evaluateSearch(
  jobs: readonly SearchJob[],
  search: (query: string) => SearchHit[],
  options?: EvaluateOptions,
): EvalReport {
  const compiled = parseSearchJobs(jobs).map(compileJob);
  if (typeof search !== 'function')
    throw new RouteInputError('invalid-option', 'evaluateSearch: search must be a function.');
  const results: JobResult[] = compiled.map((entry) => {
    const hits = checkHits(search(entry.job.query), entry.job.id).slice(0, EVAL_MRR_DEPTH);
    const grades = hits.map((hit) => gradeCompiled(entry, hit));
    const firstFit = grades.findIndex((grade) => grade > 0);
    return {
      id: entry.job.id,
      category: entry.job.category,
      query: entry.job.query,
      allow: entry.job.allow,
      grades,
      firstFit: firstFit < 0 ? null : firstFit + 1,
      top: hits.map((hit) => `${hit.serverId}/${hit.tool}`),
      ...metricsOfGrades(grades),
    };
  });
  const byCategory: Record<string, CategoryResult> = {};
  for (const category of [...new Set(results.map((result) => result.category))]) {
    const inCategory = results.filter((result) => result.category === category);
    byCategory[category] = { jobs: inCategory.length, ...meanMetrics(inCategory) };
  }
  return {
    rulesVersion: ROUTE_RULES_VERSION,
    set: options?.set ? { version: options.set.version, sha256: options.set.sha256 } : null,
    jobCount: results.length,
    overall: meanMetrics(results),
    byCategory,
    jobs: results,
  };
}
