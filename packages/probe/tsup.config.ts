import { defineConfig } from 'tsup';

// Three entries: the runtime-neutral root, its rule constants (`./rules`) and the Node-only `./node` subpath. ESM splits shared code into
// chunks; CJS inlines it per entry. Dependencies stay external.
export default defineConfig({
  entry: { index: 'src/index.ts', rules: 'src/rules.ts', node: 'src/node/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
  // Keep `node:` specifiers as written: they say plainly which imports are Node built-ins.
  removeNodeProtocol: false,
});
