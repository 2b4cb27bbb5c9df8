// The load-and-fuzz run against the real service. It makes a throwaway data folder with the demo, starts the
// built CLI's `serve` over it on loopback (behind a preload that keeps every outgoing connection on loopback),
// and then, counted in requests and never in seconds:
//   1. sends FUZZ_REQUESTS fuzzed requests, seeded, across every route the app mounts (bench/fuzz-plan.ts);
//   2. sends BATCHES_PER_CLIENT JSON-RPC batches at the batch limit from each of six concurrent MCP clients,
//      while a seventh client times GET /healthz.
// It counts answers by status class, samples the server's resident memory (RSS) before, during and after,
// compares the /healthz median under load with the one measured before it, and reads the MCP call log's size
// against its daily cap. It exits 1 on any 5xx (printing the request), on a route never reached, on RSS past
// the bound, or on a call log past its cap. Bundled and started by bench/run-fuzz.mjs.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MCP_ENDPOINT_RULES } from '@mcp-atlas/operations/rules';
import { MCP_CALL_LOG_PREFIX } from '../src/data/paths.js';
import { type FuzzContext, type MountedRoute, mountedRoutes } from './fuzz-plan.js';
import {
  createFuzzRequests,
  describeFuzzRequest,
  type FuzzOutcome,
  type FuzzRequest,
  outcomeClass,
  sendFuzzRequest,
} from './fuzz-requests.js';

/** Where the app lives; run-fuzz.mjs passes it, since this file runs from a bundle in the cache folder. */
const APP_FOLDER = process.env.FUZZ_APP_FOLDER ?? process.cwd();
const DIST_CLI = join(APP_FOLDER, 'dist', 'cli.js');
const PRELOAD = join(APP_FOLDER, 'bench', 'loopback-only.cjs');

/** The seed of the fuzzed requests: the same seed sends the same requests (FUZZ_SEED overrides it). */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_204);
/** Fuzzed requests across the routes. */
const FUZZ_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 8_000);
/** Fuzzed requests in flight at once. */
const FUZZ_CONCURRENCY = 8;
/** Concurrent MCP clients of the batch load. */
const MCP_CLIENTS = 6;
/** Batches each MCP client sends, one after the other. */
const BATCHES_PER_CLIENT = Number(process.env.FUZZ_BATCHES ?? 600);
/** Days of demo data the service serves. */
const DEMO_DAYS = 7;
/** /healthz requests timed before the load, for the baseline median. */
const HEALTHZ_BASELINE_SAMPLES = 200;
/** Requests between two samples of the server's RSS. */
const RSS_SAMPLE_EVERY = 100;

/**
 * How far the server's RSS may rise above its baseline (measured after start and a warm-up) at any sample. What
 * one request can hold is small: the MCP endpoint answers at most 32 requests at once
 * (MCP_REQUESTS_IN_FLIGHT_MAX), each a batch of at most 10 calls with answers of a few kilobytes, and the largest
 * body any route reads is 64 KiB (larger ones are refused while they stream). The rest is V8's heap growing to
 * its working size under six busy clients, with garbage left for the next collection: measured at 150 to 160 MB
 * on this machine, reached within the first 2,000 batches and flat after (12,000 batches, 100,000 tool calls).
 * 250 MB leaves room for a collector that runs late on a loaded machine. It is a ceiling, not a leak detector:
 * RSS_LEVEL_OFF_MB is that.
 */
const RSS_GROWTH_BOUND_MB = 250;

/**
 * How much higher the RSS may peak in the second half of the batch load than in its first half. Once the heap
 * has reached its working size, memory that still climbs is held per request: over the second half's 1,800
 * batches (about 13,500 tool calls), 40 MB is what a leak of 3 KB per call would add, so a leak that size or
 * larger fails the run, while the collector's ups and downs (about 25 MB between samples, measured) do not.
 */
const RSS_LEVEL_OFF_MB = 40;

const MB = 1024 * 1024;

