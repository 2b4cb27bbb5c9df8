/**
 * The methodology's rule constants of @mcp-atlas/discovery, published as `@mcp-atlas/discovery/rules`: one frozen
 * object, explained in docs/methodology/discovery.md. The values are written once, in constants.ts. Pure module.
 */
import {
  EXTERNAL_LINK_KINDS,
  GITHUB_ORIGIN,
  GITHUB_RESERVED_OWNERS,
  PACKAGE_PAGE_PREFIXES,
  PACKAGE_REGISTRIES,
  REGISTRY_KEY_PREFIX,
  SOURCE_HOMES,
  SOURCE_PAGE_LINKS,
  SOURCE_TITLES,
  SOURCES,
} from './constants.js';

/**
 * How directories' entries become one catalog (methodology, "Discovery").
 *
 * @example
 * // DISCOVERY_RULES is exported by the `@mcp-atlas/discovery/rules` subpath
 * DISCOVERY_RULES.sources[0]; // 'official-registry': its fields win
 */
export const DISCOVERY_RULES = Object.freeze({
  /** The sources, in the order their fields win. */
  sources: SOURCES,
  /** Each source's name as people read it. */
  sourceTitles: SOURCE_TITLES,
  /** Each source's own page. */
  sourceHomes: SOURCE_HOMES,
  /** The external pages a server links to, never blanked once known. */
  externalLinkKinds: EXTERNAL_LINK_KINDS,
  /** Which source's own page is which link. */
  sourcePageLinks: SOURCE_PAGE_LINKS,
  /** Where a package's page is, by registry. */
  packagePagePrefixes: PACKAGE_PAGE_PREFIXES,
  /** The package registries an entry may name. */
  packageRegistries: PACKAGE_REGISTRIES,
  /** Every primary key starts with this origin. */
  githubOrigin: GITHUB_ORIGIN,
  /** The fallback key's prefix, before the official registry name. */
  registryKeyPrefix: REGISTRY_KEY_PREFIX,
  /** First path segments of GitHub's own pages, which name no repository. */
  githubReservedOwners: GITHUB_RESERVED_OWNERS,
});
