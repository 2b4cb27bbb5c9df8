/**
 * The methodology's rule constants of @mcp-atlas/score, published as `@mcp-atlas/score/rules`: one frozen object
 * per concern, each naming the part of the methodology's "Quality score" area that explains it. The values are
 * written once, next to the functions that apply them; these objects only group them. The root entry exports none
 * of them: a rule is read here, a function is called from the root.
 *
 * Pure module: no I/O, no clock.
 */
import {
  ACTIVITY_BADGE_DAYS,
  ERROR_HANDLING_BADGE_THRESHOLDS,
  FEW_SECRETS_MAX,
  LATENCY_BADGE_THRESHOLDS_MS,
  RELEASE_BADGE_COUNTS,
  SEMVER_BADGE_RATIO,
  UPTIME_BADGE_THRESHOLDS,
} from './badges.js';
import {
  AUTH_DISCOVERY_BONUS,
  BEHAVIORAL_SECURITY_MAX_POINTS,
  CREDENTIAL_POINTS,
  DISTRIBUTION_POINTS,
  DOCS_MAINTENANCE_WEIGHTS,
  FEW_HIGHLY_SENSITIVE_MAX,
  LATEST_SPEC_VERSION,
  PROTOCOL_REACHABLE_POINTS,
  PROTOCOL_SCHEMA_POINTS,
  SCHEMA_QUALITY_WEIGHTS,
  SECRET_COUNT_POINTS,
  SECURITY_MAX_POINTS,
  SECURITY_STATIC_MAX_POINTS,
  SPEC_VERSION_BONUS,
  TEMPLATE_DESCRIPTION_PENALTY,
  TRANSPORT_POINTS,
} from './categories.js';
import { CLASSIFICATION_FIELD_WEIGHTS, TARGET_PLATFORMS, VERIFIED_PUBLISHERS } from './classification.js';
import { ENHANCED_WEIGHTS, STANDARD_WEIGHTS } from './composite.js';
import { HIGH_SENSITIVITY_ENV_VAR_PATTERN, SECRET_ENV_VAR_PATTERN } from './env-vars.js';
import {
  AMBIGUOUS_SCHEMA_MIN_TOOLS,
  AMBIGUOUS_SCHEMA_NAMES_SHOWN,
  DEAD_REPO_STATUSES,
  DESCRIPTION_DUPLICATE_MIN_COUNT,
  DESCRIPTION_DUPLICATE_MIN_LENGTH,
  DESCRIPTION_KEY_MAX_CHARS,
  FLAG_DEFINITIONS,
  FLAG_SCORE_CAPS,
  HIGH_SECRET_DEMAND_MIN_VARS,
  NON_SENSITIVE_ENV_VAR_PATTERN,
  OUTDATED_SPEC_VERSION,
  SENSITIVE_CREDS_MIN_SECRETS,
  SENSITIVE_CREDS_NAMES_SHOWN,
  STAGING_URL_PATTERN,
  STALE_ANALYSIS_DAYS,
  STALE_PROJECT_DAYS,
  TEMPLATE_DESCRIPTIONS,
} from './flags.js';
import { GRADE_THRESHOLDS, SCORE_DROP_ALERT_POINTS } from './grade.js';
import { INJECTION_PATTERNS, INJECTION_SNIPPET_CONTEXT } from './injection.js';
import { AMBIGUOUS_TOOL_SPREAD, CONSENSUS_SPREAD, JUDGE_BLEND_WEIGHTS, LOW_CONSENSUS_FACTOR } from './judge.js';
import { LATENCY_ANCHORS } from './latency.js';
import {
  MINIMUM_PROBE_COUNT,
  RELIABILITY_WEIGHTS,
  RELIABILITY_WEIGHTS_WITHOUT_P95,
  SCORE_RELIABILITY_WINDOW_DAYS,
  UPTIME_WINDOW_DAYS,
} from './reliability.js';
import {
  CHANGELOG_FILE_NAMES,
  CI_PATH_PREFIXES,
  CODE_OF_CONDUCT_PATHS,
  COMMIT_BONUS,
  COMMUNITY_CAP,
  CONTRIBUTING_FILE_NAMES,
  DEPENDENCY_AUTOMATION_FILES,
  DEPENDENCY_MANIFESTS,
  DEPENDENCY_POINTS,
  DOCS_PATH_PREFIXES,
  DOCUMENTATION_CAP,
  DOCUMENTATION_POINTS,
  EXAMPLES_PATH_PREFIXES,
  FORK_POINTS,
  INSTALLABLE_MANIFESTS,
  ISSUE_POINTS,
  KNOWN_LICENSES,
  LICENSE_FILE_NAMES,
  LICENSE_POINTS,
  LOCK_FILES,
  NO_ASSERTION,
  PROVENANCE_CAP,
  PROVENANCE_POINTS,
  PUSH_RECENCY_VITALITY,
  README_FILE_NAMES,
  RELEASE_COUNT_POINTS,
  RELEASE_DISCIPLINE_CAP,
  RELEASE_NOTES_POINTS,
  RELEASE_NOTES_SHARE,
  RELEASE_NOTES_WINDOW,
  RELEASE_RECENCY_POINTS,
  SECURITY_POLICY_PATHS,
  SEMVER_PATTERN,
  SEMVER_RATIO_THRESHOLDS,
  STABILITY_FLOOR,
  STAR_POINTS,
  VERSION_POINTS,
  VITALITY_CAP,
} from './repository-analysis.js';
import {
  DESCRIPTION_ACTION_WORDS,
  DESCRIPTION_DETAILED_CHARS,
  DESCRIPTION_MIN_CHARS,
  DESCRIPTION_POINTS_ACTIONABLE,
  DESCRIPTION_POINTS_DETAILED,
  DESCRIPTION_POINTS_PARAMETERS,
  DESCRIPTION_POINTS_PRESENT,
  SCHEMA_COMPLETENESS_BASE,
  SCHEMA_COMPLETENESS_CAP_WITHOUT_DESCRIPTIONS,
  SCHEMA_COMPLETENESS_CAP_WITHOUT_INPUT_SCHEMA,
  SCHEMA_COMPLETENESS_MARKER_POINTS,
  SCHEMA_MARKERS,
} from './schema-analysis.js';
import {
  FEATURES_2025_06_18,
  FEATURES_2025_11_25,
  KNOWN_PROTOCOL_VERSIONS,
  NODE_SDK_PACKAGE,
  PYTHON_SDK_PACKAGE,
  SDK_MIN_FOR_2025_06_18,
  SDK_MIN_FOR_2025_11_25,
  SPEC_FEATURE_MARKERS,
} from './spec-version.js';
import { STALE_DECAY_FLOOR, STALE_DECAY_STEPS } from './stale.js';
import { MIN_DIMENSIONS_FOR_COMPOSITE } from './visibility.js';

