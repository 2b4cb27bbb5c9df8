import { fileURLToPath } from 'node:url';
import { corpusTestFiles } from '@mcp-atlas/corpus';
import { defineConfig } from 'vitest/config';

// Checks over the real tool lists in ../shared/corpus; run with `pnpm test:corpus`.
const riskSource = fileURLToPath(new URL('../risk/src/', import.meta.url));
// The root and each subpath of risk (`./rules`, `./text`, `./time`) map to their source file.
const riskAlias = [
  { find: /^@mcp-atlas\/risk$/, replacement: `${riskSource}index.ts` },
  { find: /^@mcp-atlas\/risk\/(rules|text|time)$/, replacement: `${riskSource}$1.ts` },
];

// Skipped with a message when the corpus is absent and CI is unset; in CI a missing corpus fails.
const include = corpusTestFiles(['test/**/*.corpus.test.ts']);

export default defineConfig({
  resolve: { alias: riskAlias },
  test: {
    include,
    // Without the corpus (and without CI) there is nothing to run, and that is not a failure.
    passWithNoTests: include.length === 0,
  },
});
