import { defineConfig } from 'tsup';

// One build for the library: ESM + CJS + declarations.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
});