export type { GradeThreshold } from './grade.js';
export type { InjectionPattern } from './injection.js';
export type { LatencyAnchor } from './latency.js';
export type { AgeStep, CountStep } from './repository-analysis.js';
export type { StaleDecayStep } from './stale.js';

/** Schema quality (methodology, "Quality score" > "Categories", schema quality). */
export const SCHEMA_QUALITY_RULES = Object.freeze({
  /** Weights of schema completeness (60%) and description quality (40%). */
  weights: SCHEMA_QUALITY_WEIGHTS,
  /** Points taken off schema quality for a placeholder description (the TEMPLATE_DESCRIPTION flag), never below 0. */
  templateDescriptionPenalty: TEMPLATE_DESCRIPTION_PENALTY,
});

/** The protocol category (methodology, "Quality score" > "Categories", protocol). */
export const PROTOCOL_RULES = Object.freeze({
  /** The reachability part: 100 for a reachable server, 0 for one that is not. */
  reachablePoints: PROTOCOL_REACHABLE_POINTS,
  /** The tool-list schema part: 100 when valid, 30 when invalid. */
  schemaPoints: PROTOCOL_SCHEMA_POINTS,
  /**
   * Points added when OAuth discovery works (a sign-in server publishes its protected resource metadata), the sum
   * capped at 100. The probe's compliance score of a deep check adds the same bonus.
   */
  authDiscoveryBonus: AUTH_DISCOVERY_BONUS,
});

