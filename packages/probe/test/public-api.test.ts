/**
 * Pins the public names of @mcp-atlas/probe: the root entry holds what a user of the probe calls (checking a
 * server, the guard, the site check and discovery, the registry listing, the deep check's score), the error
 * classes and the schemas of their results; the readers of outside services are the `./outside` subpath; the
 * methodology's rule constants are the `./rules` subpath, one frozen object per concern; parsing helpers and wire
 * plumbing (request ids, header values, drain limits) are in no entry. A name added to or dropped from an entry
 * fails here, so every change to the semver promise is a deliberate one.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as outside from '../src/outside.js';
import * as rules from '../src/rules.js';

describe('the root entry', () => {
  it('exports exactly these runtime names, and no rule constant', () => {
    expect(Object.keys(api).sort()).toEqual([
      'AuthDiscoverySchema',
      'DEEP_CALL_OUTCOMES',
      'DiscoveryResultSchema',
      'LetterSchema',
      'ProbeInputError',
      'ProbeReasonSchema',
      'ProbeResultSchema',
      'ProbeStepSchema',
      'RegistryEntrySchema',
      'RegistryReadError',
      'RobotsPolicySchema',
      'SiteCheckResultSchema',
      'SiteVerdictSchema',
      'WellKnownResultSchema',
      'capToolText',
      'checkSite',
      'checkTarget',
      'chooseConformanceScenarios',
      'classifyAddress',
      'classifyDeepCall',
      'createFetchHttpClient',
      'decideRateLimitRetry',
      'discoverEndpoint',
      'isOptedOut',
      'listRegistryServers',
      'pickRemote',
      'probeServer',
      'readOwnerToken',
      'readRobots',
      'readSiteDocuments',
      'readWellKnown',
      'scoreCompliance',
      'withOriginHeaders',
    ]);
  });

  it('exports no wire plumbing and no schedule time', () => {
    for (const name of ['FIRST_TOOLS_LIST_REQUEST_ID', 'DRAIN_CAP_BYTES', 'COMPLIANCE_PARTS', 'OSV_CHECK_TIME_UTC'])
      expect(Object.keys(api), name).not.toContain(name);
  });

  it('exports none of the outside-service readers', () => {
    for (const name of Object.keys(outside)) expect(Object.keys(api), name).not.toContain(name);
  });
});

describe('the outside subpath', () => {
  it('exports exactly the outside-service readers, their helpers and the webhook delivery', () => {
    expect(Object.keys(outside).sort()).toEqual([
      'isNpmPackageName',
      'normalizeBaseUrl',
      'normalizePypiName',
      'officialRegistryEntry',
      'parseGitHubRepoUrl',
      'postWebhook',
      'queryOsvBatch',
      'rdapDomainOf',
      'readDirectory',
      'readDomainRegistration',
      'readGitHubRepository',
      'readNpmPackage',
      'readPypiPackage',
      'readWeeklyDownloads',
    ]);
  });
});

describe('the error classes', () => {
  it('extend Error, not TypeError, and carry a kebab-case code', () => {
    const input = new api.ProbeInputError('invalid-option', 'deadlineMs must be a number >= 0');
    expect(input).toBeInstanceOf(Error);
    expect(input).not.toBeInstanceOf(TypeError);
    expect(input).toMatchObject({ name: 'ProbeInputError', code: 'invalid-option' });
    const registry = new api.RegistryReadError('page 2 is not a registry page', 2, 200);
    expect(registry).toBeInstanceOf(Error);
    expect(registry).toMatchObject({ name: 'RegistryReadError', code: 'registry-unreadable', page: 2, status: 200 });
  });

  it('is what a caller mistake throws', async () => {
    const thrown = await api.probeServer('https://mcp.example.com/mcp', { deadlineMs: -1 }).catch((error) => error);
    expect(thrown).toBeInstanceOf(api.ProbeInputError);
    expect(thrown).not.toBeInstanceOf(TypeError);
  });
});

describe('the rules subpath', () => {
  it('exports the rules version and one frozen object per concern, and nothing else', () => {
    expect(Object.keys(rules).sort()).toEqual([
      'AUTH_DISCOVERY_RULES',
      'CONFORMANCE_RULES',
      'DEEP_CHECK_RULES',
      'DIRECTORY_RULES',
      'DOCUMENT_RULES',
      'GITHUB_RULES',
      'GUARD_RULES',
      'IDENTITY_RULES',
      'LOCAL_RULES',
      'OUTSIDE_SERVICE_RULES',
      'PROBE_RULES_VERSION',
      'RATE_LIMIT_RULES',
      'REGISTRY_RULES',
      'SESSION_RULES',
      'SITE_CHECK_RULES',
      'SSE_RESUMPTION_RULES',
      'STATUS_LETTER_RULES',
      'STDIO_ISOLATION_RULES',
    ]);
    for (const [name, group] of Object.entries(rules)) {
      if (name === 'PROBE_RULES_VERSION') expect(group).toMatch(/^\d+\.\d+\.\d+$/);
      else expect(Object.isFrozen(group), name).toBe(true);
    }
  });

  it('holds the methodology numbers', () => {
    expect(rules.CONFORMANCE_RULES).toEqual({
      baseScenarios: ['server-initialize', 'ping', 'tools-list'],
      loopbackScenarios: ['dns-rebinding-protection'],
      capabilityScenarios: { logging: 'logging-set-level', resources: 'resources-list', prompts: 'prompts-list' },
      scenarioTimeoutMs: 60_000,
    });
    expect(rules.IDENTITY_RULES).toMatchObject({
      botToken: 'mcp-atlas-bot',
      userAgent: `mcp-atlas-bot/${rules.IDENTITY_RULES.botVersion} (+${rules.IDENTITY_RULES.botInfoUrl})`,
      clientInfo: { name: 'mcp-atlas-bot', version: rules.IDENTITY_RULES.botVersion },
    });
    expect(rules.SESSION_RULES).toEqual({
      protocolVersion: '2025-06-18',
      initializeTimeoutMs: 8_000,
      initializedTimeoutMs: 5_000,
      toolsListPageTimeoutMs: 8_000,
      fiveMinuteCheckDeadlineMs: 30_000,
      deleteTimeoutMs: 2_000,
      maxInitializeRedirects: 1,
      maxToolsPages: 3,
      maxToolsKept: 500,
      maxToolsJsonBytes: 1_048_576,
      initializeAnswerCapBytes: 65_536,
      toolsPageCapBytes: 8_388_608,
      maxJsonDepth: 128,
    });
    expect([...rules.STATUS_LETTER_RULES.notStandardMcpStatuses].sort()).toEqual([400, 405, 406, 415, 422]);
    expect([...rules.STATUS_LETTER_RULES.signInStatuses].sort()).toEqual([401, 403]);
    expect(rules.STATUS_LETTER_RULES.paymentStatus).toBe(402);
    expect(rules.STDIO_ISOLATION_RULES).toEqual({
      bubblewrapCommand: 'bwrap',
      bubblewrapArgs: ['--dev-bind', '/', '/', '--unshare-pid', '--die-with-parent', '--proc', '/proc', '--'],
      trialTimeoutMs: 5_000,
    });
    expect(rules.GUARD_RULES).toMatchObject({ ipv6GlobalUnicast: '2000::/3', dnsTimeoutMs: 5_000 });
    expect(rules.DOCUMENT_RULES).toMatchObject({
      robotsTimeoutMs: 3_000,
      robotsCapBytes: 512_000,
      robotsMaxRedirects: 5,
      wellKnownTimeoutMs: 4_000,
      serverCardPath: '/.well-known/mcp/server-card.json',
      mcpDefaultPath: '/mcp',
      optOutTokenPath: '/.well-known/mcp-atlas-optout.txt',
      verifyTokenPath: '/.well-known/mcp-atlas-verify.txt',
    });
    expect(rules.SITE_CHECK_RULES).toEqual({
      protocolVersion: '2025-11-25',
      sessionBudgetMs: 12_000,
      maxPosts: 3,
      maxToolNames: 25,
      answerCapBytes: 65_536,
    });
    expect(rules.REGISTRY_RULES).toMatchObject({ pageLimit: 100, maxPages: 2_000, pageTimeoutMs: 15_000 });
    expect(rules.DEEP_CHECK_RULES).toMatchObject({
      callTimeoutMs: 10_000,
      maxTools: 5,
      fuzzOversizedChars: 100_000,
      complianceMax: 100,
      authDiscoveryBonus: 10,
      unreachableLetter: 'd',
      errorHandlingPassOutcome: 'proper-error',
      smokePassOutcome: 'accepted',
    });
    expect(rules.OUTSIDE_SERVICE_RULES).toMatchObject({
      defaultRdapUrl: 'https://rdap.org',
      defaultNpmRegistryUrl: 'https://registry.npmjs.org',
      defaultPypiUrl: 'https://pypi.org',
      defaultOsvUrl: 'https://api.osv.dev',
      osvTimeoutMs: 30_000,
      osvBatchMaxQueries: 1_000,
    });
    expect(rules.OUTSIDE_SERVICE_RULES).not.toHaveProperty('osvCheckTimeUtc');
    expect(rules.GITHUB_RULES).toMatchObject({ defaultApiUrl: 'https://api.github.com', timeoutMs: 20_000 });
  });
});
