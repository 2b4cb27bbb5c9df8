// The composite GitHub Action (apps/atlas/action/action.yml): its shape, and its check step's script run
// with bash against a stand-in `npx` (and `node` for from-source) that records the arguments, prints a
// stand-in report and exits with a chosen code, so the test shows which command line each set of inputs gives,
// where the JSON report goes and that the exit code reaches the step output. The job summary script
// (action/summary.mjs) is run on the JSON report of a real check of a real stdio server.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckReportSchema } from '../src/check/report-schema.js';
import { runCheckIn } from './fixtures/check-run.js';

const require = createRequire(import.meta.url);
const { load } = require('js-yaml') as { load(text: string): unknown };

interface Step {
  id?: string;
  uses?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  name: string;
  inputs: Record<string, { default: string; description: string }>;
  outputs: Record<string, { value: string; description: string }>;
  runs: { using: string; steps: Step[] };
}

const actionFile = fileURLToPath(new URL('../action/action.yml', import.meta.url));
const summaryScript = fileURLToPath(new URL('../action/summary.mjs', import.meta.url));
const actionText = readFileSync(actionFile, 'utf8');
const action = load(actionText) as Action;
const checkStep = action.runs.steps.find((step) => step.id === 'check') as Step;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function makeFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

interface StepRun {
  /** The stand-in that ran (`npx` or `node`) and its arguments, one per entry; empty when none ran. */
  argv: string[];
  /** The step's outputs as name -> value. */
  outputs: Record<string, string>;
  status: number | null;
  stdout: string;
  dir: string;
}

/**
 * Runs the check step's script with bash. `appVersion` is the version in the package.json next to the action
 * folder (the app's, in the real repository).
 */
function runStep(inputs: Record<string, string>, exitCode: number, appVersion = '0.4.2', installExitCode = 0): StepRun {
  const dir = makeFolder('atlas-action-');
  const work = join(dir, 'workspace');
  mkdirSync(work);
  mkdirSync(join(dir, 'action'));
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: '@mcp-atlas/cli', version: appVersion, type: 'module' }, null, 2)}\n`,
  );
  // Stand-ins for npx and node: each records its arguments (first line: which one ran), prints a stand-in
  // report on stdout and exits with exitCode. The install probe (`… mcp-atlas --version`) records nothing and
  // exits with installExitCode.
  for (const program of ['npx', 'node']) {
    writeFileSync(
      join(dir, program),
      `#!/usr/bin/env bash\nif [[ "\${@: -1}" == "--version" ]]; then echo 0.4.2; exit ${installExitCode}; fi\n` +
        `{ echo ${program}; printf '%s\\n' "$@"; } > "${dir}/argv"\n` +
        `echo '{"stand-in": "${program}"}'\nexit ${exitCode}\n`,
    );
    chmodSync(join(dir, program), 0o755);
  }
  writeFileSync(join(dir, 'step.sh'), checkStep.run as string);
  const env: Record<string, string> = {
    PATH: `${dir}:${process.env.PATH ?? ''}`,
    GITHUB_OUTPUT: join(dir, 'output'),
    ACTION_ROOT: join(dir, 'action'),
  };
  for (const [name, input] of Object.entries(inputs)) env[name] = input;
  const result = spawnSync('bash', ['-e', join(dir, 'step.sh')], { env, cwd: work, encoding: 'utf8' });
  const argvFile = join(dir, 'argv');
  const outputs: Record<string, string> = {};
  for (const line of readFileSync(join(dir, 'output'), 'utf8').split('\n').filter(Boolean)) {
    const at = line.indexOf('=');
    outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return {
    argv: existsSync(argvFile) ? readFileSync(argvFile, 'utf8').trimEnd().split('\n') : [],
    outputs,
    status: result.status,
    stdout: result.stdout,
    dir,
  };
}

const defaults = {
  INPUT_URL: '',
  INPUT_COMMAND: '',
  INPUT_BASELINE: '',
  INPUT_UPDATE_BASELINE: 'false',
  INPUT_FAIL_ON: 'not-answering',
  INPUT_DEEP: 'false',
  INPUT_OWN: 'false',
  INPUT_SARIF: 'mcp-atlas.sarif',
  INPUT_REPORT_JSON: 'mcp-atlas-report.json',
  INPUT_VERSION: '',
  INPUT_FROM_SOURCE: 'false',
  INPUT_ENV: '',
  INPUT_HEADER: '',
  INPUT_TIMEOUT: '',
  INPUT_LIST_ALL: 'false',
  INPUT_UPLOAD_SARIF: 'true',
  PR_HEAD_REPO: '',
  REPOSITORY: 'acme/notes',
  ACTOR: 'someone',
};

