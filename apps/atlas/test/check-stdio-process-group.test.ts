// `mcp-atlas check -- <command>` through a wrapper: `sh -c` starts the real server as its child, so the
// server is a grandchild of check. The server writes its pid to a file and keeps running after its stdin
// closes (as servers holding a listener or a database do). After check returns, with or without --deep,
// that pid must be gone.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
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

/** Every pid the fixture wrote, one per server start. */
function pidsIn(pidFile: string): number[] {
  return readFileSync(pidFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

function workDir(): { dir: string; pidFile: string } {
  const dir = makeWorkDir();
  folders.push(dir);
  return { dir, pidFile: join(dir, 'server.pid') };
}

afterEach(() => {
  for (const dir of folders.splice(0)) {
    const pidFile = join(dir, 'server.pid');
    if (existsSync(pidFile)) {
      for (const pid of pidsIn(pidFile)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
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
    await waitFor('the server writes its pid', () => existsSync(pidFile) && pidsIn(pidFile).length > 0);
    cli.kill('SIGINT');
    expect(await exited).toBe(130);
    // The group is signalled as check exits; each process then ends on its own schedule.
    const pids = pidsIn(pidFile);
    await waitFor('every server process has ended', () => pids.every(isGone));
  });

  it('leaves no grandchild running after the handshake check', async () => {
    const { dir, pidFile } = workDir();
    const run = await runCheckIn(dir, ['--json', ...wrappedServer(pidFile)]);
    expect(run.code).toBe(0);
    expect(CheckReportSchema.parse(JSON.parse(run.stdout)).letter).toBe('o');
    const pids = pidsIn(pidFile);
    expect(pids).toHaveLength(1);
    expect(pids.filter((pid) => !isGone(pid))).toEqual([]);
  });

  it('leaves no grandchild running after deep mode, which opens its own session', async () => {
    const { dir, pidFile } = workDir();
    const run = await runCheckIn(dir, ['--json', '--deep', ...wrappedServer(pidFile)], { deepCallTimeoutMs: 30_000 });
    expect(run.code).toBe(0);
    const deep = CheckReportSchema.parse(JSON.parse(run.stdout)).deep;
    expect(deep?.smoke.map((c) => [c.tool, c.outcome])).toEqual([['get_item', 'accepted']]);
    // One server for the handshake, one for deep mode's own session: both must be gone.
    const pids = pidsIn(pidFile);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(pids.filter((pid) => !isGone(pid))).toEqual([]);
  });
});
