/**
 * @mcp-atlas/discovery: merges the MCP server listings of several directories (the official MCP Registry, Glama,
 * PulseMCP, Smithery, Docker Hub's MCP catalog, best-of-mcp-servers, awesome-mcp-servers, GitHub topics) into one
 * catalog. Pure: no I/O, no clock; the day is an argument. The rule constants are the `./rules` subpath.
 */
export type {
  CatalogPackage,
  CatalogRemote,
  LeftOutEntry,
  PackageRegistry,
  SourceEntry,
  SourceFact,
  SourceName,
  SourceRead,
} from './entries.js';
export { DiscoveryInputError, type DiscoveryInputErrorCode } from './errors.js';
export { normalizeGithubUrl } from './github-url.js';
export {
  type CatalogServer,
  type LinkKind,
  type MergeResult,
  mergeCatalog,
  type SourceSighting,
} from './merge.js';
export {
  type CatalogSummary,
  lastListedDays,
  listingSources,
  type SourceCount,
  summarizeCatalog,
} from './summary.js';
