// Benchmark: classify 149,725 tools (the largest published registry census), built by repeating the real
// corpus, and compare with the floor of merely splitting the same names into words in the same run.
// Run: pnpm --filter @mcp-atlas/risk bench   (builds first; reads ../shared/corpus in place)
import { splitWords } from '@mcp-atlas/base';
import { loadCorpus } from '@mcp-atlas/corpus';
import { classifyTools } from '../dist/index.js';

const CENSUS_SIZE = 149_725;
const ROUNDS = 7;

function buildServers() {
  const corpus = loadCorpus().filter((server) => server.raw.length > 0);
  const servers = [];
  let count = 0;
  for (let i = 0; count < CENSUS_SIZE; i++) {
    const source = corpus[i % corpus.length];
    const tools = source.raw.slice(0, CENSUS_SIZE - count);
    servers.push(tools);
    count += tools.length;
  }
  return { servers, count };
}

function timeIt(fn) {
  const start = process.hrtime.bigint();
  const sink = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, sink };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function classifyAll(servers) {
  let high = 0;
  for (const tools of servers) for (const verdict of classifyTools(tools)) if (verdict.level === 'high-risk') high++;
  return high;
}

function splitAll(servers) {
  let words = 0;
  for (const tools of servers) for (const tool of tools) words += splitWords(tool.name).length;
  return words;
}

const { servers, count } = buildServers();
// Warm both paths so the JIT has compiled them before anything is timed.
classifyAll(servers);
splitAll(servers);
const classifyMs = [];
const splitMs = [];
for (let round = 0; round < ROUNDS; round++) {
  splitMs.push(timeIt(() => splitAll(servers)).ms);
  classifyMs.push(timeIt(() => classifyAll(servers)).ms);
}
const classify = median(classifyMs);
const split = median(splitMs);
const toolsPerSecond = Math.round((count / classify) * 1000);
const splitPerSecond = Math.round((count / split) * 1000);
const ratio = classify / split;
console.log(
  `tools classified per round: ${count.toLocaleString('en-US')} (${servers.length} server lists, median of ${ROUNDS} rounds)`,
);
console.log(`classifyTools:       ${classify.toFixed(1)} ms  -> ${toolsPerSecond.toLocaleString('en-US')} tools/s`);
console.log(`splitWords floor:    ${split.toFixed(1)} ms  -> ${splitPerSecond.toLocaleString('en-US')} names/s`);
console.log(`ratio to the floor:  ${ratio.toFixed(2)}x  (target <= 3x)`);
console.log(
  `target >= 1,000,000 tools/s: ${toolsPerSecond >= 1_000_000 ? 'met' : 'NOT met'}; target <= 3x floor: ${ratio <= 3 ? 'met' : 'NOT met'}`,
);
