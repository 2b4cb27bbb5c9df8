// A process that starts a session of its own (setsid) leaves the server's process group, so ending the group
// misses it. Where bubblewrap works, the server runs in a PID namespace of its own, and the kernel ends every
// process left inside once the server's first process ends. The fixture server starts `sleep 301.<marker>` in a
// new session; processes are found by that marker in /proc (a pid written from inside the namespace would be the
// namespace's own). bubblewrap is installed by apps/atlas/scripts/ensure-bubblewrap.sh, which the test script runs.
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findBubblewrap, ProcessGroupStdioTransport, probeStdio } from '../src/node/index.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const builtNode = join(packageDir, 'dist', 'node.js');
const lingering = fileURLToPath(new URL('./fixtures/stdio-lingering-server.mjs', import.meta.url));
const markers: string[] = [];
const folders: string[] = [];

/** A `sleep` argument no other process has: 301 seconds and a random fraction. */
function newMarker(): string {
  const marker = `301.${randomInt(100_000, 999_999)}${randomInt(100_000, 999_999)}`;
  markers.push(marker);
  return marker;
}

/** Pids of running (not zombie) processes with `word` as one of their arguments (the wrappers' too). */
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

/** Pids of the running `sleep <marker>` processes: the helper the fixture server started in a session of its own. */
function sleepsWith(marker: string): number[] {
  return processesWith(marker).filter((pid) => {
    try {
      const [program, first] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return program !== undefined && program.split('/').pop() === 'sleep' && first === marker;
    } catch {
      return false;
    }
  });
}

/** A fresh pid file for one start of the fixture: its path is also an argument of every process of that start. */
function newPidFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'probe-pid-namespace-'));
  folders.push(folder);
  return join(folder, 'server.pid');
}

/** The fixture through `sh -c`, starting `sleep <marker>` in a session of its own. */
function server(marker: string, pidFile: string, mode = 'plain'): { command: string; args: string[] } {
  return { command: 'sh', args: ['-c', '"$@"; exit $?', 'sh', process.execPath, lingering, pidFile, mode, marker] };
}

beforeAll(() => {
  const bubblewrap = findBubblewrap();
  if (!bubblewrap.works)
    throw new Error(`${bubblewrap.problem}: run apps/atlas/scripts/ensure-bubblewrap.sh (the test script does)`);
});

afterEach(() => {
  for (const marker of markers.splice(0)) {
    for (const pid of processesWith(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('a stdio server whose helper starts a session of its own', () => {
  it('leaves the helper running when only the process group is ended (the control)', async () => {
    const marker = newMarker();
    const result = await probeStdio(server(marker, newPidFile()), { isolation: 'process-group' });
    expect(result).toMatchObject({ letter: 'o', toolCount: 1 });
    expect(sleepsWith(marker)).toHaveLength(1);
  });

  it('leaves nothing running once probeStdio returns, in a PID namespace by default', async () => {
    const marker = newMarker();
    const pidFile = newPidFile();
    const result = await probeStdio(server(marker, pidFile));
    expect(result).toMatchObject({ letter: 'o', toolCount: 1, warnings: [] });
    expect(result.steps[0]).toMatchObject({
      name: 'spawn',
      outcome: 'ok',
      detail: 'in its own PID namespace (bubblewrap)',
    });
    // The command line shown is the server's own, not bubblewrap's.
    expect(result.url).toBe(['sh', ...server(marker, pidFile).args].join(' '));
    expect(sleepsWith(marker)).toEqual([]);
  });

  it('leaves nothing running when the server ignores SIGTERM and its stdin closing', async () => {
    const marker = newMarker();
    const pidFile = newPidFile();
    const transport = new ProcessGroupStdioTransport({
      ...server(marker, pidFile, 'stubborn'),
      isolation: 'pid-namespace',
    });
    const client = new Client({ name: 'namespace', version: '0.0.0' });
    await client.connect(transport);
    expect(transport.isolation).toEqual({ used: 'pid-namespace', fallback: null });
    expect(await client.listTools()).toMatchObject({ tools: [{ name: 'get_item' }] });
    expect(sleepsWith(marker)).toHaveLength(1);
    await client.close();
    expect(sleepsWith(marker)).toEqual([]);
    expect(processesWith(pidFile)).toEqual([]);
    expect(transport.pid).toBeNull();
  });

  it('reports a missing command as a failed start, as without bubblewrap', async () => {
    const result = await probeStdio(
      { command: join(tmpdir(), 'no-such-command-here') },
      { isolation: 'pid-namespace' },
    );
    expect(result).toMatchObject({ letter: 'd', reason: 'spawn-failed' });
    expect(result.message).toMatch(/ENOENT/);
  });
});

/** Runs the built probe in a Node process whose PATH has `sleep` but no bubblewrap, and returns what it printed. */
async function probeWithoutBubblewrap(marker: string, isolation: string): Promise<Record<string, unknown>> {
  if (!existsSync(builtNode)) throw new Error(`${builtNode} is missing: build the package first (pnpm build)`);
  const bin = mkdtempSync(join(tmpdir(), 'probe-no-bwrap-'));
  folders.push(bin);
  symlinkSync(findSleep(), join(bin, 'sleep'));
  const script = [
    `const { probeStdio } = await import(${JSON.stringify(pathToFileURL(builtNode).href)});`,
    `const result = await probeStdio({ command: process.execPath, args: ${JSON.stringify([lingering, newPidFile(), 'plain', marker])} }, { isolation: ${JSON.stringify(isolation)} });`,
    'process.stdout.write(JSON.stringify({ letter: result.letter, reason: result.reason, message: result.message, spawn: result.steps[0], warnings: result.warnings }));',
  ].join('\n');
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: bin },
  });
  let output = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    errors += text;
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect({ code, errors }).toEqual({ code: 0, errors: '' });
  return JSON.parse(output) as Record<string, unknown>;
}

function findSleep(): string {
  for (const file of ['/usr/bin/sleep', '/bin/sleep']) if (existsSync(file)) return file;
  throw new Error('no sleep program in /usr/bin or /bin');
}

describe('where bubblewrap is missing', () => {
  it('falls back to the process group and says so, in the spawn step and a warning', async () => {
    const marker = newMarker();
    const seen = await probeWithoutBubblewrap(marker, 'auto');
    expect(seen).toMatchObject({
      letter: 'o',
      spawn: { name: 'spawn', outcome: 'ok', detail: 'in its own process group (bubblewrap (bwrap) is not installed)' },
      warnings: [
        'stdio: bubblewrap (bwrap) is not installed, so the server ran as a process group only; a process it starts in a session of its own can outlive the check',
      ],
    });
  });

  it('does not start the server at all when a PID namespace is required', async () => {
    const marker = newMarker();
    const seen = await probeWithoutBubblewrap(marker, 'pid-namespace');
    expect(seen).toMatchObject({ letter: 'd', reason: 'spawn-failed' });
    expect(seen.message).toContain('bubblewrap (bwrap) is not installed, and isolation pid-namespace was asked for');
    expect(sleepsWith(marker)).toEqual([]);
  });
});