/**
 * The reliability category and its latency curve (methodology, "Quality score" > "Categories", reliability).
 *
 * @example
 * // RELIABILITY_RULES is exported by the `@mcp-atlas/score/rules` subpath
 * const windowDays = RELIABILITY_RULES.windowDays; // 7: the days of checks the uptime and latencies cover
 */
export const RELIABILITY_RULES = Object.freeze({
  /** The latency curve's anchors, fastest first: straight lines between them, 100 at 100 ms down to 10 at 5,000 ms. */
  latencyAnchors: LATENCY_ANCHORS,
  /** The blend with uptime, p50 and p95: 75/15/10. */
  weights: RELIABILITY_WEIGHTS,
  /** The blend without p95: 80/20. */
  weightsWithoutP95: RELIABILITY_WEIGHTS_WITHOUT_P95,
  /** Fewest checks a reliability score may rest on; 0 is a single one-off run and skips the gate. */
  minimumProbeCount: MINIMUM_PROBE_COUNT,
  /** Days of checks the uptime and the latencies cover, the scored day included. */
  windowDays: SCORE_RELIABILITY_WINDOW_DAYS,
  /** The uptime windows shown beside the score, in days ending the scored day: 24 hours (1), 7 and 30 days. */
  uptimeWindowDays: UPTIME_WINDOW_DAYS,
});

/** Docs and maintenance (methodology, "Quality score" > "Categories", docs and maintenance). */
export const DOCS_MAINTENANCE_RULES = Object.freeze({
  /** Weights of the five repository parts: 30/30/15/15/10. */
  weights: DOCS_MAINTENANCE_WEIGHTS,
  /** The newest specification version; a server on it or later earns the spec bonus. */
  latestSpecVersion: LATEST_SPEC_VERSION,
  /** Points added for a server on the latest specification version, capped at 100. */
  specVersionBonus: SPEC_VERSION_BONUS,
});

/** Security hygiene, from the registry entry alone (methodology, "Quality score" > "Categories", security hygiene). */
export const SECURITY_RULES = Object.freeze({
  /** Points by how many secret variables the server needs, each row "up to `max` secrets: `points`". */
  secretCountPoints: SECRET_COUNT_POINTS,
  /** Points by transport: local stdio 15, streamable HTTP 12, SSE 9, an unknown remote transport 6. */
  transportPoints: TRANSPORT_POINTS,
  /** Points by credential sensitivity. */
  credentialPoints: CREDENTIAL_POINTS,
  /** Highly sensitive variables still counted as "few" in the credential points. */
  fewHighlySensitiveMax: FEW_HIGHLY_SENSITIVE_MAX,
  /** Points by distribution: a package and a repository, a repository, a package, neither. */
  distributionPoints: DISTRIBUTION_POINTS,
  /** The most points behavioral security adds, when the registry metadata carries it. */
  behavioralMaxPoints: BEHAVIORAL_SECURITY_MAX_POINTS,
  /** Most points of the four static parts (scaled to 100 without behavioral security). */
  staticMaxPoints: SECURITY_STATIC_MAX_POINTS,
  /** Most points with behavioral security (scaled to 100 with it). */
  maxPoints: SECURITY_MAX_POINTS,
  /** Names that mark a secret variable, in any case, anywhere in the name. */
  secretEnvVarPattern: SECRET_ENV_VAR_PATTERN,
  /** Names of highly sensitive credentials (databases, cloud secrets, payment and messaging, signing keys). */
  highSensitivityEnvVarPattern: HIGH_SENSITIVITY_ENV_VAR_PATTERN,
});

