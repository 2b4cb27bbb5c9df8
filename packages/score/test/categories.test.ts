import { describe, expect, it } from 'vitest';
import {
  AUTH_DISCOVERY_BONUS,
  applyRuntimeSchemaOverride,
  applySpecVersionBonus,
  BEHAVIORAL_SECURITY_MAX_POINTS,
  CREDENTIAL_POINTS,
  computeDocsMaintenanceScore,
  computeProtocolScore,
  computeSchemaQualityScore,
  computeSecurityScore,
  DISTRIBUTION_POINTS,
  DOCS_MAINTENANCE_WEIGHTS,
  LATEST_SPEC_VERSION,
  preferRuntimeSchemaCompleteness,
  SCHEMA_QUALITY_WEIGHTS,
  SECRET_COUNT_POINTS,
  SECURITY_MAX_POINTS,
  SECURITY_STATIC_MAX_POINTS,
  SPEC_VERSION_BONUS,
  scoreSecurityParts,
  TEMPLATE_DESCRIPTION_PENALTY,
  TRANSPORT_POINTS,
} from '../src/categories.js';
import type { ScoreServer, StaticAnalysis } from '../src/types.js';

const analysis: StaticAnalysis = {
  schemaCompleteness: 85,
  descriptionQuality: 78,
  documentationCoverage: 72,
  maintenancePulse: 80,
  dependencyHealth: 75,
  licenseClarity: 100,
  versionHygiene: 65,
  details: {},
};

function server(overrides: Partial<ScoreServer> = {}): ScoreServer {
  return {
    name: 'acme/widgets',
    description: 'Widget search for Acme stores.',
    repoUrl: 'https://github.com/acme/widgets',
    registryId: '',
    remoteEndpointUrl: 'https://mcp.acme.dev/mcp',
    isRemote: true,
    hasSandboxProbe: false,
    registryMetadata: {},
    npmUrl: 'https://www.npmjs.com/package/acme-widgets',
    pypiUrl: '',
    dockerhubUrl: '',
    lastCommitAt: null,
    ...overrides,
  };
}

describe('constants', () => {
  it('hold the engine 0.9.0 values', () => {
    expect(SCHEMA_QUALITY_WEIGHTS).toEqual({ schemaCompleteness: 0.6, descriptionQuality: 0.4 });
    expect(TEMPLATE_DESCRIPTION_PENALTY).toBe(15);
    expect(AUTH_DISCOVERY_BONUS).toBe(10);
    expect(DOCS_MAINTENANCE_WEIGHTS).toEqual({
      documentationCoverage: 0.3,
      maintenancePulse: 0.3,
      dependencyHealth: 0.15,
      licenseClarity: 0.15,
      versionHygiene: 0.1,
    });
    expect(LATEST_SPEC_VERSION).toBe('2025-11-25');
    expect(SPEC_VERSION_BONUS).toBe(5);
    expect(SECRET_COUNT_POINTS.map((r) => r.points)).toEqual([20, 16, 11, 6, 0]);
    expect(TRANSPORT_POINTS).toEqual({ stdio: 15, streamableHttp: 12, sse: 9, unknownRemote: 6 });
    expect(CREDENTIAL_POINTS).toEqual({ none: 15, noHighlySensitive: 11, fewHighlySensitive: 6, many: 2 });
    expect(DISTRIBUTION_POINTS).toEqual({ packageAndRepo: 15, repoOnly: 12, packageOnly: 8, neither: 3 });
    expect(BEHAVIORAL_SECURITY_MAX_POINTS).toBe(20);
    expect(SECURITY_STATIC_MAX_POINTS).toBe(65);
    expect(SECURITY_MAX_POINTS).toBe(85);
  });
});

