import { cp } from 'node:fs/promises';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  clean: true,
  target: 'node20',
  platform: 'node',
  // @mcp-atlas/base is private, never published: the bin bundles it (the published @mcp-atlas packages stay
  // external dependencies).
  noExternal: ['@mcp-atlas/base'],
  // The methodology pages ship with the build: an installed app has no repository around it to find them in.
  // pages/methodology-doc.ts reads this copy of docs/methodology/, next to cli.js, before it looks for the
  // repository's.
  onSuccess: async () => {
    await cp('../../docs/methodology', 'dist/methodology', { recursive: true });
  },
});
