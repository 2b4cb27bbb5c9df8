#!/usr/bin/env node
// Runs the official MCP conformance suite's server scenarios against the service's own MCP endpoint, as a
// user gets it: the built CLI makes a short demo into a temp folder (`demo --once`), then `serve` serves it
// on a free loopback port with no schedule. Nothing leaves loopback. Exits 0 when every scenario passed,
// 1 when one failed (or the service did not start), and always stops the service and removes its folder.
//
// Scenarios, and why these: server-initialize, ping, tools-list and tools-call-error are what a stateless tool
// server must do; dns-rebinding-protection checks that a request naming another host is refused (421) while
// one naming loopback is answered. The suite's other server scenarios need features the service does not
// offer (resources, prompts, logging, sampling, streams).
//
// Usage: node scripts/conformance-server.mjs   (from apps/atlas, after the build)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The scenarios that must pass. */
export const SERVER_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'tools-call-error',
  'dns-rebinding-protection',
];

/** Days the demo simulates: enough for a signed history, few enough to take seconds. */
const DEMO_DAYS = '2';
/** How long `serve` may take to say where it listens. */
const START_TIMEOUT_MS = 60_000;

const app = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(app, 'dist', 'cli.js');
const shim = join(app, 'scripts', 'node20-fs-glob', 'register.mjs');
const suite = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);

/** Runs a command to its end with inherited output; resolves to its exit code. */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

/** Starts `serve` on a free loopback port; resolves with the child and its URL once it says where it serves. */
function startServe(data) {
  const child = spawn(process.execPath, [cli, 'serve', '--data', data, '--port', '0', '--no-schedule'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MCP_ATLAS_LOG_LEVEL: 'warn' },
  });
  child.stderr.pipe(process.stderr);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`serve did not start within ${START_TIMEOUT_MS} ms: ${out}`));
    }, START_TIMEOUT_MS);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /serving at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before serving: ${out}`));
    });
  });
}

/** Stops the service with SIGTERM (its graceful shutdown) and waits for it to exit. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function main() {
  if (!existsSync(cli)) {
    console.error(`conformance: ${cli} is missing; build the app first (pnpm --filter @mcp-atlas/cli build)`);
    return 1;
  }
  const work = await mkdtemp(join(tmpdir(), 'atlas-conformance-'));
  const data = join(work, 'data');
  let service = null;
  try {
    const demo = await run(process.execPath, [cli, 'demo', '--once', '--days', DEMO_DAYS, '--data', data], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, MCP_ATLAS_LOG_LEVEL: 'warn' },
    });
    if (demo !== 0) {
      console.error(`conformance: the demo failed with exit code ${demo}`);
      return 1;
    }
    service = await startServe(data);
    const failed = [];
    for (const scenario of SERVER_SCENARIOS) {
      console.log(`== ${scenario} against ${service.url}/mcp`);
      // The suite writes its results under ./results: run it in the temp folder so nothing lands in the clone.
      const code = await run(
        process.execPath,
        ['--import', shim, suite, 'server', '--url', `${service.url}/mcp`, '--scenario', scenario],
        { cwd: work },
      );
      if (code !== 0) failed.push(scenario);
    }
    if (failed.length > 0) {
      console.error(`conformance: failed: ${failed.join(', ')}`);
      return 1;
    }
    console.log(`conformance: all ${SERVER_SCENARIOS.length} server scenarios passed`);
    return 0;
  } finally {
    if (service !== null) await stop(service.child);
    await rm(work, { recursive: true, force: true });
  }
}

process.exitCode = await main().catch((error) => {
  console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
});
