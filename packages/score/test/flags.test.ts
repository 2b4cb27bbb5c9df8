import { describe, expect, it } from 'vitest';
import {
  AMBIGUOUS_SCHEMA_MIN_TOOLS,
  countDescriptions,
  DESCRIPTION_DUPLICATE_MIN_COUNT,
  DESCRIPTION_DUPLICATE_MIN_LENGTH,
  DESCRIPTION_KEY_MAX_CHARS,
  descriptionKey,
  detectFlags,
  FLAG_DEFINITIONS,
  FLAG_KEYS,
  FLAG_SCORE_CAPS,
  HIGH_SECRET_DEMAND_MIN_VARS,
  SENSITIVE_CREDS_MIN_SECRETS,
  STALE_ANALYSIS_DAYS,
  STALE_PROJECT_DAYS,
} from '../src/flags.js';
import type { ScoreServer } from '../src/types.js';
import { FLAG_VECTORS, NOW } from './fixtures/engine-signal-vectors.js';

function serverWith(overrides: Partial<ScoreServer> = {}): ScoreServer {
  return {
    name: 'acme/widget',
    description: 'Query widget inventory across warehouses',
    repoUrl: 'https://github.com/acme/widget',
    registryId: 'io.github.acme/widget',
    remoteEndpointUrl: 'https://mcp.acme.io/mcp',
    isRemote: true,
    hasSandboxProbe: false,
    registryMetadata: {},
    npmUrl: '',
    pypiUrl: '',
    dockerhubUrl: '',
    lastCommitAt: '2026-11-01T00:00:00Z',
    ...overrides,
  };
}

function keysOf(server: ScoreServer, options: Partial<Parameters<typeof detectFlags>[1]> = {}): string[] {
  return detectFlags(server, { now: NOW, ...options }).map((flag) => flag.key);
}

describe('flag constants', () => {
  it('keeps the engine caps: dead 0, exfiltration 25, injection 30, archived 40, staging 55', () => {
    expect(FLAG_SCORE_CAPS).toEqual({
      DEAD_REPO: 0,
      REPO_ARCHIVED: 40,
      STAGING_ARTIFACT: 55,
      PROMPT_INJECTION: 30,
      EXFILTRATION_RISK: 25,
    });
    expect(Object.isFrozen(FLAG_SCORE_CAPS)).toBe(true);
  });

  it('gives every key a severity and label, four of them critical', () => {
    expect(Object.keys(FLAG_DEFINITIONS)).toEqual([...FLAG_KEYS]);
    const critical = FLAG_KEYS.filter((key) => FLAG_DEFINITIONS[key].severity === 'critical');
    expect(critical).toEqual(['DEAD_REPO', 'REPO_ARCHIVED', 'PROMPT_INJECTION', 'EXFILTRATION_RISK']);
  });

  it('keeps the engine thresholds', () => {
    expect([SENSITIVE_CREDS_MIN_SECRETS, HIGH_SECRET_DEMAND_MIN_VARS, STALE_PROJECT_DAYS, STALE_ANALYSIS_DAYS]).toEqual(
      [3, 5, 365, 60],
    );
    expect([DESCRIPTION_DUPLICATE_MIN_COUNT, DESCRIPTION_DUPLICATE_MIN_LENGTH, DESCRIPTION_KEY_MAX_CHARS]).toEqual([
      3, 20, 200,
    ]);
    expect(AMBIGUOUS_SCHEMA_MIN_TOOLS).toBe(2);
  });
});

describe('detectFlags on the engine 0.9.0 vectors', () => {
  for (const vector of FLAG_VECTORS) {
    it(vector.name, () => {
      const server = serverWith(vector.server);
      const flags = detectFlags(server, { now: NOW, ...(vector.context ? { context: vector.context } : {}) });
      expect(flags).toEqual(vector.expected);
    });
  }
});

