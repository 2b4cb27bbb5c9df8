// `mcp-atlas check` carries the quality score: in `--json` as `score` (the score package's whole result) and in
// the text report as the grade, the dimension checklist, the flags and what would raise it. Against real servers
// on loopback: the SDK's McpServer over Streamable HTTP, server-memory over stdio, and a port nobody listens on.
// The expected figures are worked out by hand from the score's published weights and points.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { gradeFor, roundHalfEven } from '@mcp-atlas/score';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckReport, CheckReportSchema } from '../src/check/report-schema.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';
import { type RunningServer, type SdkServerState, startSdkServer } from './fixtures/check-sdk-http.js';
import { memoryCommandLine } from './fixtures/check-servers.js';

const report = (stdout: string): CheckReport => CheckReportSchema.parse(JSON.parse(stdout));

// Security without a registry entry: no secret 20, streamable HTTP 12 (stdio 15), no credentials 15, neither a
// package nor a repository 3; out of 65 and truncated: 50 -> 76 over HTTP, 53 -> 81 over stdio.
const HTTP_SECURITY = 76;
const STDIO_SECURITY = 81;
// A loopback URL raises the engine's staging flag, which caps the composite at 55.
const STAGING_CAP = 55;

/** The composite by hand: standard weights over the scored categories, rounded half to even. */
function compositeOf(parts: { weight: number; score: number }[]): number {
  const total = parts.reduce((sum, p) => sum + p.weight, 0);
  return roundHalfEven(parts.reduce((sum, p) => sum + p.weight * p.score, 0) / total);
}

describe('check over Streamable HTTP (the SDK server on loopback)', () => {
  let server: RunningServer & { state: SdkServerState };
  beforeAll(async () => {
    server = await startSdkServer();
  });
  afterAll(() => server.close());

  it('--json carries the score: protocol, schema and security scored, reliability and docs pending', async () => {
    const run = await runCheckIn(makeWorkDir(), [server.url, '--json']);
    expect(run.code).toBe(0);
    const { score } = report(run.stdout);
    // Reachable, with a valid tool list: (100 + 100) / 2.
    expect(score.categories.protocol).toBe(100);
    expect(score.categories.security).toBe(HTTP_SECURITY);
    // One handshake is below the reliability minimum of probes; no repository was read.
    expect(score.categories.reliability).toBeNull();
    expect(score.categories.docsMaintenance).toBeNull();
    expect(score.categories.agentUsability).toBeNull();
    const schema = score.categories.schemaQuality as number;
    expect(schema).toBeGreaterThan(0);
    expect(score).toMatchObject({ dimensionsScored: 3, dimensionsApplicable: 5, visibilityLevel: 'limited' });
    const uncapped = compositeOf([
      { weight: 0.25, score: schema },
      { weight: 0.2, score: 100 },
      { weight: 0.2, score: HTTP_SECURITY },
    ]);
    expect(score.compositeScore).toBe(Math.min(STAGING_CAP, uncapped));
    expect(score.grade).toBe(gradeFor(score.compositeScore));
    expect(score.flags.map((f) => f.key)).toContain('STAGING_ARTIFACT');
  });

  it('--deep --i-own-this-server feeds error handling, fuzz and smoke into the protocol score', async () => {
    const run = await runCheckIn(makeWorkDir(), [server.url, '--json', '--deep', '--i-own-this-server'], {
      deepCallTimeoutMs: 30_000,
    });
    const r = report(run.stdout);
    const deep = r.deep!;
    expect(deep.skipped).toBeNull();
    const { errorHandling, fuzz, smoke } = deep.compliance.parts;
    const measured = [errorHandling, fuzz, smoke].filter((v): v is number => v !== null);
    expect(measured.length).toBeGreaterThan(0);
    // The fixture's only tool answers every call with an error, so its smoke call fails: the protocol score drops.
    expect(smoke).toBe(0);
    const expected = Math.min(
      100,
      Math.trunc((100 + 100 + measured.reduce((a, b) => a + b, 0)) / (2 + measured.length)),
    );
    expect(r.score.categories.protocol).toBe(expected);
    expect(expected).toBeLessThan(100);
  });

  it('the text report prints the grade, the dimension checklist, the flags and what would raise the score', async () => {
    const run = await runCheckIn(makeWorkDir(), [server.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\nscore (A\+|A|B|C|D|F) \(3\/5\), composite \d+, tier limited:\n/);
    expect(run.stdout).toMatch(/\n {2}reliability +pending\n/);
    expect(run.stdout).toMatch(/\n {2}docs and maintenance +pending\n/);
    expect(run.stdout).toMatch(new RegExp(`\\n {2}security +scored ${HTTP_SECURITY}\\n`));
    expect(run.stdout).toMatch(/\n {2}agent usability +not applicable\n/);
    expect(run.stdout).toMatch(/\nflags:\n( {2}.+\n)* {2}STAGING_ARTIFACT \(warning\): /);
    expect(run.stdout).toMatch(/\nwould raise the score most:\n {2}clear STAGING_ARTIFACT: \+\d+ \(to \d+\)\n/);
  });
});

describe('check of a server that does not answer', () => {
  it('is scored, not crashed: protocol 0 and security give a composite', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const run = await runCheckIn(makeWorkDir(), [`http://127.0.0.1:${port}/mcp`, '--json']);
    const r = report(run.stdout);
    expect(r.letter).toBe('d');
    expect(r.score.categories).toMatchObject({ protocol: 0, schemaQuality: null, security: HTTP_SECURITY });
    // (0 * 0.2 + 76 * 0.2) / 0.4 = 38: under the staging cap, an F.
    expect(r.score).toMatchObject({ compositeScore: 38, grade: 'F', dimensionsScored: 2, visibilityLevel: 'limited' });
  });
});

describe('check over stdio (server-memory)', () => {
  it('scores a local server: protocol from its own session, reliability not applicable, no staging flag', async () => {
    const dir = makeWorkDir();
    const run = await runCheckIn(dir, ['--json', '--', ...memoryCommandLine(join(dir, 'memory.jsonl'))]);
    expect(run.code).toBe(0);
    const { score } = report(run.stdout);
    expect(score.categories.security).toBe(STDIO_SECURITY);
    expect(score.categories.protocol).toBe(100);
    expect(score.categories.reliability).toBeNull();
    // Schema quality, protocol (the session this check ran), docs and maintenance, security.
    expect(score).toMatchObject({ dimensionsScored: 3, dimensionsApplicable: 4, visibilityLevel: 'limited' });
    expect(score.flags.map((f) => f.key)).not.toContain('STAGING_ARTIFACT');
    const schema = score.categories.schemaQuality as number;
    expect(score.compositeScore).toBe(
      compositeOf([
        { weight: 0.25, score: schema },
        { weight: 0.2, score: 100 },
        { weight: 0.2, score: STDIO_SECURITY },
      ]),
    );
  });
});
