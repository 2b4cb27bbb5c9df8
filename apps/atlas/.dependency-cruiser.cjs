// The app's folders point one way, in layers: storage <- data <- domain <- view <- http and pages <- serve,
// commands and demo. A folder may import from its own layer or a lower one, never from a higher one, and nothing
// may form a cycle. `log.ts`, `methodology.ts` and `progress.ts` sit below every layer.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/** The layers, lowest first: each has a name (used in the rule's name) and the folders under src/ in it. */
const LAYERS = [
  { name: 'storage', folders: ['storage'] },
  { name: 'data', folders: ['data'] },
  {
    // What the service does with its data: checks, scans, seals, scores, costs and the outside lookups.
    name: 'domain',
    folders: [
      'check',
      'costs',
      'demand',
      'discovery',
      'outside',
      'owners',
      'scan',
      'score',
      'seal',
      'search-eval',
      'submissions',
      'verify',
      'workers',
    ],
  },
  { name: 'view', folders: ['view'] },
  { name: 'http', folders: ['http', 'pages'] },
  { name: 'entry', folders: ['serve', 'commands', 'demo'] },
];

const folderPattern = (folders) => `^src/(${folders.join('|')})/`;

/** One rule per layer: nothing in it imports a folder of a higher layer. */
const layerRules = LAYERS.slice(0, -1).map((layer, index) => {
  const higher = LAYERS.slice(index + 1).flatMap((above) => above.folders);
  return {
    name: `layer-${layer.name}`,
    comment: `${layer.folders.join(', ')} may not import from a higher layer (${higher.join(', ')})`,
    severity: 'error',
    from: { path: folderPattern(layer.folders) },
    to: { path: folderPattern(higher) },
  };
});

/** Every folder under src/ must belong to a layer, so a new folder cannot slip past the rules. */
const knownFolders = LAYERS.flatMap((layer) => layer.folders);

// The rules below catch a folder without a layer only once it imports something, and nothing catches a layer
// naming a folder that is gone: both are checked here against the app's own src/, whatever the cruise reads.
const srcFolders = readdirSync(join(__dirname, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const unlayered = srcFolders.filter((folder) => !knownFolders.includes(folder));
const missing = knownFolders.filter((folder) => !srcFolders.includes(folder));
if (unlayered.length > 0 || missing.length > 0)
  throw new Error(
    `.dependency-cruiser.cjs: the layers must name every folder of src/ and nothing else ` +
      `(in no layer: ${unlayered.join(', ') || 'none'}; named but not in src/: ${missing.join(', ') || 'none'})`,
  );

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'import cycles hide the direction of the code',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'folder-has-a-layer',
      severity: 'error',
      comment: `every folder under src/ belongs to a layer: ${knownFolders.join(', ')}`,
      from: { path: '^src/[^/]+/', pathNot: folderPattern(knownFolders) },
      to: {},
    },
    {
      name: 'root-files-are-leaves',
      severity: 'error',
      comment: 'log.ts, methodology.ts and progress.ts are used by every layer, so they import no app folder',
      from: { path: '^src/(log|methodology|progress)\\.ts$' },
      to: { path: '^src/[^/]+/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
