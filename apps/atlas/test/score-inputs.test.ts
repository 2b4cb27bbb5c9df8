// The pieces of the daily score's inputs, with hand-computed cases: the seven-day reliability evidence (uptime
// over daily, hourly and five-minute checks, nearest-rank p50 and p95, the probe-count gate of the score package
// at 9 and 10 checks), the protocol evidence, the pending repository dimensions, and the registry facts, read
// from a registry on loopback by the real registry read and from odd entries that must not fail it.
import { type ServerType, serve } from '@hono/node-server';
import {
  analyzeRuntimeSchemas,
  computeReliabilityScore,
  latencyPercentile,
  MINIMUM_PROBE_COUNT,
  SCORE_RELIABILITY_WINDOW_DAYS,
  scoreServer,
} from '@mcp-atlas/score';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverIdFor } from '../src/data/server-id.js';
import { imagePageOf, readRegistryScoreFacts, scoreFactsOf } from '../src/score/registry-facts.js';
import {
  deepProbeOf,
  reliabilityInputOf,
  reliabilityWindowOf,
  scoreServerOf,
  staticAnalysisFrom,
} from '../src/score/score-inputs.js';
import { syncRegistry } from '../src/serve/registry-sync.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';

const WEATHER_ENTRY = {
  name: 'io.github.acme/weather',
  description: 'Current weather and forecasts for any city.',
  repository: { url: 'https://github.com/acme/weather', source: 'github' },
  websiteUrl: 'https://acme.dev/weather',
  packages: [
    {
      registryType: 'npm',
      identifier: 'acme-weather',
      environmentVariables: [{ name: 'ACME_API_KEY', isSecret: true }, { name: 'LOG_LEVEL' }],
    },
    { registryType: 'OCI', identifier: 'docker.io/acme/weather:1.2.0' },
  ],
  remotes: [
    {
      type: 'streamable-http',
      url: 'https://weather.acme.dev/mcp',
      headers: [{ name: 'X-Acme-Token', isSecret: true }],
    },
  ],
};

