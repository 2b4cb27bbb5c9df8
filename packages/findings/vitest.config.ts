import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the sibling packages' source, so a change there shows here without a rebuild.
const riskSource = fileURLToPath(new URL('../risk/src/', import.meta.url));
const baseSource = fileURLToPath(new URL('../base/src/', import.meta.url));
// risk's root and its `./rules` subpath, and base's root (which risk's source imports too), map to their source.
const sourceAlias = [
  { find: /^@mcp-atlas\/risk$/, replacement: `${riskSource}index.ts` },
  { find: /^@mcp-atlas\/risk\/rules$/, replacement: `${riskSource}rules.ts` },
  { find: /^@mcp-atlas\/base$/, replacement: `${baseSource}index.ts` },
];

export default defineConfig({
  resolve: { alias: sourceAlias },
  test: {
    include: ['test/**/*.test.ts'],
    // No verdict rests on wall time: property tests are bounded by their number of runs and tests wait on
    // events. These limits only stop a hung test, and are wide enough for a machine under full load.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    exclude: ['test/**/*.corpus.test.ts'],
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
});
