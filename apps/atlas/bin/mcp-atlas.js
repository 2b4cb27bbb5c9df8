#!/usr/bin/env node
// The `mcp-atlas` command's entry. Two jobs before the built program (dist/cli.js) loads:
// - It exists before the first build, so the link that npm and pnpm make at install time always has a target.
// - It refuses a Node older than the package's engines field in one plain line. An older Node (Debian 12's own
//   package is Node 18) would otherwise stop inside the bundle with an error that names no version. This file
//   uses only syntax that Node 18 parses, so the message is what an operator sees in the journal.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const floor = /^>=\s*(\d+)\.(\d+)/.exec(manifest.engines.node);
const [major, minor] = process.versions.node.split('.').map(Number);
if (floor !== null && (major < Number(floor[1]) || (major === Number(floor[1]) && minor < Number(floor[2])))) {
  process.stderr.write(
    `mcp-atlas: needs Node ${floor[1]}.${floor[2]} or newer, and ${process.execPath} is ${process.versions.node}; ` +
      'run it with a newer node (see the operating guide)\n',
  );
  process.exit(1);
}
await import('../dist/cli.js');