describe('computeSchemaQualityScore', () => {
  it('weighs completeness 60% and description 40%, truncated', () => {
    expect(computeSchemaQualityScore(analysis)).toBe(82); // 51 + 31.2
    expect(computeSchemaQualityScore({ ...analysis, schemaCompleteness: 14, descriptionQuality: 14 })).toBe(14);
    expect(computeSchemaQualityScore({ ...analysis, schemaCompleteness: 100, descriptionQuality: 100 })).toBe(100);
    expect(computeSchemaQualityScore({ ...analysis, schemaCompleteness: 99, descriptionQuality: 100 })).toBe(99); // 99.4
  });

  it('is null without an analysis', () => {
    expect(computeSchemaQualityScore(null)).toBeNull();
  });
});

describe('runtime override of schema completeness', () => {
  it('prefers the runtime score only when higher', () => {
    expect(preferRuntimeSchemaCompleteness(40, 90)).toBe(90);
    expect(preferRuntimeSchemaCompleteness(90, 40)).toBe(90);
    expect(preferRuntimeSchemaCompleteness(70, 70)).toBe(70);
    expect(preferRuntimeSchemaCompleteness(null, 70)).toBe(70);
    expect(preferRuntimeSchemaCompleteness(70, null)).toBe(70);
    expect(preferRuntimeSchemaCompleteness(null, null)).toBeNull();
  });

  it('feeds schema quality through applyRuntimeSchemaOverride without changing the input', () => {
    const low = { ...analysis, schemaCompleteness: 40 };
    const raised = applyRuntimeSchemaOverride(low, 95);
    expect(raised.schemaCompleteness).toBe(95);
    expect(low.schemaCompleteness).toBe(40);
    expect(computeSchemaQualityScore(raised)).toBe(88); // 57 + 31.2
    expect(applyRuntimeSchemaOverride(analysis, 10).schemaCompleteness).toBe(85);
    expect(applyRuntimeSchemaOverride(analysis, null).schemaCompleteness).toBe(85);
  });
});

describe('computeProtocolScore', () => {
  it('averages the measured parts', () => {
    const probe = { isReachable: true, schemaValid: true, errorHandlingScore: 80, fuzzScore: 70 };
    expect(computeProtocolScore(probe)).toBe(87); // 350 / 4 = 87.5
    expect(computeProtocolScore({ ...probe, functionalSmokeScore: 90, authDiscoveryValid: true })).toBe(98); // 88 + 10
  });

  it('scores an invalid schema 30 and an unreachable server 0', () => {
    expect(computeProtocolScore({ isReachable: true, schemaValid: false })).toBe(65);
    expect(computeProtocolScore({ isReachable: false })).toBe(0);
    expect(computeProtocolScore({ isReachable: true, schemaValid: false, errorHandlingScore: 35 })).toBe(55);
  });

  it('adds the auth discovery bonus only when true, capped at 100', () => {
    expect(computeProtocolScore({ isReachable: true, schemaValid: true, authDiscoveryValid: true })).toBe(100);
    expect(computeProtocolScore({ isReachable: true, schemaValid: false, authDiscoveryValid: true })).toBe(75);
    expect(computeProtocolScore({ isReachable: true, schemaValid: false, authDiscoveryValid: false })).toBe(65);
    expect(computeProtocolScore({ isReachable: true, schemaValid: false, authDiscoveryValid: null })).toBe(65);
  });

  it('leaves out parts that were not measured (null or missing)', () => {
    expect(
      computeProtocolScore({ isReachable: true, schemaValid: null, errorHandlingScore: null, fuzzScore: 40 }),
    ).toBe(70);
  });

  it('is null without a deep probe', () => {
    expect(computeProtocolScore(null)).toBeNull();
  });
});