describe('detectFlags thresholds (hand-computed)', () => {
  it('counts secrets from names and from the registry isSecret mark', () => {
    const two = ['A_TOKEN', 'B_SECRET'];
    expect(keysOf(serverWith({ registryMetadata: { env_vars: two } }))).toEqual([]);
    const withMarked = [...two, { name: 'ACME_LOGIN', isSecret: true }];
    const flags = detectFlags(serverWith({ registryMetadata: { env_vars: withMarked } }), { now: NOW });
    expect(flags.map((flag) => flag.key)).toEqual(['SENSITIVE_CREDS']);
    expect(flags[0]?.description).toBe('Requires 3 sensitive environment variables (A_TOKEN, B_SECRET, ACME_LOGIN).');
  });

  it('counts 4 and 5 variables that are not plain configuration around HIGH_SECRET_DEMAND', () => {
    const config = ['PORT', 'host', 'LOG_LEVEL', 'log-level', 'DEBUG', 'WORKERS', 'timeout', 'NODE_ENV', 'BASE_URL'];
    const four = [...config, 'A', 'B', 'C', 'D'];
    expect(keysOf(serverWith({ registryMetadata: { env_vars: four } }))).toEqual([]);
    expect(keysOf(serverWith({ registryMetadata: { env_vars: [...four, 'E'] } }))).toEqual(['HIGH_SECRET_DEMAND']);
    // A name that is configuration only as a prefix counts ("PORTAL" is not "PORT").
    expect(keysOf(serverWith({ registryMetadata: { env_vars: [...four, 'PORTAL'] } }))).toEqual(['HIGH_SECRET_DEMAND']);
    // Python's `$` matches before a final newline, so "PORT\n" is still configuration.
    expect(keysOf(serverWith({ registryMetadata: { env_vars: [...four, 'PORT\n'] } }))).toEqual([]);
    // The registry's isSecret mark makes even a configuration name count.
    const marked = [...four, { name: 'REGION', isSecret: true }];
    expect(keysOf(serverWith({ registryMetadata: { env_vars: marked } }))).toEqual(['HIGH_SECRET_DEMAND']);
  });

  it('ignores env_vars that is not a list', () => {
    expect(keysOf(serverWith({ registryMetadata: { env_vars: 'A_TOKEN,B_TOKEN,C_TOKEN' } }))).toEqual([]);
  });

  it('measures STALE_PROJECT from now, not from a clock', () => {
    const server = serverWith({ lastCommitAt: '2020-01-01T00:00:00Z' });
    expect(keysOf(server, { now: '2020-12-31T00:00:00Z' })).toEqual([]);
    expect(keysOf(server, { now: '2021-01-01T00:00:00.001Z' })).toEqual(['STALE_PROJECT']);
    expect(keysOf(serverWith({ lastCommitAt: null }))).toEqual([]);
    expect(keysOf(serverWith({ lastCommitAt: 'yesterday' }))).toEqual([]);
  });

  it('reads a time without offset as UTC for STALE_PROJECT', () => {
    // 2025-12-02T00:00:00 is exactly 365 days before NOW in UTC, whatever the machine's time zone.
    expect(keysOf(serverWith({ lastCommitAt: '2025-12-02T00:00:00' }))).toEqual([]);
    expect(keysOf(serverWith({ lastCommitAt: '2025-12-01T23:59:59.999' }))).toEqual(['STALE_PROJECT']);
  });

  it('reads the analysis time from staticAnalysis.details when the registry has none', () => {
    const details = { last_analyzed_at: '2026-10-02T23:59:59Z' };
    const staticAnalysis = {
      schemaCompleteness: 0,
      descriptionQuality: 0,
      documentationCoverage: 0,
      maintenancePulse: 0,
      dependencyHealth: 0,
      licenseClarity: 0,
      versionHygiene: 0,
      details,
    };
    expect(keysOf(serverWith(), { staticAnalysis })).toEqual(['STALE_ANALYSIS']);
    const fresh = { registryMetadata: { last_analyzed_at: '2026-12-01T00:00:00Z' } };
    expect(keysOf(serverWith(fresh), { staticAnalysis })).toEqual([]);
    expect(keysOf(serverWith(), { staticAnalysis: null, deepProbe: { isReachable: true } })).toEqual([]);
  });

  it('names days as whole days in STALE_ANALYSIS', () => {
    const server = serverWith({ registryMetadata: { last_analyzed_at: '2026-09-01T12:00:00Z' } });
    const [flag] = detectFlags(server, { now: NOW });
    // 91.5 days old: 91 whole days.
    expect(flag?.description).toBe('Static analysis data is 91 days old. Results may not reflect current state.');
  });

  it('needs a context for DESCRIPTION_DUPLICATE', () => {
    const server = serverWith();
    expect(keysOf(server)).toEqual([]);
    const descriptionCounts = countDescriptions(Array(3).fill(server.description));
    expect(keysOf(server, { context: { descriptionCounts, archivedRepos: [] } })).toEqual(['DESCRIPTION_DUPLICATE']);
  });

  it('raises REPO_ARCHIVED from the map only for the exact repository URL', () => {
    const context = { descriptionCounts: {}, archivedRepos: ['https://github.com/acme/widget/'] };
    expect(keysOf(serverWith(), { context })).toEqual([]);
    expect(
      keysOf(serverWith({ repoUrl: '', registryMetadata: { homepage: 'x' } }), {
        context: { descriptionCounts: {}, archivedRepos: [''] },
      }),
    ).toEqual([]);
  });

  it("raises PROMPT_INJECTION from the engine's prompt_injection_found, or from a person's confirmation", () => {
    const injection = {
      key: 'PROMPT_INJECTION',
      severity: 'critical',
      label: 'Prompt Injection Risk',
      description: 'Tool descriptions contain patterns that could manipulate AI agents.',
    };
    const found = serverWith({ registryMetadata: { behavioral_security: { prompt_injection_found: true } } });
    // The engine's own input raises it whatever confirmedInjection says.
    expect(detectFlags(found, { now: NOW })).toEqual([injection]);
    expect(detectFlags(found, { now: NOW, confirmedInjection: false })).toEqual([injection]);
    // Python truthiness, as the engine reads the fact: false, 0, '' and a missing key raise nothing.
    for (const value of [false, 0, '', null])
      expect(
        keysOf(serverWith({ registryMetadata: { behavioral_security: { prompt_injection_found: value } } })),
      ).toEqual([]);
    expect(keysOf(serverWith({ registryMetadata: { behavioral_security: 'yes' } }))).toEqual([]);
    // The added input: a confirmed match of our own scan raises it once, never twice.
    expect(detectFlags(serverWith(), { now: NOW, confirmedInjection: true })).toEqual([injection]);
    expect(detectFlags(found, { now: NOW, confirmedInjection: true })).toEqual([injection]);
    expect(keysOf(serverWith(), { confirmedInjection: false })).toEqual([]);
  });

  it('tolerates odd registry metadata without throwing', () => {
    const odd = serverWith({
      registryMetadata: {
        env_vars: [null, 7, { nope: true }, 'A_TOKEN'],
        schema_drift: [],
        ambiguous_tools: 'a,b',
        spec_version: null,
        behavioral_security: 'yes',
        last_analyzed_at: 12345,
      },
    });
    // The three entries without a name count as not-configuration, as the engine's list of names would.
    expect(keysOf(odd)).toEqual([]);
    expect(keysOf(serverWith({ registryMetadata: null as unknown as Record<string, unknown> }))).toEqual([]);
  });

  it('refuses a now that is not a time, with a clear message', () => {
    expect(() => detectFlags(serverWith(), { now: 'soon' })).toThrow(
      new RangeError('detectFlags: options.now must be an ISO 8601 time, got soon'),
    );
  });
});

