// The second signal during shutdown, through the built CLI: `serve` starts its schedule, whose daily check first
// reads a registry on loopback that takes the request and never answers, so the first SIGTERM's drain has a
// running task to wait for (the registry's page limit is longer than the shutdown deadline). A second SIGTERM
// then exits at once with EXIT_INTERRUPTED and says so in the log.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_INTERRUPTED } from '../src/commands/serve.js';
import { waitFor } from './setup/wait-for.js';

const APP_FOLDER = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST_CLI = join(APP_FOLDER, 'dist', 'cli.js');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A registry that takes every request and never answers; resolves `asked` at the first request. */
async function startSilentRegistry(): Promise<{ url: string; asked: Promise<void> }> {
  let markAsked!: () => void;
  const asked = new Promise<void>((resolve) => {
    markAsked = resolve;
  });
  const server: Server = createServer(() => markAsked());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

/** A running `serve` child whose stdout is collected; `waitForText` resolves once stdout holds the text. */
function startServe(env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const child: ChildProcess = spawn(process.execPath, [DIST_CLI, 'serve'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let done = false;
  void exited.then(() => {
    done = true;
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  cleanups.push(async () => {
    if (!done) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const waitForText = (text: string): Promise<void> =>
    waitFor(`serve prints "${text}"`, () => {
      if (stdout.includes(text)) return true;
      if (done) throw new Error(`serve exited before printing "${text}": ${stdout}${stderr}`);
      return false;
    });
  return { child, exited, waitForText, output: () => stdout, isRunning: () => !done };
}

/** The parsed JSON log lines of stdout. */
const logLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('serve: a second signal during the drain', () => {
  it('exits at once with EXIT_INTERRUPTED and logs it, while the first is still waiting for the running task', async () => {
    expect(existsSync(DIST_CLI), 'build the app first (turbo runs build before test)').toBe(true);
    const folder = await mkdtemp(join(tmpdir(), 'atlas-second-signal-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const registry = await startSilentRegistry();
    const serve = startServe({
      MCP_ATLAS_DATA: join(folder, 'data'),
      PORT: '0',
      MCP_ATLAS_REGISTRY: registry.url,
      // The registry is on loopback, which the guard refuses unless private networks are allowed.
      MCP_ATLAS_ALLOW_PRIVATE: 'true',
      MCP_ATLAS_LOG_LEVEL: 'info',
    });
    await serve.waitForText('mcp-atlas is serving at');
    // The daily check is now waiting on the registry, which will not answer within the shutdown deadline.
    await registry.asked;

    serve.child.kill('SIGTERM');
    await serve.waitForText('signal received: finishing the running work');
    // The drain is busy waiting for the task: the process is still there.
    expect(serve.isRunning()).toBe(true);

    serve.child.kill('SIGTERM');
    const exit = await serve.exited;
    // The second signal's exit, not the drain's end nor the deadline's (SHUTDOWN_DEADLINE_MS), both code 0; the
    // log lines below show which of the three it was, so nothing here rests on how long the steps took.
    expect(exit.code).toBe(EXIT_INTERRUPTED);
    expect(exit.code).toBe(130);
    const lines = logLines(serve.output());
    expect(lines.find((line) => line.msg === 'second signal: exiting at once')).toMatchObject({
      level: 40,
      signal: 'SIGTERM',
    });
    // It neither finished the drain nor reached the deadline.
    expect(lines.some((line) => line.msg === 'stopped')).toBe(false);
    expect(lines.some((line) => String(line.msg).startsWith('shutdown deadline reached'))).toBe(false);
  });
});
