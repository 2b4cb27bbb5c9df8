// `check --conformance`: the official MCP conformance suite's server scenarios against the server being checked.
// The suite is a command-line program; each scenario runs in its own process, with its own time limit and its
// own results folder (made in the system's temp folder and removed afterwards), so a scenario that hangs or
// crashes is one failed scenario, never a stuck or broken check. Only what the suite wrote to checks.json is
// believed; its printed output is used only to explain a scenario that wrote nothing.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CONFORMANCE_RULES } from '@mcp-atlas/probe/rules';
import { z } from 'zod';
import { CONFORMANCE_OUTPUT_TAIL_CHARS, CONFORMANCE_PACKAGE } from './constants.js';
import { CheckUsageError } from './errors.js';
import type { ConformanceReport, ConformanceScenario } from './report-schema.js';

/** The suite program and its version, found beside the app. */
export interface ConformanceSuite {
  program: string;
  version: string;
}

/**
 * Finds the installed suite; a missing one is the caller's to install (a usage error, exit 2), found before the
 * server is contacted.
 */
export async function findConformanceSuite(): Promise<ConformanceSuite> {
  let manifestPath: string;
  try {
    manifestPath = createRequire(import.meta.url).resolve(`${CONFORMANCE_PACKAGE}/package.json`);
  } catch {
    throw new CheckUsageError(`--conformance needs ${CONFORMANCE_PACKAGE}; install it next to @mcp-atlas/cli`);
  }
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
    version: string;
    bin: { conformance: string };
  };
  return { program: join(dirname(manifestPath), manifest.bin.conformance), version: manifest.version };
}

// The suite imports `globSync` from `fs`, which Node has only from version 22, though its server scenarios never
// call it. On an older Node, a module hook gives the suite's own `fs` imports a `globSync` that throws when
// called. It travels as data: URLs, so the installed app needs no file of its own for it.
const FS_HOOKS = [
  "const SHIM = 'mcp-atlas-node20:fs';",
  'export async function resolve(specifier, context, next) {',
  "  const fromSuite = context.parentURL?.includes('/@modelcontextprotocol/conformance/') === true;",
  "  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) return { url: SHIM, shortCircuit: true };",
  '  return next(specifier, context);',
  '}',
  'export async function load(url, context, next) {',
  '  if (url !== SHIM) return next(url, context);',
  "  const source = \"export * from 'node:fs'; import fs from 'node:fs'; export default fs; \" +",
  '    "export function globSync() { throw new Error(\'fs.globSync needs Node 22 or newer\'); }";',
  "  return { format: 'module', source, shortCircuit: true };",
  '}',
].join('\n');

const dataUrl = (source: string): string => `data:text/javascript,${encodeURIComponent(source)}`;

/** The `--import` that makes the suite load on Node 20; it does nothing where `fs.globSync` exists. */
export const NODE20_SUITE_IMPORT = dataUrl(
  [
    "import fs from 'node:fs';",
    "import { register } from 'node:module';",
    `if (typeof fs.globSync !== 'function') register(${JSON.stringify(dataUrl(FS_HOOKS))});`,
  ].join('\n'),
);

/** One entry of the suite's checks.json, as far as the report uses it. */
const SuiteCheckSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  status: z.string(),
  errorMessage: z.string().optional(),
});

/** The first checks.json under `folder` (the suite makes one subfolder per run), or null. */
async function findChecksFile(folder: string): Promise<string | null> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const found = entries.find((entry) => entry.isFile() && entry.name === 'checks.json');
  return found === undefined ? null : join(found.parentPath, found.name);
}

/** The last non-empty line of what the suite printed, to say why a scenario wrote no results. */
function lastLine(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.at(-1) ?? 'no output';
}

/** Runs the suite once; resolves with its exit code (null when it was stopped) and the tail of its output. */
function runSuite(
  suite: ConformanceSuite,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number | null; timedOut: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    // Only PATH and the colour switch: the suite has no business with the check's own environment or secrets.
    const child = spawn(process.execPath, ['--import', NODE20_SUITE_IMPORT, suite.program, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-CONFORMANCE_OUTPUT_TAIL_CHARS);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, output });
    });
  });
}

/** Runs one scenario against `url` and reads what it found. */
async function runScenario(
  suite: ConformanceSuite,
  url: string,
  scenario: string,
  timeoutMs: number,
): Promise<ConformanceScenario> {
  const folder = await mkdtemp(join(tmpdir(), 'atlas-conformance-'));
  try {
    const run = await runSuite(
      suite,
      ['server', '--url', url, '--scenario', scenario, '-o', folder],
      folder,
      timeoutMs,
    );
    if (run.timedOut)
      return { name: scenario, passed: false, reason: `did not finish within ${timeoutMs} ms`, checks: [] };
    const file = await findChecksFile(folder);
    const parsed = file === null ? null : z.array(SuiteCheckSchema).safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (parsed === null || !parsed.success)
      return {
        name: scenario,
        passed: false,
        reason: `the suite wrote no results: ${lastLine(run.output)}`,
        checks: [],
      };
    const checks = parsed.data
      .filter((check) => check.status !== 'INFO')
      .map((check) => ({
        id: check.id,
        description: check.description ?? check.name ?? check.id,
        status: check.status,
        message: check.errorMessage ?? null,
      }));
    const failed = checks.filter((check) => check.status === 'FAILURE');
    // The suite exits non-zero for a failed check; an exit without one (a crash after writing) fails too.
    const passed = failed.length === 0 && run.code === 0;
    const reason = passed
      ? null
      : failed.length > 0
        ? failed.map((check) => `${check.id}: ${check.message ?? check.description}`).join('; ')
        : `the suite exited with ${run.code ?? 'a signal'}: ${lastLine(run.output)}`;
    return { name: scenario, passed, reason, checks };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** What to run: the suite, the server's URL and the scenarios, one after another. */
export interface ConformanceRun {
  suite: ConformanceSuite;
  url: string;
  scenarios: readonly string[];
  timeoutMs?: number;
}

/** Runs the scenarios one at a time (the suite's own requests are the only load the server sees). */
export async function runConformance(run: ConformanceRun): Promise<ConformanceReport> {
  const results: ConformanceScenario[] = [];
  for (const scenario of run.scenarios)
    results.push(await runScenario(run.suite, run.url, scenario, run.timeoutMs ?? CONFORMANCE_RULES.scenarioTimeoutMs));
  return {
    suite: `${CONFORMANCE_PACKAGE}@${run.suite.version}`,
    scenarios: results,
    failed: results.filter((scenario) => !scenario.passed).map((scenario) => scenario.name),
  };
}
