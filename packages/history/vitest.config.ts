import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Property tests sign and verify with real Ed25519; give them room on a shared 2-core machine.
    testTimeout: 30_000,
  },
});