const SHA_PINNED = /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/;

describe('the composite action', () => {
  it('is composite: node, the build from source when asked, the check, the summary, the SARIF upload, then the exit code', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.map((s) => s.uses?.replace(/@.*$/, '') ?? s.id ?? 'run')).toEqual([
      'actions/setup-node',
      'run',
      'check',
      'run',
      'github/codeql-action/upload-sarif',
      'run',
    ]);
    expect(action.runs.steps[1]?.if).toContain("inputs.from-source == 'true'");
    expect(action.runs.steps[3]?.run).toContain('summary.mjs');
    expect(action.runs.steps[3]?.if).toContain('always()');
    expect(action.runs.steps[4]?.if).toContain('always()');
    expect(action.inputs['fail-on']?.default).toBe('not-answering');
    expect(action.inputs['update-baseline']?.default).toBe('false');
    expect(action.inputs['report-json']?.default).toBe('mcp-atlas-report.json');
    expect(action.inputs.version?.default).toBe('');
    expect(action.outputs['report-json']?.value).toContain('steps.check.outputs.report-json');
    expect(action.outputs['report-json']?.description).toContain('PATH');
    // Every input the steps read comes in through env, none is pasted into a script.
    for (const step of action.runs.steps) if (step.run) expect(step.run).not.toContain('${{');
    expect(() => execFileSync('bash', ['-n', '-c', checkStep.run as string])).not.toThrow();
  });

  it('pins every third-party action by commit SHA with the version in a comment, and never uses Corepack', () => {
    const uses = action.runs.steps.flatMap((step) => (step.uses ? [step.uses] : []));
    expect(uses.length).toBe(2);
    for (const use of uses) {
      expect(use).toMatch(SHA_PINNED);
      expect(actionText).toMatch(new RegExp(`${use.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} # v\\d+\\.\\d+\\.\\d+`));
    }
    for (const step of action.runs.steps) expect(step.run ?? '').not.toMatch(/corepack/i);
    expect(action.runs.steps[1]?.run).toContain('npx --yes pnpm@10 install --frozen-lockfile');
    expect(action.runs.steps[1]?.run).toContain('--filter=@mcp-atlas/cli...');
  });

  it('runs the published @mcp-atlas/cli at the version released with the action, for a URL with a baseline, gates and deep mode', () => {
    const run = runStep(
      {
        ...defaults,
        INPUT_URL: 'http://127.0.0.1:3000/mcp',
        INPUT_BASELINE: 'mcp-atlas.lock.json',
        INPUT_FAIL_ON: 'risk-rise,change',
        INPUT_DEEP: 'true',
      },
      0,
    );
    expect(run.argv).toEqual([
      'npx',
      '--yes',
      '--package=@mcp-atlas/cli@0.4.2',
      '--',
      'mcp-atlas',
      'check',
      '--json',
      'http://127.0.0.1:3000/mcp',
      '--sarif',
      'mcp-atlas.sarif',
      '--fail-on',
      'risk-rise,change',
      '--baseline',
      'mcp-atlas.lock.json',
      '--deep',
    ]);
    expect(run.outputs).toEqual({ 'report-json': 'mcp-atlas-report.json', 'upload-sarif': 'true', 'exit-code': '0' });
    expect(run.status).toBe(0);
  });

  it('writes the JSON report (check’s stdout) to report-json and names that path in the output', () => {
    const run = runStep({ ...defaults, INPUT_URL: 'http://127.0.0.1:3000/mcp', INPUT_REPORT_JSON: 'out/r.json' }, 0);
    // The folder does not exist: the redirection fails, and the step says so through a non-zero exit code.
    expect(run.outputs['exit-code']).not.toBe('0');
    const again = runStep({ ...defaults, INPUT_URL: 'http://127.0.0.1:3000/mcp', INPUT_REPORT_JSON: 'report.json' }, 1);
    expect(again.outputs).toEqual({ 'report-json': 'report.json', 'upload-sarif': 'true', 'exit-code': '1' });
    expect(JSON.parse(readFileSync(join(again.dir, 'workspace', 'report.json'), 'utf8'))).toEqual({
      'stand-in': 'npx',
    });
  });

  it('with update-baseline, asks check to write the baseline', () => {
    const run = runStep({ ...defaults, INPUT_URL: 'http://127.0.0.1:3000/mcp', INPUT_UPDATE_BASELINE: 'true' }, 0);
    expect(run.argv).toContain('--update-baseline');
    expect(run.argv).not.toContain('--baseline');
    const withFile = runStep(
      {
        ...defaults,
        INPUT_URL: 'http://127.0.0.1:3000/mcp',
        INPUT_UPDATE_BASELINE: 'true',
        INPUT_BASELINE: 'a.lock.json',
      },
      0,
    );
    expect(withFile.argv.slice(-3)).toEqual(['--baseline', 'a.lock.json', '--update-baseline']);
  });

  it('takes the stdio command one argument per line: spaces and shell characters stay inside their argument', () => {
    const command = 'node\n  dist/server.js  \n\n--name=my notes\n$(touch pwned); echo "x"\r\n';
    const run = runStep({ ...defaults, INPUT_COMMAND: command, INPUT_VERSION: '0.1.0' }, 1);
    expect(run.argv).toEqual([
      'npx',
      '--yes',
      '--package=@mcp-atlas/cli@0.1.0',
      '--',
      'mcp-atlas',
      'check',
      '--json',
      '--sarif',
      'mcp-atlas.sarif',
      '--fail-on',
      'not-answering',
      '--',
      'node',
      'dist/server.js',
      '--name=my notes',
      '$(touch pwned); echo "x"',
    ]);
    expect(existsSync(join(run.dir, 'workspace', 'pwned'))).toBe(false);
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.status).toBe(0);
  });

  it('refuses a one-line command with spaces (the old space-split form) as a usage error, running nothing', () => {
    const run = runStep({ ...defaults, INPUT_COMMAND: 'node dist/server.js --stdio' }, 0);
    expect(run.argv).toEqual([]);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.stdout).toContain('::error title=mcp-atlas check::command takes one argument per line');
    // A one-word command is fine.
    expect(runStep({ ...defaults, INPUT_COMMAND: './server' }, 0).argv.slice(-2)).toEqual(['--', './server']);
  });

  it('refuses to guess a version when this copy of the action is not a release (0.0.0) and none is given', () => {
    const run = runStep({ ...defaults, INPUT_URL: 'http://127.0.0.1:3000/mcp' }, 0, '0.0.0');
    expect(run.argv).toEqual([]);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.stdout).toContain('is not a released version of @mcp-atlas/cli');
    const pinned = runStep({ ...defaults, INPUT_URL: 'http://127.0.0.1:3000/mcp', INPUT_VERSION: '0.2.0' }, 0, '0.0.0');
    expect(pinned.argv[2]).toBe('--package=@mcp-atlas/cli@0.2.0');
  });

  it('passes a URL with shell characters through as one argument', () => {
    const run = runStep({ ...defaults, INPUT_URL: 'http://127.0.0.1:1/mcp?a=1&b=$(touch x)', INPUT_OWN: 'true' }, 2);
    expect(run.argv.slice(5, 8)).toEqual(['check', '--json', 'http://127.0.0.1:1/mcp?a=1&b=$(touch x)']);
    expect(run.argv).toContain('--i-own-this-server');
    expect(run.outputs['exit-code']).toBe('2');
  });

  it('uploads SARIF only where the token can write it, and a refused upload never fails the job', () => {
    const upload = action.runs.steps[4] as Step & { 'continue-on-error'?: boolean };
    expect(upload.if).toContain("steps.check.outputs.upload-sarif == 'true'");
    expect(upload['continue-on-error']).toBe(true);
    const url = { ...defaults, INPUT_URL: 'http://127.0.0.1:3000/mcp' };
    // A pull request from a fork: a read-only token, so no upload, and a notice saying why.
    const fork = runStep({ ...url, PR_HEAD_REPO: 'someone/notes', REPOSITORY: 'acme/notes' }, 0);
    expect(fork.outputs['upload-sarif']).toBe('false');
    expect(fork.stdout).toContain('::notice title=mcp-atlas check::a pull request from a fork gets a read-only token');
    expect(fork.argv).toContain('--sarif');
    // A pull request from a branch of the same repository, and a push, upload.
    expect(runStep({ ...url, PR_HEAD_REPO: 'acme/notes' }, 0).outputs['upload-sarif']).toBe('true');
    expect(runStep(url, 1).outputs['upload-sarif']).toBe('true');
    const dependabot = runStep({ ...url, ACTOR: 'dependabot[bot]' }, 0);
    expect(dependabot.outputs['upload-sarif']).toBe('false');
    expect(dependabot.stdout).toContain('a Dependabot run gets a read-only token');
    expect(runStep({ ...url, INPUT_UPLOAD_SARIF: 'false' }, 0).outputs['upload-sarif']).toBe('false');
  });

  it('passes env and header lines, the timeout and list-all on to check, each line one argument', () => {
    const stdio = runStep(
      {
        ...defaults,
        INPUT_COMMAND: 'node\nserver.js',
        INPUT_ENV: 'API_KEY=a b $(touch x)\n\n  HOME  \n',
        INPUT_TIMEOUT: '5000',
        INPUT_LIST_ALL: 'true',
        INPUT_VERSION: '0.1.0',
      },
      0,
    );
    expect(stdio.argv.slice(5)).toEqual([
      'check',
      '--json',
      '--sarif',
      'mcp-atlas.sarif',
      '--fail-on',
      'not-answering',
      '--list-all',
      '--timeout',
      '5000',
      '--env',
      'API_KEY=a b $(touch x)',
      '--env',
      'HOME',
      '--',
      'node',
      'server.js',
    ]);
    expect(existsSync(join(stdio.dir, 'workspace', 'x'))).toBe(false);
    const http = runStep(
      { ...defaults, INPUT_URL: 'https://mcp.example.com/mcp', INPUT_HEADER: 'Authorization: Bearer t0k\nX-Team: a' },
      0,
    );
    expect(http.argv.slice(-4)).toEqual(['--header', 'Authorization: Bearer t0k', '--header', 'X-Team: a']);
  });

  it('reports a failed install as exit code 3 with its own message, never as a tripped gate', () => {
    const run = runStep({ ...defaults, INPUT_URL: 'http://127.0.0.1:3000/mcp' }, 0, '0.4.2', 1);
    expect(run.argv).toEqual([]);
    expect(run.outputs['exit-code']).toBe('3');
    expect(run.stdout).toContain('::error title=mcp-atlas check::installing @mcp-atlas/cli@0.4.2 from npm failed');
    const last = action.runs.steps[5]?.run ?? '';
    expect(last).toContain('3: mcp-atlas could not be installed');
    expect(action.outputs['exit-code']?.description).toContain('3 mcp-atlas could not be installed');
  });

  it('with from-source, runs the built CLI of the action checkout instead of npx', () => {
    const run = runStep({ ...defaults, INPUT_URL: 'http://127.0.0.1:3000/mcp', INPUT_FROM_SOURCE: 'true' }, 0, '0.0.0');
    expect(run.argv.slice(0, 5)).toEqual([
      'node',
      `${run.dir}/action/../dist/cli.js`,
      'check',
      '--json',
      'http://127.0.0.1:3000/mcp',
    ]);
  });
});

