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
      "const { classifyTools, HIGH_RISK_VERBS } = require('@mcp-atlas/risk'); console.log(classifyTools([{ name: 'list_x', annotations: {} }])[0].level, HIGH_RISK_VERBS.has('delete'))",
    ]);
    expect(out).toBe('read-only true');
  });

  it('gives gateway decisions and read-only word sets from both formats', () => {
    const esm = node([
      '--input-type=module',
      '-e',
      "import { decideToolCall, HIGH_RISK_VERBS } from '@mcp-atlas/risk'; let threw = false; try { HIGH_RISK_VERBS.add('x') } catch (e) { threw = e instanceof TypeError } console.log(decideToolCall({ name: 'delete_x' }).decision, threw)",
    ]);
    expect(esm).toBe('deny true');
    const cjs = node([
      '--input-type=commonjs',
      '-e',
      "const { createClassifier, RiskOptionsError } = require('@mcp-atlas/risk'); const gate = createClassifier({ extraHighRiskVerbs: ['yeet'], highRisk: 'ask' }); let code = ''; try { createClassifier({ extraReadVerbs: ['run'] }) } catch (e) { code = e instanceof RiskOptionsError ? e.code : 'other' } console.log(gate.decideToolCall({ name: 'yeet_x' }).decision, code)",
    ]);
    expect(cjs).toBe('ask word-conflict');
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
