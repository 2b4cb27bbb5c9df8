// The package is bundled into packages that promise to run in Node, browsers and edge runtimes with no
// dependency, so its sources import nothing but each other and touch no clock, randomness or process state.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));
const sources = readdirSync(srcDir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(srcDir + name, 'utf8') }));

// Strip comments so that a doc comment mentioning a forbidden name does not trip the check.
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('purity', () => {
  it('imports nothing but its own modules', () => {
    for (const { name, text } of sources) {
      for (const match of code(text).matchAll(/\bfrom\s+'([^']+)'/g))
        expect(match[1], `${name} imports ${match[1]}`).toMatch(/^\.\/[a-z-]+\.js$/);
      expect(code(text), name).not.toMatch(/\brequire\(|\bimport\(/);
    }
  });

  it('reads no clock, no randomness and no process state', () => {
    for (const { name, text } of sources) {
      expect(code(text), name).not.toMatch(/Date\.now\(|new Date\(|Math\.random|performance\.now|process\.|globalThis/);
    }
  });
});