// A stdio server with one read-only and one destructive tool, and a server name full of Markdown and HTML,
// imported from the app's own copy of the SDK by absolute URL so it runs from a temporary folder.
function writeStdioServer(dir: string): string {
  const sdk = (path: string): string => pathToFileURL(require.resolve(`@modelcontextprotocol/sdk/${path}`)).href;
  const file = join(dir, 'server.mjs');
  writeFileSync(
    file,
    `import { McpServer } from '${sdk('server/mcp.js')}';
import { StdioServerTransport } from '${sdk('server/stdio.js')}';
const server = new McpServer({ name: 'notes|<img src=x onerror=alert(1)>', version: '1.0.0' });
server.registerTool('list_notes', { description: 'List every note.', annotations: { readOnlyHint: true } },
  async () => ({ content: [{ type: 'text', text: 'none' }] }));
server.registerTool('delete_all_notes', { description: 'Delete every note for good.' },
  async () => ({ content: [{ type: 'text', text: 'gone' }] }));
await server.connect(new StdioServerTransport());
`,
  );
  return file;
}

function runSummary(reportPath: string, code: string): { markdown: string; stdout: string } {
  const dir = makeFolder('atlas-summary-');
  const summaryFile = join(dir, 'summary.md');
  const stdout = execFileSync(process.execPath, [summaryScript, reportPath, code], {
    env: { ...process.env, GITHUB_STEP_SUMMARY: summaryFile },
    encoding: 'utf8',
  });
  return { markdown: readFileSync(summaryFile, 'utf8'), stdout };
}

