// `check --package`: a published package, installed from the npm registry at its exact version and listed in the
// probe's sandbox, gets the same report as any server: letter, tools with risk levels and hashes, findings and
// tokens. bubblewrap is installed by scripts/ensure-bubblewrap.sh, which the test script runs.
import { chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { findSandbox } from '@mcp-atlas/probe/node';
import { LOCAL_RULES } from '@mcp-atlas/probe/rules';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCheckArguments } from '../src/check/command.js';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';

const work = makeWorkDir();
// A root checker runs the sandbox as an unprivileged user, who must be able to reach the cache: the test run's own
// temporary folder and this test's folder are made searchable (they hold nothing secret).
chmodSync(tmpdir(), 0o755);
chmodSync(work, 0o755);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('check --package, parsed', () => {
  it('reads npm and PyPI specs and the install settings', () => {
    const parsed = parseCheckArguments([
      '--package',
      'npm:@modelcontextprotocol/server-memory@2026.8.31',
      '--package-cache',
      '/var/cache/atlas',
      '--npm-registry',
      'http://127.0.0.1:4873',
    ]);
    expect(parsed.target).toEqual({
      kind: 'package',
      spec: 'npm:@modelcontextprotocol/server-memory@2026.8.31',
      package: { registryType: 'npm', identifier: '@modelcontextprotocol/server-memory', version: '2026.8.31' },
      install: {
        cacheDir: '/var/cache/atlas',
        npmRegistry: 'http://127.0.0.1:4873/',
        pypiIndex: LOCAL_RULES.defaultPypiIndex,
      },
    });
    const pypi = parseCheckArguments(['--package', 'pypi:mcp-server-time==2026.1.2']).target;
    expect(pypi).toMatchObject({
      package: { registryType: 'pypi', identifier: 'mcp-server-time', version: '2026.1.2' },
    });
  });

  it.each([
    [['--package', 'server-memory'], '--package takes npm:NAME@VERSION'],
    [['--package', 'npm:server-memory'], '--package takes npm:NAME@VERSION'],
    [['--package', 'npm:x@1.0.0', 'https://mcp.example.com/mcp'], 'only one of them'],
    [['--package', 'npm:x@1.0.0', '--deep'], 'not for --package'],
    [['--package', 'npm:x@1.0.0', '--npm-registry', 'file:///tmp'], 'http or https URL'],
    [['https://mcp.example.com/mcp', '--package-cache', '/tmp'], 'are for --package'],
  ])('refuses %j', (args, message) => {
    expect(() => parseCheckArguments(args)).toThrow(message);
  });
});

describe.runIf(findSandbox().works)('check --package, run', () => {
  it('lists a real npm server in the sandbox, with risk levels and hashes', async () => {
    const run = await runCheckIn(work, [
      '--json',
      '--package',
      'npm:@modelcontextprotocol/server-memory@2026.8.31',
      '--package-cache',
      `${work}/cache`,
    ]);
    const report = CheckReportSchema.parse(JSON.parse(run.stdout));
    expect(report.letter, report.message).toBe('o');
    expect(report.gates.tripped).toEqual([]);
    expect(run.code).toBe(0);
    expect(report).toMatchObject({
      letter: 'o',
      transport: 'stdio',
      target: 'npm:@modelcontextprotocol/server-memory@2026.8.31',
    });
    expect(report.toolCount).toBe(9);
    const byName = new Map(report.tools.map((tool) => [tool.name, tool]));
    expect(byName.get('read_graph')?.level).toBe('read-only');
    expect(byName.get('delete_entities')?.level).toBe('high-risk');
    for (const tool of report.tools) expect(tool.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(report.tokens).toBeGreaterThan(0);
  });

  it('reports a version the registry does not have as not answering, with the reason', async () => {
    const run = await runCheckIn(work, [
      '--json',
      '--package',
      'npm:@modelcontextprotocol/server-memory@0.0.0-none',
      '--package-cache',
      `${work}/cache`,
    ]);
    expect(run.code).toBe(1);
    const report = CheckReportSchema.parse(JSON.parse(run.stdout));
    expect(report).toMatchObject({ letter: 'd', reason: 'spawn-failed' });
    expect(report.message).toContain('not installed: npm has no @modelcontextprotocol/server-memory@0.0.0-none');
  });
});
