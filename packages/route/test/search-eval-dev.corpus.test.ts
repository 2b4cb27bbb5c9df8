// The development set (eval/toolsearch-dev-v1.json) over the real corpus: the set the ranking is tuned on,
// kept apart from the frozen v1 set. It prints our figures, MiniSearch's and the ceiling; with
// MCP_ATLAS_EVAL_VERBOSE=1 it also prints every job below a perfect nDCG@5 with its top five, which is the
// failure list the tuning works from.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { classifyTools } from '@mcp-atlas/risk';
import { describe, expect, it } from 'vitest';
import {
  createToolIndex,
  type EvalMetrics,
  evaluateSearch,
  gradeHit,
  metricsOfGrades,
  parseSearchJobs,
  type SearchJob,
  searchTools,
} from '../src/index.js';
import { corpusIndexServers, createMiniSearchBaseline, loadCorpusServers } from './eval/corpus-index.js';

const DEV_SET_PATH = fileURLToPath(new URL('../eval/toolsearch-dev-v1.json', import.meta.url));
const jobs = parseSearchJobs(JSON.parse(readFileSync(DEV_SET_PATH, 'utf8')));
const servers = corpusIndexServers(loadCorpusServers());
const index = createToolIndex(servers);
const ours = evaluateSearch(jobs, (query) => searchTools(index, query));
const mini = evaluateSearch(jobs, createMiniSearchBaseline(servers));

function ceilingOf(job: SearchJob): EvalMetrics {
  const grades: number[] = [];
  for (const server of servers) {
    const verdicts = classifyTools(server.tools);
    server.tools.forEach((tool, at) => {
      const { name, description } = tool as { name?: unknown; description?: unknown };
      if (typeof name !== 'string') return;
      grades.push(
        gradeHit(job, {
          tool: name,
          description: typeof description === 'string' ? description : '',
          level: verdicts[at]?.level ?? 'changes-data',
        }),
      );
    });
  }
  return metricsOfGrades(grades.sort((a, b) => b - a).slice(0, 10));
}

const ceilings = jobs.map(ceilingOf);
const mean = (key: keyof EvalMetrics) => ceilings.reduce((sum, c) => sum + c[key], 0) / ceilings.length;
const ceiling: EvalMetrics = {
  p1: mean('p1'),
  p5: mean('p5'),
  ndcg5: mean('ndcg5'),
  mrr: mean('mrr'),
  hit5: mean('hit5'),
};

function row(label: string, m: EvalMetrics): string {
  const f = (x: number) => x.toFixed(3);
  return `${label.padEnd(26)} P@1 ${f(m.p1)}  P@5 ${f(m.p5)}  nDCG@5 ${f(m.ndcg5)}  MRR ${f(m.mrr)}  hit@5 ${f(m.hit5)}`;
}

describe('search evaluation, development set, over the real corpus', () => {
  it('prints both engines and the ceiling (and, on request, every job short of its ceiling)', () => {
    const lines = [
      `development set ${jobs.length} jobs, ${index.toolCount} tools`,
      row('mcp-atlas route', ours.overall),
      row('MiniSearch (BM25)', mini.overall),
      row('ceiling (perfect ranking)', ceiling),
    ];
    if (process.env.MCP_ATLAS_EVAL_VERBOSE === '1') {
      ours.jobs.forEach((job, at) => {
        const best = ceilings[at]?.ndcg5 ?? 0;
        if (job.ndcg5 >= best - 1e-9) return;
        lines.push(`${job.id} [${job.allow}] "${job.query}" ndcg5 ${job.ndcg5.toFixed(2)} of ${best.toFixed(2)}`);
        job.top.slice(0, 5).forEach((hit, rank) => {
          lines.push(`   ${job.grades[rank] ?? 0} ${hit}`);
        });
      });
    }
    console.log(lines.join('\n'));
    expect(ours.jobCount).toBe(jobs.length);
  });

  // Floors a little under the figures of 2026-12-02 (P@1 0.892, P@5 0.680, nDCG@5 0.672, MRR 0.932, hit@5 0.985).
  it('stays above the measured floors', () => {
    expect(ours.overall.p1).toBeGreaterThanOrEqual(0.86);
    expect(ours.overall.p5).toBeGreaterThanOrEqual(0.65);
    expect(ours.overall.ndcg5).toBeGreaterThanOrEqual(0.64);
    expect(ours.overall.mrr).toBeGreaterThanOrEqual(0.9);
    expect(ours.overall.hit5).toBeGreaterThanOrEqual(0.95);
  });

  it('beats MiniSearch (BM25) on nDCG@5 and stays under the ceiling', () => {
    expect(ours.overall.ndcg5).toBeGreaterThan(mini.overall.ndcg5);
    for (const key of ['p1', 'p5', 'ndcg5', 'mrr', 'hit5'] as const) {
      expect(ours.overall[key], key).toBeLessThanOrEqual(ceiling[key] + 1e-12);
    }
  });
});
