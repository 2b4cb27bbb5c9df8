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

// The pure packages it builds on (each of them pure too) and the private shared helpers it bundles.
const ALLOWED_PACKAGE = /^@mcp-atlas\/(?:base|findings|history|reliability|risk|score)(?:\/[a-z]+)?$/;

describe('purity', () => {
  it('imports nothing but its own modules and the pure @mcp-atlas packages', () => {
    for (const { name, text } of sources) {
      const specifiers = [...code(text).matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1] as string);
      for (const specifier of specifiers) {
        const ok = /^\.\/[a-z-]+\.js$/.test(specifier) || ALLOWED_PACKAGE.test(specifier);
        expect(ok, `${name} imports ${specifier}`).toBe(true);
      }
      expect(code(text), name).not.toMatch(/\brequire\(|\bimport\(/);
    }
  });

  it('reads no clock, no randomness and no process state', () => {
    for (const { name, text } of sources) {
      const body = code(text);
      expect(body, name).not.toMatch(/Date\.now\(|new Date\(\)|Math\.random|performance\.now|process\.|globalThis/);
    }
  });

  it('has an index that only re-exports', () => {
    const index = sources.find((s) => s.name === 'index.ts')!;
    const statements = code(index.text)
      .split(/;\s*/)
      .map((s) => s.trim())
      .filter(Boolean);
    for (const statement of statements)
      expect(statement).toMatch(/^export (?:type )?\{[\s\S]*\} from '\.\/[a-z-]+\.js'$/);
  });
});
