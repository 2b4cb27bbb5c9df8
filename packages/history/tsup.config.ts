import { defineConfig } from 'tsup';

// One build (so `clean` cannot race a second one): the pure root entry and the Node-only `./node`
// entry as ESM + CJS with declarations, and the `mcp-history` bin, whose hashbang tsup keeps and
// marks executable. The bin is run as dist/cli.js (ESM); its CJS twin is a by-product.
export default defineConfig({
  entry: { index: 'src/index.ts', node: 'src/node/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', node: 'src/node/index.ts' } },
  clean: true,
  target: 'es2022',
});
