// The composite GitHub Action (apps/atlas/action/action.yml): its shape, and its check step's script run
// with bash against a stand-in `npx` that records the arguments and exits with a chosen code, so the test
// shows which command line each set of inputs gives and that the exit code reaches the step output.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
  inputs: Record<string, { default: string }>;
  runs: { using: string; steps: Step[] };
}

const action = load(readFileSync(fileURLToPath(new URL('../action/action.yml', import.meta.url)), 'utf8')) as Action;
const checkStep = action.runs.steps.find((step) => step.id === 'check') as Step;

function runStep(
  inputs: Record<string, string>,
  exitCode: number,
): { argv: string[]; output: string; status: number | null; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'atlas-action-'));
  // Stand-ins for npx and node: each records its arguments (first line: which one ran) and exits with exitCode.
  for (const program of ['npx', 'node']) {
    writeFileSync(
      join(dir, program),
      `#!/usr/bin/env bash\n{ echo ${program}; printf '%s\\n' "$@"; } > "${dir}/argv"\nexit ${exitCode}\n`,
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
  const result = spawnSync('bash', ['-e', join(dir, 'step.sh')], { env });
  return {
    argv: readFileSync(join(dir, 'argv'), 'utf8').trimEnd().split('\n'),
    output: readFileSync(join(dir, 'output'), 'utf8'),
    status: result.status,
    dir,
  };
}

const defaults = {
  INPUT_URL: '',
  INPUT_COMMAND: '',
  INPUT_BASELINE: '',
  INPUT_FAIL_ON: 'not-answering',
  INPUT_DEEP: 'false',
  INPUT_OWN: 'false',
  INPUT_SARIF: 'mcp-atlas.sarif',
  INPUT_VERSION: 'latest',
  INPUT_FROM_SOURCE: 'false',
};

describe('the composite action', () => {
  it('is composite: node, the build from source when asked, the check, the SARIF upload even on failure, then the exit code', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.map((s) => s.uses ?? s.id ?? 'run')).toEqual([
      'actions/setup-node@v4',
      'run',
      'check',
      'github/codeql-action/upload-sarif@v3',
      'run',
    ]);
    expect(action.runs.steps[1]?.if).toContain("inputs.from-source == 'true'");
    expect(action.runs.steps[3]?.if).toContain('always()');
    expect(action.inputs['fail-on']?.default).toBe('not-answering');
    // Every input the step reads comes in through env, none is pasted into the script.
    expect(checkStep.run).not.toContain('${{');
    expect(() => execFileSync('bash', ['-n', '-c', checkStep.run as string])).not.toThrow();
  });

  it('builds the command line for a URL with a baseline, gates and deep mode', () => {
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
      'mcp-atlas@latest',
      'check',
      'http://127.0.0.1:3000/mcp',
      '--sarif',
      'mcp-atlas.sarif',
      '--fail-on',
      'risk-rise,change',
      '--baseline',
      'mcp-atlas.lock.json',
      '--deep',
    ]);
    expect(run.output).toBe('exit-code=0\n');
    expect(run.status).toBe(0);
  });

  it('builds the command line for a stdio server and records a tripped gate without stopping the job', () => {
    const run = runStep({ ...defaults, INPUT_COMMAND: 'node dist/server.js --stdio', INPUT_VERSION: '0.1.0' }, 1);
    expect(run.argv).toEqual([
      'npx',
      '--yes',
      'mcp-atlas@0.1.0',
      'check',
      '--sarif',
      'mcp-atlas.sarif',
      '--fail-on',
      'not-answering',
      '--',
      'node',
      'dist/server.js',
      '--stdio',
    ]);
    expect(run.output).toBe('exit-code=1\n');
    expect(run.status).toBe(0);
  });

  it('passes a URL with shell characters through as one argument', () => {
    const run = runStep({ ...defaults, INPUT_URL: 'http://127.0.0.1:1/mcp?a=1&b=$(touch x)', INPUT_OWN: 'true' }, 2);
    expect(run.argv.slice(3, 5)).toEqual(['check', 'http://127.0.0.1:1/mcp?a=1&b=$(touch x)']);
    expect(run.argv).toContain('--i-own-this-server');
    expect(run.output).toBe('exit-code=2\n');
  });

  it('with from-source, runs the built CLI of the action checkout instead of npx', () => {
    const run = runStep({ ...defaults, INPUT_URL: 'http://127.0.0.1:3000/mcp', INPUT_FROM_SOURCE: 'true' }, 0);
    expect(run.argv.slice(0, 4)).toEqual([
      'node',
      `${run.dir}/action/../dist/cli.js`,
      'check',
      'http://127.0.0.1:3000/mcp',
    ]);
  });
});
