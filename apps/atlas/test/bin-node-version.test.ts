// The `mcp-atlas` bin refuses a Node older than the engines field in one line, before the bundle loads: the
// systemd unit runs the first `node` on PATH, and Debian 12's own is Node 18. An older Node is played by a
// preload that rewrites `process.versions.node`, so the real bin file runs, unchanged.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/mcp-atlas.js', import.meta.url));
const MANIFEST = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  engines: { node: string };
  bin: Record<string, string>;
};

/** Runs the bin with `--version` as if Node were `version` (null: the real one). */
function runAs(version: string | null): { status: number | null; stdout: string; stderr: string } {
  const preload =
    version === null
      ? []
      : ['--import', `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`];
  const run = spawnSync(process.execPath, [...preload, BIN, '--version'], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the mcp-atlas bin', () => {
  it('is the file the package names, and the floor it checks is the engines field', () => {
    expect(MANIFEST.bin['mcp-atlas']).toBe('./bin/mcp-atlas.js');
    expect(MANIFEST.engines.node).toBe('>=20.19');
  });

  it('refuses Node 18 and 20.18 in one line naming the version found, and loads nothing else', () => {
    for (const old of ['18.19.0', '20.18.3']) {
      const run = runAs(old);
      expect(run.status, old).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(`needs Node 20.19 or newer`)]);
      expect(run.stderr).toContain(`is ${old}`);
    }
  });

  it('runs the command on Node 20.19, and on the Node running the tests', () => {
    for (const version of ['20.19.0', null]) {
      const run = runAs(version);
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe(`mcp-atlas ${MANIFEST.version}`);
      expect(run.status).toBe(0);
    }
  });
});