interface Service {
  child: ChildProcess;
  hostname: string;
  port: number;
  host: string;
  exited: Promise<number | null>;
  stderrTail: string[];
  /**
   * What the service's own log says went wrong: access lines with a 5xx status and failed requests. A client
   * that hangs up never sees the answer to its request, so only the log shows a 5xx given to it.
   */
  loggedFailures: string[];
}

/** A log line of the service that records a 5xx answer or a failed request, or null. */
function failureIn(line: string): string | null {
  if (!line.startsWith('{')) return null;
  const entry = JSON.parse(line) as { event?: string; status?: number };
  const failed = entry.event === 'http_error' || (entry.event === 'access' && (entry.status ?? 0) >= 500);
  return failed ? line : null;
}

/** Runs the CLI to the end and fails with its output when it exits with anything but 0. */
async function runCli(args: string[]): Promise<void> {
  const child = spawn(process.execPath, [DIST_CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`mcp-atlas ${args[0]} exited with ${code}:\n${output.slice(-2_000)}`);
}

/** Starts `serve` over `dataDir` and resolves once its first log line names the address it listens at. */
async function startService(dataDir: string): Promise<Service> {
  const child = spawn(
    process.execPath,
    [
      '--require',
      PRELOAD,
      DIST_CLI,
      'serve',
      '--data',
      dataDir,
      '--port',
      '0',
      '--no-schedule',
      '--trust-proxy',
      '1',
      '--log-level',
      'info',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } },
  );
  const exited = once(child, 'close').then(([code]) => code as number | null);
  const stderrTail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderrTail.push(line);
    if (stderrTail.length > 20) stderrTail.shift();
  });
  const lines = createInterface({ input: child.stdout! });
  const loggedFailures: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    // Every access-log line is read (and dropped unless it records a failure), so the pipe never stalls the service.
    lines.on('line', (line) => {
      const failure = failureIn(line);
      if (failure !== null) loggedFailures.push(failure);
      const match = /"url":"(http:\/\/[^"]+)"/.exec(line);
      if (match !== null) resolve(match[1] as string);
    });
    void exited.then((code) =>
      reject(new Error(`serve exited with ${code} before serving:\n${stderrTail.join('\n')}`)),
    );
  });
  const parsed = new URL(url);
  return {
    child,
    hostname: parsed.hostname,
    port: Number(parsed.port),
    host: parsed.host,
    exited,
    stderrTail,
    loggedFailures,
  };
}

/** The server process's resident memory in bytes, from /proc (Linux). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb) * 1024;
}

/** The V8 heap's used and total bytes, from the service's own /metrics (prom-client's default metrics). */
async function heapOf(service: Service): Promise<{ used: number; total: number }> {
  const text = (await getText(service, '/metrics')).text;
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { used: gauge('nodejs_heap_size_used_bytes'), total: gauge('nodejs_heap_size_total_bytes') };
}

