/**
 * The daily merge at the scale of the largest directories: 30,000 entries from the eight sources, about 12,000
 * servers (most listed by two to four sources under differently written GitHub URLs, some by registry name only,
 * some with neither), merged from nothing and then over the previous day's catalog. The baseline, measured in the
 * same run, is the floor of any merge keyed by GitHub URL: normalizing every entry's URL once and grouping the
 * entries in a Map. Data come from a seeded generator, so every run measures the same input.
 *
 * It measures the built package (dist/, which the bench script builds first), as users run it.
 */
import { bench, describe } from 'vitest';
import { mergeCatalog, normalizeGithubUrl } from '../dist/index.js';
import type { SourceEntry, SourceName, SourceRead } from '../src/index.js';
import { DISCOVERY_RULES } from '../src/rules.js';

const ENTRIES = 30_000;
const SERVERS = 12_000;

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const URL_FORMS = [
  (o: string, r: string) => `https://github.com/${o}/${r}`,
  (o: string, r: string) => `git+https://github.com/${o.toUpperCase()}/${r}.git`,
  (o: string, r: string) => `https://github.com/${o}/${r}/tree/main/server`,
  (o: string, r: string) => `git@github.com:${o}/${r}.git`,
];

/** The day's reads: each entry picks a server and a source; 1 in 10 servers has only a registry name. */
function makeReads(): SourceRead[] {
  const random = seeded(7);
  const bySource = new Map<SourceName, SourceEntry[]>(DISCOVERY_RULES.sources.map((s) => [s, []]));
  for (let i = 0; i < ENTRIES; i++) {
    const server = Math.floor(random() * SERVERS);
    const source = DISCOVERY_RULES.sources[Math.floor(random() * DISCOVERY_RULES.sources.length)] as SourceName;
    const owner = `owner${server % 997}`;
    const repo = `mcp-server-${server}`;
    const form = URL_FORMS[Math.floor(random() * URL_FORMS.length)] as (o: string, r: string) => string;
    const registryOnly = server % 10 === 0;
    bySource.get(source)?.push({
      sourceId: `${source}-${i}`,
      name: `Server ${server}`,
      description: `Does thing ${server}`,
      registryId: source === 'official-registry' || registryOnly ? `io.github.${owner}/${repo}` : null,
      repositoryUrl: registryOnly ? null : form(owner, repo),
      pageUrl: `https://directory.example/${source}/${i}`,
      packages: server % 3 === 0 ? [{ registry: 'npm', name: `@${owner}/${repo}` }] : [],
      facts: { stars: server % 500 },
    });
  }
  return [...bySource].map(([source, entries]) => ({ source, outcome: 'complete', entries }));
}

const READS = makeReads();
const DAY_ONE = mergeCatalog([], READS, '2026-12-07').servers;

// Memory: the merge keeps one small record per entry and per key at once, so what it holds grows with the input
// and nothing else. The heap held during the merge over the day before (the catalog of the day before kept, the
// new one built), after a full collection on each side, where the runtime lets the bench force one.
function heapOfMerge(): string {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return 'heap not measured (run with node --expose-gc)';
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = mergeCatalog(DAY_ONE, READS, '2026-12-08');
  gc();
  const after = process.memoryUsage().heapUsed;
  return `the new catalog of ${kept.servers.length} servers holds ${((after - before) / 1e6).toFixed(1)} MB of heap`;
}

console.log(`merge bench: ${ENTRIES} entries, ${DAY_ONE.length} servers; ${heapOfMerge()}`);

describe(`${ENTRIES} entries from ${DISCOVERY_RULES.sources.length} sources`, () => {
  bench('baseline: normalize each GitHub URL and group in a Map', () => {
    const groups = new Map<string, SourceEntry[]>();
    for (const read of READS)
      for (const entry of read.entries) {
        const key = normalizeGithubUrl(entry.repositoryUrl) ?? `${read.source}:${entry.sourceId}`;
        const group = groups.get(key);
        if (group === undefined) groups.set(key, [entry]);
        else group.push(entry);
      }
  });

  bench('mergeCatalog from nothing', () => {
    mergeCatalog([], READS, '2026-12-07');
  });

  bench('mergeCatalog over the day before', () => {
    mergeCatalog(DAY_ONE, READS, '2026-12-08');
  });
});
