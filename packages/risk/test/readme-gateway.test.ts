import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README's gateway example, run as written against the built package (loaded by its own name, the way a
// user loads it), and its output compared with the lines the example promises in its closing comments.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The js blocks of the README from `heading` on, in order. */
function blocksFrom(heading: string): string[] {
  const section = readme.slice(readme.indexOf(heading));
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

function gatewayExample(): string {
  const [first] = blocksFrom('## Gateway');
  if (first === undefined) throw new Error('README has no js block under "## Gateway"');
  return first;
}

/** The lines an example promises: its closing comments, without the ones that explain. */
function promisedLines(code: string): string[] {
  return code
    .split('\n')
    .filter(
      (line) =>
        line.startsWith('// ') &&
        !line.startsWith('// The ') &&
        !line.startsWith('// Compile') &&
        !line.startsWith('// A tools'),
    )
    .map((line) => line.slice(3));
}

describe('the README gateway example', () => {
  it('runs and prints what its comments say: allow, ask the user, deny', () => {
    const code = gatewayExample();
    const promised = promisedLines(code);
    const printed = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    expect(promised).toHaveLength(4);
    expect(printed.trimEnd().split('\n')).toEqual(promised);
  });

  it('has a CommonJS form that runs where top-level await cannot, as npm init -y makes a project', () => {
    const cjs = blocksFrom('## Gateway')[1] as string;
    expect(cjs).toContain("require('@mcp-atlas/risk')");
    const printed = execFileSync(process.execPath, ['--input-type=commonjs', '-e', cjs], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    expect(printed.trimEnd().split('\n')).toEqual(promisedLines(cjs));
  });

  it('has a first example that runs as written, with its tools inline', () => {
    const example = readme.slice(readme.indexOf('## Example'), readme.indexOf('## Gateway'));
    const code = /```js\n([\s\S]*?)```/.exec(example)?.[1] as string;
    const printed = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    expect(printed.trimEnd().split('\n')).toEqual(promisedLines(code));
  });
});
