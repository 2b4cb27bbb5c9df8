// Load benchmark: autocannon against GET /api/toolsearch, once over the demo's data and once with
// 200,000 real tools loaded. The server runs in a child process so the load generator does not share its
// event loop. Prints requests per second and p99 latency. Run: pnpm --filter @mcp-atlas/cli bench
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'node_modules', '.cache', 'atlas-bench', 'load-server.mjs');
const DURATION_S = Number(process.env.LOAD_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
// Queries in the words of agents' tasks; rotated so consecutive requests differ.
const QUERIES = [
  'search issues',
  'weather forecast',
  'send an invoice',
  'read a file',
  'create a calendar event',
  'query sql database',
  'list pull requests',
  'translate text',
  'delete a record',
  'refund a payment',
  'take a screenshot',
  'list kubernetes pods',
  'find a note',
  'upload a file',
  'merge a branch',
  'get directions',
  'run a workflow',
  'book a meeting room',
  'search documentation',
  'list repositories',
  'create a ticket',
  'reply to a customer',
  'geocode an address',
  'read logs',
];

async function startServer(mode, cacheEntries) {
  const child = spawn(process.execPath, [out, mode, String(cacheEntries)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    if (line.startsWith('READY ')) return { child, url: line.slice(6) };
  }
  throw new Error(`the ${mode} server exited before it was ready`);
}

async function measure(label, mode, cacheEntries) {
  const { child, url } = await startServer(mode, cacheEntries);
  const requests = QUERIES.map((q) => ({ method: 'GET', path: `/api/toolsearch?q=${encodeURIComponent(q)}&limit=10` }));
  // A short warm-up so the JIT and caches are settled before the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 2, requests });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, requests });
  child.kill('SIGTERM');
  await once(child, 'exit');
  const ok = result.non2xx === 0 && result.errors === 0;
  console.log(
    `${label.padEnd(26)} ${Math.round(result.requests.average).toLocaleString('en-US').padStart(7)} req/s   p99 ${String(result.latency.p99).padStart(4)} ms   ` +
      `(${CONNECTIONS} connections, ${DURATION_S} s${ok ? '' : `, ${result.non2xx} non-2xx, ${result.errors} errors`})`,
  );
  return result;
}

await build({
  entryPoints: [join(here, 'load-server.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: out,
  packages: 'external',
  logLevel: 'silent',
});
console.log('GET /api/toolsearch under load (targets: >= 2,000 req/s, p99 < 50 ms)');
console.log('baseline: every search computed afresh (cache off); then with the per-view answer cache on');
await measure('demo data, cache off', 'demo', 0);
await measure('demo data, cache on', 'demo', 2000);
await measure('200,000 tools, cache off', '200000', 0);
await measure('200,000 tools, cache on', '200000', 2000);