/** Agent usability from models' readings (methodology, "Quality score" > "Categories", agent usability). */
export const AGENT_USABILITY_RULES = Object.freeze({
  /** Blend weights by the number of models, lowest model score first. */
  blendWeights: JUDGE_BLEND_WEIGHTS,
  /** Consensus bands over the spread between the highest and lowest model score. */
  consensusSpread: CONSENSUS_SPREAD,
  /** Factor applied to the blended score when consensus is low. */
  lowConsensusFactor: LOW_CONSENSUS_FACTOR,
  /** A tool is ambiguous when any one metric's spread between models is above this. */
  ambiguousToolSpread: AMBIGUOUS_TOOL_SPREAD,
});

/** The composite and its caps (methodology, "Quality score" > "Composite, caps and grade"). */
export const COMPOSITE_RULES = Object.freeze({
  /** Category weights without an agent-usability score: 25/20/20/15/20. */
  standardWeights: STANDARD_WEIGHTS,
  /** Category weights with an agent-usability score: 20/18/18/12/17 and 15. */
  enhancedWeights: ENHANCED_WEIGHTS,
  /** The most a server carrying each capping flag may score; category scores are never capped. */
  flagCaps: FLAG_SCORE_CAPS,
});

/**
 * Grades and the score-drop alert (methodology, "Quality score" > "Composite, caps and grade", and "The daily score
 * of every watched server" for the drop).
 */
export const GRADE_RULES = Object.freeze({
  /** Grade rows, best first: A+ from 95, A from 85, B from 70, C from 55, D from 40, F below. */
  thresholds: GRADE_THRESHOLDS,
  /** A fall of the composite by this many points or more is an alert for the server's owner. */
  dropAlertPoints: SCORE_DROP_ALERT_POINTS,
});

/** Dimensions and visibility tiers (methodology, "Quality score" > "Dimensions and visibility"). */
export const VISIBILITY_RULES = Object.freeze({
  /** Fewest scored dimensions for a composite and a grade; fewer is unscored. */
  minDimensionsForComposite: MIN_DIMENSIONS_FOR_COMPOSITE,
});

/** Stale-data decay of a kept repository analysis (methodology, "Quality score" > "Stale-data decay"). */
export const STALE_DECAY_RULES = Object.freeze({
  /** Steps by whole days of age: up to `maxDays` keeps `factor` of the value. */
  steps: STALE_DECAY_STEPS,
  /** The factor past the last step. */
  floor: STALE_DECAY_FLOOR,
});

/** Documentation coverage and provenance (methodology, "Quality score" > "Repository dimensions"). */
export const DOCUMENTATION_RULES = Object.freeze({
  /** Root file names (lower case) that count as a README. */
  readmeFileNames: README_FILE_NAMES,
  /** Root file names (lower case) that count as a changelog. */
  changelogFileNames: CHANGELOG_FILE_NAMES,
  /** Root file names (lower case) that count as a contributing guide. */
  contributingFileNames: CONTRIBUTING_FILE_NAMES,
  /** Root file names (lower case) that count as a license file. */
  licenseFileNames: LICENSE_FILE_NAMES,
  /** Path prefixes that count as an examples folder. */
  examplesPathPrefixes: EXAMPLES_PATH_PREFIXES,
  /** Path prefixes that count as a documentation folder. */
  docsPathPrefixes: DOCS_PATH_PREFIXES,
  /** Points of each documentation check. */
  points: DOCUMENTATION_POINTS,
  /** The most the documentation checks give. */
  cap: DOCUMENTATION_CAP,
  /** Paths (lower case) that count as a security policy. */
  securityPolicyPaths: SECURITY_POLICY_PATHS,
  /** Paths (lower case) that count as a code of conduct. */
  codeOfConductPaths: CODE_OF_CONDUCT_PATHS,
  /** Root manifests that make the repository an installable package. */
  installableManifests: INSTALLABLE_MANIFESTS,
  /** Points of each provenance signal. */
  provenancePoints: PROVENANCE_POINTS,
  /** The most provenance adds. */
  provenanceCap: PROVENANCE_CAP,
});

