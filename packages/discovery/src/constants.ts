/**
 * Every list and number the catalog merge uses, one name each. Users read them grouped and frozen through
 * `./rules` (rules.ts). Pure module. A change here changes which servers are merged or kept, so it comes with a
 * methodology version bump and a changelog line (docs/methodology/discovery.md states each rule in words).
 */

/**
 * The directories servers are discovered from, in the order their fields win when two report the same server:
 * the official MCP Registry first (its fields take precedence), then the APIs with curated per-server records,
 * then the lists. A source later in the list only fills what earlier ones left empty.
 */
export const SOURCES = Object.freeze([
  'official-registry',
  'glama',
  'pulsemcp',
  'smithery',
  'docker-hub',
  'best-of-mcp-servers',
  'awesome-mcp-servers',
  'github-topics',
] as const);

/** The external pages a catalog server links to; once known, a link is never blanked by a later read. */
export const EXTERNAL_LINK_KINDS = Object.freeze([
  'glama',
  'smithery',
  'pulsemcp',
  'docker-hub',
  'npm',
  'pypi',
] as const);

/** Which source's page is which link: a source whose entries carry a page of their own. */
export const SOURCE_PAGE_LINKS = Object.freeze({
  glama: 'glama',
  smithery: 'smithery',
  pulsemcp: 'pulsemcp',
  'docker-hub': 'docker-hub',
} as const);

/** Where a package's page is, by package registry; an OCI image has none of its own beyond Docker Hub's. */
export const PACKAGE_PAGE_PREFIXES = Object.freeze({
  npm: 'https://www.npmjs.com/package/',
  pypi: 'https://pypi.org/project/',
} as const);

/** The package registries an entry may name. */
export const PACKAGE_REGISTRIES = Object.freeze(['npm', 'pypi', 'oci'] as const);

/** The origin of every primary key: a server's key is `https://github.com/{owner}/{repo}`, lowercased. */
export const GITHUB_ORIGIN = 'https://github.com';

/** The prefix of the fallback key, for a server with no GitHub repository: its official registry name. */
export const REGISTRY_KEY_PREFIX = 'registry:';

/**
 * GitHub's first path segments that are not an owner (its own pages): a URL under one of them names no
 * repository, so it gives no key.
 */
export const GITHUB_RESERVED_OWNERS = Object.freeze([
  'about',
  'apps',
  'collections',
  'enterprise',
  'explore',
  'features',
  'login',
  'marketplace',
  'orgs',
  'pricing',
  'search',
  'settings',
  'sponsors',
  'topics',
  'users',
]);
