import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every temporary folder of the run lives under one root that is removed at the end (see the file).
    globalSetup: ['test/setup/temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
