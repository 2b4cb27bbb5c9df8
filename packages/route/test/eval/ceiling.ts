// The best figures any search could reach on a job over a catalogue: every tool graded by the judge, the ten
// best in order. A search's figures are read beside these, since a job with few fitting tools caps P@5.
import { classifyTools } from '@mcp-atlas/risk';
import { type EvalMetrics, gradeHit, type IndexServer, metricsOfGrades, type SearchJob } from '../../src/index.js';

/** Every tool of `servers` graded for `job` (risk levels from @mcp-atlas/risk), best first. */
export function gradesOfCatalogue(servers: readonly IndexServer[], job: SearchJob): number[] {
  const grades: number[] = [];
  for (const server of servers) {
    const verdicts = classifyTools(server.tools);
    server.tools.forEach((tool, at) => {
      const { name, description } = tool as { name?: unknown; description?: unknown };
      if (typeof name !== 'string') return;
      const level = verdicts[at]?.level ?? 'changes-data';
      grades.push(
        gradeHit(job, { tool: name, description: typeof description === 'string' ? description : '', level }),
      );
    });
  }
  return grades.sort((a, b) => b - a);
}

/** One job's ceiling and how many tools fit it at all. */
export function ceilingOf(servers: readonly IndexServer[], job: SearchJob): { metrics: EvalMetrics; fits: number } {
  const grades = gradesOfCatalogue(servers, job);
  return { metrics: metricsOfGrades(grades.slice(0, 10)), fits: grades.filter((grade) => grade > 0).length };
}

/** The mean of each figure over several jobs' results. */
export function meanMetrics(all: readonly EvalMetrics[]): EvalMetrics {
  const mean = (key: keyof EvalMetrics) => all.reduce((sum, m) => sum + m[key], 0) / Math.max(all.length, 1);
  return { p1: mean('p1'), p5: mean('p5'), ndcg5: mean('ndcg5'), mrr: mean('mrr'), hit5: mean('hit5') };
}

/** One printed line of figures. */
export function metricsRow(label: string, m: EvalMetrics): string {
  const f = (x: number) => x.toFixed(3);
  return `${label.padEnd(26)} P@1 ${f(m.p1)}  P@5 ${f(m.p5)}  nDCG@5 ${f(m.ndcg5)}  MRR ${f(m.mrr)}  hit@5 ${f(m.hit5)}`;
}
