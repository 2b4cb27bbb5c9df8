// Test-side helpers for the corpus checks and the benchmark: turn @mcp-atlas/corpus servers into
// IndexServer values and into a MiniSearch baseline over the same tools.

import { type CorpusServer, loadCorpus } from '@mcp-atlas/corpus';
import { classifyTools, type RiskLevel } from '@mcp-atlas/risk';
import MiniSearch from 'minisearch';
import { type IndexServer, type SearchHit, splitText } from '../../src/index.js';

/** A readable server name from a corpus id (the registry title for pool entries, the file stem otherwise). */
export function corpusServerName(server: CorpusServer): string {
  return server.id.replace(/^pool:/, '').replace(/^docker-registry__/, '');
}

/** Every corpus server as an IndexServer; `copy` makes ids unique when the corpus is repeated. */
export function corpusIndexServers(corpus: readonly CorpusServer[], copy = 0): IndexServer[] {
  return corpus.map((server) => ({
    id: copy === 0 ? server.id : `${server.id}#${copy}`,
    name: corpusServerName(server),
    tools: server.tools,
  }));
}

export function loadCorpusServers(): CorpusServer[] {
  return loadCorpus();
}

interface MiniDoc {
  id: number;
  serverId: string;
  tool: string;
  name: string;
  description: string;
  level: RiskLevel;
}

/**
 * The comparison baseline the issue asks for: MiniSearch (BM25) over the same tools, with its defaults
 * except that tool names are given as words (so both engines see the same words) and count double, as ours do.
 * Levels come from the same classifier, so the judge grades both alike.
 */
export function createMiniSearchBaseline(servers: readonly IndexServer[]): (query: string) => SearchHit[] {
  const mini = new MiniSearch<MiniDoc>({
    fields: ['name', 'description'],
    storeFields: ['serverId', 'tool', 'description', 'level'],
    searchOptions: { boost: { name: 2 } },
  });
  const docs: MiniDoc[] = [];
  for (const server of servers) {
    const verdicts = classifyTools(server.tools);
    server.tools.forEach((tool, at) => {
      const name = (tool as { name?: unknown }).name;
      if (typeof name !== 'string' || name === '') return;
      const description = (tool as { description?: unknown }).description;
      docs.push({
        id: docs.length,
        serverId: server.id,
        tool: name,
        name: splitText(name).join(' '),
        description: typeof description === 'string' ? description : '',
        level: verdicts[at]?.level ?? 'changes-data',
      });
    });
  }
  mini.addAll(docs);
  return (query) =>
    mini
      .search(query)
      .slice(0, 10)
      .map((result) => ({
        serverId: result.serverId as string,
        tool: result.tool as string,
        description: result.description as string,
        level: result.level as RiskLevel,
        score: result.score,
      }));
}
