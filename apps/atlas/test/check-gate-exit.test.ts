// A gating `mcp-atlas check` never ends with exit 0 unless it printed its verdict and wrote every file asked for.
// The server here starts a helper process that ends slowly on SIGTERM: once the server itself has exited, check
// is only waiting for its process group to end, with no pipe or child left open. Were that wait not to keep Node
// running, the process would end right there, silently and with exit code 0, and a high-risk server would pass CI.
// The built CLI runs many times, a few at once, and every run must exit 1 with the whole report. The process group
// alone is asked for: that is the wait that polls (a PID namespace ends all at once), and the pids the server
// writes are then ours to check.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';

/** The built CLI (the test task runs after the build). */
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const slowHelperServer = fileURLToPath(new URL('./fixtures/check-stdio-slow-helper.mjs', import.meta.url));

/** Runs of each form (50 in all): enough that a race lost now and then fails the test. */
const RUNS = 25;
/** Runs at once: a loaded machine, without taking every core. */
const AT_ONCE = 5;

const folders: string[] = [];

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
}

/** Every pid the server wrote (its own and its helper's). */
function pidsIn(dir: string): number[] {
  const file = join(dir, 'server.pids');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

/** Gone: kill(pid, 0) says ESRCH, or only a zombie is left (ended; some sandboxes' init never reaps orphans). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Runs the built CLI's check against the server in a fresh folder, and resolves once the CLI has closed. */
function runCli(options: readonly string[]): Promise<CliRun> {
  const dir = makeWorkDir();
  folders.push(dir);
  const args = [
    CLI,
    'check',
    ...options,
    '--stdio-isolation',
    'process-group',
    '--',
    process.execPath,
    slowHelperServer,
    join(dir, 'server.pids'),
  ];
  const cli = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  cli.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  cli.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return new Promise((resolve, reject) => {
    cli.once('error', reject);
    cli.once('close', (code) => resolve({ code, stdout, stderr, dir }));
  });
}

/** Runs `RUNS` checks with `options`, `AT_ONCE` at a time. */
async function runMany(options: readonly string[]): Promise<CliRun[]> {
  const runs: CliRun[] = [];
  while (runs.length < RUNS) {
    const batch = Math.min(AT_ONCE, RUNS - runs.length);
    runs.push(...(await Promise.all(Array.from({ length: batch }, () => runCli(options)))));
  }
  return runs;
}

afterEach(() => {
  for (const dir of folders.splice(0)) {
    // A run cut short may leave the server's helper behind; only a process of this fixture is ended.
    for (const pid of pidsIn(dir)) {
      if (isGone(pid)) continue;
      try {
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (commandLine.includes('check-stdio-slow-helper') || commandLine.includes('SIGTERM'))
          process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('check --fail-on high-risk against a server whose process group ends slowly', () => {
  it(`exits 1 with the whole text report in each of ${RUNS} runs, and leaves no process behind`, async () => {
    const runs = await runMany(['--fail-on', 'high-risk']);
    for (const run of runs) {
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: '' });
      expect(run.stdout).toContain('server shell-runner 1.0.0');
      expect(run.stdout).toContain('run_shell_command  high-risk');
      expect(run.stdout.endsWith('failed:\n  high-risk: high-risk tools: run_shell_command\n')).toBe(true);
      expect(pidsIn(run.dir)).toHaveLength(2);
      expect(pidsIn(run.dir).filter((pid) => !isGone(pid))).toEqual([]);
    }
  });

  it(`with --json --sarif, exits 1 with the JSON report and the SARIF file in each of ${RUNS} runs`, async () => {
    const runs = await runMany(['--fail-on', 'high-risk', '--json', '--sarif', 'g.sarif']);
    for (const run of runs) {
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: '' });
      const report = CheckReportSchema.parse(JSON.parse(run.stdout));
      expect(report.passed).toBe(false);
      expect(report.gates.tripped.map((gate) => gate.gate)).toEqual(['high-risk']);
      const sarifFile = join(run.dir, 'g.sarif');
      expect(existsSync(sarifFile)).toBe(true);
      const sarif = JSON.parse(readFileSync(sarifFile, 'utf8')) as { runs: { results: unknown[] }[] };
      expect(sarif.runs[0]?.results.length).toBeGreaterThan(0);
    }
  });
});

describe('the exit code check records as it goes', () => {
  it("is the failure code from the start, and the verdict's only once the report is printed", async () => {
    const dir = makeWorkDir();
    folders.push(dir);
    const recorded: { code: number; printed: boolean }[] = [];
    let printed = false;
    const run = await runCheckIn(
      dir,
      ['--fail-on', 'high-risk', '--', process.execPath, slowHelperServer, join(dir, 'server.pids')],
      {
        stdout: () => {
          printed = true;
        },
        setExitCode: (code) => recorded.push({ code, printed }),
      },
    );
    expect(run.code).toBe(1);
    expect(recorded).toEqual([
      { code: 1, printed: false },
      { code: 1, printed: true },
    ]);
    const usage: number[] = [];
    expect((await runCheckIn(dir, ['--no-such-flag'], { setExitCode: (code) => usage.push(code) })).code).toBe(2);
    expect(usage).toEqual([1, 2]);
  });
});
