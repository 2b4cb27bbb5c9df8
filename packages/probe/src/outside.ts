// Runtime-neutral entry `@mcp-atlas/probe/outside`: the readers of outside services, which say something about
// a server without asking the server itself (a GitHub repository's facts, a package's current version on npm
// or PyPI, its known vulnerabilities on OSV, its domain's registration date on RDAP), and the readers of the
// directories that list servers (the official registry, Glama, PulseMCP, Smithery, Docker Hub, two lists, GitHub). They share the probe's
// guard, pinning, time limits and size caps, take the same network options as the root's functions, and
// never throw for what a service does. Their limits are OUTSIDE_SERVICE_RULES and GITHUB_RULES in `./rules`.
// No Node built-in is imported from here (a test walks the import graph to prove it).

export { officialRegistryEntry } from './directory-formats.js';
export { type DirectoryRead, type DirectoryReadOptions, readDirectory } from './directory-read.js';
export {
  type GitHubFailureReason,
  type GitHubReadOptions,
  type GitHubRelease,
  type GitHubRepositoryFacts,
  type GitHubRepositoryRead,
  parseGitHubRepoUrl,
  readGitHubRepository,
} from './github.js';
export {
  type OsvBatchRead,
  type OsvFinding,
  type OsvOptions,
  type OsvQuery,
  queryOsvBatch,
} from './osv.js';
export { normalizeBaseUrl, type OutsideFailureReason } from './outside-request.js';
export { type DownloadsRead, type DownloadsReadOptions, readWeeklyDownloads } from './package-downloads.js';
export {
  isNpmPackageName,
  type NpmReadOptions,
  normalizePypiName,
  type PackageEcosystem,
  type PackageVersionRead,
  type PypiReadOptions,
  readNpmPackage,
  readPypiPackage,
} from './package-registry.js';
export { type DomainRegistrationRead, type RdapOptions, rdapDomainOf, readDomainRegistration } from './rdap.js';
export { postWebhook, type WebhookDelivery, type WebhookPost } from './webhook.js';