describe('descriptionKey and countDescriptions', () => {
  it('trims, lower-cases and keeps 200 code points', () => {
    expect(descriptionKey('  Fetch Web Pages \n')).toBe('fetch web pages');
    const astral = '😀'.repeat(250);
    expect(descriptionKey(astral)).toBe('😀'.repeat(200));
    // U+001C is whitespace to Python, U+FEFF is not.
    expect(descriptionKey('\u001cA\u001c')).toBe('a');
    expect(descriptionKey('\ufeffA')).toBe('\ufeffa');
  });

  it('counts by key and skips empty descriptions', () => {
    expect(countDescriptions(['Fetch web pages.', 'fetch web pages.  ', '', '   '])).toEqual({ 'fetch web pages.': 2 });
  });

  it('does not trip over keys shaped like object properties', () => {
    const proto = '__proto__ of a widget inventory map';
    const counts = countDescriptions(['__proto__', '__proto__', proto, proto, proto]);
    expect(Object.getPrototypeOf(counts)).toBe(Object.prototype);
    expect(Object.hasOwn(counts, '__proto__')).toBe(true);
    expect(counts[proto]).toBe(3);
    const context = { descriptionCounts: counts, archivedRepos: [] };
    expect(keysOf(serverWith({ description: proto }), { context })).toEqual(['DESCRIPTION_DUPLICATE']);
    const server = serverWith({ description: '__proto__ and constructor of the widget map' });
    expect(keysOf(server, { context: { descriptionCounts: {}, archivedRepos: [] } })).toEqual([]);
  });
});
