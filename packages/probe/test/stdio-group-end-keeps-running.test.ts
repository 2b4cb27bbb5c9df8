// Ending a stdio server's process group is a wait the caller's process must live through. Once the server itself
// has exited and its pipes have closed, the timers of that wait may be all that keeps Node running; were they
// unreferenced, Node would exit in the middle of probeStdio, and a program awaiting the result (a CI check) would
// end silently with exit code 0. A separate Node process runs the built probe against a server whose helper
// process ends slowly on SIGTERM, and must live to print the result. The process group alone is asked for: that
// wait is the one that polls, where a PID namespace ends all at once.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const builtNode = join(packageDir, 'dist', 'node.js');
const server = fileURLToPath(new URL('./fixtures/stdio-slow-helper-server.mjs', import.meta.url));
const folders: string[] = [];

/** Every pid the fixture wrote: the server's and its helper's. */
function pidsIn(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

/** Gone: kill(pid, 0) says ESRCH, or only a zombie is left (some sandboxes' init never reaps orphans). */
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

beforeAll(() => {
  if (!existsSync(builtNode)) {
    const tsup = createRequire(join(packageDir, 'package.json')).resolve('tsup/dist/cli-default.js');
    execFileSync(process.execPath, [tsup], { cwd: packageDir, stdio: 'ignore' });
  }
});

afterEach(() => {
  for (const folder of folders.splice(0)) {
    // Only a process of this fixture is ended: a pid is checked against its command line first.
    for (const pid of pidsIn(join(folder, 'server.pids'))) {
      if (isGone(pid)) continue;
      try {
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (commandLine.includes('stdio-slow-helper-server') || commandLine.includes('SIGTERM'))
          process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(folder, { recursive: true, force: true });
  }
});

describe('probeStdio in a process of its own', () => {
  it('keeps that process running until the server group has ended, then returns the result', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'probe-group-end-'));
    folders.push(folder);
    const pidFile = join(folder, 'server.pids');
    const script = [
      `const { probeStdio } = await import(${JSON.stringify(pathToFileURL(builtNode).href)});`,
      `const result = await probeStdio({ command: process.execPath, args: ${JSON.stringify([server, pidFile])} }, { isolation: 'process-group' });`,
      "process.stdout.write('letter ' + result.letter);",
      'process.exitCode = 3;',
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      output += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      output += text;
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    // Exit code 3 comes only from the script's last line: the process got there (Node says 13 for a top-level
    // await it left unsettled, the script's own form of exiting in the middle).
    expect({ code, output }).toEqual({ code: 3, output: 'letter o' });
    const pids = pidsIn(pidFile);
    expect(pids).toHaveLength(2);
    expect(pids.filter((pid) => !isGone(pid))).toEqual([]);
  });
});
