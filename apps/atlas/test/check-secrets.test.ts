// No secret leaves `mcp-atlas check`: known random values passed through --env, through NAME=value in the stdio
// command, in a URL's user info and query, and in a --header reach the server (it refuses to work without them),
// and then appear in no output: stdout (JSON and text), stderr, the SARIF file, the lock file.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { type CheckRun, makeWorkDir, runCheckIn } from './fixtures/check-run.js';
import { type RunningServer, type SdkServerState, startSdkServer } from './fixtures/check-sdk-http.js';

const secretServer = fileURLToPath(new URL('./fixtures/check-stdio-secret.mjs', import.meta.url));
const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
const fresh = (): string => randomBytes(12).toString('hex');

/** Every written form of the secrets, and every output of the runs, then no form in any output. */
function expectNoSecret(secrets: readonly string[], runs: readonly CheckRun[], files: readonly string[]): void {
  const forms = secrets.flatMap((s) => [s, encodeURIComponent(s), Buffer.from(s).toString('base64')]);
  const outputs = [...runs.flatMap((run) => [run.stdout, run.stderr]), ...files.map((f) => readFileSync(f, 'utf8'))];
  for (const output of outputs) for (const form of forms) expect(output.includes(form), form).toBe(false);
}

describe('a stdio server given secrets through --env and NAME=value', () => {
  it('starts with them (letter o, deep calls and prompts read) and no output holds them', async () => {
    const dir = makeWorkDir();
    const viaEnv = fresh();
    const inCommand = fresh();
    const command = [
      '--',
      'env',
      `OTHER_TOKEN=${inCommand}`,
      process.execPath,
      secretServer,
      `SERVICE_TOKEN=${sha256(viaEnv)}`,
      `OTHER_TOKEN=${sha256(inCommand)}`,
    ];
    const environment = { SERVICE_TOKEN: viaEnv };
    const json = await runCheckIn(
      dir,
      [
        '--json',
        '--sarif',
        'a.sarif',
        '--update-baseline',
        '--list-all',
        '--deep',
        '--env',
        'SERVICE_TOKEN',
        ...command,
      ],
      { environment, deepCallTimeoutMs: 30_000 },
    );
    const report = CheckReportSchema.parse(JSON.parse(json.stdout));
    expect(report.letter).toBe('o');
    expect(report.access.env).toEqual(['SERVICE_TOKEN']);
    expect(report.target).toContain('env OTHER_TOKEN=*** ');
    expect(report.deep?.smoke.map((c) => [c.tool, c.outcome])).toEqual([['whoami', 'accepted']]);
    expect(report.listAll?.prompts.entries.map((e) => e.key)).toEqual(['greet']);
    const text = await runCheckIn(
      dir,
      ['--fail-on', 'high-risk', '--baseline', 'mcp-atlas.lock.json', '--env', 'SERVICE_TOKEN', ...command],
      { environment },
    );
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('env SERVICE_TOKEN');
    expectNoSecret([viaEnv, inCommand], [json, text], [join(dir, 'a.sarif'), join(dir, 'mcp-atlas.lock.json')]);
  });

  it('without the --env variable the server refuses to start: the secret really is what made it work', async () => {
    const value = fresh();
    const run = await runCheckIn(makeWorkDir(), [
      '--json',
      '--',
      process.execPath,
      secretServer,
      `SERVICE_TOKEN=${sha256(value)}`,
    ]);
    expect(CheckReportSchema.parse(JSON.parse(run.stdout)).letter).toBe('d');
  });

  it('--env naming an unset variable is a usage error, and --env on a URL is refused', async () => {
    const unset = await runCheckIn(makeWorkDir(), ['--env', 'NOT_SET_ANYWHERE_42', '--', 'node', 'x.js'], {
      environment: {},
    });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('--env NOT_SET_ANYWHERE_42: the variable is not set');
    const onUrl = await runCheckIn(makeWorkDir(), ['http://127.0.0.1:9/mcp', '--env', 'HOME']);
    expect(onUrl.code).toBe(2);
    expect(onUrl.stderr).toContain('--env is for a stdio server');
  });
});