/** Maintenance pulse: vitality, release discipline, community (methodology, "Quality score" > "Repository dimensions"). */
export const MAINTENANCE_PULSE_RULES = Object.freeze({
  /** Vitality by days since the last push. */
  pushRecencyVitality: PUSH_RECENCY_VITALITY,
  /** The most vitality reaches, commit bonus included. */
  vitalityCap: VITALITY_CAP,
  /** The stars, open-issue ratio and vitality of the stability floor. */
  stabilityFloor: STABILITY_FLOOR,
  /** Vitality bonus by commits on the first page of the commit list. */
  commitBonus: COMMIT_BONUS,
  /** Release discipline by releases listed. */
  releaseCountPoints: RELEASE_COUNT_POINTS,
  /** Release discipline by the newest release's age. */
  releaseRecencyPoints: RELEASE_RECENCY_POINTS,
  /** Release discipline when one of the newest releases has notes. */
  releaseNotesPoints: RELEASE_NOTES_POINTS,
  /** How many of the newest releases are searched for notes. */
  releaseNotesWindow: RELEASE_NOTES_WINDOW,
  /** The most release discipline gives. */
  releaseDisciplineCap: RELEASE_DISCIPLINE_CAP,
  /** Community points by stars. */
  starPoints: STAR_POINTS,
  /** Community points by open issues and their ratio to stars. */
  issuePoints: ISSUE_POINTS,
  /** Community points by forks. */
  forkPoints: FORK_POINTS,
  /** The most community health gives. */
  communityCap: COMMUNITY_CAP,
});

/** Dependency health (methodology, "Quality score" > "Repository dimensions"). */
export const DEPENDENCY_HEALTH_RULES = Object.freeze({
  /** Root dependency manifests (any `requirements.txt` counts too). */
  manifests: DEPENDENCY_MANIFESTS,
  /** Lock files at the root. */
  lockFiles: LOCK_FILES,
  /** Path prefixes that mark CI. */
  ciPathPrefixes: CI_PATH_PREFIXES,
  /** Dependency-update automation configs. */
  automationFiles: DEPENDENCY_AUTOMATION_FILES,
  /** Points of each check: manifest 30, lock file 25, CI 20, automation 25. */
  points: DEPENDENCY_POINTS,
});

/** License clarity (methodology, "Quality score" > "Repository dimensions"). */
export const LICENSE_CLARITY_RULES = Object.freeze({
  /** SPDX ids that count as a well-known license. */
  knownLicenses: KNOWN_LICENSES,
  /** The SPDX id GitHub gives a license it cannot identify; it counts as none. */
  noAssertion: NO_ASSERTION,
  /** Points for a known SPDX id, another SPDX id, a name only, none. */
  points: LICENSE_POINTS,
});

/** Version hygiene (methodology, "Quality score" > "Repository dimensions"). */
export const VERSION_HYGIENE_RULES = Object.freeze({
  /** A semantic version, with an optional `v` and anything after `-` or `+`. */
  semverPattern: SEMVER_PATTERN,
  /** Semver share thresholds: mostly semver, half semver. */
  semverRatioThresholds: SEMVER_RATIO_THRESHOLDS,
  /** Share of several releases with notes that earns the notes-on-most points. */
  releaseNotesShare: RELEASE_NOTES_SHARE,
  /** Points of each check; at most 100 in all. */
  points: VERSION_POINTS,
});

