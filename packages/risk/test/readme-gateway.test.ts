import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README's gateway example, run as written against the built package (loaded by its own name, the way a
// user loads it), and its output compared with the lines the example promises in its closing comments.
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

function gatewayExample(): string {
  const section = readme.slice(readme.indexOf('## Gateway'));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  if (match === null) throw new Error('README has no js block under "## Gateway"');
  return match[1] as string;
}

describe('the README gateway example', () => {
  it('runs and prints what its comments say: allow, ask the user, deny', () => {
    const code = gatewayExample();
    const promised = code
      .split('\n')
      .filter((line) => line.startsWith('// ') && !line.startsWith('// The ') && !line.startsWith('// Compile'))
      .map((line) => line.slice(3));
    const printed = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    expect(promised).toHaveLength(4);
    expect(printed.trimEnd().split('\n')).toEqual(promised);
  });
});
