import { copyFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  clean: true,
  target: 'node20',
  platform: 'node',
  // The methodology page ships with the build: an installed app has no repository around it to find the doc in.
  // pages/methodology-doc.ts reads this copy, next to cli.js, before it looks for the repository's.
  onSuccess: async () => {
    await copyFile('../../docs/methodology.md', 'dist/methodology.md');
  },
});
