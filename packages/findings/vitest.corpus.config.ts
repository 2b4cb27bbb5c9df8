import { fileURLToPath } from 'node:url';
import { corpusTestFiles } from '@mcp-atlas/corpus';
import { defineConfig } from 'vitest/config';

// Checks over the real tool lists in ../shared/corpus; run with `pnpm test:corpus`.
const riskSource = fileURLToPath(new URL('../risk/src/', import.meta.url));
const baseSource = fileURLToPath(new URL('../base/src/', import.meta.url));
// risk's root and its `./rules` subpath, and base's root (which risk's source imports too), map to their source.
const sourceAlias = [
  { find: /^@mcp-atlas\/risk$/, replacement: `${riskSource}index.ts` },
  { find: /^@mcp-atlas\/risk\/rules$/, replacement: `${riskSource}rules.ts` },
  { find: /^@mcp-atlas\/base$/, replacement: `${baseSource}index.ts` },
];

// Skipped with a message when the corpus is absent and CI is unset; in CI a missing corpus fails.
const include = corpusTestFiles(['test/**/*.corpus.test.ts']);

export default defineConfig({
  resolve: { alias: sourceAlias },
  test: {
    include,
    // Without the corpus (and without CI) there is nothing to run, and that is not a failure.
    passWithNoTests: include.length === 0,
  },
});
