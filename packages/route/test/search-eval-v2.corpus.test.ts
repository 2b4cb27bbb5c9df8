// The frozen set v2 (eval/toolsearch-v2.json) over the real corpus, with MiniSearch (BM25) as the baseline in
// the same run and the ceiling a perfect ranking would reach. Measured, never tuned on: it prints overall
// figures and figures by kind, never a job's results. Its SHA-256 is checked before anything else.
import { describe, expect, it } from 'vitest';
import { createToolIndex, evaluateSearch, parseSearchJobs, searchTools } from '../src/index.js';
import { ceilingOf, meanMetrics, metricsRow } from './eval/ceiling.js';
import { corpusIndexServers, createMiniSearchBaseline, loadCorpusServers } from './eval/corpus-index.js';
import { EVAL_SET_V2_PATH, EVAL_SET_V2_SHA256, readEvalSet } from './eval/eval-set.js';

/**
 * Floors a little under the figures measured on 2026-12-03 with the ranking of route rules 1.2.0 (P@1 0.764,
 * P@5 0.430, nDCG@5 0.479, MRR 0.819, hit@5 0.903): falling through one means the search got worse, or
 * @mcp-atlas/risk moved many tools' levels.
 */
const FLOORS = { p1: 0.74, p5: 0.41, ndcg5: 0.46, mrr: 0.79, hit5: 0.88 };

const set = readEvalSet(EVAL_SET_V2_PATH);
const parsed = JSON.parse(set.text) as { version: string };
const jobs = parseSearchJobs(parsed);
const servers = corpusIndexServers(loadCorpusServers());
const index = createToolIndex(servers);
const setInfo = { version: parsed.version, sha256: set.sha256 };
const ours = evaluateSearch(jobs, (query) => searchTools(index, query), { set: setInfo });
const mini = evaluateSearch(jobs, createMiniSearchBaseline(servers), { set: setInfo });
const ceilings = jobs.map((job) => ceilingOf(servers, job));
const ceiling = meanMetrics(ceilings.map((c) => c.metrics));

describe('search evaluation v2 over the real corpus', () => {
  it('runs the frozen set: its SHA-256 is the one recorded when it was written', () => {
    expect(set.sha256).toBe(EVAL_SET_V2_SHA256);
    expect(ours.set).toEqual({ version: 'v2', sha256: EVAL_SET_V2_SHA256 });
    expect(jobs.length).toBe(165);
  });

  it('prints both engines and the ceiling; every job has a fitting tool, as the set was written to', () => {
    console.log(
      [
        `tool search evaluation v2 (sha256 ${set.sha256.slice(0, 16)}...), ${jobs.length} jobs, ${index.toolCount} tools`,
        metricsRow('mcp-atlas route', ours.overall),
        metricsRow('MiniSearch (BM25)', mini.overall),
        metricsRow('ceiling (perfect ranking)', ceiling),
        'nDCG@5 by kind (ours / MiniSearch):',
        ...Object.entries(ours.byCategory).map(
          ([kind, result]) =>
            `  ${kind.padEnd(15)} ${String(result.jobs).padStart(2)} jobs  ${result.ndcg5.toFixed(3)} / ${(mini.byCategory[kind]?.ndcg5 ?? 0).toFixed(3)}`,
        ),
      ].join('\n'),
    );
    expect(ceilings.filter((c) => c.fits === 0)).toEqual([]);
  });

  it('stays above the measured floors', () => {
    expect(ours.overall.p1).toBeGreaterThanOrEqual(FLOORS.p1);
    expect(ours.overall.p5).toBeGreaterThanOrEqual(FLOORS.p5);
    expect(ours.overall.ndcg5).toBeGreaterThanOrEqual(FLOORS.ndcg5);
    expect(ours.overall.mrr).toBeGreaterThanOrEqual(FLOORS.mrr);
    expect(ours.overall.hit5).toBeGreaterThanOrEqual(FLOORS.hit5);
  });

  it('beats MiniSearch (BM25) on every figure and never passes the ceiling', () => {
    for (const key of ['p1', 'p5', 'ndcg5', 'mrr', 'hit5'] as const) {
      expect(ours.overall[key], key).toBeGreaterThan(mini.overall[key]);
      expect(ours.overall[key], key).toBeLessThanOrEqual(ceiling[key] + 1e-12);
    }
  });
});
