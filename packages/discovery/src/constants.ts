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

/** Each source's name as people read it. */
export const SOURCE_TITLES = Object.freeze({
  'official-registry': 'Official MCP Registry',
  glama: 'Glama',
  pulsemcp: 'PulseMCP',
  smithery: 'Smithery',
  'docker-hub': 'Docker Hub MCP catalog',
  'best-of-mcp-servers': 'best-of-mcp-servers',
  'awesome-mcp-servers': 'awesome-mcp-servers',
  'github-topics': 'GitHub topics',
} as const);

/** Each source's own public page, linked where a server has no page of its own there. */
export const SOURCE_HOMES = Object.freeze({
  'official-registry': 'https://registry.modelcontextprotocol.io',
  glama: 'https://glama.ai/mcp/servers',
  pulsemcp: 'https://www.pulsemcp.com/servers',
  smithery: 'https://smithery.ai',
  'docker-hub': 'https://hub.docker.com/u/mcp',
  'best-of-mcp-servers': 'https://github.com/tolkonepiu/best-of-mcp-servers',
  'awesome-mcp-servers': 'https://github.com/punkpeye/awesome-mcp-servers',
  'github-topics': 'https://github.com/topics/mcp-server',
} as const);

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
