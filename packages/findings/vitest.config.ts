import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the sibling package's source, so a change there shows here without a rebuild.
const riskSource = fileURLToPath(new URL('../risk/src/', import.meta.url));
// The root and each subpath of risk (`./rules`, `./text`, `./time`) map to their source file.
const riskAlias = [
  { find: /^@mcp-atlas\/risk$/, replacement: `${riskSource}index.ts` },
  { find: /^@mcp-atlas\/risk\/(rules|text|time)$/, replacement: `${riskSource}$1.ts` },
];

export default defineConfig({
  resolve: { alias: riskAlias },
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