describe('computeDocsMaintenanceScore and the spec bonus', () => {
  it('weighs the five repository sub-scores, truncated', () => {
    expect(computeDocsMaintenanceScore(analysis)).toBe(78); // 21.6 + 24 + 11.25 + 15 + 6.5 = 78.35
    expect(computeDocsMaintenanceScore(null)).toBeNull();
  });

  it('averages only the repository parts that were measured (null = not measured), and is null with none', () => {
    const unmeasured = {
      documentationCoverage: null,
      maintenancePulse: null,
      dependencyHealth: null,
      licenseClarity: null,
      versionHygiene: null,
    };
    // (72 x 0.3 + 100 x 0.15) / (0.3 + 0.15) = 81.33, truncated to 81.
    expect(
      computeDocsMaintenanceScore({ ...analysis, ...unmeasured, documentationCoverage: 72, licenseClarity: 100 }),
    ).toBe(81);
    expect(computeDocsMaintenanceScore({ ...analysis, ...unmeasured })).toBeNull();
  });

  it('adds 5 from the latest spec version on, capped at 100', () => {
    expect(applySpecVersionBonus(78, { spec_version: { detected_spec_version: '2025-11-25' } })).toBe(83);
    expect(applySpecVersionBonus(78, { spec_version: { detected_spec_version: '2026-03-01' } })).toBe(83);
    expect(applySpecVersionBonus(98, { spec_version: { detected_spec_version: '2025-11-25' } })).toBe(100);
  });

  it('adds nothing for an older or unknown version', () => {
    expect(applySpecVersionBonus(78, { spec_version: { detected_spec_version: '2025-11-24' } })).toBe(78);
    expect(applySpecVersionBonus(78, { spec_version: { detected_spec_version: '2025-06-18' } })).toBe(78);
    expect(applySpecVersionBonus(78, { spec_version: {} })).toBe(78);
    expect(applySpecVersionBonus(78, { spec_version: '2025-11-25' })).toBe(78);
    expect(applySpecVersionBonus(78, { spec_version: { detected_spec_version: null } })).toBe(78);
    expect(applySpecVersionBonus(78, {})).toBe(78);
    expect(applySpecVersionBonus(null, { spec_version: { detected_spec_version: '2025-11-25' } })).toBeNull();
  });
});

