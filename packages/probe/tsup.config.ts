import { defineConfig } from 'tsup';

// Four entries: the runtime-neutral root, its rule constants (`./rules`), the readers of outside services
// (`./outside`) and the Node-only `./node` subpath. ESM splits shared code into chunks; CJS inlines it per entry.
// Dependencies stay external, except the private @mcp-atlas/base, which is never published: the build bundles it
// (its code and, with `resolve`, its types).
export default defineConfig({
  entry: { index: 'src/index.ts', rules: 'src/rules.ts', outside: 'src/outside.ts', node: 'src/node/index.ts' },
  format: ['esm', 'cjs'],
  dts: { resolve: ['@mcp-atlas/base'] },
  noExternal: ['@mcp-atlas/base'],
  clean: true,
  target: 'es2022',
  // Keep `node:` specifiers as written: they say plainly which imports are Node built-ins.
  removeNodeProtocol: false,
});
