// The app's folders point one way: storage <- data <- domain <- view <- http, pages <- serve, commands.
// A folder may import from its own layer or a lower one, never from a higher one, and nothing may form a cycle.
// `log.ts`, `methodology.ts` and `progress.ts` sit below every layer.
/** The layers, lowest first; each entry lists the folders under src/ that belong to it. */
const LAYERS = [
  ['storage'],
  ['data'],
  [
    'domain',
    'costs',
    'demand',
    'outside',
    'owners',
    'scan',
    'score',
    'seal',
    'submissions',
    'verify',
    'check',
    'search-eval',
    'workers',
  ],
  ['view'],
  ['http', 'pages'],
  ['serve', 'commands', 'demo'],
];

const folderPattern = (folders) => `^src/(${folders.join('|')})/`;

/** One rule per layer: nothing in it imports a folder of a higher layer. */
const layerRules = LAYERS.slice(0, -1).map((folders, index) => ({
  name: `layer-${folders[0]}`,
  comment: `${folders.join(', ')} may not import from a higher layer (${LAYERS.slice(index + 1)
    .flat()
    .join(', ')})`,
  severity: 'error',
  from: { path: folderPattern(folders) },
  to: { path: folderPattern(LAYERS.slice(index + 1).flat()) },
}));

/** Every folder under src/ must belong to a layer, so a new folder cannot slip past the rules. */
const knownFolders = LAYERS.flat();

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