describe('computeSecurityScore', () => {
  it('scores one API key on streamable HTTP with a package and a repository 83', () => {
    const s = server({ registryMetadata: { env_vars: ['ACME_API_KEY'], transport: 'streamable-http' } });
    expect(scoreSecurityParts(s)).toEqual({
      secretCount: 1,
      secretPoints: 16,
      transportPoints: 12,
      highlySensitiveCount: 0,
      credentialPoints: 11,
      distributionPoints: 15,
      behavioralPoints: null,
      score: 83, // 54 / 65
    });
  });

  it('gives a local stdio server with no secrets 100', () => {
    const s = server({ isRemote: false, registryMetadata: { env_vars: [], transport: 'stdio' } });
    expect(computeSecurityScore(s)).toBe(100);
    expect(computeSecurityScore(server({ isRemote: false, registryMetadata: {} }))).toBe(100);
  });

  it('steps the secret-count points at 0, 1, 2, 4 and 5 secrets', () => {
    const points = [0, 1, 2, 3, 4, 5, 6].map(
      (n) =>
        scoreSecurityParts(
          server({ registryMetadata: { env_vars: Array.from({ length: n }, (_, i) => `T${i}_TOKEN`) } }),
        ).secretPoints,
    );
    expect(points).toEqual([20, 16, 11, 6, 6, 0, 0]);
  });

  it('scores the transport: local stdio 15, streamable HTTP 12, SSE 9, unknown remote 6', () => {
    const t = (isRemote: boolean, transport?: unknown) =>
      scoreSecurityParts(server({ isRemote, registryMetadata: transport === undefined ? {} : { transport } }))
        .transportPoints;
    expect(t(false)).toBe(15);
    expect(t(false, 'stdio')).toBe(15);
    expect(t(false, 'sse')).toBe(9); // a local server that declares SSE is scored as SSE
    expect(t(true, 'streamable-http')).toBe(12);
    expect(t(true, 'sse')).toBe(9);
    expect(t(true, 'http')).toBe(6);
    expect(t(true)).toBe(6);
  });

  it('scores credential sensitivity from highly sensitive names', () => {
    const c = (env_vars: string[]) => scoreSecurityParts(server({ registryMetadata: { env_vars } })).credentialPoints;
    expect(c([])).toBe(15);
    expect(c(['ACME_API_KEY'])).toBe(11);
    expect(c(['DATABASE_URL'])).toBe(6);
    expect(c(['DATABASE_URL', 'REDIS_HOST'])).toBe(6);
    expect(c(['DATABASE_URL', 'REDIS_HOST', 'SSH_KEY'])).toBe(2);
    // A highly sensitive name that is not itself a secret still counts (no secret, one high: 6).
    expect(c(['MONGO_HOST'])).toBe(6);
  });

  it('scores distribution: package and repository 15, repository 12, package 8, neither 3', () => {
    const d = (repoUrl: string, npmUrl: string, pypiUrl = '', dockerhubUrl = '') =>
      scoreSecurityParts(server({ repoUrl, npmUrl, pypiUrl, dockerhubUrl })).distributionPoints;
    expect(d('https://github.com/a/b', 'https://npmjs.com/x')).toBe(15);
    expect(d('https://github.com/a/b', '')).toBe(12);
    expect(d('', '', 'https://pypi.org/project/x/')).toBe(8);
    expect(d('', '', '', 'https://hub.docker.com/r/x')).toBe(8);
    expect(d('', '')).toBe(3);
  });

  it('counts a variable the registry marks isSecret as a secret, whatever its name', () => {
    const s = server({
      registryMetadata: { env_vars: [{ name: 'ACME_LOGIN', isSecret: true }, { name: 'PORT' }], transport: 'sse' },
    });
    const parts = scoreSecurityParts(s);
    expect(parts.secretCount).toBe(1);
    expect(parts.secretPoints).toBe(16);
    expect(parts.credentialPoints).toBe(11);
  });

  it('scores the worst registry entry 30 (6 + 9 + 2 + 3 = 20 of 65)', () => {
    const s = server({
      repoUrl: '',
      npmUrl: '',
      registryMetadata: {
        env_vars: ['DB_PASSWORD', 'POSTGRES_URL', 'AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN', 'PORT', 'SENTRY_DSN'],
        transport: 'sse',
      },
    });
    expect(computeSecurityScore(s)).toBe(30);
  });

  describe('behavioral security', () => {
    const base = { env_vars: ['OPENAI_API_KEY'], transport: 'streamable-http' };
    it('adds up to 20 points and scales over 85 when present', () => {
      const s = server({ registryMetadata: { ...base, behavioral_security: { behavioral_security_score: 64 } } });
      const parts = scoreSecurityParts(s);
      expect(parts.behavioralPoints).toBe(12); // 12.8 truncated
      expect(parts.score).toBe(77); // (54 + 12) / 85
    });

    it('clamps the 0-100 score first', () => {
      const pts = (v: unknown) =>
        scoreSecurityParts(
          server({ registryMetadata: { ...base, behavioral_security: { behavioral_security_score: v } } }),
        ).behavioralPoints;
      expect(pts(150)).toBe(20);
      expect(pts(100)).toBe(20);
      expect(pts(-5)).toBe(0);
      expect(pts(4)).toBe(0); // 0.8
      expect(pts(5)).toBe(1);
    });

    it('is left out and the other four renormalised over 65 when absent', () => {
      expect(scoreSecurityParts(server({ registryMetadata: base })).behavioralPoints).toBeNull();
      expect(computeSecurityScore(server({ registryMetadata: base }))).toBe(83);
      for (const behavioral_security of [{}, { behavioral_security_score: null }, 'high', []]) {
        expect(computeSecurityScore(server({ registryMetadata: { ...base, behavioral_security } }))).toBe(83);
      }
    });

    it('reaches 100 with every part at its best', () => {
      const s = server({
        isRemote: false,
        registryMetadata: { env_vars: [], behavioral_security: { behavioral_security_score: 100 } },
      });
      expect(computeSecurityScore(s)).toBe(100);
    });
  });

  it('never throws on odd registry shapes', () => {
    for (const registryMetadata of [{ env_vars: 'TOKEN' }, { env_vars: [null, 3, {}] }, { transport: 7 }]) {
      expect(() => computeSecurityScore(server({ registryMetadata }))).not.toThrow();
    }
  });
});