describe('an HTTP server behind a header, Basic sign-in in the URL and a token in the query', () => {
  const header = fresh();
  const password = fresh();
  const query = fresh();
  let server: RunningServer & { state: SdkServerState };
  beforeAll(async () => {
    server = await startSdkServer({
      requireHeaders: {
        'x-api-token': header,
        authorization: `Basic ${Buffer.from(`ci:${password}`).toString('base64')}`,
      },
      requireQuery: { access_token: query },
      // The server writes the header's value into a tool description: the scrubber must catch an echo too.
      echoHeader: 'x-api-token',
    });
  });
  afterAll(() => server.close());

  it('reaches the server with all three (handshake, --list-all and deep sessions) and no output holds them', async () => {
    const dir = makeWorkDir();
    const port = server.port;
    const url = `http://ci:${password}@127.0.0.1:${port}/mcp?access_token=${query}&lang=en`;
    const args = [url, '--header', `X-Api-Token: ${header}`, '--list-all'];
    const json = await runCheckIn(dir, [...args, '--json', '--deep', '--sarif', 's.sarif', '--update-baseline'], {
      deepCallTimeoutMs: 30_000,
    });
    const report = CheckReportSchema.parse(JSON.parse(json.stdout));
    expect(report.letter).toBe('o');
    expect(report.target).toBe(`http://***:***@127.0.0.1:${port}/mcp?access_token=***&lang=en`);
    expect(report.access.headers).toEqual(['X-Api-Token: ***']);
    expect(report.listAll?.resources.entries.map((e) => e.key)).toEqual(['note://welcome']);
    expect(report.deep?.errorHandling[0]).toMatchObject({ kind: 'unknown-tool', outcome: 'proper-error' });
    // Every request the server saw carried the header (a request without it would have been refused with 401).
    expect(server.seen.length).toBeGreaterThan(5);
    const text = await runCheckIn(dir, [...args, '--baseline', 'mcp-atlas.lock.json', '--fail-on', 'finding:slow']);
    expect(text.stdout).toContain('header X-Api-Token: ***');
    const lock = readFileSync(join(dir, 'mcp-atlas.lock.json'), 'utf8');
    expect(lock).toContain('(caller ***)');
    expectNoSecret(
      [header, password, query, `ci:${password}`],
      [json, text],
      [join(dir, 's.sarif'), join(dir, 'mcp-atlas.lock.json')],
    );
  });

  it('without the header the server asks for sign-in (letter a): the header is what opened it', async () => {
    const url = `http://ci:${password}@127.0.0.1:${server.port}/mcp?access_token=${query}`;
    const run = await runCheckIn(makeWorkDir(), [url, '--json']);
    expect(CheckReportSchema.parse(JSON.parse(run.stdout)).letter).toBe('a');
    expectNoSecret([password, query], [run], []);
  });

  it('a usage error does not echo a URL that holds a secret', async () => {
    const run = await runCheckIn(makeWorkDir(), [`ftp://ci:${password}@127.0.0.1/x?token=${query}`]);
    expect(run.code).toBe(2);
    expectNoSecret([password, query], [run], []);
  });

  it('a header without a colon, or with a line break, is a usage error that does not echo the value', async () => {
    const bad = await runCheckIn(makeWorkDir(), [server.url, '--header', `Bearer ${header}`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--header must look like "Name: value"');
    expectNoSecret([header], [bad], []);
  });

  it('a header the HTTP layer owns (Host) is a usage error, before anything is sent', async () => {
    const seen = server.seen.length;
    const host = await runCheckIn(makeWorkDir(), [server.url, '--header', `Host: ${header}.example`]);
    expect(host.code).toBe(2);
    expect(host.stderr).toContain('headers: "host" is not a header a check may set');
    expect(server.seen.length).toBe(seen);
    expectNoSecret([header], [host], []);
  });
});
