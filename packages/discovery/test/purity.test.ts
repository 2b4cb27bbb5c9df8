// The package stays pure: its modules import only each other and @mcp-atlas/base, read no clock, randomness or
// process state, and say so in their first comment. (tsconfig.src.json also builds src/ with no Node types.)
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));
const sources = readdirSync(srcDir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(srcDir + name, 'utf8') }));

// Comments are stripped first, so a doc comment that names a forbidden call does not trip the check.
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('purity', () => {
  it('imports nothing but its own modules and @mcp-atlas/base', () => {
    for (const { name, text } of sources) {
      const specifiers = [...code(text).matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]);
      for (const specifier of specifiers)
        expect(specifier, `${name} imports ${specifier}`).toMatch(/^(?:\.\/[a-z-]+\.js|@mcp-atlas\/base)$/);
    }
  });

  it('reads no clock, no randomness and no process state, and says it is pure', () => {
    for (const { name, text } of sources) {
      expect(code(text), name).not.toMatch(/Date\.now\(|new Date\(|Math\.random|performance\.now|process\.|globalThis/);
      expect(text.match(/^\/\*\*[\s\S]*?\*\//)?.[0] ?? '', name).toMatch(/[Pp]ure/);
    }
  });
});
