// `mcp-atlas check -- <command>` through a wrapper: `sh -c` starts the real server as its child, so the
// server is a grandchild of check. The server writes its pid to a file and keeps running after its stdin
// closes (as servers holding a listener or a database do). After check returns, with or without --deep,
// no process of it may be left: the wrapper, bubblewrap and the server all have the pid file's path among their
// arguments, so they are found by it in /proc (a pid written from inside a PID namespace is the namespace's own).
// In 'escape' mode the server also starts `sleep <marker>` in a session of its own, which only a PID namespace
// ends. bubblewrap is installed by scripts/ensure-bubblewrap.sh, which the test script runs.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';
import { waitFor } from './setup/wait-for.js';

const lingering = fileURLToPath(new URL('./fixtures/check-stdio-lingering.mjs', import.meta.url));
/** The built CLI (the test task runs after the build). */
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const folders: string[] = [];

/** The check arguments that start the fixture through `sh -c '"$@"; exit $?'`, which forks rather than execs. */
function wrappedServer(pidFile: string): string[] {
  return ['--', 'sh', '-c', '"$@"; exit $?', 'sh', process.execPath, lingering, pidFile];
}

/** Pids of running (not zombie) processes with `word` as one of their arguments. */
function processesWith(word: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (args.includes(word) && !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) found.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

/** How many times the fixture started: one line per start. */
function startsIn(pidFile: string): number {
  return readFileSync(pidFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '').length;
}

/** A `sleep` argument no other process has: 301 seconds and a random fraction. */
function newMarker(): string {
  return `301.${randomInt(100_000, 999_999)}${randomInt(100_000, 999_999)}`;
}

function workDir(): { dir: string; pidFile: string } {
  const dir = makeWorkDir();
  folders.push(dir);
  return { dir, pidFile: join(dir, 'server.pid') };
}

const markers: string[] = [];

afterEach(() => {
  const leftovers = [...folders.map((dir) => join(dir, 'server.pid')), ...markers.splice(0)];
  for (const word of leftovers) {
    for (const pid of processesWith(word)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('check -- <wrapper around a stdio server>', () => {
  it("ends the server's process group when the check itself is interrupted (Ctrl-C)", async () => {
    const { dir, pidFile } = workDir();
    // The built CLI as a user runs it; the server never answers, so the check is still waiting when interrupted.
    const cli = spawn(
      process.execPath,
      [CLI, 'check', '--', 'sh', '-c', '"$@"; exit $?', 'sh', process.execPath, lingering, pidFile, 'mute'],
      { cwd: dir, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
    await waitFor('the server writes its pid', () => existsSync(pidFile) && startsIn(pidFile) > 0);
    cli.kill('SIGINT');
    expect(await exited).toBe(130);
    // The group is signalled as check exits; each process then ends on its own schedule.
    await waitFor('every server process has ended', () => processesWith(pidFile).length === 0);
  });

  it('leaves no grandchild running after the handshake check', async () => {
    const { dir, pidFile } = workDir();
    const run = await runCheckIn(dir, ['--json', ...wrappedServer(pidFile)]);
    expect(run.code).toBe(0);
    expect(CheckReportSchema.parse(JSON.parse(run.stdout)).letter).toBe('o');
    expect(startsIn(pidFile)).toBe(1);
    expect(processesWith(pidFile)).toEqual([]);
  });

  it('leaves no grandchild running after deep mode, which opens its own session', async () => {
    const { dir, pidFile } = workDir();
    const run = await runCheckIn(dir, ['--json', '--deep', ...wrappedServer(pidFile)], { deepCallTimeoutMs: 30_000 });
    expect(run.code).toBe(0);
    const deep = CheckReportSchema.parse(JSON.parse(run.stdout)).deep;
    expect(deep?.smoke.map((c) => [c.tool, c.outcome])).toEqual([['get_item', 'accepted']]);
    // One server for the handshake, one for deep mode's own session: both must be gone.
    expect(startsIn(pidFile)).toBeGreaterThanOrEqual(2);
    expect(processesWith(pidFile)).toEqual([]);
  });

  it('leaves no process that started a session of its own, and says the server ran in a PID namespace', async () => {
    const { dir, pidFile } = workDir();
    const marker = newMarker();
    markers.push(marker);
    const run = await runCheckIn(dir, ['--json', '--deep', ...wrappedServer(pidFile), 'escape', marker], {
      deepCallTimeoutMs: 30_000,
    });
    expect(run.code).toBe(0);
    const report = CheckReportSchema.parse(JSON.parse(run.stdout));
    expect(report.steps[0]).toMatchObject({ name: 'spawn', detail: 'in its own PID namespace (bubblewrap)' });
    // The handshake's server and deep mode's each started a `sleep <marker>` in a new session: none is left.
    expect(startsIn(pidFile)).toBeGreaterThanOrEqual(2);
    expect(processesWith(marker)).toEqual([]);
    expect(processesWith(pidFile)).toEqual([]);
  });

  it('leaves that process running with --stdio-isolation process-group, as the report warns it may', async () => {
    const { dir, pidFile } = workDir();
    const marker = newMarker();
    markers.push(marker);
    const run = await runCheckIn(dir, [
      '--json',
      '--stdio-isolation',
      'process-group',
      ...wrappedServer(pidFile),
      'escape',
      marker,
    ]);
    expect(run.code).toBe(0);
    const report = CheckReportSchema.parse(JSON.parse(run.stdout));
    expect(report.steps[0]).toMatchObject({ name: 'spawn', detail: 'in its own process group' });
    // The control: only the sleep in its own session is left, and the fence is what the PID namespace adds.
    expect(processesWith(pidFile)).toEqual([]);
    expect(processesWith(marker)).toHaveLength(1);
  });

  it('says in the report that it fell back to the process group where bubblewrap is missing', async () => {
    const { dir, pidFile } = workDir();
    // A PATH with the wrapper's shell and sleep, and no bubblewrap.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    for (const program of ['sh', 'sleep']) symlinkSync(whereIs(program), join(bin, program));
    const cli = spawn(process.execPath, [CLI, 'check', ...wrappedServer(pidFile)], {
      cwd: dir,
      env: { PATH: bin },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    cli.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    const code = await new Promise<number | null>((resolve) => cli.once('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toMatch(/spawn +ok +\d+ ms {2}in its own process group \(bubblewrap \(bwrap\) is not installed\)/);
    expect(processesWith(pidFile)).toEqual([]);
  });

  it('refuses to start the server with --stdio-isolation pid-namespace where bubblewrap is missing', async () => {
    const { dir, pidFile } = workDir();
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(whereIs('sh'), join(bin, 'sh'));
    const args = [CLI, 'check', '--json', '--stdio-isolation', 'pid-namespace', ...wrappedServer(pidFile)];
    const cli = spawn(process.execPath, args, { cwd: dir, env: { PATH: bin }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    cli.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    const code = await new Promise<number | null>((resolve) => cli.once('close', resolve));
    expect(code).toBe(1);
    const report = CheckReportSchema.parse(JSON.parse(stdout));
    expect(report).toMatchObject({ letter: 'd', reason: 'spawn-failed' });
    expect(report.message).toContain('bubblewrap (bwrap) is not installed, and isolation pid-namespace was asked for');
    expect(existsSync(pidFile)).toBe(false);
  });
});

/** The absolute path of a system program, for a PATH made of links. */
function whereIs(program: string): string {
  for (const dir of ['/usr/bin', '/bin']) if (existsSync(join(dir, program))) return join(dir, program);
  throw new Error(`no ${program} in /usr/bin or /bin`);
}
