import { defineConfig } from 'tsup';

// Two builds: the library (ESM + CJS + declarations of the root and the `./rules` subpath) and the `mcp-risk`
// bin, ESM only (a bin is run, never required, so a CJS twin would only add weight to the tarball). The library
// build cleans dist but keeps cli.js, so the two builds, which tsup runs at the same time, cannot delete each
// other's output. The bin's source starts with a hashbang, which tsup keeps and marks executable.
// @mcp-atlas/base is private, never published: both builds bundle it (its code and, with `resolve`, its
// types), so the package keeps zero runtime dependencies.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', rules: 'src/rules.ts' },
    format: ['esm', 'cjs'],
    dts: { entry: { index: 'src/index.ts', rules: 'src/rules.ts' }, resolve: ['@mcp-atlas/base'] },
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
