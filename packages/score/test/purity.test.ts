import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('../', import.meta.url));
const srcDir = join(packageDir, 'src');
const sources = readdirSync(srcDir)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(srcDir, name), 'utf8') }));

// Strip comments so a doc comment that names a forbidden API does not trip the scan.
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('src/ runs in any runtime', () => {
  it('imports only its own modules and the shared day helpers of @mcp-atlas/base', () => {
    for (const { name, text } of sources) {
      const specifiers = [...code(text).matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]);
      for (const specifier of specifiers)
        expect(specifier, `${name} imports ${specifier}`).toMatch(/^(?:\.\/[a-z-]+\.js|@mcp-atlas\/base)$/);
      expect(code(text), name).not.toMatch(/\brequire\(|\bimport\(/);
    }
  });

  it('reads no clock, randomness, process, DOM or Node global', () => {
    const forbidden =
      /Date\.now\(|new Date\(\)|Math\.random|performance\.now|\bprocess\.|\bglobalThis\b|\bwindow\.|\bdocument\.|\bBuffer\b|__dirname|\bsetTimeout\(|\bfetch\(/;
    for (const { name, text } of sources) expect(code(text), name).not.toMatch(forbidden);
  });

  it('has an index that only re-exports', () => {
    const index = sources.find((s) => s.name === 'index.ts');
    expect(index).toBeDefined();
    const statements = code(index?.text ?? '')
      .split(/;\s*/)
      .map((s) => s.trim())
      .filter(Boolean);
    for (const statement of statements)
      expect(statement).toMatch(/^export (type )?(\{[\s\S]*\}|\*) from '\.\/[a-z-]+\.js'$/);
  });

  it('type-checks with only the ES2022 library: no DOM, no Node types', () => {
    // A throwaway tsconfig next to src/ that sees only src/ and the plain language library.
    const dir = mkdtempSync(join(tmpdir(), 'score-pure-'));
    try {
      const config = join(dir, 'tsconfig.json');
      writeFileSync(
        config,
        JSON.stringify({
          extends: join(packageDir, '../../tsconfig.base.json'),
          compilerOptions: { lib: ['ES2022'], types: [], noEmit: true, skipLibCheck: true },
          include: [join(srcDir, '*.ts')],
        }),
      );
      const tsc = join(packageDir, '../../node_modules/typescript/bin/tsc');
      let output = '';
      try {
        execFileSync(process.execPath, [tsc, '-p', config], { encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
