// Runtime-neutral entry: the public API of @mcp-atlas/probe. No Node built-ins are imported from here
// (a test walks the import graph to prove it); the Node pieces are in `@mcp-atlas/probe/node`. This file holds
// what a user of the probe calls: checking a server (probeServer), the guard, the site check and endpoint
// discovery, the documents read from a site, the registry listing, the deep check's score, and the schemas and
// types of their results. The methodology's rule constants are the `./rules` subpath (rules.ts), the readers of
// outside services (GitHub, npm, PyPI, OSV, RDAP) the `./outside` subpath (outside.ts); parsing helpers and wire
// plumbing (request ids, header values) stay internal, so they can change without a release note.

export type { ProbeClock } from './clock.js';
export {
  type ComplianceInput,
  type CompliancePart,
  type ComplianceScore,
  classifyDeepCall,
  DEEP_CALL_OUTCOMES,
  type DeepCallClassification,
  type DeepCallOutcome,
  scoreCompliance,
} from './compliance.js';
export { type ConformanceTarget, chooseConformanceScenarios } from './conformance.js';
export { type DiscoverOptions, discoverEndpoint, type SiteDocuments } from './discovery.js';
export { ProbeInputError, type ProbeInputErrorCode, RegistryReadError } from './errors.js';
export type { CheckTargetOptions, GuardRule, LookupFunction, TargetCheck } from './guard.js';
export { checkTarget, isOptedOut } from './guard.js';
export {
  createFetchHttpClient,
  type FetchFunction,
  type HeaderReader,
  type HttpClient,
  type HttpClientFactory,
  type HttpRequest,
  type HttpResponse,
} from './http.js';
export { type AddressClass, classifyAddress } from './ip.js';
export type { NetworkOptions, ProbeOptions } from './options.js';
export { withOriginHeaders } from './origin-headers.js';
export { type OwnerTokenKind, type OwnerTokenRead, readOwnerToken } from './owner-token.js';
export { probeServer } from './probe-server.js';
export { decideRateLimitRetry, type RateLimitedTry, type RateLimitRetryDecision } from './rate-limit.js';
export { type ListRegistryOptions, listRegistryServers, pickRemote } from './registry.js';
export { readRobots } from './robots.js';
export {
  type AuthDiscovery,
  type AuthDiscoveryRead,
  AuthDiscoverySchema,
  type DiscoveryResult,
  DiscoveryResultSchema,
  type EndpointCandidate,
  type EndpointSource,
  type Letter,
  LetterSchema,
  type McpPathProbe,
  type ProbeReason,
  ProbeReasonSchema,
  type ProbeRedirect,
  type ProbeResult,
  ProbeResultSchema,
  type ProbeStep,
  ProbeStepSchema,
  type RegistryEntry,
  RegistryEntrySchema,
  type RegistryMeta,
  type RegistryRemote,
  type RegistryServer,
  type RobotsPolicy,
  RobotsPolicySchema,
  type RobotsRule,
  type RobotsStatus,
  type ServerInfo,
  type SiteCheckResult,
  SiteCheckResultSchema,
  type SiteVerdict,
  SiteVerdictSchema,
  type StepName,
  type StepOutcome,
  type WellKnownDocument,
  type WellKnownResult,
  WellKnownResultSchema,
} from './schemas.js';
export { type CheckSiteOptions, checkSite, readSiteDocuments } from './site-check.js';
export { type CappedToolText, capToolText, type ToolTextCut } from './tool-text-cap.js';
export { readWellKnown } from './well-known.js';