/** GET `path` and its body as text. */
function getText(service: Service, path: string, agent?: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { hostname: service.hostname, port: service.port, path, ...(agent !== undefined ? { agent } : {}) },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Milliseconds of one GET /healthz, which must answer 200. */
async function timeHealthz(service: Service, agent: Agent): Promise<number> {
  const start = process.hrtime.bigint();
  const answer = await getText(service, '/healthz', agent);
  if (answer.status !== 200) throw new Error(`/healthz answered ${answer.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The served data's real ids and days, so that some fuzzed values name things that exist. */
async function readContext(service: Service): Promise<FuzzContext> {
  const servers = JSON.parse((await getText(service, '/api/servers?limit=100')).text) as { servers?: { id: string }[] };
  const wellKnown = JSON.parse((await getText(service, '/.well-known/mcp-atlas.json')).text) as {
    integrity?: { latest_day?: string | null };
  };
  const latest = wellKnown.integrity?.latest_day ?? null;
  return { serverIds: (servers.servers ?? []).map((s) => s.id), days: latest === null ? [] : [latest] };
}

/** What the run counted. */
interface Tally {
  byClass: Map<string, number>;
  byRoute: Map<string, number>;
  serverErrors: { request: string; status: number }[];
  /** Every RSS sample, in order. */
  rss: number[];
  /** The samples taken during the batch load. */
  batchRss: number[];
  /** Tool calls in the batches answered 200. */
  toolCallsAnswered: number;
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function noteOutcome(tally: Tally, label: string, outcome: FuzzOutcome, describe: () => string): void {
  count(tally.byClass, outcomeClass(outcome));
  if (outcome.status !== null && outcome.status >= 500)
    tally.serverErrors.push({ request: describe(), status: outcome.status });
  void label;
}

/** Phase 1: the fuzzed requests, FUZZ_CONCURRENCY at a time. */
async function fuzzPhase(
  service: Service,
  routes: readonly MountedRoute[],
  context: FuzzContext,
  tally: Tally,
): Promise<void> {
  const next = createFuzzRequests({ seed: SEED, routes, context, host: service.host });
  const agent = new Agent({ keepAlive: true, maxSockets: FUZZ_CONCURRENCY });
  let sent = 0;
  let done = 0;
  const worker = async () => {
    while (sent < FUZZ_REQUESTS) {
      sent++;
      const fuzz: FuzzRequest = next();
      const outcome = await sendFuzzRequest({ hostname: service.hostname, port: service.port, agent }, fuzz);
      if (fuzz.raw === null) count(tally.byRoute, fuzz.route);
      noteOutcome(tally, fuzz.route, outcome, () => describeFuzzRequest(fuzz));
      if (++done % RSS_SAMPLE_EVERY === 0) tally.rss.push(await rssOf(service.child.pid!));
    }
  };
  await Promise.all(Array.from({ length: FUZZ_CONCURRENCY }, worker));
  agent.destroy();
}

const QUERIES = [
  'list notes',
  'weather forecast',
  'send an invoice',
  'read a file',
  'create a calendar event',
  'convert currency',
];

/** One batch at the batch limit: tools/call of find_tool and route, or tools/list. */
/** Three batches in four are tool calls, the fourth lists the tools. */
const isCallBatch = (n: number) => n % 4 !== 3;

function batchBody(client: number, n: number): string {
  const size = MCP_ENDPOINT_RULES.batchMaxMessages;
  const calls = isCallBatch(n);
  return JSON.stringify(
    Array.from({ length: size }, (_, i) => {
      const id = n * size + i + 1;
      if (!calls) return { jsonrpc: '2.0', id, method: 'tools/list' };
      const query = QUERIES[(client + n + i) % QUERIES.length] as string;
      const params =
        i % 2 === 0
          ? { name: 'find_tool', arguments: { query, limit: 10 } }
          : { name: 'route', arguments: { task: query, limit: 3 } };
      return { jsonrpc: '2.0', id, method: 'tools/call', params };
    }),
  );
}

/**
 * The address a batch claims through X-Forwarded-For (the service trusts one proxy hop): one request in five
 * from the client's own network, where the per-network limits answer 429 once it is spent, and the others
 * each from a new /24, as a client with many addresses would, so that calls keep being admitted and the call
 * log reaches its daily cap.
 */
function batchAddress(client: number, n: number): string {
  if (n % 5 === 0) return `198.18.${client}.10`;
  return `10.${(client * 40 + Math.floor(n / 256)) % 256}.${n % 256}.7`;
}

function postBatch(service: Service, agent: Agent, client: number, n: number): Promise<FuzzOutcome> {
  return new Promise((resolve) => {
    const outgoing = request(
      {
        hostname: service.hostname,
        port: service.port,
        method: 'POST',
        path: '/mcp',
        agent,
        headers: {
          host: service.host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'user-agent': `fuzz-load-client-${client}/1.0`,
          'x-forwarded-for': batchAddress(client, n),
        },
      },
      (response) => {
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.resume();
      },
    );
    outgoing.on('error', () => resolve({ status: null, error: 'reset' }));
    outgoing.end(batchBody(client, n));
  });
}

/** Phase 2: six MCP clients' batches, with /healthz timed alongside until they are done. */
async function batchPhase(service: Service, tally: Tally, batchClasses: Map<string, number>): Promise<number[]> {
  let done = 0;
  let loadOver = false;
  const client = async (index: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let n = 0; n < BATCHES_PER_CLIENT; n++) {
      const outcome = await postBatch(service, agent, index, n);
      count(batchClasses, outcomeClass(outcome));
      if (outcome.status === 200 && isCallBatch(n)) tally.toolCallsAnswered += MCP_ENDPOINT_RULES.batchMaxMessages;
      noteOutcome(
        tally,
        'POST /mcp (batch)',
        outcome,
        () => `POST /mcp batch ${n} of client ${index}: ${batchBody(index, n).slice(0, 300)}`,
      );
      if (++done % RSS_SAMPLE_EVERY === 0) {
        const rss = await rssOf(service.child.pid!);
        tally.rss.push(rss);
        tally.batchRss.push(rss);
      }
    }
    agent.destroy();
  };
  const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const underLoad: number[] = [];
  const prober = (async () => {
    while (!loadOver) underLoad.push(await timeHealthz(service, healthAgent));
  })();
  await Promise.all(Array.from({ length: MCP_CLIENTS }, (_, i) => client(i)));
  loadOver = true;
  await prober;
  healthAgent.destroy();
  return underLoad;
}

/** Lines and bytes of every day's MCP call log in the data folder. */
async function callLogFiles(dataDir: string): Promise<{ day: string; lines: number; bytes: number }[]> {
  const folder = join(dataDir, MCP_CALL_LOG_PREFIX);
  const names = await readdir(folder).catch(() => [] as string[]);
  const files = [];
  for (const name of names.filter((n) => n.endsWith('.jsonl')).sort()) {
    const path = join(folder, name);
    const text = await readFile(path, 'utf8');
    files.push({
      day: name.replace('.jsonl', ''),
      lines: text.split('\n').filter((l) => l !== '').length,
      bytes: (await stat(path)).size,
    });
  }
  return files;
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const thousands = (n: number) => n.toLocaleString('en-US');

function printClasses(title: string, classes: Map<string, number>): void {
  const parts = [...classes.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k} ${thousands(v)}`);
  console.log(`${title}: ${parts.join(', ')}`);
}

async function main(): Promise<number> {
  const folder = await mkdtemp(join(tmpdir(), 'atlas-fuzz-'));
  const dataDir = join(folder, 'data');
  let service: Service | null = null;
  try {
    console.log(
      `seed ${SEED}: ${thousands(FUZZ_REQUESTS)} fuzzed requests, then ${MCP_CLIENTS} MCP clients x ${BATCHES_PER_CLIENT} batches of ${MCP_ENDPOINT_RULES.batchMaxMessages}`,
    );
    await runCli(['demo', '--once', '--days', String(DEMO_DAYS), '--data', dataDir]);
    service = await startService(dataDir);
    const routes = await mountedRoutes();
    const context = await readContext(service);
    console.log(
      `serving the demo's ${context.serverIds.length} servers at ${service.host}; ${routes.length} routes mounted`,
    );

    const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const baseline: number[] = [];
    for (let i = 0; i < HEALTHZ_BASELINE_SAMPLES; i++) baseline.push(await timeHealthz(service, healthAgent));
    healthAgent.destroy();
    const rssBefore = await rssOf(service.child.pid!);
    const heapBefore = await heapOf(service);

    const tally: Tally = {
      byClass: new Map(),
      byRoute: new Map(),
      serverErrors: [],
      rss: [],
      batchRss: [],
      toolCallsAnswered: 0,
    };
    await fuzzPhase(service, routes, context, tally);
    const fuzzClasses = new Map(tally.byClass);
    const rssAfterFuzz = await rssOf(service.child.pid!);
    const batchClasses = new Map<string, number>();
    const underLoad = await batchPhase(service, tally, batchClasses);
    const rssAfter = await rssOf(service.child.pid!);
    const heapAfter = await heapOf(service);
    const peak = Math.max(rssBefore, ...tally.rss, rssAfter);

    service.child.kill('SIGTERM');
    const code = await service.exited;
    const logs = await callLogFiles(dataDir);

    printClasses('fuzzed requests by answer', fuzzClasses);
    printClasses('MCP batches by answer', batchClasses);
    const unreached = routes.filter((route) => (tally.byRoute.get(`${route.method} ${route.path}`) ?? 0) === 0);
    console.log(
      `routes reached: ${routes.length - unreached.length} of ${routes.length}${unreached.length > 0 ? ` (never: ${unreached.map((r) => `${r.method} ${r.path}`).join(', ')})` : ''}`,
    );
    const growth = peak - rssBefore;
    console.log(
      `RSS: before ${mb(rssBefore)}, after fuzzing ${mb(rssAfterFuzz)}, peak ${mb(peak)}, after ${mb(rssAfter)}; ` +
        `peak - before ${mb(growth)} (bound ${RSS_GROWTH_BOUND_MB} MB)`,
    );
    const half = Math.floor(tally.batchRss.length / 2);
    const firstHalfPeak = Math.max(0, ...tally.batchRss.slice(0, half));
    const secondHalfPeak = Math.max(0, ...tally.batchRss.slice(half));
    console.log(
      `RSS under batch load: peak ${mb(firstHalfPeak)} in the first half, ${mb(secondHalfPeak)} in the second ` +
        `(level-off bound ${RSS_LEVEL_OFF_MB} MB); V8 heap used ${mb(heapBefore.used)} of ${mb(heapBefore.total)} before, ` +
        `${mb(heapAfter.used)} of ${mb(heapAfter.total)} after`,
    );
    // Every tenth sample (one per 1,000 requests): memory that levels off is bounded, memory that climbs is not.
    console.log(
      `RSS every 1,000 requests: ${tally.rss
        .filter((_, i) => i % 10 === 9)
        .map((bytes) => (bytes / MB).toFixed(0))
        .join(', ')} MB`,
    );
    const before = median(baseline);
    const during = median(underLoad);
    console.log(
      `/healthz median: before ${before.toFixed(2)} ms (${baseline.length} requests), under batch load ${during.toFixed(2)} ms ` +
        `(${underLoad.length} requests): ${(during / before).toFixed(1)}x`,
    );
    const cap = MCP_ENDPOINT_RULES.callLogLinesPerDay;
    for (const log of logs)
      console.log(`call log ${log.day}: ${thousands(log.lines)} lines of ${thousands(cap)} (cap), ${mb(log.bytes)}`);
    console.log(`tool calls in the batches answered 200: ${thousands(tally.toolCallsAnswered)}`);
    console.log(
      `serve exited with ${code} after SIGTERM; its log holds ${service.loggedFailures.length} 5xx answers or failed requests`,
    );

    const failures: string[] = [];
    for (const error of tally.serverErrors.slice(0, 10)) failures.push(`${error.status} for ${error.request}`);
    if (tally.serverErrors.length > 10) failures.push(`... and ${tally.serverErrors.length - 10} more 5xx`);
    for (const line of service.loggedFailures.slice(0, 10)) failures.push(`the service logged: ${line}`);
    for (const route of unreached) failures.push(`route never reached: ${route.method} ${route.path}`);
    if (growth > RSS_GROWTH_BOUND_MB * MB)
      failures.push(`RSS grew ${mb(growth)}, past the ${RSS_GROWTH_BOUND_MB} MB bound`);
    if (secondHalfPeak - firstHalfPeak > RSS_LEVEL_OFF_MB * MB)
      failures.push(
        `RSS still climbing under batch load: ${mb(secondHalfPeak)} in the second half against ${mb(firstHalfPeak)} in the first`,
      );
    for (const log of logs)
      if (log.lines > cap) failures.push(`call log ${log.day} has ${log.lines} lines, past its cap of ${cap}`);
    for (const [outcome, n] of tally.byClass)
      if (outcome === 'no-answer' || outcome.startsWith('client-error'))
        failures.push(`${n} requests ended ${outcome}`);
    if (code !== 0) failures.push(`serve exited with ${code}: ${service.stderrTail.join('\n')}`);
    if (failures.length > 0) {
      console.log(`FAILED:\n${failures.join('\n')}`);
      return 1;
    }
    console.log('passed: no 5xx, every route reached, RSS within its bounds, call log within its cap');
    return 0;
  } finally {
    if (service !== null && service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await rm(folder, { recursive: true, force: true });
  }
}

process.exitCode = await main();
