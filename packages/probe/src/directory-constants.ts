// Pure module: every address, page size and limit the directory readers use, one name each. Users read them
// grouped and frozen as DIRECTORY_RULES in `./rules`. A change here changes which servers a day's catalog
// holds, so it comes with a probe rules version bump and a changelog line (docs/methodology/discovery.md).

/** Where each directory is read by default, and from which path. */
export const DIRECTORY_DEFAULTS = Object.freeze({
  'official-registry': { baseUrl: 'https://registry.modelcontextprotocol.io', path: '/v0.1/servers' },
  glama: { baseUrl: 'https://glama.ai', path: '/api/mcp/v1/servers' },
  pulsemcp: { baseUrl: 'https://api.pulsemcp.com', path: '/v0.1/servers' },
  smithery: { baseUrl: 'https://registry.smithery.ai', path: '/servers' },
  'docker-hub': { baseUrl: 'https://hub.docker.com', path: '/v2/namespaces/mcp/repositories' },
  'best-of-mcp-servers': {
    baseUrl: 'https://api.github.com',
    path: '/repos/tolkonepiu/best-of-mcp-servers/contents/history',
  },
  'awesome-mcp-servers': {
    baseUrl: 'https://raw.githubusercontent.com',
    path: '/punkpeye/awesome-mcp-servers/main/README.md',
  },
  'github-topics': { baseUrl: 'https://api.github.com', path: '/search/repositories' },
} as const);

/** Entries asked for per page, where the directory lets the reader choose (each one's documented maximum). */
export const DIRECTORY_PAGE_SIZE = 100;

/** Pages read from one directory in one day; a longer list is cut there and read as truncated. */
export const DIRECTORY_MAX_PAGES = 1000;

/** One page, redirects included. */
export const DIRECTORY_PAGE_TIMEOUT_MS = 30_000;

/** Bytes of one JSON page or one list document (a README, a CSV snapshot). */
export const DIRECTORY_PAGE_CAP_BYTES = 8 * 1024 * 1024;

/** Redirect hops followed for a page (a raw file host may redirect once to its CDN). */
export const DIRECTORY_MAX_REDIRECTS = 2;

/** Times one page is asked again after a 429, or a 503 that names a wait. */
export const DIRECTORY_RATE_LIMIT_RETRIES = 3;

/** The wait taken when a rate-limited answer names none. */
export const DIRECTORY_RATE_LIMIT_DEFAULT_WAIT_MS = 10_000;

/** The longest wait honoured; a directory asking for longer is read as truncated at that page. */
export const DIRECTORY_RATE_LIMIT_WAIT_MAX_MS = 120_000;

/** The GitHub topics searched, one query each (a repository tagged with both is listed once). */
export const GITHUB_DISCOVERY_TOPICS = Object.freeze(['mcp-server', 'model-context-protocol'] as const);

/** GitHub's search answers at most this many results per query; a longer total is read as truncated. */
export const GITHUB_SEARCH_RESULT_LIMIT = 1000;

/** The Docker Hub namespace of Docker's own MCP catalog: its images are built and signed by Docker. */
export const DOCKER_MCP_NAMESPACE = 'mcp';

/** A Smithery server deployed on Smithery is reached through this proxy host (a link, never a checked remote). */
export const SMITHERY_DEPLOYMENT_ORIGIN = 'https://server.smithery.ai';

/** Where a server's page is at Smithery and Docker Hub, when the listing gives none. */
export const DIRECTORY_PAGE_PREFIXES = Object.freeze({
  smithery: 'https://smithery.ai/server/',
  'docker-hub': 'https://hub.docker.com/r/',
} as const);

/** The awesome-mcp-servers legend: each badge after an entry's link, and the fact it stands for. */
export const AWESOME_LIST_BADGES = Object.freeze({
  '🎖️': ['official', true],
  '🐍': ['language', 'python'],
  '📇': ['language', 'typescript'],
  '🏎️': ['language', 'go'],
  '🦀': ['language', 'rust'],
  '#️⃣': ['language', 'csharp'],
  '☕': ['language', 'java'],
  '🌊': ['language', 'c-cpp'],
  '💎': ['language', 'ruby'],
  '☁️': ['scope', 'cloud'],
  '🏠': ['scope', 'local'],
  '📟': ['scope', 'embedded'],
} as const);

/** The awesome-mcp-servers heading whose `###` sections are the categories of servers. */
export const AWESOME_LIST_SERVERS_HEADING = 'Server Implementations';

/** The best-of-mcp-servers snapshot files: `history/<YYYY-MM-DD>_projects.csv`, the newest one read. */
export const BEST_OF_SNAPSHOT_PATTERN = /^(\d{4}-\d{2}-\d{2})_projects\.csv$/;
