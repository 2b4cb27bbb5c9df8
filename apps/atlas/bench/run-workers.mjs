// Shard-worker benchmark: a loopback fleet of 2,000 MCP servers, each answering every request after a
// fixed delay, scanned for one day by the real CLI: once with the file store in one process (`scan --data`,
// the baseline), then on a fresh PostgreSQL database each with `scan --enqueue` and 1, 2 and 4
// `worker --until-idle` processes. Then /api/servers and /api/toolsearch throughput (autocannon) with one and
// two `serve --store postgres://… --no-schedule` processes over the scanned day. Everything runs in this one
// run, on this machine, and is reported as ratios against the baseline measured here.
// Run: node bench/run-workers.mjs   (WORKERS_FLEET=2000 WORKERS_DELAY_MS=50 WORKERS_HTTP_S=8 to change)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const app = join(here, '..');
const cache = join(app, 'node_modules', '.cache', 'atlas-bench-workers');
const FLEET = Number(process.env.WORKERS_FLEET ?? 2_000);
const DELAY_MS = Number(process.env.WORKERS_DELAY_MS ?? 50);
const HTTP_S = Number(process.env.WORKERS_HTTP_S ?? 8);
const WORKER_COUNTS = [1, 2, 4];
const DAY = '2026-12-01';

async function bundle() {
  await mkdir(join(cache, 'dist'), { recursive: true });
  // The CLI reads ../package.json from its own folder, as it does from dist/ when built.
  await copyFile(join(app, 'package.json'), join(cache, 'package.json'));
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'silent',
  };
  await build({ ...common, entryPoints: [join(app, 'src', 'cli.ts')], outfile: join(cache, 'dist', 'cli.mjs') });
  await build({ ...common, entryPoints: [join(here, 'workers-setup.ts')], outfile: join(cache, 'setup.mjs') });
  return { cli: join(cache, 'dist', 'cli.mjs'), setup: await import(pathToFileURL(join(cache, 'setup.mjs')).href) };
}

function start(cli, args) {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: app,
    env: { ...process.env, MCP_ATLAS_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const done = once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`mcp-atlas ${args[0]} exited ${code}: ${stderr}`);
    return stdout;
  });
  return { child, done };
}

const run = (cli, args) => start(cli, args).done;

async function timed(work) {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

async function serveAt(cli, args) {
  const { child } = start(cli, args);
  let out = '';
  for await (const chunk of child.stdout) {
    out += chunk;
    const match = /serving at (http:\/\/\S+)/.exec(out);
    if (match !== null) return { child, url: match[1].replace(/\/$/, '') };
  }
  throw new Error('serve exited before serving');
}

/** Requests per second over `urls` together (one autocannon per process, run at once, summed). */
async function throughput(urls, path) {
  const results = await Promise.all(
    urls.map((url) => autocannon({ url: `${url}${path}`, connections: 20, duration: HTTP_S })),
  );
  return results.reduce((sum, result) => sum + result.requests.average, 0);
}

const { cli, setup } = await bundle();
const fleet = await setup.startLoopbackFleet(FLEET, DELAY_MS);
const cluster = await setup.startPostgresCluster();
const folder = await mkdtemp(join(tmpdir(), 'atlas-bench-workers-'));
// The fleet is one host (one loopback port), so the per-host limit is lifted to measure the checks themselves.
const PER_HOST = ['--checks-per-host', '64'];
const scanFlags = [
  '--registry',
  fleet.registryUrl,
  '--allow-private',
  '--day',
  DAY,
  '--daily-budget-usd',
  '100',
  ...PER_HOST,
];
const rows = [];
let lastUrl = null;
try {
  const baseline = await timed(() => run(cli, ['scan', '--data', join(folder, 'file-store'), ...scanFlags]));
  rows.push({ setup: 'file store, one process (scan)', seconds: baseline });
  for (const count of WORKER_COUNTS) {
    const url = await cluster.createDatabase();
    const seconds = await timed(async () => {
      await run(cli, ['scan', '--store', url, ...scanFlags, '--enqueue']);
      const workerArgs = ['worker', '--store', url, '--allow-private', '--until-idle', '--daily-budget-usd', '100'];
      workerArgs.push(...PER_HOST);
      await Promise.all(Array.from({ length: count }, () => run(cli, workerArgs)));
    });
    rows.push({ setup: `PostgreSQL, scan --enqueue + ${count} worker${count === 1 ? '' : 's'}`, seconds });
    lastUrl = url;
  }
  console.log(
    `\nOne day's check of ${FLEET} loopback servers answering after ${DELAY_MS} ms, on ${process.platform} (${(await import('node:os')).cpus().length} cores)`,
  );
  console.log('| setup | wall time | vs file store |');
  console.log('| --- | ---: | ---: |');
  for (const row of rows)
    console.log(`| ${row.setup} | ${row.seconds.toFixed(1)} s | ${(row.seconds / baseline).toFixed(2)} |`);

  const serveArgs = ['serve', '--store', lastUrl, '--no-schedule', '--port', '0', '--host', '127.0.0.1'];
  const servers = [await serveAt(cli, serveArgs), await serveAt(cli, serveArgs)];
  try {
    console.log(`\nHTTP throughput over that day (autocannon, 20 connections per process, ${HTTP_S} s)`);
    console.log('| route | 1 serve | 2 serve | ratio |');
    console.log('| --- | ---: | ---: | ---: |');
    for (const path of ['/api/servers', '/api/toolsearch?q=read%20a%20note&limit=10']) {
      const one = await throughput([servers[0].url], path);
      const two = await throughput(
        servers.map((server) => server.url),
        path,
      );
      console.log(
        `| ${path.split('?')[0]} | ${one.toFixed(0)} req/s | ${two.toFixed(0)} req/s | ${(two / one).toFixed(2)} |`,
      );
    }
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => once(server.child, 'exit')));
  }
} finally {
  await fleet.close();
  await cluster.stop();
  await rm(folder, { recursive: true, force: true });
}
