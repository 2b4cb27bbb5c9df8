// Runtime-neutral entry: the public API of @mcp-atlas/probe. No Node built-ins are imported from here
// (a test walks the import graph to prove it); the Node pieces are in `@mcp-atlas/probe/node`. This file
// re-exports functions, types, schemas, the error classes and the vocabularies; the methodology's rule
// constants are the `./rules` subpath (rules.ts), and wire plumbing (request ids, header values) is not exported.

export { type ProbeClock, systemClock } from './clock.js';
export {
  type ComplianceInput,
  type CompliancePart,
  type ComplianceScore,
  classifyDeepCall,
  DEEP_CALL_OUTCOMES,
  type DeepCallClassification,
  type DeepCallOutcome,
  scoreCompliance,
  scoreFuzz,
  scoreShare,
} from './compliance.js';
export {
  catalogCardUrls,
  type DiscoverOptions,
  discoverEndpoint,
  findLinkElements,
  parseLinkHeader,
  rejectCandidate,
  type SiteDocuments,
  signalsMcp,
} from './discovery.js';
export { ProbeInputError, type ProbeInputErrorCode, RegistryReadError } from './errors.js';
export {
  type GitHubFailureReason,
  type GitHubReadOptions,
  type GitHubRelease,
  GitHubReleaseEntrySchema,
  type GitHubRepoRecord,
  GitHubRepoRecordSchema,
  type GitHubRepositoryFacts,
  type GitHubRepositoryRead,
  GitHubTagEntrySchema,
  GitHubTreeSchema,
  parseGitHubRepoUrl,
  readGitHubRepository,
} from './github.js';
export type {
  CheckTargetOptions,
  GuardRule,
  LookupFunction,
  ResolvedTarget,
  ResolveTargetOptions,
  TargetCheck,
} from './guard.js';
export { checkTarget, isOptedOut, isSameSite, registrableDomain, resolveTarget } from './guard.js';
export {
  createFetchHttpClient,
  type FetchFunction,
  type HeaderReader,
  type HttpClient,
  type HttpClientFactory,
  type HttpRequest,
  type HttpResponse,
} from './http.js';
export { type AddressClass, classifyAddress, isIpAddress, isPublicAddress, parseIpv4, parseIpv6 } from './ip.js';
export { exceedsJsonDepth } from './json-depth.js';
export type { NetworkOptions, ProbeOptions } from './options.js';
export {
  type OsvBatchAnswer,
  OsvBatchAnswerSchema,
  type OsvBatchRead,
  type OsvBatchResult,
  OsvBatchResultSchema,
  type OsvFinding,
  type OsvOptions,
  type OsvQuery,
  queryOsvBatch,
} from './osv.js';
export { normalizeBaseUrl, type OutsideFailureReason } from './outside-request.js';
export { type OwnerTokenKind, type OwnerTokenRead, readOwnerToken } from './owner-token.js';
export {
  isNpmPackageName,
  type NpmPackageDocument,
  NpmPackageDocumentSchema,
  type NpmReadOptions,
  normalizePypiName,
  npmDocumentPath,
  type PackageEcosystem,
  type PackageVersionRead,
  type PypiProject,
  PypiProjectSchema,
  type PypiReadOptions,
  readNpmPackage,
  readPypiPackage,
} from './package-registry.js';
export { parsePaymentAddress } from './payment.js';
export { letterForReason, probeServer } from './probe-server.js';
export {
  type DomainRegistrationRead,
  type RdapDomain,
  RdapDomainSchema,
  type RdapEvent,
  RdapEventSchema,
  type RdapOptions,
  rdapDomainOf,
  readDomainRegistration,
  registrationDateOf,
} from './rdap.js';
export { isListedEntry, type ListRegistryOptions, listRegistryServers, pickRemote } from './registry.js';
export {
  excludesOrigin,
  isPathAllowed,
  parseRobots,
  type RobotsGroup,
  readRobots,
  robotsPolicyFor,
  selectRobotsRules,
} from './robots.js';
export {
  type DiscoveryResult,
  DiscoveryResultSchema,
  type EndpointCandidate,
  EndpointCandidateSchema,
  type EndpointSource,
  EndpointSourceSchema,
  GUARD_REASONS,
  type Letter,
  LetterSchema,
  type McpPathProbe,
  McpPathProbeSchema,
  type ProbeReason,
  ProbeReasonSchema,
  type ProbeRedirect,
  ProbeRedirectSchema,
  type ProbeResult,
  ProbeResultSchema,
  type ProbeStep,
  ProbeStepSchema,
  type RegistryEntry,
  RegistryEntrySchema,
  type RegistryMeta,
  RegistryMetaSchema,
  type RegistryRemote,
  RegistryRemoteSchema,
  type RegistryServer,
  RegistryServerSchema,
  type RobotsPolicy,
  RobotsPolicySchema,
  type RobotsRule,
  RobotsRuleSchema,
  type RobotsStatus,
  RobotsStatusSchema,
  type ServerInfo,
  ServerInfoSchema,
  type SiteCheckResult,
  SiteCheckResultSchema,
  type SiteVerdict,
  SiteVerdictSchema,
  type StepName,
  StepNameSchema,
  type StepOutcome,
  StepOutcomeSchema,
  type WellKnownDocument,
  WellKnownDocumentSchema,
  type WellKnownResult,
  WellKnownResultSchema,
} from './schemas.js';
export { type CheckSiteOptions, checkSite, readSiteDocuments } from './site-check.js';
export { type CappedToolText, capToolText, type ToolTextCut } from './tool-text-cap.js';
export { readWellKnown } from './well-known.js';
