import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Checks over the real tool lists in ../shared/corpus; run with `pnpm test:corpus`.
const riskSource = fileURLToPath(new URL('../risk/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@mcp-atlas/risk': riskSource } },
  test: {
    include: ['test/**/*.corpus.test.ts'],
  },
});