describe('the job summary', () => {
  it('summarises a real check report: result, tripped gate, tools with levels, escaped server text', async () => {
    const dir = makeFolder('atlas-summary-check-');
    const server = writeStdioServer(dir);
    const run = await runCheckIn(dir, ['--json', '--fail-on', 'high-risk', '--', process.execPath, server]);
    expect(run.code).toBe(1);
    const report = CheckReportSchema.parse(JSON.parse(run.stdout));
    const reportPath = join(dir, 'report.json');
    writeFileSync(reportPath, run.stdout);

    const { markdown, stdout } = runSummary(reportPath, String(run.code));
    expect(stdout).toBe(markdown);
    expect(markdown).toMatch(/^## ❌ mcp-atlas check for .*: a gate tripped \(exit 1\)$/m);
    expect(markdown).toContain(`- Answer: letter **o** (ok)`);
    expect(markdown).toContain('- Gates: high-risk; tripped: 1');
    expect(markdown).toContain(`  - **high-risk**: ${report.gates.tripped[0]?.detail.replace(/_/g, '\\_')}`);
    expect(markdown).toContain('### Tools: 2 (');
    expect(markdown).toContain('| delete\\_all\\_notes | high-risk |');
    expect(markdown).toContain('| list\\_notes | read-only |');
    // The server's name cannot break out of the Markdown or inject HTML.
    expect(markdown).toContain('notes\\|&lt;img src=x onerror=alert(1)&gt;');
    expect(markdown).not.toContain('<img');
  });

  it('says so when there is no report (a usage error before check wrote anything)', () => {
    const dir = makeFolder('atlas-summary-empty-');
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '');
    expect(runSummary(empty, '2').markdown).toBe(
      '## ❌ mcp-atlas check: usage error (exit 2)\n\nNo result to show: the report is empty. ' +
        "The step log above has the command's own message.\n",
    );
    expect(runSummary(join(dir, 'missing.json'), '2').markdown).toContain('No result to show: no report was written.');
  });
});

