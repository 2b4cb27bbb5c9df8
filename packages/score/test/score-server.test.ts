import { describe, expect, it } from 'vitest';
import { scoreServer } from '../src/score-server.js';
import type { ScoreInput } from '../src/types.js';
import { ENGINE_VECTORS } from './fixtures/engine-vectors.js';

describe('scoreServer on the engine 0.9.0 vectors', () => {
  it('has enough vectors to cover every tier and the caps', () => {
    expect(ENGINE_VECTORS.length).toBeGreaterThanOrEqual(8);
    const tiers = new Set(ENGINE_VECTORS.map((v) => v.expected.visibilityLevel));
    expect([...tiers].sort()).toEqual(['assessed', 'complete', 'limited', 'unscored', 'verified']);
  });

  for (const vector of ENGINE_VECTORS) {
    it(vector.name, () => {
      const result = scoreServer(vector.input);
      expect(result.compositeScore).toBe(vector.expected.compositeScore);
      expect(result.grade).toBe(vector.expected.grade);
      expect(result.visibilityLevel).toBe(vector.expected.visibilityLevel);
      expect(result.dimensionsScored).toBe(vector.expected.dimensionsScored);
      expect(result.dimensionsApplicable).toBe(vector.expected.dimensionsApplicable);
      expect(result.categories).toEqual(vector.expected.categories);
      expect(result.flags).toEqual(vector.expected.flags);
      expect(result.badges).toEqual(vector.expected.badges);
      expect(result.category).toBe(vector.expected.category);
      expect(result.targets).toEqual(vector.expected.targets);
      expect(result.publisher).toBe(vector.expected.publisher);
      expect(result.verifiedPublisher).toBe(vector.expected.verifiedPublisher);
      // Nothing beyond the contract's keys.
      expect(result).toEqual(vector.expected);
    });
  }
});

function vector(name: string): ScoreInput {
  const found = ENGINE_VECTORS.find((v) => v.name.startsWith(name));
  if (!found) throw new Error(`no vector ${name}`);
  return structuredClone(found.input);
}

describe('scoreServer beyond the engine vectors', () => {
  it('raises PROMPT_INJECTION and its cap of 30 from prompt_injection_found, as the engine does', () => {
    const input = vector('the same with an agent-usability score');
    const clean = scoreServer(input);
    expect(clean.flags.map((f) => f.key)).not.toContain('PROMPT_INJECTION');
    expect(clean.compositeScore).toBe(83);

    input.server.registryMetadata = {
      ...input.server.registryMetadata,
      behavioral_security: { prompt_injection_found: true },
    };
    const found = scoreServer(input);
    expect(found.flags.map((f) => f.key)).toContain('PROMPT_INJECTION');
    expect(found.compositeScore).toBe(30);
    expect(found.grade).toBe('F');
    // Caps touch the composite only, never the category scores.
    expect(found.categories).toEqual(clean.categories);
  });

  it('raises the same flag and cap when a person confirmed one of our own scan matches', () => {
    const input = vector('the same with an agent-usability score');
    const confirmed = scoreServer({ ...input, confirmedInjection: true });
    expect(confirmed.flags.filter((f) => f.key === 'PROMPT_INJECTION')).toHaveLength(1);
    expect(confirmed.compositeScore).toBe(30);
    expect(scoreServer({ ...input, confirmedInjection: false }).compositeScore).toBe(83);
  });

  it('passes the map-wide flag context through: archived repository caps at 40', () => {
    const input = vector('the same with an agent-usability score');
    const plain = scoreServer(input);
    const withContext = scoreServer({
      ...input,
      flagContext: { descriptionCounts: {}, archivedRepos: [input.server.repoUrl] },
    });
    expect(plain.compositeScore).toBe(83);
    expect(withContext.flags.map((f) => f.key)).toContain('REPO_ARCHIVED');
    expect(withContext.compositeScore).toBe(40);
    expect(withContext.grade).toBe('D');
  });

  it('measures the stale flags from now, not from a clock', () => {
    const input = vector('stale project');
    expect(scoreServer(input).flags.map((f) => f.key)).toEqual(['STALE_PROJECT', 'STALE_ANALYSIS']);
    const earlier = scoreServer({ ...input, now: '2025-12-01T00:00:00Z' });
    expect(earlier.flags.map((f) => f.key)).toEqual([]);
  });

  it('gives the same answer twice and leaves its input untouched', () => {
    const input = vector('archived repository');
    const copy = structuredClone(input);
    expect(scoreServer(input)).toEqual(scoreServer(input));
    expect(input).toEqual(copy);
  });

  it('takes the runtime override through staticAnalysis', () => {
    const input = vector('local stdio server');
    const sa = input.staticAnalysis;
    if (!sa) throw new Error('vector without static analysis');
    const raised = scoreServer({ ...input, staticAnalysis: { ...sa, schemaCompleteness: 100 } });
    expect(raised.categories.schemaQuality).toBe(91); // 60 + 31.2
  });

  it('gives the README example its stated answer', () => {
    const result = scoreServer({
      server: {
        name: 'acme/widgets',
        description: 'Search the Acme widget catalogue.',
        repoUrl: 'https://github.com/acme/widgets',
        registryId: 'io.github.acme/widgets',
        remoteEndpointUrl: 'https://mcp.acme.dev/mcp',
        isRemote: true,
        hasSandboxProbe: false,
        registryMetadata: { env_vars: [{ name: 'ACME_API_KEY', isSecret: true }], transport: 'streamable-http' },
        npmUrl: 'https://www.npmjs.com/package/acme-widgets',
        pypiUrl: '',
        dockerhubUrl: '',
        lastCommitAt: '2026-11-20T09:00:00Z',
      },
      staticAnalysis: null,
      deepProbe: { isReachable: true, schemaValid: true, toolsCount: 4, authDiscoveryValid: false },
      reliability: { uptimePct: 99.6, latencyP50Ms: 180, latencyP95Ms: 420, probeCount: 96 },
      agentUsability: null,
      now: '2026-12-02T00:00:00Z',
    });
    expect(result.categories).toMatchObject({ protocol: 100, reliability: 95, security: 83 });
    expect([result.compositeScore, result.grade, result.visibilityLevel]).toEqual([93, 'A', 'limited']);
    expect(`${result.grade} (${result.dimensionsScored}/${result.dimensionsApplicable})`).toBe('A (3/5)');
  });

  it('drops a non-finite agent-usability score instead of poisoning the composite', () => {
    const input = vector('remote server with every standard dimension');
    const result = scoreServer({ ...input, agentUsability: Number.NaN });
    expect(result.categories.agentUsability).toBeNull();
    expect(result.compositeScore).toBe(81);
  });
});
