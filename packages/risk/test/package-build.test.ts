import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The built package, loaded by its own name the way users load it (self-reference through `exports`).
const packageDir = fileURLToPath(new URL('..', import.meta.url));

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: packageDir, encoding: 'utf8' }).trim();
}

describe('the built package', () => {
  it('imports from plain Node ESM', () => {
    const out = node([
      '--input-type=module',
      '-e',
      "import { classifyTool } from '@mcp-atlas/risk'; console.log(classifyTool({ name: 'delete_x' }, { serverHasAnnotations: false }).level)",
    ]);
    expect(out).toBe('high-risk');
  });

  it('requires from CommonJS', () => {
    const out = node([
      '--input-type=commonjs',
      '-e',
      "const { classifyTools } = require('@mcp-atlas/risk'); const { VERB_RULES } = require('@mcp-atlas/risk/rules'); console.log(classifyTools([{ name: 'list_x', annotations: {} }])[0].level, VERB_RULES.highRiskVerbs.has('delete'))",
    ]);
    expect(out).toBe('read-only true');
  });

  it('gives gateway decisions and read-only word sets from both formats', () => {
    const esm = node([
      '--input-type=module',
      '-e',
      "import { decideToolCall } from '@mcp-atlas/risk'; import { VERB_RULES } from '@mcp-atlas/risk/rules'; let threw = false; try { VERB_RULES.highRiskVerbs.add('x') } catch (e) { threw = e instanceof TypeError } console.log(decideToolCall({ name: 'delete_x' }).decision, threw)",
    ]);
    expect(esm).toBe('deny true');
    const cjs = node([
      '--input-type=commonjs',
      '-e',
      "const { createClassifier, RiskOptionsError } = require('@mcp-atlas/risk'); const gate = createClassifier({ extraHighRiskVerbs: ['yeet'], highRisk: 'ask' }); let code = ''; try { createClassifier({ extraReadVerbs: ['run'] }) } catch (e) { code = e instanceof RiskOptionsError ? e.code : 'other' } console.log(gate.decideToolCall({ name: 'yeet_x' }).decision, code)",
    ]);
    expect(cjs).toBe('ask word-conflict');
  });

  it('has no runtime dependency: the shared helpers it uses are bundled into its build', () => {
    const esm = node([
      '--input-type=module',
      '-e',
      "import { toolVerb } from '@mcp-atlas/risk'; console.log(toolVerb('getHTTPStatus'))",
    ]);
    expect(esm).toBe('get');
    const pkg = JSON.parse(node(['-p', "JSON.stringify(require('./package.json'))"])) as Record<string, unknown>;
    expect(pkg.dependencies).toBeUndefined();
    expect(Object.keys(pkg.exports as object)).toEqual(['.', './rules', './package.json']);
    for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/cli.js']) {
      const built = node(['-e', `process.stdout.write(require('node:fs').readFileSync('${file}', 'utf8'))`]);
      expect(built, file).not.toContain('@mcp-atlas/base');
    }
  });

  it('ships type declarations for both formats', () => {
    const pkg = node(['-p', "JSON.stringify(require('./package.json').exports['.'])"]);
    const exportsMap = JSON.parse(pkg) as { import: { types: string }; require: { types: string } };
    expect(exportsMap.import.types).toBe('./dist/index.d.ts');
    expect(exportsMap.require.types).toBe('./dist/index.d.cts');
    const declared = node(['-e', "process.stdout.write(require('node:fs').readFileSync('dist/index.d.ts', 'utf8'))"]);
    expect(declared).toContain('declare function classifyTool');
  });
});
