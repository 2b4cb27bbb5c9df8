// `check --conformance` runs the real MCP conformance suite (its server scenarios, each in its own process) against
// loopback servers: the SDK's McpServer with DNS-rebinding protection passes every scenario chosen for it, and a
// raw node:http server that answers ping with an error and any Host at all fails two scenarios. The failures
// reach the JSON report, the text, the SARIF file and the conformance gate, and a token in the URL never shows.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';
import { sarifSchemaErrors } from './fixtures/check-sarif-schema.js';
import { type RunningServer, startHostBlindServer, startSdkServer } from './fixtures/check-sdk-http.js';

const folders: string[] = [];
let sdk: RunningServer;
let blind: RunningServer;

/** The suite's results folders this process made: every one must be gone after a run. */
const suiteFolders = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('atlas-conformance-'));

beforeAll(async () => {
  sdk = await startSdkServer({ validateHost: true });
  blind = await startHostBlindServer();
});

afterAll(async () => {
  await sdk.close();
  await blind.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function workDir(): string {
  const dir = makeWorkDir();
  folders.push(dir);
  return dir;
}

describe('check --conformance', () => {
  it('passes a conforming SDK server on every scenario chosen from its capabilities, and exits 0', async () => {
    const before = suiteFolders();
    const run = await runCheckIn(workDir(), [sdk.url, '--conformance', '--json']);
    expect(run.stderr).toBe('');
    const report = CheckReportSchema.parse(JSON.parse(run.stdout));
    const conformance = report.conformance!;
    expect(conformance.suite).toBe('@modelcontextprotocol/conformance@0.1.16');
    // The server declares tools, resources and prompts, and listens on loopback.
    expect(conformance.scenarios.map((scenario) => scenario.name)).toEqual([
      'server-initialize',
      'ping',
      'tools-list',
      'dns-rebinding-protection',
      'resources-list',
      'prompts-list',
    ]);
    for (const scenario of conformance.scenarios) {
      expect(scenario.passed, `${scenario.name}: ${scenario.reason}`).toBe(true);
      expect(scenario.checks.length).toBeGreaterThan(0);
      expect(scenario.checks.every((check) => check.status === 'SUCCESS')).toBe(true);
    }
    expect(conformance.failed).toEqual([]);
    expect(report.gates.failOn).toEqual(['not-answering', 'conformance']);
    expect(report.passed).toBe(true);
    expect(run.code).toBe(0);
    expect(suiteFolders()).toEqual(before);
  });

  it('fails a server that errs on ping and answers any Host: report, text, SARIF and gate, exit 1', async () => {
    const dir = workDir();
    const url = `${blind.url}?token=conformance-secret-7781`;
    const json = await runCheckIn(dir, [url, '--conformance', '--json', '--sarif', 'out/check.sarif']);
    expect(json.code).toBe(1);
    expect(`${json.stdout}${json.stderr}`).not.toContain('conformance-secret-7781');
    const report = CheckReportSchema.parse(JSON.parse(json.stdout));
    const conformance = report.conformance!;
    expect(conformance.failed).toEqual(['ping', 'dns-rebinding-protection']);
    const ping = conformance.scenarios.find((scenario) => scenario.name === 'ping')!;
    expect(ping.checks.find((check) => check.status === 'FAILURE')?.message).toMatch(/no such tool/);
    const rebinding = conformance.scenarios.find((scenario) => scenario.name === 'dns-rebinding-protection')!;
    expect(rebinding.checks.map((check) => [check.id, check.status])).toContainEqual([
      'localhost-host-rebinding-rejected',
      'FAILURE',
    ]);
    expect(report.gates.tripped).toEqual([
      {
        gate: 'conformance',
        detail: expect.stringMatching(/^conformance scenarios failed: ping \(.+\), dns-rebinding/),
      },
    ]);

    const sarifText = readFileSync(join(dir, 'out/check.sarif'), 'utf8');
    expect(sarifText).not.toContain('conformance-secret-7781');
    const sarif = JSON.parse(sarifText);
    expect(sarifSchemaErrors(sarif)).toEqual([]);
    const results = sarif.runs[0].results.filter(
      (result: { ruleId: string }) => result.ruleId === 'mcp-atlas/conformance',
    );
    expect(results.length).toBeGreaterThanOrEqual(2);
    expect(results.every((result: { level: string }) => result.level === 'error')).toBe(true);
    expect(results.map((result: { message: { text: string } }) => result.message.text).join('\n')).toMatch(
      /scenario ping, check .+ failed/,
    );

    const text = await runCheckIn(workDir(), [url, '--conformance-scenario', 'ping']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/FAILED {2}ping: /);
    expect(text.stdout).toMatch(/conformance: conformance scenarios failed: ping/);
  });

  it('reports failures without failing when the gates asked for leave the suite out', async () => {
    const run = await runCheckIn(workDir(), [blind.url, '--conformance-scenario', 'ping', '--fail-on', 'high-risk']);
    expect(run.stdout).toMatch(/FAILED {2}ping/);
    expect(run.code).toBe(0);
  });

  it('refuses the conformance gate without the suite, and the suite for a stdio server, as usage errors', async () => {
    const gate = await runCheckIn(workDir(), [sdk.url, '--fail-on', 'conformance']);
    expect(gate.code).toBe(2);
    expect(gate.stderr).toMatch(/give --conformance/);
    const stdio = await runCheckIn(workDir(), ['--conformance', '--', 'node', 'server.js']);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr.split('\n')[0]).toMatch(/HTTP server URL/);
  });
});
