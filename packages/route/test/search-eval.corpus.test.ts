// 7Maps' search evaluation over the real tool corpus, with MiniSearch (BM25) as the baseline in
// the same run. The set is frozen: its SHA-256 is checked before anything runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  categorize,
  createToolIndex,
  type EvalReport,
  evaluateSearch,
  parseSearchJobs,
  routeTask,
  searchTools,
} from '../src/index.js';
import { ceilingOf, meanMetrics, metricsRow } from './eval/ceiling.js';
import {
  corpusIndexServers,
  corpusServerName,
  createMiniSearchBaseline,
  loadCorpusServers,
} from './eval/corpus-index.js';
import { EVAL_SET_V1_SHA256, readEvalSet } from './eval/eval-set.js';

const set = readEvalSet();
const parsed = JSON.parse(set.text) as { version: string };
const jobs = parseSearchJobs(parsed);
const servers = corpusIndexServers(loadCorpusServers());
const index = createToolIndex(servers);
const ours = evaluateSearch(jobs, (query) => searchTools(index, query), {
  set: { version: parsed.version, sha256: set.sha256 },
});
const mini = evaluateSearch(jobs, createMiniSearchBaseline(servers), {
  set: { version: parsed.version, sha256: set.sha256 },
});

// Diagnostic only, not the seed's judge: the same jobs with every allowance widened to 'any', which shows
// ranking quality apart from the corpus's missing annotations (most read jobs can only fit annotated tools).
const riskBlindJobs = jobs.map((job) => ({ ...job, allow: 'any' as const }));
const oursRiskBlind = evaluateSearch(riskBlindJobs, (query) => searchTools(index, query));
const miniRiskBlind = evaluateSearch(riskBlindJobs, createMiniSearchBaseline(servers));

const ceilings = jobs.map((job) => ceilingOf(servers, job));
const ceiling = meanMetrics(ceilings.map((c) => c.metrics));

function printReport(): void {
  const lines = [
    `tool search evaluation ${parsed.version} (sha256 ${set.sha256.slice(0, 16)}...), ${jobs.length} jobs, ${index.toolCount} tools on ${index.serverCount} servers`,
    metricsRow('mcp-atlas route', ours.overall),
    metricsRow('MiniSearch (BM25)', mini.overall),
    metricsRow('ceiling (perfect ranking)', ceiling),
    `jobs with no fitting tool in the corpus: ${ceilings.filter((c) => c.fits === 0).length}`,
    'diagnostic, judge without the risk allowance:',
    metricsRow('  mcp-atlas route', oursRiskBlind.overall),
    metricsRow('  MiniSearch (BM25)', miniRiskBlind.overall),
    'nDCG@5 by category (ours / MiniSearch / ceiling):',
    ...Object.entries(ours.byCategory).map(([category, result]) => {
      const inCategory = jobs.map((job, at) => ({ job, at })).filter(({ job }) => job.category === category);
      const best = inCategory.reduce((s, { at }) => s + (ceilings[at]?.metrics.ndcg5 ?? 0), 0) / inCategory.length;
      return `  ${category.padEnd(15)} ${String(result.jobs).padStart(2)} jobs  ${result.ndcg5.toFixed(3)} / ${(mini.byCategory[category]?.ndcg5 ?? 0).toFixed(3)} / ${best.toFixed(3)}`;
    }),
  ];
  console.log(lines.join('\n'));
}

function writeResults(report: EvalReport, name: string): void {
  // Published result files are written on request only; they name tools, never copy descriptions.
  const folder = process.env.MCP_ATLAS_EVAL_OUT;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  writeFileSync(`${folder}/${name}.json`, `${JSON.stringify(report, null, 1)}\n`);
}

