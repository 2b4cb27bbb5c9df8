// `check --env NAME=VALUE` (the habit from Docker and the MCP Inspector) hands the server that value, `--env NAME`
// still reads check's own environment, and no value, nor an entry that is not a name, ever appears in a message,
// the report (text and JSON), the SARIF file or the lock file.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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

describe('-e NAME=VALUE, the short form', () => {
  it('passes the value as --env does, attached or apart, and never prints it', async () => {
    const dir = workDir();
    const secret = freshSecret();
    const command = ['--', process.execPath, secretServer, `SECRET_TOKEN=${sha256(secret)}`];
    const apart = await runCheckIn(dir, ['--sarif', 'a.sarif', '-e', `SECRET_TOKEN=${secret}`, ...command], {
      environment: {},
    });
    expect(apart.code).toBe(0);
    expect(apart.stdout).toContain('letter o');
    expect(apart.stdout).toContain('env SECRET_TOKEN');
    const attached = await runCheckIn(dir, ['--json', `-eSECRET_TOKEN=${secret}`, ...command], { environment: {} });
    expect(CheckReportSchema.parse(JSON.parse(attached.stdout)).letter).toBe('o');
    // A wrong value: the server exits, the check fails, and the message quotes nothing of the value.
    const wrong = await runCheckIn(dir, ['-e', `SECRET_TOKEN=${secret}x`, ...command], { environment: {} });
    expect(wrong.code).toBe(1);
    expectNoSecret(secret, [apart, attached, wrong], [join(dir, 'a.sarif')]);
  });
});

describe('--config FILE --server NAME', () => {
  /** A client configuration holding the secret server (with its env) and a remote entry. */
  function writeConfig(dir: string, secret: string): void {
    const config = {
      mcpServers: {
        secret: {
          command: process.execPath,
          args: [secretServer, `SECRET_TOKEN=${sha256(secret)}`],
          env: { SECRET_TOKEN: secret },
        },
        remote: { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer x' } },
      },
    };
    writeFileSync(join(dir, 'mcp.json'), JSON.stringify(config));
  }

  it('checks the named server with the env the file gives it, and prints none of it', async () => {
    const dir = workDir();
    const secret = freshSecret();
    writeConfig(dir, secret);
    const run = await runCheckIn(dir, ['--json', '--config', 'mcp.json', '--server', 'secret'], { environment: {} });
    expect(run.code).toBe(0);
    const report = CheckReportSchema.parse(JSON.parse(run.stdout));
    expect(report).toMatchObject({ letter: 'o', transport: 'stdio' });
    expect(report.access.env).toEqual(['SECRET_TOKEN']);
    expectNoSecret(secret, [run]);
  });

  it('refuses a missing name, several servers without --server, and a target given twice: exit 2', async () => {
    const dir = workDir();
    const secret = freshSecret();
    writeConfig(dir, secret);
    const cases: [string[], string][] = [
      [['--config', 'mcp.json', '--server', 'nope'], 'mcp.json has no server "nope"; it names secret, remote'],
      [['--config', 'mcp.json'], 'names 2 servers (secret, remote): pick one with --server NAME'],
      [['--config', 'missing.json'], 'cannot read --config missing.json: ENOENT'],
      [['--server', 'secret'], '--server NAME picks a server of --config FILE'],
      [['http://127.0.0.1:9/mcp', '--config', 'mcp.json', '--server', 'remote'], 'only one of them'],
    ];
    for (const [args, message] of cases) {
      const run = await runCheckIn(dir, args, { environment: {} });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
    }
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ mcpServers: { a: { command: 3 } } }));
    const bad = await runCheckIn(dir, ['--config', 'bad.json'], { environment: {} });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('look at mcpServers.a.command');
  });
});

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