describe('reliabilityInputOf', () => {
  const evidence = {
    daily: [
      { letter: 'o' as const, elapsedMs: 100 },
      { letter: 'o' as const, elapsedMs: 300 },
      { letter: 'd' as const, elapsedMs: 5000 },
      { letter: 'a' as const, elapsedMs: 200 },
    ],
    hourly: [{ letter: 'o' as const, elapsedMs: 400 }],
    fiveMinuteCounters: [{ answered: 4, checks: 5 }],
    fiveMinuteTimings: [
      { letter: 'o' as const, elapsedMs: 150 },
      { letter: 'd' as const, elapsedMs: 9000 },
      { letter: 'o' as const, elapsedMs: 250 },
    ],
  };

  it('counts daily, hourly and five-minute checks and takes percentiles over the successful ones', () => {
    // 4 daily + 1 hourly + 5 five-minute = 10 checks; 3 + 1 + 4 = 8 answered; times 100 150 200 250 300 400.
    expect(reliabilityInputOf(evidence)).toEqual({
      uptimePct: 80,
      latencyP50Ms: 200,
      latencyP95Ms: 400,
      probeCount: 10,
    });
  });

  it('feeds the probe-count gate of the score package: 10 checks are scored, 9 are not', () => {
    expect(MINIMUM_PROBE_COUNT).toBe(10);
    const ten = reliabilityInputOf(evidence);
    expect(computeReliabilityScore(ten)).toEqual(expect.any(Number));
    const nine = reliabilityInputOf({ ...evidence, fiveMinuteCounters: [{ answered: 4, checks: 4 }] });
    expect(nine.probeCount).toBe(9);
    expect(computeReliabilityScore(nine)).toBeNull();
  });

  it('gives no uptime and no latency without checks', () => {
    expect(reliabilityInputOf({ daily: [], hourly: [], fiveMinuteCounters: [], fiveMinuteTimings: [] })).toEqual({
      uptimePct: null,
      latencyP50Ms: null,
      latencyP95Ms: null,
      probeCount: 0,
    });
  });

  it('reads the seven days ending the scored day', () => {
    expect(SCORE_RELIABILITY_WINDOW_DAYS).toBe(7);
    expect(reliabilityWindowOf('2026-12-02')).toEqual([
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
  });
});

describe('latencyPercentile', () => {
  it('takes the nearest rank', () => {
    expect(latencyPercentile([400, 100, 300, 200], 50)).toBe(200);
    expect(latencyPercentile([400, 100, 300, 200], 95)).toBe(400);
    expect(latencyPercentile([7], 95)).toBe(7);
    // 20 values 1..20: p95 is the 19th, p50 the 10th.
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(latencyPercentile(twenty, 95)).toBe(19);
    expect(latencyPercentile(twenty, 50)).toBe(10);
    expect(latencyPercentile([], 50)).toBeNull();
    expect(latencyPercentile([Number.NaN, -1], 50)).toBeNull();
  });
});

describe('deepProbeOf', () => {
  const tools = [
    {
      name: 'search_notes',
      description: 'Search notes by text and tag in one notebook.',
      inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'Text' } }, required: ['q'] },
    },
  ];

  it('reads tools, schema validity and no auth discovery for a server that listed tools', () => {
    const schemas = analyzeRuntimeSchemas(tools);
    expect(deepProbeOf({ letter: 'o', elapsedMs: 120, toolCount: 1 }, schemas, true)).toEqual({
      isReachable: true,
      connectionMs: 120,
      schemaValid: true,
      errorHandlingScore: null,
      fuzzScore: null,
      functionalSmokeScore: null,
      authDiscoveryValid: null,
      toolsCount: 1,
    });
  });

  it("marks a list with one of the engine's schema issues invalid", () => {
    const schemas = analyzeRuntimeSchemas([{ name: 'ping' }]);
    expect(schemas.details.schema_completeness.issues).toContain('no_input_schema');
    expect(deepProbeOf({ letter: 'o', elapsedMs: 80, toolCount: 1 }, schemas, null).schemaValid).toBe(false);
  });

  it('reads auth discovery only when the server asked for sign-in, and nothing more when it did not answer', () => {
    expect(deepProbeOf({ letter: 'a', elapsedMs: 50, toolCount: 0 }, null, false)).toMatchObject({
      isReachable: true,
      authDiscoveryValid: false,
      schemaValid: null,
      toolsCount: null,
    });
    expect(deepProbeOf({ letter: 'a', elapsedMs: 50, toolCount: 0 }, null, null).authDiscoveryValid).toBeNull();
    expect(deepProbeOf({ letter: 'd', elapsedMs: 10_000, toolCount: 0 }, null, true)).toMatchObject({
      isReachable: false,
      connectionMs: null,
      authDiscoveryValid: null,
    });
  });
});

describe('the repository dimensions without a repository read', () => {
  it('stay pending, and the composite renormalises over the rest', () => {
    const schemas = analyzeRuntimeSchemas([
      { name: 'search_notes', description: 'Search notes by text and tag in one notebook.', inputSchema: {} },
    ]);
    const staticAnalysis = staticAnalysisFrom(schemas, null);
    // Not measured is null, not a stand-in number.
    expect(staticAnalysis).toMatchObject({
      documentationCoverage: null,
      maintenancePulse: null,
      dependencyHealth: null,
      licenseClarity: null,
      versionHygiene: null,
    });
    const facts = scoreFactsOf(WEATHER_ENTRY, WEATHER_ENTRY.remotes[0]);
    const server = scoreServerOf(
      { id: 'weather', url: 'https://weather.acme.dev/mcp', source: 'registry' },
      facts,
      { url: 'https://weather.acme.dev/mcp', protocolVersion: '2025-06-18' },
      null,
    );
    const result = scoreServer({
      server,
      staticAnalysis,
      deepProbe: { isReachable: true, schemaValid: true, toolsCount: 1 },
      reliability: null,
      agentUsability: null,
      now: '2026-12-02T23:59:59Z',
    });
    expect(result.categories.docsMaintenance).toBeNull();
    expect(result.categories.schemaQuality).toEqual(expect.any(Number));
    // Security: two secrets 11, streamable HTTP 12, none highly sensitive 11, package and repository 15: 49/65.
    expect(result.categories).toMatchObject({ schemaQuality: 72, protocol: 100, security: 75 });
    expect(result.dimensionsScored).toBe(3);
    // Standard weights over the three scored categories (25, 20, 20), renormalised: 53 / 0.65 = 81.54.
    expect(result.compositeScore).toBe(82);
    expect(staticAnalysisFrom(null, null)).toBeNull();
  });
});

