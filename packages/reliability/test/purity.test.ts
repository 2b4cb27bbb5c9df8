import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as live from '../src/live.js';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));
const sources = readdirSync(srcDir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(srcDir + name, 'utf8') }));

// Strip comments so that a doc comment mentioning a forbidden name does not trip the check.
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('purity', () => {
  it('imports nothing but its own modules and the shared helpers of @mcp-atlas/base', () => {
    for (const { name, text } of sources) {
      const specifiers = [...code(text).matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]);
      for (const specifier of specifiers)
        expect(specifier, `${name} imports ${specifier}`).toMatch(/^(?:\.\/[a-z-]+\.js|@mcp-atlas\/base)$/);
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

  it('has entries (the root and ./live) that only re-export', () => {
    for (const entry of ['index.ts', 'live.ts']) {
      const source = sources.find((s) => s.name === entry)!;
      const statements = code(source.text)
        .split(/;\s*/)
        .map((s) => s.trim())
        .filter(Boolean);
      for (const statement of statements)
        expect(statement, entry).toMatch(/^export (\{[\s\S]*\}|\*) from '\.\/[a-z-]+\.js'$/);
    }
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
      expect(Object.keys(live), name).not.toContain(name);
    }
  });
});
