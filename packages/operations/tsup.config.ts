import { defineConfig } from 'tsup';

// @mcp-atlas/base is private, never published: the build bundles it (its code and, with `resolve`, its types),
// so the package's only runtime dependencies are the published @mcp-atlas packages it names.
export default defineConfig({
  entry: { index: 'src/index.ts', rules: 'src/rules.ts', sensors: 'src/sensors.ts' },
  format: ['esm', 'cjs'],
  dts: { resolve: ['@mcp-atlas/base'] },
  noExternal: ['@mcp-atlas/base'],
  clean: true,
  target: 'es2022',
});
