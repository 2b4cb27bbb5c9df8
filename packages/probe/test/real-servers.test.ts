// Against real servers from npm: @modelcontextprotocol/server-everything in streamableHttp mode (held on
// loopback by a --require preload) and @modelcontextprotocol/server-memory over stdio; plus probeStdio
// against a fixture process for the cases a well-behaved server never shows.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE_TIMEOUT_MS } from '../src/constants.js';
import { ProbeInputError, ProbeResultSchema, probeServer } from '../src/index.js';
import { createNodeHttpClient, probeStdio } from '../src/node/index.js';
import { scaledClock } from './fixtures/env.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const packageDir = join(here, '..');
const everythingEntry = join(packageDir, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const memoryEntry = join(packageDir, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const preload = join(here, 'fixtures/loopback-only.cjs');
const stdioFixture = join(here, 'fixtures/stdio-server.mjs');
const FIXTURE_TOOLS_TEXT =
  '[ {"name":"find_\\u0070age" , "description":"Finds a page.", "inputSchema":{"type":"object"}},{"inputSchema":{"type":"object"},"name":"list_pages"} ]';

describe('server-everything over Streamable HTTP', () => {
  let child: ChildProcess;
  let boundAddress = '';
  let port = 0;

  beforeAll(async () => {
    child = spawn(process.execPath, ['--require', preload, everythingEntry, 'streamableHttp'], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${seen}`)), 20_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /LOOPBACK_LISTENING (\S+) (\d+)/.exec(seen);
        if (match !== null) {
          clearTimeout(timer);
          boundAddress = match[1] as string;
          port = Number(match[2]);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`server-everything exited with ${String(code)}: ${seen}`)));
    });
  });

  afterAll(() => {
    child.kill('SIGTERM');
  });

  it('is held on loopback by the preload', () => {
    expect(boundAddress).toBe('127.0.0.1');
    expect(port).toBeGreaterThan(0);
  });

  it('answers with tools: o, with a session, the SDK server version and every tool kept', async () => {
    const result = await probeServer(`http://127.0.0.1:${port}/mcp`, {
      allowPrivate: true,
      httpClient: createNodeHttpClient,
    });
    expect(ProbeResultSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      letter: 'o',
      reason: 'ok',
      protocolVersion: '2025-06-18',
      sessionIssued: true,
      notStandardMcp: false,
    });
    expect(result.serverInfo?.name).toContain('everything');
    expect(result.toolCount).toBeGreaterThanOrEqual(10);
    const names = result.tools.map((t) => (t as { name: string }).name);
    expect(names).toContain('echo');
    expect(JSON.parse(result.toolsJson ?? '')).toEqual(result.tools);
    expect(result.steps.at(-1)).toMatchObject({ name: 'delete', outcome: 'ok' });
  });

  it('answers the same through a plain fetch', async () => {
    const result = await probeServer(`http://127.0.0.1:${port}/mcp`, { allowPrivate: true, fetch: globalThis.fetch });
    expect(result).toMatchObject({ letter: 'o' });
  });
});

describe('server-memory over stdio', () => {
  const dir = mkdtempSync(join(tmpdir(), 'probe-memory-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers with its knowledge-graph tools: o, the same result shape as HTTP', async () => {
    const result = await probeStdio({
      command: process.execPath,
      args: [memoryEntry],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    });
    expect(ProbeResultSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      letter: 'o',
      reason: 'ok',
      sessionIssued: false,
      redirect: null,
      paymentAddress: null,
    });
    expect(result.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const names = result.tools.map((t) => (t as { name: string }).name);
    expect(names).toEqual(expect.arrayContaining(['create_entities', 'read_graph', 'search_nodes']));
    expect(JSON.parse(result.toolsJson ?? '')).toEqual(result.tools);
    expect(result.steps.map((s) => s.name)).toEqual(['spawn', 'initialize', 'initialized', 'tools/list']);
    expect(result.steps.every((s) => s.httpStatus === null)).toBe(true);
    expect(result.url).toContain('server-memory');
  });
});

describe('probeStdio against a fixture process', () => {
  const run = (mode: string, options = {}) =>
    probeStdio({ command: process.execPath, args: [stdioFixture, mode] }, options);

  it('keeps the raw text of the tools array as the process wrote it', async () => {
    const result = await run('normal');
    expect(result).toMatchObject({ letter: 'o', toolCount: 2, toolsJson: FIXTURE_TOOLS_TEXT });
    expect((result.tools[0] as { name: string }).name).toBe('find_page');
  });

  it('answers a server ping while waiting, and skips lines that are not JSON', async () => {
    expect(await run('ping')).toMatchObject({ letter: 'o', toolCount: 2 });
    const noisy = await run('noisy');
    expect(noisy).toMatchObject({ letter: 'o', toolCount: 2 });
    expect(noisy.warnings.join(' ')).toContain('stdio');
  });

  it('a process that exits is d/process-exited, with the end of its stderr', async () => {
    const result = await run('exit');
    expect(result).toMatchObject({ letter: 'd', reason: 'process-exited', failedStep: 'initialize' });
    expect(result.message).toContain('giving up on purpose');
  });

  it('a process that never answers ends at the initialize limit', async () => {
    const clock = scaledClock(20);
    const started = performance.now();
    const result = await run('hang', { clock });
    expect(result).toMatchObject({ letter: 'd', reason: 'timeout', failedStep: 'initialize' });
    expect(clock.requested[0]).toBe(INITIALIZE_TIMEOUT_MS);
    // The SDK transport gives a process that ignores stdin's end 2 s before SIGTERM.
    expect(performance.now() - started).toBeLessThan(INITIALIZE_TIMEOUT_MS / 20 + 6_000);
  });

  it('a rejected initialize is d/jsonrpc-error with the supported versions', async () => {
    expect(await run('reject')).toMatchObject({
      letter: 'd',
      reason: 'jsonrpc-error',
      supportedVersions: ['2026-06-30'],
    });
  });

  it('a command that cannot start is d/spawn-failed', async () => {
    const result = await probeStdio({ command: join(tmpdir(), 'mcp-atlas-probe-test-missing', 'no-such-binary') });
    expect(result).toMatchObject({ letter: 'd', reason: 'spawn-failed', failedStep: 'spawn' });
  });

  it('bad input is a ProbeInputError', async () => {
    await expect(probeStdio({ command: '' })).rejects.toBeInstanceOf(ProbeInputError);
    await expect(probeStdio({ command: 'node', args: [1 as unknown as string] })).rejects.toMatchObject({
      code: 'invalid-command',
    });
    await expect(probeStdio(null as never)).rejects.toMatchObject({ code: 'invalid-command' });
  });
});
