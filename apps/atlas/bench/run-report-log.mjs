// Report-log benchmark: 2,000 agents' reports, each from its own network (a distinct X-Forwarded-For /24,
// the server trusting one proxy hop), against the app served on loopback with its data folder on disk. Run
// twice in the same process: the append-only day log (what the app does) and the old whole-file rewrite
// per report (the baseline). Prints the rate and the median latency of the first and the last 200 reports;
// an append-only log keeps the ratio last/first near 1. A second scenario starts from a day log that is
// already 24 MB long (the size at which the rewrite was seen taking 62 to 537 ms a report), with fewer
// reports. Each server gets 50 warm-up reports first (not measured). Run: node bench/run-report-log.mjs
// (REPORTS=2000 CONCURRENCY=8 PREFILL_MB=24 PREFILL_REPORTS=200 to change the load; PREFILL_MB=0 skips it).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'node_modules', '.cache', 'atlas-bench', 'report-log-server.mjs');
const REPORTS = Number(process.env.REPORTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const EDGE = 200;
const PREFILL_MB = Number(process.env.PREFILL_MB ?? 24);
const PREFILL_REPORTS = Number(process.env.PREFILL_REPORTS ?? 200);
const WARM_UP = 50;

async function startServer(mode, prefillMb) {
  const child = spawn(process.execPath, [out, mode, String(prefillMb)], { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('READY ')) return { child, url: line.slice(6) };
  }
  throw new Error(`the ${mode} server exited before it was ready`);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Sends report n from network 10.a.b.0/24 and returns its latency in milliseconds. */
async function sendReport(url, n) {
  const started = performance.now();
  const response = await fetch(`${url}/api/reports`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(n >> 8) & 255}.${n & 255}.1` },
    body: JSON.stringify({
      server: 'notes-hub',
      tool: 'list_notes',
      ok: n % 7 !== 0,
      ...(n % 7 === 0 ? { reason: 'timeout' } : {}),
      ms: 100 + (n % 900),
    }),
  });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`report ${n} answered ${response.status}`);
  return performance.now() - started;
}

/** Sends reports from..to-1, CONCURRENCY at a time; returns each one's latency, by index from `from`. */
async function sendAll(url, from, to) {
  const latencies = new Array(to - from);
  let next = from;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < to) {
        const n = next++;
        latencies[n - from] = await sendReport(url, n);
      }
    }),
  );
  return latencies;
}

async function measure(mode, reports, prefillMb) {
  const { child, url } = await startServer(mode, prefillMb);
  // Networks 60000 and up for the warm-up, so they never share a quota with the measured reports.
  await sendAll(url, 60_000, 60_000 + WARM_UP);
  const started = performance.now();
  const latencies = await sendAll(url, 0, reports);
  const seconds = (performance.now() - started) / 1000;
  child.kill('SIGTERM');
  await once(child, 'exit');
  const edge = Math.min(EDGE, Math.floor(reports / 2));
  const first = median(latencies.slice(0, edge));
  const last = median(latencies.slice(-edge));
  return { mode, rate: reports / seconds, first, last, ratio: last / first, edge };
}

function print(r) {
  console.log(
    `  ${(r.mode === 'append' ? 'append-only (now)' : 'rewrite (baseline)').padEnd(20)} ${r.rate.toFixed(0).padStart(6)} reports/s   ` +
      `median first ${r.edge} ${r.first.toFixed(2)} ms, last ${r.edge} ${r.last.toFixed(2)} ms, last/first ${r.ratio.toFixed(2)}`,
  );
}

async function scenario(title, reports, prefillMb) {
  console.log(title);
  const baseline = await measure('rewrite', reports, prefillMb);
  print(baseline);
  const now = await measure('append', reports, prefillMb);
  print(now);
  console.log(
    `  append-only vs rewrite: ${(now.rate / baseline.rate).toFixed(2)}x the rate; last-${now.edge} median ${(baseline.last / now.last).toFixed(2)}x lower`,
  );
}

await build({
  entryPoints: [join(here, 'report-log-server.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: out,
  packages: 'external',
  logLevel: 'silent',
});
await scenario(
  `POST /api/reports: ${REPORTS} reports from distinct networks, ${CONCURRENCY} in flight, data folder on disk, empty day log`,
  REPORTS,
  0,
);
if (PREFILL_MB > 0)
  await scenario(
    `The same with the day log already ${PREFILL_MB} MB long: ${PREFILL_REPORTS} reports`,
    PREFILL_REPORTS,
    PREFILL_MB,
  );
