import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests start real loopback servers and child processes; the limits below are for a busy 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
