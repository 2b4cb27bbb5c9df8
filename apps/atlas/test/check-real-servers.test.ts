// `mcp-atlas check` against real servers from npm (server-everything over Streamable HTTP on loopback,
// server-memory over stdio through `--`), deep mode included, and deep mode against a server that hangs
// and crashes on purpose.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckReport, CheckReportSchema } from '../src/check/report-schema.js';
import { type Fleet, startFleet } from '../src/demo/fleet.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';
import { memoryCommandLine, type RunningEverything, startEverything } from './fixtures/check-servers.js';

const report = (stdout: string): CheckReport => CheckReportSchema.parse(JSON.parse(stdout));
const fragile = fileURLToPath(new URL('./fixtures/check-stdio-fragile.mjs', import.meta.url));

describe('server-everything over Streamable HTTP', () => {
  let everything: RunningEverything;
  beforeAll(async () => {
    everything = await startEverything();
  });
  afterAll(() => everything.stop());

  it('is held on loopback', () => {
    expect(everything.host).toBe('127.0.0.1');
  });

  it('passes with letter o; every tool has a level and rule; a baseline round trip is unchanged', async () => {
    const dir = makeWorkDir();
    const first = await runCheckIn(dir, [everything.url, '--json', '--update-baseline']);
    expect(first.code).toBe(0);
    const r = report(first.stdout);
    expect(r).toMatchObject({ letter: 'o', reason: 'ok', protocolVersion: '2025-06-18', transport: 'http' });
    expect(r.tools.length).toBeGreaterThanOrEqual(10);
    expect(r.tools.find((t) => t.name === 'echo')).toMatchObject({
      level: expect.any(String),
      rule: expect.any(Number),
    });
    expect(r.elapsedMs).toBeGreaterThan(0);
    const second = await runCheckIn(dir, [
      everything.url,
      '--json',
      '--baseline',
      'mcp-atlas.lock.json',
      '--fail-on',
      'change,risk-rise',
    ]);
    expect(second.code).toBe(0);
    expect(report(second.stdout).baseline?.unchanged).toBe(true);
  });

  it('deep mode: proper errors for the bad calls, a fuzz pass over read-only tools only, and a compliance score with parts', async () => {
    const run = await runCheckIn(makeWorkDir(), [everything.url, '--json', '--deep']);
    expect(run.code).toBe(0);
    const r = report(run.stdout);
    const deep = r.deep!;
    expect(deep.skipped).toBeNull();
    expect(deep.errorHandling[0]).toMatchObject({ kind: 'unknown-tool', outcome: 'proper-error' });
    expect(deep.errorHandling.some((c) => c.kind === 'missing-required')).toBe(true);
    expect(deep.errorHandling.some((c) => c.kind === 'wrong-type')).toBe(true);
    expect(deep.errorHandling.every((c) => c.outcome === 'proper-error')).toBe(true);
    const readOnly = new Set(r.tools.filter((t) => t.level === 'read-only').map((t) => t.name));
    expect(deep.fuzz.length).toBeGreaterThan(0);
    expect(deep.fuzz.every((c) => readOnly.has(c.tool))).toBe(true);
    expect(deep.fuzz.every((c) => c.outcome === 'proper-error' || c.outcome === 'accepted')).toBe(true);
    expect(deep.compliance.parts.reachability).toBe(100);
    expect(deep.compliance.parts.errorHandling).toBe(100);
    const parts = Object.values(deep.compliance.parts).filter((v): v is number => v !== null);
    expect(deep.compliance.score).toBe(Math.round(parts.reduce((a, b) => a + b, 0) / parts.length));
  });
});

describe('server-memory over stdio via --', () => {
  it('passes with letter o and its knowledge-graph tools, and deep mode calls only its read-only tools', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlas-check-memory-'));
    const run = await runCheckIn(dir, ['--json', '--deep', '--', ...memoryCommandLine(join(dir, 'memory.jsonl'))]);
    expect(run.code).toBe(0);
    const r = report(run.stdout);
    expect(r).toMatchObject({ letter: 'o', transport: 'stdio' });
    expect(r.target).toContain('server-memory');
    const names = r.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['create_entities', 'read_graph', 'search_nodes']));
    expect(r.tools.find((t) => t.name === 'read_graph')?.level).toBe('read-only');
    expect(r.tools.find((t) => t.name === 'delete_entities')?.level).not.toBe('read-only');
    const called = new Set([...r.deep!.errorHandling, ...r.deep!.fuzz].map((c) => c.tool));
    for (const name of called)
      if (name !== 'mcp_atlas_check_no_such_tool_7f3a')
        expect(r.tools.find((t) => t.name === name)?.level).toBe('read-only');
    expect(r.deep!.errorHandling[0]).toMatchObject({ kind: 'unknown-tool', outcome: 'proper-error' });
    expect(r.deep!.compliance.score).not.toBeNull();
  });

  it('a command that names no program is a usage error (exit 2), before anything starts', async () => {
    const missing = join(tmpdir(), 'no-such-server-binary-for-check');
    const byPath = await runCheckIn(makeWorkDir(), ['--json', '--', missing]);
    expect(byPath).toMatchObject({ code: 2, stdout: '' });
    expect(byPath.stderr).toContain(`cannot start the server: "${missing}" is not a program at that path`);
    const byName = await runCheckIn(makeWorkDir(), ['--', 'no-such-server-binary-for-check', '--stdio']);
    expect(byName.code).toBe(2);
    expect(byName.stderr).toContain('"no-such-server-binary-for-check" is not a program on PATH');
  });
});

