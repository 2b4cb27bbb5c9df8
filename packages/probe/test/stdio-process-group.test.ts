// A stdio server started through a wrapper (`sh -c ...`) is a grandchild of the probe. Ending only the
// wrapper leaves it running; the probe's transport starts the server in its own process group and ends the
// whole group. The fixture server writes its pid to a file and keeps running after its stdin closes. These tests
// ask for the process group alone: in a PID namespace the pid the server writes would be the namespace's, not
// ours (stdio-pid-namespace.test.ts covers that mode).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  endProcessGroup,
  isProcessGroupAlive,
  ProcessGroupStdioTransport,
  probeStdio,
  STDIO_EXIT_GRACE_MS,
  STDIO_KILL_GRACE_MS,
} from '../src/node/index.js';

const lingering = fileURLToPath(new URL('./fixtures/stdio-lingering-server.mjs', import.meta.url));
const folders: string[] = [];
const pidFiles: string[] = [];

/** `sh -c '"$@"; exit $?'` forks the server rather than exec-ing it, so the server is the shell's child. */
function wrapped(pidFile: string, mode = 'plain'): { command: string; args: string[]; isolation: 'process-group' } {
  return {
    command: 'sh',
    args: ['-c', '"$@"; exit $?', 'sh', process.execPath, lingering, pidFile, mode],
    isolation: 'process-group',
  };
}

function newPidFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'probe-stdio-group-'));
  folders.push(folder);
  const file = join(folder, 'server.pid');
  pidFiles.push(file);
  return file;
}

/** The pid the fixture wrote (one start per file in these tests). */
function pidIn(file: string): number {
  return Number(readFileSync(file, 'utf8').trim());
}

/**
 * True when the process no longer runs: kill(pid, 0) says ESRCH, or it is a zombie. A zombie has ended
 * and only waits to be reaped; an orphan's zombie stays until init reaps it, and the init of some
 * sandboxes never does.
 */
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

afterEach(() => {
  for (const file of pidFiles.splice(0)) {
    if (!existsSync(file)) continue;
    try {
      process.kill(pidIn(file), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('the grace periods', () => {
  it('are 2 seconds to exit after stdin closes, then 2 seconds between SIGTERM and SIGKILL', () => {
    expect(STDIO_EXIT_GRACE_MS).toBe(2_000);
    expect(STDIO_KILL_GRACE_MS).toBe(2_000);
  });
});

describe('a server started through a wrapper', () => {
  it('outlives the SDK transport alone (the control: what the process group prevents)', async () => {
    const pidFile = newPidFile();
    const client = new Client({ name: 'control', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ ...wrapped(pidFile), stderr: 'ignore' }));
    const pid = pidIn(pidFile);
    await client.close();
    expect(isGone(pid)).toBe(false);
  });

  it('is gone once probeStdio returns', async () => {
    const pidFile = newPidFile();
    const result = await probeStdio(wrapped(pidFile), { isolation: 'process-group' });
    expect(result).toMatchObject({ letter: 'o', toolCount: 1 });
    expect(result.steps[0]).toMatchObject({ name: 'spawn', detail: 'in its own process group' });
    expect(result.warnings).toEqual([]);
    expect(isGone(pidIn(pidFile))).toBe(true);
  });

  it('is gone once the transport closes, even when it ignores SIGTERM (SIGKILL after the grace)', async () => {
    const pidFile = newPidFile();
    const transport = new ProcessGroupStdioTransport(wrapped(pidFile, 'stubborn'));
    const client = new Client({ name: 'group', version: '0.0.0' });
    await client.connect(transport);
    const group = transport.pid as number;
    expect(await client.listTools()).toMatchObject({ tools: [{ name: 'get_item' }] });
    const pid = pidIn(pidFile);
    const started = performance.now();
    await client.close();
    expect(isGone(pid)).toBe(true);
    expect(isProcessGroupAlive(group)).toBe(false);
    // Stdin closed, then the exit grace, then SIGTERM ignored, then the kill grace.
    expect(performance.now() - started).toBeGreaterThanOrEqual(STDIO_EXIT_GRACE_MS + STDIO_KILL_GRACE_MS - 100);
    expect(transport.pid).toBeNull();
  });

  it('reports a command that cannot start, and closes without waiting', async () => {
    const transport = new ProcessGroupStdioTransport({ command: join(tmpdir(), 'no-such-command-here') });
    await expect(transport.start()).rejects.toThrow(/ENOENT/);
    const started = performance.now();
    await transport.close();
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('endProcessGroup', () => {
  it('ends a whole group and is a no-op on an empty one', async () => {
    // A detached shell with a background sleep: two processes in one new group.
    const shell = spawnSync('sh', ['-c', 'setsid sh -c "sleep 30 & sleep 30" >/dev/null 2>&1 & echo $!'], {
      encoding: 'utf8',
    });
    const leader = Number(shell.stdout.trim());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isProcessGroupAlive(leader)).toBe(true);
    await endProcessGroup(leader, 1_000);
    expect(isProcessGroupAlive(leader)).toBe(false);
    await endProcessGroup(leader, 1_000);
  });
});
