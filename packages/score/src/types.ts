// The shapes scoreServer takes and gives. One source of truth: every other file of the package imports them
// from here. Key names inside `registryMetadata` and `staticAnalysis.details` are the open engine's own
// (env_vars, transport, behavioral_security, ...), because that data comes from outside this package.

/** A server as the score sees it: registry facts and the addresses it is published under. */
export interface ScoreServer {
  name: string;
  description: string;
  repoUrl: string;
  registryId: string;
  remoteEndpointUrl: string;
  isRemote: boolean;
  hasSandboxProbe: boolean;
  /** The registry entry's metadata, with the engine's key names (env_vars, transport, ...). */
  registryMetadata: Record<string, unknown>;
  npmUrl: string;
  pypiUrl: string;
  dockerhubUrl: string;
  /** ISO time of the repository's last commit, or null when unknown. */
  lastCommitAt: string | null;
}

/** The repository and schema analysis: each sub-score is 0-100. */
export interface StaticAnalysis {
  schemaCompleteness: number;
  descriptionQuality: number;
  /**
   * The five repository parts (0-100 each). `null` means not measured (no repository could be read): the
   * docs-and-maintenance category then averages the parts that were, and with none it stays unscored.
   */
  documentationCoverage: number | null;
  maintenancePulse: number | null;
  dependencyHealth: number | null;
  licenseClarity: number | null;
  versionHygiene: number | null;
  /** Extra facts with the engine's key names (documentation_coverage.checks.has_readme, ...). */
  details: Record<string, unknown>;
}

/** One release of a repository, as GitHub lists releases (newest first). */
export interface RepositoryRelease {
  /** The release's tag ('' when GitHub gave none). */
  tagName: string;
  /** ISO time it was published, or null (a draft, or GitHub gave none). */
  publishedAt: string | null;
  /** The release notes ('' when empty). */
  body: string;
  prerelease: boolean;
}

/**
 * What the repository analysis reads about a repository: the GitHub REST API's repository record, the
 * default branch's file tree, the first page of commits and of releases and tags. `@mcp-atlas/probe`'s
 * GitHub reader returns data of this shape.
 */
export interface RepositoryFacts {
  /** `owner/name` as GitHub spells it. */
  fullName: string;
  defaultBranch: string;
  archived: boolean;
  /** ISO time of the last push, or null when GitHub gave none. */
  pushedAt: string | null;
  stars: number;
  forks: number;
  /** Open issues and pull requests together, as GitHub counts them. */
  openIssues: number;
  /** The license GitHub detected, or null when it detected none. */
  license: { spdxId: string | null; name: string | null } | null;
  /** Every path of the default branch's tree (files and folders, `/`-separated); empty for an empty repository. */
  paths: readonly string[];
  /** True when GitHub cut the tree short (a very large repository): `paths` is then incomplete. */
  treeTruncated: boolean;
  /** How many commits the first page of the commit list held (the engine asks for 30). */
  recentCommits: number;
  /** The first page of releases, newest first (the engine asks for 10). */
  releases: readonly RepositoryRelease[];
  /** The first page of tag names, as GitHub orders them (the engine asks for 10). */
  tags: readonly string[];
}

/** What a live session with the server showed. Error handling, fuzz and smoke need tool calls. */
export interface DeepProbe {
  isReachable: boolean;
  connectionMs?: number | null;
  schemaValid?: boolean | null;
  errorHandlingScore?: number | null;
  fuzzScore?: number | null;
  functionalSmokeScore?: number | null;
  authDiscoveryValid?: boolean | null;
  toolsCount?: number | null;
}

/** Uptime and handshake latency over the reliability window, with how many checks they rest on. */
export interface ReliabilityInput {
  uptimePct: number | null;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  probeCount: number;
}

/** Everything scoreServer needs. `now` is an input: the package reads no clock. */
export interface ScoreInput {
  server: ScoreServer;
  staticAnalysis: StaticAnalysis | null;
  deepProbe: DeepProbe | null;
  reliability: ReliabilityInput | null;
  /** The agent-usability score (0-100), or null when no model evaluation exists. */
  agentUsability: number | null;
  /** GitHub organisations whose servers count as from a verified publisher. */
  verifiedOrgs?: readonly string[];
  /** ISO time; stale-data checks measure from it. */
  now: string;
  /**
   * Facts from across the whole map for the context flags (duplicate descriptions, archived repositories).
   * Without it those two flags are not raised, as in the engine's own compute_score.
   */
  flagContext?: FlagContext;
  /**
   * Added to the engine's inputs: true when a person confirmed one of our own description-scan matches as an
   * injection attempt, which raises PROMPT_INJECTION and its cap as the engine's
   * `registryMetadata.behavioral_security.prompt_injection_found` does. A scan match alone never sets it.
   */
  confirmedInjection?: boolean;
}

/** A letter grade, or '' when there is no composite. */
export type Grade = '' | 'A+' | 'A' | 'B' | 'C' | 'D' | 'F';

/** How much of the score rests on measurement, best first. */
export type VisibilityLevel = 'complete' | 'verified' | 'assessed' | 'limited' | 'unscored';

/** The six category scores (0-100), null when the category was not scored. */
export interface CategoryScores {
  schemaQuality: number | null;
  protocol: number | null;
  reliability: number | null;
  docsMaintenance: number | null;
  security: number | null;
  agentUsability: number | null;
}

/** A red flag; a critical flag also caps the composite. */
export interface Flag {
  /** The engine's key: DEAD_REPO, STAGING_ARTIFACT, ... */
  key: string;
  severity: 'critical' | 'warning';
  label: string;
  description: string;
}

/** An earned badge. */
export interface Badge {
  key: string;
  label: string;
  level: string;
}

/** The badge groups. */
export type BadgeGroup = 'schema' | 'protocol' | 'reliability' | 'maintenance' | 'security';

/** Everything scoreServer gives. */
export interface ScoreResult {
  compositeScore: number | null;
  grade: Grade;
  visibilityLevel: VisibilityLevel;
  dimensionsScored: number;
  dimensionsApplicable: number;
  categories: CategoryScores;
  flags: Flag[];
  badges: Record<BadgeGroup, Badge[]>;
  /** One of the classification's categories. */
  category: string;
  /** Target platforms the server works with. */
  targets: string[];
  publisher: string;
  verifiedPublisher: boolean;
}

/** Facts from across the whole map that some flags need. */
export interface FlagContext {
  /**
   * How many servers on the map carry each description, keyed as the engine keys it: trimmed, in lower case,
   * the first 200 code points (`descriptionKey`; build the whole record with `countDescriptions`).
   */
  descriptionCounts: Record<string, number>;
  /** Repository URLs known to be archived. */
  archivedRepos: string[];
}

/** Options for detectFlags. */
export interface DetectFlagsOptions {
  now: string;
  context?: FlagContext;
}