describe('deep mode against a server that hangs and crashes', () => {
  it('scores a hang and a crash as 0, reconnects after each, and keeps proper errors and accepted inputs apart', async () => {
    // The hang costs this long once; every answer the test expects comes well within it on a loaded machine.
    const run = await runCheckIn(makeWorkDir(), ['--json', '--deep', '--', process.execPath, fragile], {
      deepCallTimeoutMs: 10_000,
    });
    expect(run.code).toBe(0);
    const deep = report(run.stdout).deep!;
    expect(deep.errorHandling.map((c) => [c.kind, c.outcome])).toEqual([
      ['unknown-tool', 'hang'],
      ['missing-required', 'proper-error'],
      ['wrong-type', 'proper-error'],
    ]);
    expect(deep.fuzz.map((c) => [c.kind, c.outcome])).toEqual([
      ['fuzz-oversized', 'accepted'],
      ['fuzz-empty', 'accepted'],
      ['fuzz-unicode', 'accepted'],
      ['fuzz-null', 'crash'],
    ]);
    expect(deep.smoke.map((c) => [c.kind, c.tool, c.outcome])).toEqual([['smoke', 'get_item', 'accepted']]);
    // error handling: 2 of 3 proper = 67; fuzz: (50+50+50+0)/4 = 37.5 -> 38; smoke 1 of 1 = 100; schema validity 100; reachability 100.
    expect(deep.compliance.parts).toEqual({
      reachability: 100,
      schemaValidity: 100,
      errorHandling: 67,
      fuzz: 38,
      smoke: 100,
    });
    // (100 + 100 + 67 + 38 + 100) / 5 = 81; no sign-in asked, so no bonus
    expect(deep.compliance).toMatchObject({ score: 81, authDiscovery: null, authBonus: 0 });
  });
});

describe('deep mode on a server that did not answer', () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet(30);
  });
  afterAll(async () => {
    await fleet.close();
  });

  it('calls nothing, says why, and scores reachability 0', async () => {
    const homepage = fleet.members.find((m) => m.id === 'homepage')!.url;
    const run = await runCheckIn(makeWorkDir(), [homepage, '--json', '--deep']);
    expect(run.code).toBe(1);
    const deep = report(run.stdout).deep!;
    expect(deep).toMatchObject({
      errorHandling: [],
      fuzz: [],
      smoke: [],
      compliance: {
        score: 0,
        parts: { reachability: 0, schemaValidity: null, errorHandling: null, fuzz: null, smoke: null },
      },
    });
    expect(deep.skipped).toContain('letter d');
  });

  it('a sign-in server without OAuth metadata gets no bonus and no penalty', async () => {
    const vault = fleet.members.find((m) => m.id === 'vault')!.url;
    const run = await runCheckIn(makeWorkDir(), [vault, '--json', '--deep']);
    expect(run.code).toBe(0);
    const deep = report(run.stdout).deep!;
    expect(deep.compliance).toEqual({
      score: 100,
      parts: { reachability: 100, schemaValidity: null, errorHandling: null, fuzz: null, smoke: null },
      authDiscovery: false,
      authBonus: 0,
    });
  });
});

describe('deep mode on a sign-in server that publishes its OAuth metadata', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/.well-known/oauth-protected-resource') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ resource: url, authorization_servers: ['http://127.0.0.1:1/'] }));
        return;
      }
      response.writeHead(401, {
        'www-authenticate': 'Bearer resource_metadata="/.well-known/oauth-protected-resource"',
        'content-type': 'application/json',
      });
      response.end('{"error":"unauthorized"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => {
    server.close();
  });

  it('adds the +10 bonus, capped at 100, and shows it', async () => {
    const run = await runCheckIn(makeWorkDir(), [url, '--json', '--deep']);
    expect(run.code).toBe(0);
    const r = report(run.stdout);
    expect(r.letter).toBe('a');
    expect(r.deep!.compliance).toEqual({
      score: 100,
      parts: { reachability: 100, schemaValidity: null, errorHandling: null, fuzz: null, smoke: null },
      authDiscovery: true,
      authBonus: 10,
    });
    const text = await runCheckIn(makeWorkDir(), [url, '--deep']);
    expect(text.stdout).toContain('+10 OAuth discovery');
  });
});
