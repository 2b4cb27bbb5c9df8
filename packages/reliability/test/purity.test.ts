import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));
const sources = readdirSync(srcDir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(srcDir + name, 'utf8') }));

// Strip comments so that a doc comment mentioning a forbidden name does not trip the check.
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('purity', () => {
  it('imports nothing but its own modules and the shared day helpers of @mcp-atlas/risk/time', () => {
    for (const { name, text } of sources) {
      const specifiers = [...code(text).matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]);
      for (const specifier of specifiers)
        expect(specifier, `${name} imports ${specifier}`).toMatch(/^(?:\.\/[a-z-]+\.js|@mcp-atlas\/risk\/time)$/);
      expect(code(text), name).not.toMatch(/\brequire\(|\bimport\(/);
    }
  });

  it('reads no clock, no randomness and no process state', () => {
    for (const { name, text } of sources) {
      const body = code(text);
      expect(body, name).not.toMatch(/Date\.now\(|new Date\(\)|Math\.random|performance\.now|process\.|globalThis/);
    }
  });

  it('says it is pure in the first comment of every module', () => {
    for (const { name, text } of sources) {
      const first = text.match(/^\/\*\*[\s\S]*?\*\//)?.[0] ?? '';
      expect(first, name).toMatch(/[Pp]ure/);
    }
  });

  it('has an index that only re-exports', () => {
    const index = sources.find((s) => s.name === 'index.ts')!;
    const statements = code(index.text)
      .split(/;\s*/)
      .map((s) => s.trim())
      .filter(Boolean);
    for (const statement of statements) expect(statement).toMatch(/^export (\{[\s\S]*\}|\*) from '\.\/[a-z-]+\.js'$/);
  });

  it('exports no internal helpers', () => {
    for (const name of [
      'roundedPercent',
      'tallyLetters',
      'assertLetters',
      'parseIpv6',
      'parseIpv4',
      'reporterBaseWeight',
      'describeValue',
    ]) {
      expect(Object.keys(api), name).not.toContain(name);
    }
  });
});
