/**
 * @mcp-atlas/score: the MCP Scoreboard quality score (0-100 composite, grade, visibility tier, flags, badges,
 * classification), with the answers of its open engine 0.9.0. Pure: no I/O, no clock, no randomness, and no
 * runtime dependency (the shared day helpers of the private `@mcp-atlas/base` are bundled); `now` is an input.
 * This file re-exports the public names and nothing else: what a user calls, the shapes it takes and gives, and
 * the vocabularies. The rule constants are the `./rules` subpath (rules.ts).
 */

export type { BadgeInput } from './badges.js';
export { applyRuntimeSchemaOverride, type SecurityParts, scoreSecurityParts } from './categories.js';
export { classifyServer, publisherOf, SERVER_CATEGORIES, type ServerCategory } from './classification.js';
export { type CompositeParts, computeCappedComposite, computeComposite, type WeightSet } from './composite.js';
export { type EnvVarEntry, isSecretEnvVar } from './env-vars.js';
export {
  countDescriptions,
  type DetectFlagsInput,
  detectFlags,
  FLAG_KEYS,
  type FlagDefinition,
  type FlagKey,
} from './flags.js';
export { gradeFor, type ScoreDrop, type ScoredDay, scoreDropOf, scoreDropsOf } from './grade.js';
export {
  type InjectionMatch,
  scanDescriptionForInjection,
  scanToolDescriptions,
  type ToolDescriptionLike,
  type ToolInjectionMatch,
} from './injection.js';
export {
  type BlendedJudgeScore,
  type Consensus,
  evaluateSchemaInterpretability,
  type JudgeEvaluation,
  type JudgeToolRating,
  type SchemaInterpretability,
} from './judge.js';
export { scoreLatency } from './latency.js';
export {
  type DayCheckCount,
  latencyPercentile,
  type UptimeWindow,
  type UptimeWindowName,
  uptimeWindowsOf,
} from './reliability.js';
export {
  type AnalyzeRepositoryOptions,
  analyzeRepository,
  type RepositoryAnalysis,
  type SchemaPart,
  type SubScore,
  staticAnalysisOf,
} from './repository-analysis.js';
export { roundHalfEven } from './rounding.js';
export { analyzeRuntimeSchemas, type RuntimeSchemaAnalysis, type SchemaMarker } from './schema-analysis.js';
export { scoreServer } from './score-server.js';
export {
  detectSpecFromSdk,
  detectSpecFromSourceMarkers,
  type SourceFile,
  SPEC_VERSIONS,
  type SpecVersion,
  type SpecVersionResult,
  specVersionFromProtocolVersion,
  toSpecVersionMetadata,
} from './spec-version.js';
export { ageInDays, decayStaticAnalysis } from './stale.js';
export type {
  Badge,
  BadgeGroup,
  CategoryScores,
  DeepProbe,
  DetectFlagsOptions,
  Flag,
  FlagContext,
  Grade,
  ReliabilityInput,
  RepositoryFacts,
  RepositoryRelease,
  ScoreInput,
  ScoreResult,
  ScoreServer,
  StaticAnalysis,
  VisibilityLevel,
} from './types.js';
export {
  type ApplicabilityInput,
  applicableDimensions,
  compareForLeaderboard,
  DIMENSIONS,
  type Dimension,
  type DimensionStatus,
  decideVisibility,
  dimensionChecklist,
  VISIBILITY_LEVELS,
  type Visibility,
  type VisibilityInput,
} from './visibility.js';