/** The red flags (methodology, "Quality score" > "Red flags"); their composite caps are COMPOSITE_RULES.flagCaps. */
export const FLAG_RULES = Object.freeze({
  /** Severity and label of each flag key. */
  definitions: FLAG_DEFINITIONS,
  /** `repo_status` values that mean the repository is gone (DEAD_REPO). */
  deadRepoStatuses: DEAD_REPO_STATUSES,
  /** Secret variables that raise SENSITIVE_CREDS. */
  sensitiveCredsMinSecrets: SENSITIVE_CREDS_MIN_SECRETS,
  /** Names listed in the SENSITIVE_CREDS sentence, at most. */
  sensitiveCredsNamesShown: SENSITIVE_CREDS_NAMES_SHOWN,
  /** Whole names of plain configuration, never counted toward HIGH_SECRET_DEMAND unless marked secret. */
  nonSensitiveEnvVarPattern: NON_SENSITIVE_ENV_VAR_PATTERN,
  /** Variables that are not plain configuration that raise HIGH_SECRET_DEMAND. */
  highSecretDemandMinVars: HIGH_SECRET_DEMAND_MIN_VARS,
  /** Days after the last commit past which STALE_PROJECT is raised. */
  staleProjectDays: STALE_PROJECT_DAYS,
  /** Remote endpoint URLs that look like a test deployment (STAGING_ARTIFACT). */
  stagingUrlPattern: STAGING_URL_PATTERN,
  /** Placeholder description starts (TEMPLATE_DESCRIPTION). */
  templateDescriptions: TEMPLATE_DESCRIPTIONS,
  /** Code points of a description compared for DESCRIPTION_DUPLICATE. */
  descriptionKeyMaxChars: DESCRIPTION_KEY_MAX_CHARS,
  /** A description key shorter than this is never a duplicate. */
  descriptionDuplicateMinLength: DESCRIPTION_DUPLICATE_MIN_LENGTH,
  /** Servers sharing a description key that raise DESCRIPTION_DUPLICATE, the server itself included. */
  descriptionDuplicateMinCount: DESCRIPTION_DUPLICATE_MIN_COUNT,
  /** Ambiguous tools that raise AMBIGUOUS_SCHEMA. */
  ambiguousSchemaMinTools: AMBIGUOUS_SCHEMA_MIN_TOOLS,
  /** Tool names listed in the AMBIGUOUS_SCHEMA sentence, at most. */
  ambiguousSchemaNamesShown: AMBIGUOUS_SCHEMA_NAMES_SHOWN,
  /** The spec version OUTDATED_SPEC names. */
  outdatedSpecVersion: OUTDATED_SPEC_VERSION,
  /** Days after the analysis past which STALE_ANALYSIS is raised. */
  staleAnalysisDays: STALE_ANALYSIS_DAYS,
});

/** Classification and publisher (methodology, "Quality score" > "Classification and publisher"). */
export const CLASSIFICATION_RULES = Object.freeze({
  /** The keyword table: keyword, platform, category, in the order that breaks ties. */
  targetPlatforms: TARGET_PLATFORMS,
  /** Votes a keyword gives, by the text it is first found in. */
  fieldWeights: CLASSIFICATION_FIELD_WEIGHTS,
  /** The built-in verified publishers, used when the caller gives no list. */
  verifiedPublishers: VERIFIED_PUBLISHERS,
});

/** The description-injection scan (methodology, "Quality score" > "Description-injection scan"). */
export const INJECTION_RULES = Object.freeze({
  /** The ten patterns, in the engine's order. */
  patterns: INJECTION_PATTERNS,
  /** Code points of context kept on each side of a match. */
  snippetContext: INJECTION_SNIPPET_CONTEXT,
});