describe('registry facts', () => {
  it("keep the entry's secrets, transport, packages, repository and website", () => {
    expect(scoreFactsOf(WEATHER_ENTRY, WEATHER_ENTRY.remotes[0])).toEqual({
      registryId: 'io.github.acme/weather',
      description: 'Current weather and forecasts for any city.',
      repositoryUrl: 'https://github.com/acme/weather',
      websiteUrl: 'https://acme.dev/weather',
      envVars: [
        { name: 'ACME_API_KEY', isSecret: true },
        { name: 'LOG_LEVEL', isSecret: false },
        { name: 'X-Acme-Token', isSecret: true },
      ],
      transport: 'streamable-http',
      packages: [
        { registryType: 'npm', identifier: 'acme-weather' },
        { registryType: 'oci', identifier: 'docker.io/acme/weather:1.2.0' },
      ],
    });
  });

  it('clip an odd entry to the stored limits instead of failing', () => {
    const odd = {
      name: 'x'.repeat(500),
      description: 42,
      repository: 'https://github.com/acme/weather',
      packages: [
        { registryType: 'npm', environmentVariables: Array.from({ length: 300 }, (_, i) => ({ name: `V${i}` })) },
      ],
    };
    const facts = scoreFactsOf(odd, null);
    expect(facts.registryId).toHaveLength(200);
    expect(facts.description).toBe('');
    expect(facts.repositoryUrl).toBeNull();
    expect(facts.envVars).toHaveLength(100);
    expect(facts.packages).toEqual([]);
    expect(facts.transport).toBeNull();
  });

  it('name container images by their page', () => {
    expect(imagePageOf('acme/weather:1.2')).toBe('https://hub.docker.com/r/acme/weather');
    expect(imagePageOf('docker.io/acme/weather@sha256:abc')).toBe('https://hub.docker.com/r/acme/weather');
    expect(imagePageOf('redis')).toBe('https://hub.docker.com/r/library/redis');
    expect(imagePageOf('ghcr.io/acme/weather:1')).toBe('https://ghcr.io/acme/weather');
    expect(imagePageOf('localhost:5000/acme/weather:1')).toBe('https://localhost:5000/acme/weather');
  });

  describe('written by the registry read', () => {
    let registry: { server: ServerType; url: string };

    beforeAll(async () => {
      const app = new Hono();
      app.get('/v0.1/servers', (c) => c.json({ servers: [{ server: WEATHER_ENTRY }], metadata: {} }));
      registry = await new Promise((resolve) => {
        const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
          resolve({ server, url: `http://127.0.0.1:${info.port}` }),
        );
      });
    });

    afterAll(() => {
      registry.server.close();
    });

    it('to their own file, by server id, which the score reads', async () => {
      const storage = createMemoryStorage();
      await syncRegistry({ storage, registryUrl: registry.url, network: { allowPrivate: true }, optedOut: [] });
      const facts = await readRegistryScoreFacts(storage);
      expect([...facts.keys()]).toEqual([serverIdFor('io.github.acme/weather')]);
      expect(facts.get(serverIdFor('io.github.acme/weather'))).toEqual(
        scoreFactsOf(WEATHER_ENTRY, WEATHER_ENTRY.remotes[0]),
      );
    });
  });
});
