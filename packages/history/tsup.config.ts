import { defineConfig } from 'tsup';

// Two builds: the pure root entry and the Node-only `./node` entry as ESM + CJS with declarations, and the
// `mcp-history` bin, ESM only (a bin is run, never required, so a CJS twin would only add weight to the
// tarball). The library build cleans dist but keeps cli.js, so the two builds, which tsup runs at the same
// time, cannot delete each other's output. tsup keeps the bin's hashbang and marks it executable.
// @mcp-atlas/base is private, never published: both builds bundle it, its types included (`resolve`).
export default defineConfig([
  {
    entry: { index: 'src/index.ts', node: 'src/node/index.ts', rules: 'src/rules.ts' },
    format: ['esm', 'cjs'],
    dts: {
      entry: { index: 'src/index.ts', node: 'src/node/index.ts', rules: 'src/rules.ts' },
      resolve: ['@mcp-atlas/base'],
    },
    noExternal: ['@mcp-atlas/base'],
    clean: ['!cli.js'],
    target: 'es2022',
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    noExternal: ['@mcp-atlas/base'],
    clean: false,
    target: 'es2022',
  },
]);