interface Workflow {
  on: { push: { branches: string[] } };
  jobs: Record<string, { permissions: Record<string, string>; steps: Step[] }>;
}

describe('the release workflow (.github/workflows/release.yml)', () => {
  const text = readFileSync(fileURLToPath(new URL('../../../.github/workflows/release.yml', import.meta.url)), 'utf8');
  const workflow = load(text) as Workflow;
  const job = workflow.jobs.release as Workflow['jobs'][string];

  it('runs on pushes to main and publishes through changesets/action with npm provenance', () => {
    expect(workflow.on.push.branches).toEqual(['main']);
    expect(job.permissions).toMatchObject({ 'id-token': 'write', contents: 'write', 'pull-requests': 'write' });
    const changesets = job.steps.find((step) => step.uses?.startsWith('changesets/action@')) as Step;
    expect(changesets.with).toMatchObject({
      version: 'npx --yes pnpm@10 run version-packages',
      publish: 'npx --yes pnpm@10 run release',
    });
    expect(changesets.env).toMatchObject({ NPM_CONFIG_PROVENANCE: true });
    const setupNode = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@')) as Step;
    expect(String(setupNode.with?.['node-version'])).toBe('20');
  });

  it('pins every action by commit SHA with its version in a comment, and gets pnpm through npx, not Corepack', () => {
    const uses = job.steps.flatMap((step) => (step.uses ? [step.uses] : []));
    expect(uses.map((use) => use.replace(/@.*$/, ''))).toEqual([
      'actions/checkout',
      'actions/setup-node',
      'changesets/action',
    ]);
    for (const use of uses) {
      expect(use).toMatch(SHA_PINNED);
      expect(text).toContain(`${use} # v`);
    }
    expect(job.steps.map((step) => step.run ?? '').join('\n')).not.toMatch(/corepack/i);
  });

  it('names scripts the root package.json has', () => {
    const root = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(root.scripts['version-packages']).toContain('changeset version');
    expect(root.scripts.release).toContain('changeset publish');
  });
});
