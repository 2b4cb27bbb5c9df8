// The whole repository's import rules (run by the root `lint`). The app's own folder layers stay in
// apps/atlas/.dependency-cruiser.cjs, run by the app's `lint`; this file adds what crosses a package boundary:
// no package imports an app, packages import each other only in the direction docs/architecture.md draws, the
// test-only corpus loader stays out of shipped code, and nothing anywhere forms an import cycle.
// A workspace package is imported by name (`@mcp-atlas/risk`), which resolves to its built `dist/`; when it is
// not built yet the name stays unresolved, so every package pattern matches both forms.

/**
 * Which packages each package may import. base (private, bundled into each package's build) holds the shared
 * day helpers, word splitters, address parsers and type names: it imports nothing and every package may use it.
 * risk imports only base; discovery imports only base; probe also reads discovery's entry shapes; findings, route, probe and operations also use its classifier and levels. Any
 * package-to-package import not listed here fails the lint.
 */
const PACKAGE_DIRECTION = {
  base: [],
  risk: ['base'],
  findings: ['base', 'risk'],
  route: ['base', 'risk'],
  score: ['base'],
  reliability: ['base'],
  history: ['base'],
  discovery: ['base'],
  probe: ['base', 'risk', 'score', 'discovery'],
  operations: ['base', 'reliability', 'score', 'history'],
  corpus: [],
};

const PACKAGE_NAMES = Object.keys(PACKAGE_DIRECTION);

/** A pattern for a package's files, reached by relative path, by its built dist, or by its unresolved name. */
const packagePattern = (names) => `^(packages/(${names.join('|')})/|@mcp-atlas/(${names.join('|')})(/|$))`;

/** One rule per package: it imports no other package except the ones PACKAGE_DIRECTION allows. */
const directionRules = PACKAGE_NAMES.flatMap((name) => {
  // The corpus loader is left to `corpus-is-test-only`: tests, benchmarks and test configs may use it.
  const forbiddenTargets = PACKAGE_NAMES.filter(
    (other) => other !== name && other !== 'corpus' && !PACKAGE_DIRECTION[name].includes(other),
  );
  if (forbiddenTargets.length === 0) return [];
  return {
    name: `package-direction-${name}`,
    comment: `${name} may import only ${PACKAGE_DIRECTION[name].join(', ') || 'no other package'} (docs/architecture.md)`,
    severity: 'error',
    from: { path: `^packages/${name}/` },
    to: { path: packagePattern(forbiddenTargets) },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'import cycles hide the direction of the code',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-never-import-an-app',
      severity: 'error',
      comment: 'a package is published on its own, so it cannot reach into apps/',
      from: { path: '^packages/' },
      to: { path: '^(apps/|@mcp-atlas/cli(/|$))' },
    },
    ...directionRules,
    {
      name: 'package-has-a-direction',
      severity: 'error',
      comment: `every folder under packages/ is listed in PACKAGE_DIRECTION: ${PACKAGE_NAMES.join(', ')}`,
      from: { path: '^packages/[^/]+/', pathNot: `^packages/(${PACKAGE_NAMES.join('|')})/` },
      to: {},
    },
    {
      name: 'corpus-is-test-only',
      severity: 'error',
      comment: 'the corpus loader reads files that never ship, so only tests and benchmarks may import it',
      from: { path: '^(packages|apps)/[^/]+/src/' },
      to: { path: packagePattern(['corpus']) },
    },
    {
      name: 'no-unresolvable-relative-import',
      severity: 'error',
      comment:
        "a relative import that points at no file is a typo or a deleted module (a package's own build output, " +
        'which benchmarks import, does not exist before the build this check runs ahead of)',
      from: {},
      to: { couldNotResolve: true, path: '^\\.', pathNot: '^\\.\\./dist/' },
    },
  ],
  options: {
    // A sibling package's dist is its public face: follow nothing inside it or inside node_modules.
    doNotFollow: { path: ['node_modules', '(^|/)dist/'] },
    exclude: { path: ['(^|/)(coverage|\\.turbo|test-artifacts)/', '^packages/route/eval/'] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs'] },
  },
};
