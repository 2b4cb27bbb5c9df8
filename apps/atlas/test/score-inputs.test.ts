// The daily score's inputs as the app wires them, with hand-computed cases: a watched server's records built into
// the score's view of it, the pending repository dimensions, and the registry facts, read from a registry on
// loopback by the real registry read and from odd entries that must not fail it. How checks become inputs (the
// window, uptime, percentiles, protocol evidence) is tested with @mcp-atlas/operations.
import { type ServerType, serve } from '@hono/node-server';
import { staticAnalysisFrom } from '@mcp-atlas/operations';
import { analyzeRuntimeSchemas, scoreServer } from '@mcp-atlas/score';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverIdFor } from '../src/data/server-id.js';
import { imagePageOf, readRegistryScoreFacts, scoreFactsOf } from '../src/score/registry-facts.js';
import { buildScoreServerFromRecords } from '../src/score/score-inputs.js';
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
    const server = buildScoreServerFromRecords(
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
