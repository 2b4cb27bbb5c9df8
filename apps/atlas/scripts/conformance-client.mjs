#!/usr/bin/env node
// Runs every client scenario of the official MCP conformance suite against the probe's clients: `mcp-atlas
// check`, `mcp-atlas check --deep` (its tool calls go through the MCP SDK's client), and scripts/conformance-probe.mjs
// (the probe library driven directly). Each scenario server runs on loopback; nothing leaves the machine.
// Every check the suite reports is compared with conformance-baseline.json: a failure not listed there fails
// the run, and so does a listed one that now passes (remove it from the baseline then), so the list stays true.
// Usage: node scripts/conformance-client.mjs   (from apps/atlas, after the build)
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const app = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(app, 'dist', 'cli.js');
const shim = join(app, 'scripts', 'node20-fs-glob', 'register.mjs');
const suite = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);
const baseline = JSON.parse(readFileSync(join(app, 'conformance-baseline.json'), 'utf8'));

/** The clients under test, by the name the baseline uses. */
export const CLIENTS = {
  check: `${process.execPath} ${cli} check`,
  'check-deep': `${process.execPath} ${cli} check --deep`,
  probe: `${process.execPath} ${join(app, 'scripts', 'conformance-probe.mjs')}`,
};
/** Scenarios run at once: each is a short-lived server and one client process. */
const PARALLEL = 2;

/** Runs the suite with `args`; resolves to its exit code and output. */
function runSuite(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', shim, suite, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out }));
  });
}

/** The client scenarios the installed suite offers, from its own list. */
async function clientScenarios(cwd) {
  const { out } = await runSuite(['list'], cwd);
  const section = out.slice(out.indexOf('Client scenarios'));
  return [...section.matchAll(/^\s*- (\S+)/gm)].map((match) => match[1]);
}

/** Every checks.json under `folder`. */
function checksFiles(folder) {
  const found = [];
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true }))
    if (entry.isFile() && entry.name === 'checks.json') found.push(join(entry.parentPath ?? entry.path, entry.name));
  return found;
}

/** Runs one scenario with one client; resolves to the ids of its failed and passed checks. */
async function runScenario(client, scenario, work) {
  const output = await mkdtemp(join(work, 'run-'));
  const { out } = await runSuite(['client', '--command', CLIENTS[client], '--scenario', scenario, '-o', output], work);
  const files = checksFiles(output);
  if (files.length === 0) return { failed: ['(no results)'], passed: [], out };
  const checks = JSON.parse(readFileSync(files[0], 'utf8'));
  const failed = checks.filter((check) => check.status === 'FAILURE').map((check) => check.id);
  const passed = checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id);
  return { failed, passed, out };
}

/** Compares one run with the baseline; returns the problems found. */
export function compare(expected, failed, passed) {
  const problems = [];
  for (const id of failed) if (!(id in expected)) problems.push(`new failure: ${id}`);
  for (const id of Object.keys(expected))
    if (!failed.includes(id))
      problems.push(`listed as failing but ${passed.includes(id) ? 'passes' : 'is not reported'}: ${id}`);
  return problems;
}

async function main() {
  if (!existsSync(cli)) {
    console.error(`conformance: ${cli} is missing; build the app first (pnpm --filter @mcp-atlas/cli build)`);
    return 1;
  }
  const work = await mkdtemp(join(tmpdir(), 'atlas-conformance-client-'));
  try {
    const scenarios = await clientScenarios(work);
    if (scenarios.length === 0) throw new Error('the suite listed no client scenarios');
    const jobs = Object.keys(CLIENTS).flatMap((client) => scenarios.map((scenario) => ({ client, scenario })));
    const problems = [];
    let passedChecks = 0;
    const next = async () => {
      for (let job = jobs.shift(); job !== undefined; job = jobs.shift()) {
        const { client, scenario } = job;
        const { failed, passed, out } = await runScenario(client, scenario, work);
        passedChecks += passed.length;
        const expected = baseline.clients[client]?.[scenario] ?? {};
        for (const reason of Object.values(expected))
          if (!(reason in baseline.reasons)) problems.push(`${client} ${scenario}: unknown reason ${reason}`);
        const found = compare(expected, failed, passed);
        console.log(
          `${found.length === 0 ? 'ok  ' : 'FAIL'} ${client} ${scenario}: ${passed.length} passed, ${failed.length} failed (expected ${Object.keys(expected).length})`,
        );
        if (found.length > 0) {
          problems.push(...found.map((problem) => `${client} ${scenario}: ${problem}`));
          if (process.env.CONFORMANCE_VERBOSE === '1') console.log(out);
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, next));
    if (problems.length > 0) {
      console.error(
        `conformance: ${problems.length} differences from conformance-baseline.json:\n  ${problems.join('\n  ')}`,
      );
      return 1;
    }
    console.log(`conformance: every client scenario matches the baseline (${passedChecks} checks passed)`);
    return 0;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

process.exitCode = await main().catch((error) => {
  console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
});