/** Spec version detection (methodology, "Quality score" > "Spec version"). */
export const SPEC_VERSION_RULES = Object.freeze({
  /** The lowest SDK version that implements spec 2025-11-25. */
  sdkMinFor20251125: SDK_MIN_FOR_2025_11_25,
  /** The lowest SDK version that implements spec 2025-06-18; older is 2024-11-05. */
  sdkMinFor20250618: SDK_MIN_FOR_2025_06_18,
  /** The npm name of the TypeScript SDK. */
  nodeSdkPackage: NODE_SDK_PACKAGE,
  /** The PyPI name of the Python SDK. */
  pythonSdkPackage: PYTHON_SDK_PACKAGE,
  /** Source-code markers of spec features. */
  featureMarkers: SPEC_FEATURE_MARKERS,
  /** Features whose presence means spec 2025-11-25. */
  features20251125: FEATURES_2025_11_25,
  /** Features whose presence means spec 2025-06-18. */
  features20250618: FEATURES_2025_06_18,
  /** Protocol versions a server may answer `initialize` with, oldest first. */
  knownProtocolVersions: KNOWN_PROTOCOL_VERSIONS,
});

/** Schema quality from the live tool list (methodology, "Quality score" > "Schema quality from the live tool list"). */
export const RUNTIME_SCHEMA_RULES = Object.freeze({
  /** The six schema markers, in the engine's order. */
  markers: SCHEMA_MARKERS,
  /** Completeness once a tool exists, and with none. */
  completenessBase: SCHEMA_COMPLETENESS_BASE,
  /** Points shared out by the share of markers present. */
  completenessMarkerPoints: SCHEMA_COMPLETENESS_MARKER_POINTS,
  /** Completeness cap without an input schema or a declared parameter. */
  completenessCapWithoutInputSchema: SCHEMA_COMPLETENESS_CAP_WITHOUT_INPUT_SCHEMA,
  /** Completeness cap without any description. */
  completenessCapWithoutDescriptions: SCHEMA_COMPLETENESS_CAP_WITHOUT_DESCRIPTIONS,
  /** Code points of a description that earn the present points. */
  descriptionMinChars: DESCRIPTION_MIN_CHARS,
  /** Code points of a description that earn the detailed points too. */
  descriptionDetailedChars: DESCRIPTION_DETAILED_CHARS,
  /** Points for a description of `descriptionMinChars`. */
  descriptionPointsPresent: DESCRIPTION_POINTS_PRESENT,
  /** Points for a description of `descriptionDetailedChars`. */
  descriptionPointsDetailed: DESCRIPTION_POINTS_DETAILED,
  /** Points for a description with an action word. */
  descriptionPointsActionable: DESCRIPTION_POINTS_ACTIONABLE,
  /** Points for the share of a tool's parameters that are described. */
  descriptionPointsParameters: DESCRIPTION_POINTS_PARAMETERS,
  /** Verbs that say what a tool does. */
  descriptionActionWords: DESCRIPTION_ACTION_WORDS,
});

/** Badges (methodology, "Quality score": badges are the engine's pills, by category). */
export const BADGE_RULES = Object.freeze({
  /** Uptime percentages for 99%+, 95%+ and degraded uptime. */
  uptimeThresholds: UPTIME_BADGE_THRESHOLDS,
  /** p50 latencies in ms for fast, moderate and slow. */
  latencyThresholdsMs: LATENCY_BADGE_THRESHOLDS_MS,
  /** Error-handling scores for good and poor error handling. */
  errorHandlingThresholds: ERROR_HANDLING_BADGE_THRESHOLDS,
  /** Days since the last push for active, moderate and stale. */
  activityDays: ACTIVITY_BADGE_DAYS,
  /** Releases for regular releases and has releases. */
  releaseCounts: RELEASE_BADGE_COUNTS,
  /** Share of semver tags that earns the semver badge. */
  semverRatio: SEMVER_BADGE_RATIO,
  /** Most secret variables still shown as "few". */
  fewSecretsMax: FEW_SECRETS_MAX,
});
