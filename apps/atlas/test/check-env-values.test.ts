// `check --env NAME=VALUE` (the habit from Docker and the MCP Inspector) hands the server that value, `--env NAME`
// still reads check's own environment, and no value, nor an entry that is not a name, ever appears in a message,
// the report (text and JSON), the SARIF file or the lock file.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { type CheckRun, makeWorkDir, runCheckIn } from './fixtures/check-run.js';

const secretServer = fileURLToPath(new URL('./fixtures/check-stdio-secret.mjs', import.meta.url));
const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
const freshSecret = (): string => `sk-live-${randomBytes(12).toString('hex')}`;
const folders: string[] = [];

function workDir(): string {
  const dir = makeWorkDir();
  folders.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** No written form of `secret` in any output of the runs, nor in the files. */
function expectNoSecret(secret: string, runs: readonly CheckRun[], files: readonly string[] = []): void {
  const forms = [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')];
  const outputs = [...runs.flatMap((run) => [run.stdout, run.stderr]), ...files.map((f) => readFileSync(f, 'utf8'))];
  for (const output of outputs) for (const form of forms) expect(output.includes(form), form).toBe(false);
}

describe('--env NAME=VALUE', () => {
  it('passes the value to the stdio server (it starts only with it) and no output holds it', async () => {
    const dir = workDir();
    const secret = freshSecret();
    const command = ['--', process.execPath, secretServer, `SECRET_TOKEN=${sha256(secret)}`];
    const json = await runCheckIn(
      dir,
      ['--json', '--sarif', 'a.sarif', '--update-baseline', '--env', `SECRET_TOKEN=${secret}`, ...command],
      { environment: {} },
    );
    expect(json.code).toBe(0);
    const report = CheckReportSchema.parse(JSON.parse(json.stdout));
    expect(report.letter).toBe('o');
    expect(report.access.env).toEqual(['SECRET_TOKEN']);
    const text = await runCheckIn(
      dir,
      [`--env=SECRET_TOKEN=${secret}`, '--baseline', 'mcp-atlas.lock.json', ...command],
      {
        environment: {},
      },
    );
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('letter o');
    expect(text.stdout).toContain('env SECRET_TOKEN');
    expectNoSecret(secret, [json, text], [join(dir, 'a.sarif'), join(dir, 'mcp-atlas.lock.json')]);
  });

  it("keeps --env NAME working: the value comes from check's own environment", async () => {
    const secret = freshSecret();
    const run = await runCheckIn(
      workDir(),
      ['--env', 'SECRET_TOKEN', '--', process.execPath, secretServer, `SECRET_TOKEN=${sha256(secret)}`],
      { environment: { SECRET_TOKEN: secret } },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('letter o');
    expect(run.stdout).toContain('env SECRET_TOKEN');
    expectNoSecret(secret, [run]);
  });

  it('refuses a bad entry with a usage error that quotes no value', async () => {
    const secret = freshSecret();
    const stdio = ['--', 'node', 'server.js'];
    const refused = await Promise.all(
      [
        ['--env', secret, ...stdio], // the value alone, with no name
        ['--env', `SECRET-TOKEN=${secret}`, ...stdio], // a name no shell takes
        ['--env', `1TOKEN=${secret}`, ...stdio],
        ['--env', `SECRET_TOKEN=${secret}\0`, ...stdio], // the system refuses a NUL, and Node would quote it
        ['--env', 'HOME', `--env=SECRET-TOKEN=${secret}`, ...stdio],
        ['http://127.0.0.1:9/mcp', '--env', `SECRET_TOKEN=${secret}`], // --env on a URL
      ].map((args) => {
        // A HOME inside the run's own folder, so that `--env HOME` names a variable that is set.
        const dir = workDir();
        return runCheckIn(dir, args, { environment: { HOME: dir } });
      }),
    );
    for (const run of refused) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^mcp-atlas check: --env /);
    }
    expect(refused[0]?.stderr).toContain('--env number 1 is neither NAME nor NAME=VALUE');
    expect(refused[3]?.stderr).toContain('--env SECRET_TOKEN: the value may not hold a NUL character');
    expect(refused[4]?.stderr).toContain('--env number 2 is neither NAME nor NAME=VALUE');
    expect(refused[5]?.stderr).toContain('--env is for a stdio server');
    expectNoSecret(secret, refused);
  });
});
