import { defineConfig } from 'tsup';

// One build for the library (ESM + CJS + declarations) and the `mcp-risk` bin. The bin's source
// starts with a hashbang, which tsup keeps and marks executable.
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  target: 'es2022',
});
