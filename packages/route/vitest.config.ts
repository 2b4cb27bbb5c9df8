import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the sibling package's source, so a change there shows here without a rebuild.
const riskSource = fileURLToPath(new URL('../risk/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@mcp-atlas/risk': riskSource } },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.corpus.test.ts'],
  },
});
