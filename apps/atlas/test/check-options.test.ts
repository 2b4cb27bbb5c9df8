// The newer flags of `mcp-atlas check` against real loopback servers: --timeout (stdio and HTTP servers that never
// answer), --list-all (resources and prompts with their own hashes, kept in the lock file and diffed), the diff of
// a changed tool (description, input-schema paths, annotation hints), and --deep's Host-header (DNS-rebinding)
// check against an SDK server that validates Host and a raw server that does not.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { judgeForeignHostAnswer } from '@mcp-atlas/operations';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FOREIGN_HOST_HEADER } from '../src/check/constants.js';
import { checkHostHeader } from '../src/check/host-header.js';
import { type CheckReport, CheckReportSchema } from '../src/check/report-schema.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';
import {
  type RunningServer,
  type SdkServerState,
  startHostBlindServer,
  startSdkServer,
} from './fixtures/check-sdk-http.js';

const report = (stdout: string): CheckReport => CheckReportSchema.parse(JSON.parse(stdout));
const lingering = fileURLToPath(new URL('./fixtures/check-stdio-lingering.mjs', import.meta.url));

describe('--timeout', () => {
  let silent: Server;
  let silentUrl: string;
  beforeAll(async () => {
    // Accepts the connection and never answers.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        silent.closeAllConnections();
        silent.close(() => resolve());
      }),
  );

  it('ends the handshake of an HTTP server that never answers at the given limit, recorded in the report', async () => {
    const run = await runCheckIn(makeWorkDir(), [silentUrl, '--json', '--timeout', '700']);
    expect(run.code).toBe(1);
    const r = report(run.stdout);
    expect(r.letter).toBe('d');
    expect(r.access.timeoutMs).toBe(700);
    // The probe's own initialize limit is 8 s; the check stopped near 0.7 s. The handshake's own time, not the
    // whole run's, so that starting the check on a loaded machine is not counted.
    expect(r.elapsedMs).toBeLessThan(8_000);
    expect(r.elapsedMs).toBeGreaterThanOrEqual(600);
  });

  it('ends the handshake of a stdio server that never answers at the given limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlas-check-timeout-'));
    const run = await runCheckIn(dir, [
      '--json',
      '--timeout',
      '700',
      '--',
      process.execPath,
      lingering,
      join(dir, 'pids'),
      'mute',
    ]);
    // The handshake's own time, short of the probe's 8 s limit (starting the server is not counted).
    const r = report(run.stdout);
    expect(r).toMatchObject({ letter: 'd', transport: 'stdio' });
    expect(r.elapsedMs).toBeLessThan(8_000);
  });

  it('refuses a limit that is not a whole number of milliseconds from 1 to an hour', async () => {
    for (const bad of ['0', '-5', '1.5', 'soon', '3600001']) {
      const run = await runCheckIn(makeWorkDir(), [silentUrl, `--timeout=${bad}`]);
      expect(run.code, bad).toBe(2);
      expect(run.stderr).toContain('--timeout must be a whole number of milliseconds');
    }
  });
});