describe('search evaluation v1 over the real corpus', () => {
  it('runs the frozen set: its SHA-256 is the one recorded when it was written', () => {
    expect(set.sha256).toBe(EVAL_SET_V1_SHA256);
    expect(jobs.length).toBeGreaterThanOrEqual(100);
    expect(ours.set).toEqual({ version: 'v1', sha256: EVAL_SET_V1_SHA256 });
  });

  it('prints both engines and the ceiling', () => {
    printReport();
    writeResults(ours, 'toolsearch-v1.mcp-atlas');
    writeResults(mini, 'toolsearch-v1.minisearch');
    expect(ours.jobCount).toBe(jobs.length);
    expect(mini.jobCount).toBe(jobs.length);
  });

  // Floors sit a little under the figures measured on 2026-12-03 with the ranking of route rules 1.2.0 (P@1
  // 0.503, P@5 0.348, nDCG@5 0.372, MRR 0.546, hit@5 0.624; first release 0.442, 0.305, 0.327, 0.486, 0.552),
  // because the judge's grades also depend on @mcp-atlas/risk's verb lists, which may still move a tool's
  // level. Falling through a floor means the search got worse, or risk changed a lot.
  it('stays above the measured floors', () => {
    expect(ours.overall.p1).toBeGreaterThanOrEqual(0.48);
    expect(ours.overall.p5).toBeGreaterThanOrEqual(0.33);
    expect(ours.overall.ndcg5).toBeGreaterThanOrEqual(0.35);
    expect(ours.overall.mrr).toBeGreaterThanOrEqual(0.52);
    expect(ours.overall.hit5).toBeGreaterThanOrEqual(0.6);
  });

  it('beats MiniSearch (BM25) on every figure, with and without the risk allowance', () => {
    for (const key of ['p1', 'p5', 'ndcg5', 'mrr', 'hit5'] as const) {
      expect(ours.overall[key], key).toBeGreaterThan(mini.overall[key]);
      expect(oursRiskBlind.overall[key], key).toBeGreaterThan(miniRiskBlind.overall[key]);
    }
  });

  it('never exceeds the ceiling a perfect ranking would reach', () => {
    for (const key of ['p1', 'p5', 'ndcg5', 'mrr', 'hit5'] as const) {
      expect(ours.overall[key], key).toBeLessThanOrEqual(ceiling[key] + 1e-12);
    }
  });
});

describe('route and categories over the real corpus', () => {
  it('routes every job query without throwing, each pick scored as the product of its factors', () => {
    for (const job of jobs) {
      const result = routeTask(index, job.query, { limit: 5 });
      expect(result.setAside).toEqual([]);
      for (const pick of result.picks) {
        expect(pick.score).toBeCloseTo(
          Object.values(pick.factors).reduce((a, b) => a * b, 1),
          12,
        );
      }
    }
  });

  it('names a category for most servers, and the obvious one for well-known servers', () => {
    const corpus = loadCorpusServers();
    const categories = corpus.map((server) => categorize(server.tools, { serverName: corpusServerName(server) }));
    for (const category of categories) expect(category === null || CATEGORIES.includes(category)).toBe(true);
    const named = categories.filter((category) => category !== null).length;
    console.log(`categorized ${named} of ${corpus.length} corpus servers`);
    expect(named / corpus.length).toBeGreaterThanOrEqual(0.6);
    const byId = new Map(corpus.map((server, at) => [server.id, categories[at]]));
    expect(byId.get('pool:Gmail')).toBe('email');
    expect(byId.get('pool:Google Calendar')).toBe('calendar');
    expect(byId.get('github-mcp-server')).toBe('code');
    expect(byId.get('modelcontextprotocol-filesystem')).toBe('files');
    expect(byId.get('pool:Slack')).toBe('chat');
    expect(byId.get('docker-registry__stripe-remote')).toBe('payments');
    expect(byId.get('pool:Google Maps')).toBe('maps');
    expect(byId.get('playwright-mcp')).toBe('scraping');
    // Tools alone, without the server name, still say what most servers do.
    expect(categorize(corpus.find((server) => server.id === 'pool:Gmail')?.tools ?? [])).toBe('email');
  });
});
