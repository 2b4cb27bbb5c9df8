/**
 * Pins the public names of @mcp-atlas/score: the root entry holds what a user calls (scoreServer, the input
 * builders, the parts a page explains a score with) and the vocabularies; the methodology's rule constants are the
 * `./rules` subpath, one frozen object per concern. A name added to or dropped from an entry fails here, so every
 * change to the semver promise is a deliberate one. Pure module under test; this file reads no clock.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as rules from '../src/rules.js';
import { scoreServer } from '../src/score-server.js';
import { ENGINE_VECTORS } from './fixtures/engine-vectors.js';

describe('the root entry', () => {
  it('exports exactly these runtime names, and no rule constant', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DIMENSIONS',
      'FLAG_KEYS',
      'SERVER_CATEGORIES',
      'SPEC_VERSIONS',
      'VISIBILITY_LEVELS',
      'ageInDays',
      'analyzeRepository',
      'analyzeRuntimeSchemas',
      'applicableDimensions',
      'applyRuntimeSchemaOverride',
      'classifyServer',
      'compareForLeaderboard',
      'computeCappedComposite',
      'computeComposite',
      'countDescriptions',
      'decayStaticAnalysis',
      'decideVisibility',
      'detectFlags',
      'detectSpecFromSdk',
      'detectSpecFromSourceMarkers',
      'dimensionChecklist',
      'evaluateSchemaInterpretability',
      'gradeFor',
      'isSecretEnvVar',
      'latencyPercentile',
      'publisherOf',
      'roundHalfEven',
      'scanDescriptionForInjection',
      'scanToolDescriptions',
      'scoreDropOf',
      'scoreDropsOf',
      'scoreLatency',
      'scoreSecurityParts',
      'scoreServer',
      'specVersionFromProtocolVersion',
      'staticAnalysisOf',
      'toSpecVersionMetadata',
      'uptimeWindowsOf',
    ]);
  });

  it('stays within the 40 runtime names a root may hold', () => {
    expect(Object.keys(api).length).toBeLessThanOrEqual(40);
  });
});

describe('the ./rules subpath', () => {
  it('exports exactly these rule groups, each frozen', () => {
    expect(Object.keys(rules).sort()).toEqual([
      'AGENT_USABILITY_RULES',
      'BADGE_RULES',
      'CLASSIFICATION_RULES',
      'COMPOSITE_RULES',
      'DEPENDENCY_HEALTH_RULES',
      'DOCS_MAINTENANCE_RULES',
      'DOCUMENTATION_RULES',
      'FLAG_RULES',
      'GRADE_RULES',
      'INJECTION_RULES',
      'LICENSE_CLARITY_RULES',
      'MAINTENANCE_PULSE_RULES',
      'PROTOCOL_RULES',
      'RELIABILITY_RULES',
      'RUNTIME_SCHEMA_RULES',
      'SCHEMA_QUALITY_RULES',
      'SECURITY_RULES',
      'SPEC_VERSION_RULES',
      'STALE_DECAY_RULES',
      'VERSION_HYGIENE_RULES',
      'VISIBILITY_RULES',
    ]);
    for (const [name, group] of Object.entries(rules)) expect(Object.isFrozen(group), name).toBe(true);
  });

  it('holds the values the methodology states', () => {
    expect(rules.PROTOCOL_RULES.authDiscoveryBonus).toBe(10);
    expect(rules.SCHEMA_QUALITY_RULES.templateDescriptionPenalty).toBe(15);
    expect(rules.RELIABILITY_RULES.windowDays).toBe(7);
    expect(rules.RELIABILITY_RULES.minimumProbeCount).toBe(10);
    expect(rules.GRADE_RULES.dropAlertPoints).toBe(10);
    expect(rules.VISIBILITY_RULES.minDimensionsForComposite).toBe(2);
    expect(rules.COMPOSITE_RULES.flagCaps).toEqual({
      DEAD_REPO: 0,
      REPO_ARCHIVED: 40,
      STAGING_ARTIFACT: 55,
      PROMPT_INJECTION: 30,
      EXFILTRATION_RISK: 25,
    });
    expect(rules.GRADE_RULES.thresholds.map((row) => [row.grade, row.min])).toEqual([
      ['A+', 95],
      ['A', 85],
      ['B', 70],
      ['C', 55],
      ['D', 40],
      ['F', 0],
    ]);
  });
});

describe('computeCappedComposite', () => {
  it("gives scoreServer's composite on every engine case", () => {
    for (const vector of ENGINE_VECTORS) {
      const result = scoreServer(vector.input);
      expect(api.computeCappedComposite(result.categories, result.flags), vector.name).toBe(result.compositeScore);
    }
  });

  it('has no composite below two scored dimensions, and one at two', () => {
    const none = {
      schemaQuality: null,
      protocol: null,
      reliability: null,
      docsMaintenance: null,
      security: null,
      agentUsability: null,
    };
    expect(api.computeCappedComposite({ ...none, security: 80 }, [])).toBeNull();
    expect(api.computeCappedComposite({ ...none, security: 80, protocol: 60 }, [])).toBe(70);
  });

  it('caps the composite by the lowest cap of the flags carried', () => {
    const categories = {
      schemaQuality: 100,
      protocol: 100,
      reliability: 100,
      docsMaintenance: 100,
      security: 100,
      agentUsability: null,
    };
    expect(api.computeCappedComposite(categories, [{ key: 'STAGING_ARTIFACT' }])).toBe(55);
    expect(api.computeCappedComposite(categories, [{ key: 'STAGING_ARTIFACT' }, { key: 'REPO_ARCHIVED' }])).toBe(40);
    expect(api.computeCappedComposite(categories, [{ key: 'NO_SOURCE' }])).toBe(100);
  });
});
