import { defineConfig } from 'tsup';

// Two builds: the library (ESM + CJS + declarations of the root and the `./rules`, `./text` and `./time` subpaths) and the `mcp-risk` bin, ESM only (a bin is run, never
// required, so a CJS twin would only add weight to the tarball). The library build cleans dist but keeps
// cli.js, so the two builds, which tsup runs at the same time, cannot delete each other's output. The bin's
// source starts with a hashbang, which tsup keeps and marks executable.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', rules: 'src/rules.ts', text: 'src/text.ts', time: 'src/time.ts' },
    format: ['esm', 'cjs'],
    dts: { entry: { index: 'src/index.ts', rules: 'src/rules.ts', text: 'src/text.ts', time: 'src/time.ts' } },
    clean: ['!cli.js'],
    target: 'es2022',
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    clean: false,
    target: 'es2022',
  },
]);
