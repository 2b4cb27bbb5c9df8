import { defineConfig } from 'vitest/config';

// Checks over the real tool lists in ../shared/corpus; run with `pnpm test:corpus`.
export default defineConfig({
  test: {
    include: ['test/**/*.corpus.test.ts'],
  },
});
