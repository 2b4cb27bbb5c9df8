// The built `mcp-atlas demo`, as a newcomer runs it: its stdout is the table for a person and its stderr short
// text log lines (no JSON object among either), and the service it then runs answers /healthz, /readyz and
// /metrics as `serve` does. It serves on a free loopback port and stops on SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'atlas-demo-cli-'));
let demo: ChildProcess;
let url = '';
let stdout = '';
let stderr = '';

/** Resolves with the URL once the demo says where it serves; rejects if it exits first. */
function servingUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /serving at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match !== null) resolve(match[1] as string);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('exit', (code) => reject(new Error(`demo exited with ${code}: ${stderr}`)));
  });
}

beforeAll(async () => {
  const env = { ...process.env };
  delete env.MCP_ATLAS_LOG_FORMAT;
  delete env.MCP_ATLAS_LOG_LEVEL;
  demo = spawn(process.execPath, [CLI, 'demo', '--days', '2', '--port', '0', '--data', join(work, 'data')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  url = await servingUrl(demo);
}, 300_000);

afterAll(async () => {
  if (demo !== undefined && demo.exitCode === null && demo.signalCode === null) {
    const exited = new Promise((resolve) => demo.once('exit', resolve));
    demo.kill('SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

describe('the built demo', () => {
  it('prints no JSON log line on stdout or stderr, and logs as short text', () => {
    const lines = `${stdout}\n${stderr}`.split('\n').filter((line) => line.trim() !== '');
    expect(lines.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    expect(stdout).toContain('chain: verified');
    // A log line reads `HH:MM:SS LEVEL message ...`.
    for (const line of stderr.split('\n').filter((l) => l !== '' && /^\d\d:\d\d:\d\d /.test(l)))
      expect(line).toMatch(/^\d\d:\d\d:\d\d (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) /);
  });

  it('answers /healthz, /readyz and /metrics', async () => {
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^mcp_atlas_build_info\{/m);
    expect(text).toMatch(/^mcp_atlas_last_sealed_day_age_seconds \d/m);
  });
});
