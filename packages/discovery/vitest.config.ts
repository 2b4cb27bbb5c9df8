import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // No verdict rests on wall time: property tests are bounded by their number of runs and tests wait on
    // events. These limits only stop a hung test, and are wide enough for a machine under full load.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    benchmark: { include: ['bench/**/*.bench.ts'] },
    // The merge bench reads the heap after a full collection, which needs the collector exposed.
    execArgv: ['--expose-gc'],
  },
});
