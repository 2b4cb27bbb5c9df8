import { defineConfig } from 'tsup';

// One ESM build with declarations. Nothing loads this package from the registry: the published packages bundle
// it into their own ESM and CJS output at build time (tsup `noExternal`), and tests and benchmarks in the
// monorepo import this build, so an ESM entry is all it needs.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'es2022',
});