describe('--list-all and the detail of a changed tool', () => {
  let server: RunningServer & { state: SdkServerState };
  beforeAll(async () => {
    server = await startSdkServer();
  });
  afterAll(() => server.close());

  it('lists resources and prompts with their hashes, pins them in the lock file, and diffs them like tools', async () => {
    const dir = makeWorkDir();
    const first = await runCheckIn(dir, [server.url, '--json', '--list-all', '--update-baseline']);
    expect(first.code).toBe(0);
    const listed = report(first.stdout).listAll;
    expect(listed?.resources).toMatchObject({ declared: true, error: null });
    expect(listed?.resources.entries.map((e) => [e.key, e.name])).toEqual([['note://welcome', 'welcome']]);
    expect(listed?.prompts.entries.map((e) => e.key)).toEqual(['summarize']);
    expect(listed?.resources.entries[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
    const lock = JSON.parse(readFileSync(join(dir, 'mcp-atlas.lock.json'), 'utf8')) as {
      resources: { key: string; hash: string }[];
      prompts: { key: string }[];
    };
    expect(lock.resources.map((r) => [r.key, r.hash])).toEqual([
      ['note://welcome', listed?.resources.entries[0]?.hash],
    ]);
    expect(lock.prompts.map((p) => p.key)).toEqual(['summarize']);

    const same = await runCheckIn(dir, [
      server.url,
      '--json',
      '--list-all',
      '--baseline',
      'mcp-atlas.lock.json',
      '--fail-on',
      'change',
    ]);
    expect(same.code).toBe(0);
    expect(report(same.stdout).baseline).toMatchObject({
      unchanged: true,
      resources: { added: [], removed: [], changed: [] },
      prompts: { added: [], removed: [], changed: [] },
    });

    server.state.resources = [...server.state.resources, { uri: 'note://extra', name: 'extra', text: 'x' }];
    server.state.prompts = [{ name: 'summarize', description: 'Summarizes a note in three lines.' }];
    const changed = await runCheckIn(dir, [
      server.url,
      '--json',
      '--list-all',
      '--baseline',
      'mcp-atlas.lock.json',
      '--fail-on',
      'change',
    ]);
    expect(changed.code).toBe(1);
    const b = report(changed.stdout).baseline;
    expect(b).toMatchObject({
      added: [],
      changed: [],
      unchanged: false,
      resources: { added: ['note://extra'], removed: [], changed: [] },
      prompts: { added: [], removed: [], changed: ['summarize'] },
    });
    expect(report(changed.stdout).gates.tripped[0]?.detail).toBe(
      'the tool list changed: resources added note://extra; prompts changed summarize',
    );
    // Without --list-all the resources are not read, so they are not compared (and not called changed).
    const toolsOnly = await runCheckIn(dir, [
      server.url,
      '--json',
      '--baseline',
      'mcp-atlas.lock.json',
      '--fail-on',
      'change',
    ]);
    expect(toolsOnly.code).toBe(0);
    expect(report(toolsOnly.stdout).baseline).toMatchObject({ resources: null, prompts: null, unchanged: true });
  });

  it('a changed tool says what changed: description, input-schema paths and annotation hints', async () => {
    const dir = makeWorkDir();
    await runCheckIn(dir, [server.url, '--update-baseline']);
    const before = server.state.toolDescription;
    server.state.toolDescription = 'Finds a note by its title or by a tag.';
    server.state.extraField = 'tag';
    server.state.readOnlyHint = false;
    try {
      const run = await runCheckIn(dir, [
        server.url,
        '--json',
        '--baseline',
        'mcp-atlas.lock.json',
        '--fail-on',
        'change',
      ]);
      const r = report(run.stdout);
      expect(r.baseline?.details).toEqual([
        {
          name: 'find_note',
          description: { from: 'Finds a note by its title.', to: 'Finds a note by its title or by a tag.' },
          inputSchema: { added: ['/properties/tag'], removed: [], changed: [] },
          annotations: ['readOnlyHint: true -> false'],
        },
      ]);
      const text = await runCheckIn(dir, [server.url, '--baseline', 'mcp-atlas.lock.json']);
      expect(text.stdout).toContain('changed find_note\n');
      expect(text.stdout).toContain('input schema: added /properties/tag');
      expect(text.stdout).toContain('annotations: readOnlyHint: true -> false');
    } finally {
      server.state.toolDescription = before;
      server.state.extraField = null;
      server.state.readOnlyHint = true;
    }
  });

  it('a lock file whose resource definition was edited without its hash is refused (exit 2)', async () => {
    const dir = makeWorkDir();
    await runCheckIn(dir, [server.url, '--list-all', '--update-baseline']);
    const path = join(dir, 'mcp-atlas.lock.json');
    const lock = JSON.parse(readFileSync(path, 'utf8')) as { resources: { definition: { name: string } }[] };
    (lock.resources[0] as { definition: { name: string } }).definition.name = 'edited';
    writeFileSync(path, JSON.stringify(lock));
    const run = await runCheckIn(dir, [server.url, '--list-all', '--baseline', 'mcp-atlas.lock.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the hash of "note://welcome" does not match its definition');
  });
});

describe('--deep: the Host-header (DNS-rebinding) check of a local HTTP server', () => {
  const servers: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('passes for an SDK server that validates Host: the foreign name is refused', async () => {
    const server = await startSdkServer({ validateHost: true });
    servers.push(server);
    const run = await runCheckIn(makeWorkDir(), [server.url, '--json', '--deep'], { deepCallTimeoutMs: 30_000 });
    const host = report(run.stdout).deep?.hostHeader;
    expect(host).toMatchObject({ outcome: 'pass', host: FOREIGN_HOST_HEADER });
    expect(host?.status).toBeGreaterThanOrEqual(400);
    expect(host?.status).toBeLessThan(500);
    expect(host?.reason).toContain('refused a request for another host');
    expect(server.seen.some((h) => h.host === FOREIGN_HOST_HEADER)).toBe(true);
  });

  it('fails for a raw server that answers any Host, with a reason that says what to do', async () => {
    const server = await startHostBlindServer();
    servers.push(server);
    const run = await runCheckIn(makeWorkDir(), [server.url, '--json', '--deep'], { deepCallTimeoutMs: 30_000 });
    const r = report(run.stdout);
    expect(r.letter).toBe('o');
    expect(r.deep?.hostHeader).toMatchObject({ outcome: 'fail', status: 200 });
    expect(r.deep?.hostHeader?.reason).toContain('DNS rebinding');
    const text = await runCheckIn(makeWorkDir(), [server.url, '--deep'], { deepCallTimeoutMs: 30_000 });
    expect(text.stdout).toContain('host header check: fail: the server answered a request for another host (HTTP 200)');
  });

  it('is not run for a server off this machine, nor after a failed handshake, and is null for stdio', async () => {
    expect(
      await checkHostHeader({ url: 'http://192.0.2.1/mcp', headers: [], letter: 'o', timeoutMs: 100 }),
    ).toMatchObject({
      outcome: 'not-run',
      reason: 'only a server on this machine (loopback) is checked',
    });
    expect(
      await checkHostHeader({ url: 'http://127.0.0.1:9/mcp', headers: [], letter: 'd', timeoutMs: 100 }),
    ).toMatchObject({
      outcome: 'not-run',
    });
    const dir = mkdtempSync(join(tmpdir(), 'atlas-check-host-'));
    const run = await runCheckIn(dir, ['--json', '--deep', '--', process.execPath, lingering, join(dir, 'pids')], {
      deepCallTimeoutMs: 30_000,
    });
    expect(report(run.stdout).deep?.hostHeader).toBeNull();
  });

  it('sorts answers: 4xx refuses, 401 cannot tell, 2xx and 5xx do not refuse, a closed connection refuses, silence fails', () => {
    expect(judgeForeignHostAnswer({ status: 421 }, FOREIGN_HOST_HEADER, 100).outcome).toBe('pass');
    expect(judgeForeignHostAnswer({ status: 403 }, FOREIGN_HOST_HEADER, 100).outcome).toBe('pass');
    expect(judgeForeignHostAnswer({ status: 401 }, FOREIGN_HOST_HEADER, 100).outcome).toBe('not-run');
    expect(judgeForeignHostAnswer({ status: 200 }, FOREIGN_HOST_HEADER, 100).outcome).toBe('fail');
    expect(judgeForeignHostAnswer({ status: 500 }, FOREIGN_HOST_HEADER, 100).outcome).toBe('fail');
    expect(judgeForeignHostAnswer({ status: 307 }, FOREIGN_HOST_HEADER, 100).outcome).toBe('fail');
    expect(judgeForeignHostAnswer({ closed: 'socket hang up' }, FOREIGN_HOST_HEADER, 100)).toMatchObject({
      outcome: 'pass',
      status: null,
    });
    expect(judgeForeignHostAnswer({ timedOut: true }, FOREIGN_HOST_HEADER, 100)).toMatchObject({
      outcome: 'fail',
      reason: 'no answer within 100 ms instead of a refusal',
    });
  });
});
