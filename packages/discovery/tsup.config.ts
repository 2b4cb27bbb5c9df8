import { defineConfig } from 'tsup';

// @mcp-atlas/base is private, never published: the build bundles it (its code and, with `resolve`, its types),
// so the package has no runtime dependency.
export default defineConfig({
  entry: { index: 'src/index.ts', rules: 'src/rules.ts' },
  format: ['esm', 'cjs'],
  dts: { resolve: ['@mcp-atlas/base'] },
  noExternal: ['@mcp-atlas/base'],
  clean: true,
  target: 'es2022',
});
