import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const cli = join(packageDir, 'dist', 'cli.js');
const sample = join(packageDir, 'examples', 'sample-tools.json');

function run(args: string[], input?: string) {
  return spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });
}

describe('the mcp-risk command', () => {
  it('prints level, rule and name for each tool of a tools/list result file', () => {
    const result = run([sample]);
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const toolCount = (JSON.parse(readFileSync(sample, 'utf8')) as { tools: unknown[] }).tools.length;
    expect(lines).toHaveLength(toolCount);
    expect(lines[0]).toMatch(/^read-only\s+rule 3\s+list_invoices$/);
    expect(lines).toContainEqual(expect.stringMatching(/^high-risk\s+rule 2\s+run_report$/));
    expect(lines).toContainEqual(expect.stringMatching(/^high-risk\s+rule 8\+raised\s+workspace_cleanup$/));
  });

  it('reads a bare tools array from stdin', () => {
    const result = run([], JSON.stringify([{ name: 'delete_page' }, { name: 'list_pages' }]));
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^high-risk\s+rule 2\s+delete_page\nchanges-data\s+rule 7\s+list_pages\n$/);
  });

  it('prints JSON with --json', () => {
    const out = execFileSync(process.execPath, [cli, '--json', sample], { encoding: 'utf8' });
    const rows = JSON.parse(out) as { name: string; level: string; rule: number; raised: boolean; reason: string }[];
    expect(rows.find((row) => row.name === 'refund_payment')).toMatchObject({
      level: 'high-risk',
      rule: 2,
      raised: false,
    });
    expect(rows.every((row) => row.reason.length > 0)).toBe(true);
  });

  it('accepts a JSON-RPC response holding result.tools', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-risk-'));
    try {
      const file = join(dir, 'response.json');
      writeFileSync(file, JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'grant_access' }] } }));
      expect(run([file]).stdout).toMatch(/^high-risk\s+rule 2\s+grant_access\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with --fail-on, exits 1 when a tool reaches that level and 0 when none does, printing the list either way', () => {
    const tools = (names: string[]) => JSON.stringify(names.map((name) => ({ name })));
    const high = run(['--fail-on', 'high-risk'], tools(['list_pages', 'delete_page']));
    expect(high.status).toBe(1);
    expect(high.stdout).toMatch(/delete_page\n$/);
    expect(run(['--fail-on=high-risk'], tools(['list_pages'])).status).toBe(0);
    // changes-data is reached by a tool that changes data, and by a high-risk one.
    expect(run(['--fail-on', 'changes-data'], tools(['list_pages'])).status).toBe(1);
    expect(run(['--fail-on', 'changes-data'], tools(['delete_page'])).status).toBe(1);
    expect(run(['--fail-on', 'high-risk', sample]).status).toBe(1);
    const readOnly = JSON.stringify([{ name: 'list_pages', annotations: { readOnlyHint: true } }]);
    expect(run(['--fail-on', 'changes-data'], readOnly).status).toBe(0);
    for (const bad of [['--fail-on', 'read-only'], ['--fail-on', 'severe'], ['--fail-on']]) {
      const refused = run(bad, '[]');
      expect(refused.status, bad.join(' ')).toBe(2);
      expect(refused.stderr).toContain('--fail-on takes changes-data or high-risk');
    }
  });

  it('exits 2 with a clear message on input that is not JSON', () => {
    const result = run([], 'not json');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^mcp-risk: The input is not valid JSON/);
  });

  it('exits 2 when the JSON holds no tools array', () => {
    const result = run([], '{"tools": 5}');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('neither a tools array nor an object with a "tools" array');
  });

  it('exits 2 on an unknown option and on a missing file', () => {
    expect(run(['--frobnicate']).status).toBe(2);
    const missing = run([join(packageDir, 'no-such-file.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no-such-file.json');
  });
});
