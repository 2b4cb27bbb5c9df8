// `check --published-url URL` scores a local build as the server it will be once deployed: the score reads the
// published URL as the remote endpoint (over stdio too), and the report names the flags of the check as made
// that this score leaves out, such as the staging flag a loopback address raises. Against real servers: the SDK's
// McpServer over Streamable HTTP on loopback, and server-memory over stdio. Figures worked out by hand from the
// score's weights, as in check-score.test.ts.
import { join } from 'node:path';
import { gradeFor, roundHalfEven } from '@mcp-atlas/score';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckReport, CheckReportSchema } from '../src/check/report-schema.js';
import { makeWorkDir, runCheckIn } from './fixtures/check-run.js';
import { type RunningServer, type SdkServerState, startSdkServer } from './fixtures/check-sdk-http.js';
import { memoryCommandLine } from './fixtures/check-servers.js';

const report = (stdout: string): CheckReport => CheckReportSchema.parse(JSON.parse(stdout));

// Security of a remote without a registry entry: no secret 20, streamable HTTP 12, no credentials 15, neither a
// package nor a repository 3: 50 of 65, truncated to 76.
const REMOTE_SECURITY = 76;
// A URL that matches none of the engine's staging patterns.
const PUBLISHED = 'https://mcp.weather-co.net/mcp';

/** Schema quality, protocol 100 and remote security under the standard weights, rounded half to even. */
function uncappedComposite(schema: number): number {
  return roundHalfEven((0.25 * schema + 0.2 * 100 + 0.2 * REMOTE_SECURITY) / 0.65);
}

describe('check --published-url over Streamable HTTP on loopback', () => {
  let server: RunningServer & { state: SdkServerState };
  beforeAll(async () => {
    server = await startSdkServer();
  });
  afterAll(() => server.close());

  it('scores at the published URL and names the staging flag of the loopback address as left out', async () => {
    const run = await runCheckIn(makeWorkDir(), [server.url, '--json', '--published-url', PUBLISHED]);
    expect(run.code).toBe(0);
    const r = report(run.stdout);
    const schema = r.score.categories.schemaQuality as number;
    expect(r.score.flags.map((f) => f.key)).not.toContain('STAGING_ARTIFACT');
    expect(r.score.compositeScore).toBe(uncappedComposite(schema));
    expect(r.score.compositeScore).toBeGreaterThan(55);
    expect(r.score.grade).toBe(gradeFor(r.score.compositeScore));
    expect(r.published).toEqual({
      url: PUBLISHED,
      localFlagsLeftOut: [{ key: 'STAGING_ARTIFACT', label: 'Staging Endpoint' }],
    });
  });

  it('says so in the text report, and no longer advises clearing the staging flag', async () => {
    const run = await runCheckIn(makeWorkDir(), [server.url, '--published-url', PUBLISHED]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`scored as if reached at ${PUBLISHED}`);
    expect(run.stdout).toContain('left out, as they come from the local check: STAGING_ARTIFACT (Staging Endpoint)');
    expect(run.stdout).not.toContain('clear STAGING_ARTIFACT');
  });

  it('without the option the report has no published block and keeps the staging cap', async () => {
    const r = report((await runCheckIn(makeWorkDir(), [server.url, '--json'])).stdout);
    expect(r.published).toBeNull();
    expect(r.score.flags.map((f) => f.key)).toContain('STAGING_ARTIFACT');
  });
});

describe('check --published-url over stdio (server-memory)', () => {
  it('scores the local build as a remote at the URL: remote security, reliability applicable', async () => {
    const dir = makeWorkDir();
    const run = await runCheckIn(dir, [
      '--json',
      '--published-url',
      PUBLISHED,
      '--',
      ...memoryCommandLine(join(dir, 'memory.jsonl')),
    ]);
    expect(run.code).toBe(0);
    const r = report(run.stdout);
    expect(r.score.categories.security).toBe(REMOTE_SECURITY);
    // A remote: reliability applies (pending after one check), so five dimensions apply, as on a server page.
    expect(r.score).toMatchObject({ dimensionsScored: 3, dimensionsApplicable: 5, visibilityLevel: 'limited' });
    expect(r.score.compositeScore).toBe(uncappedComposite(r.score.categories.schemaQuality as number));
    // Over stdio the check as made has no address, so it raised no flag the published score leaves out.
    expect(r.published).toEqual({ url: PUBLISHED, localFlagsLeftOut: [] });
  });

  it('gives https://mcp.example.com its own score: example.com is one of the engine staging patterns', async () => {
    const dir = makeWorkDir();
    const url = 'https://mcp.example.com';
    const run = await runCheckIn(dir, [
      '--json',
      '--published-url',
      url,
      '--',
      ...memoryCommandLine(join(dir, 'm.jsonl')),
    ]);
    expect(run.code).toBe(0);
    const r = report(run.stdout);
    expect(r.published).toEqual({ url, localFlagsLeftOut: [] });
    expect(r.score.flags.map((f) => f.key)).toContain('STAGING_ARTIFACT');
    expect(r.score.compositeScore).toBe(Math.min(55, uncappedComposite(r.score.categories.schemaQuality as number)));
  });
});

describe('check --published-url with a bad value', () => {
  it('is a usage error with one clear line, and checks nothing', async () => {
    for (const [value, words] of [
      ['not a url', 'must be an absolute URL'],
      ['ftp://files.weather-co.net/', 'must be http or https, got ftp'],
      ['https://alice:pw@mcp.weather-co.net/', 'must not carry a user name or password'],
    ] as const) {
      const run = await runCheckIn(makeWorkDir(), ['http://127.0.0.1:9/mcp', '--published-url', value]);
      expect(run.code, value).toBe(2);
      expect(run.stderr, value).toContain(words);
      expect(run.stderr).not.toContain('pw@');
    }
  });
});
