import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', rules: 'src/rules.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
});
