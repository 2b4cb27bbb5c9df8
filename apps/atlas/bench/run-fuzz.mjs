// The load-and-fuzz run (bench/fuzz-run.ts), bundled with esbuild and started against the built CLI. Run:
// pnpm --filter @mcp-atlas/cli bench:fuzz (which builds the CLI first). FUZZ_SEED, FUZZ_REQUESTS and
// FUZZ_BATCHES change the seed and the counts; the exit code is the run's verdict.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const app = join(here, '..');
const out = join(app, 'node_modules', '.cache', 'atlas-bench', 'fuzz-run.mjs');

if (!existsSync(join(app, 'dist', 'cli.js'))) {
  console.error('build the CLI first: pnpm --filter @mcp-atlas/cli build');
  process.exit(2);
}
await build({
  entryPoints: [join(here, 'fuzz-run.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: out,
  packages: 'external',
  logLevel: 'silent',
});
const child = spawn(process.execPath, [out], { stdio: 'inherit', env: { ...process.env, FUZZ_APP_FOLDER: app } });
const [code] = await once(child, 'exit');
process.exitCode = code ?? 1;
