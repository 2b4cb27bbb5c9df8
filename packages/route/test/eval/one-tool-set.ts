// Test-side helpers for the one-right-tool corpus checks: read a set file with the SHA-256 of its bytes, find
// targets the corpus does not hold, and print a report as one row or as its failure list.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type IndexServer, type OneToolReport, type OneToolSet, parseOneToolSet } from '../../src/index.js';

/** The held-out set (frozen; measured once by the lead, never tuned on). */
export const ONE_TOOL_SET_PATH = fileURLToPath(new URL('../../eval/toolsearch-one-tool-v1.json', import.meta.url));

/** The development set, the one the ranking work may look at. */
export const ONE_TOOL_DEV_SET_PATH = fileURLToPath(
  new URL('../../eval/toolsearch-one-tool-dev-v1.json', import.meta.url),
);

/** A checked one-tool set and the SHA-256 of the file's bytes. */
export function readOneToolSet(path: string): { set: OneToolSet; sha256: string } {
  const bytes = readFileSync(path);
  return {
    set: parseOneToolSet(JSON.parse(bytes.toString('utf8'))),
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/**
 * Every target and accepted pair of the set that no server of `servers` holds, as `promptId: server/tool`.
 * A set naming a tool the corpus lacks could never score on that prompt, so the corpus checks require none.
 */
export function missingPairs(set: OneToolSet, servers: readonly IndexServer[]): string[] {
  const tools = new Map<string, Set<string>>();
  for (const server of servers) {
    const names = server.tools
      .map((tool) => (tool as { name?: unknown }).name)
      .filter((name): name is string => typeof name === 'string');
    tools.set(server.id, new Set(names));
  }
  const missing: string[] = [];
  for (const prompt of set.prompts) {
    for (const pair of [{ server: prompt.server, tool: prompt.tool }, ...(prompt.accept ?? [])]) {
      if (!tools.get(pair.server)?.has(pair.tool)) missing.push(`${prompt.id}: ${pair.server}/${pair.tool}`);
    }
  }
  return missing;
}

/** One printed row of a report's four figures. */
export function oneToolRow(label: string, report: OneToolReport): string {
  const f = (x: number) => x.toFixed(3);
  return `${label.padEnd(22)} P@1 ${f(report.p1)}  MRR ${f(report.mrr)}  hit@5 ${f(report.hit5)}  hit@10 ${f(report.hit10)}`;
}

/** Every prompt whose right tool is not first, with its rank and the top five it got instead. */
export function oneToolFailures(report: OneToolReport): string[] {
  const lines: string[] = [];
  for (const result of report.prompts) {
    if (result.rank === 1) continue;
    lines.push(`${result.id} "${result.query}" wants ${result.target}, rank ${result.rank ?? '>10'}`);
    result.top.forEach((entry, at) => {
      lines.push(`   ${at + 1}${entry === result.target ? '*' : ' '} ${entry}`);
    });
  }
  return lines;
}
