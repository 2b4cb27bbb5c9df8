// How the daily score's inputs are assembled from the service's own checks, with hand-computed cases at and
// around each rule: the day's last second, the seven-day window's first and last day, the uptime over daily,
// hourly and five-minute checks, the nearest-rank p50 and p95, the probe-count gate of the score at 9 and 10
// checks, schema validity, the protocol evidence by letter, and the repository parts left pending.
import { analyzeRepository, analyzeRuntimeSchemas, type RepositoryFacts, scoreServer } from '@mcp-atlas/score';
import { RELIABILITY_RULES } from '@mcp-atlas/score/rules';
import { describe, expect, it } from 'vitest';
import {
  deepProbeOf,
  isSchemaValid,
  type ReliabilityEvidence,
  reliabilityInputOf,
  reliabilityWindowOf,
  scoreInstantOf,
  staticAnalysisFrom,
} from '../src/score-inputs.js';
import { DAILY_SCORE_RULES } from '../src/score-rules.js';

const GOOD_TOOL = {
  name: 'search_notes',
  description: 'Search notes by text and tag in one notebook.',
  inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'Text' } }, required: ['q'] },
};

describe('scoreInstantOf', () => {
  it("is the day's last second, one second before the next day starts", () => {
    expect(DAILY_SCORE_RULES.scoredAtTimeOfDay).toBe('23:59:59');
    expect(scoreInstantOf('2026-12-02')).toBe('2026-12-02T23:59:59Z');
    expect(Date.parse(scoreInstantOf('2026-12-02')) + 1000).toBe(Date.parse('2026-12-03T00:00:00Z'));
    expect(scoreInstantOf('2026-12-31')).toBe('2026-12-31T23:59:59Z');
  });
});

describe('reliabilityWindowOf', () => {
  it('reads the seven days ending the scored day: six back is in, seven back is out', () => {
    expect(DAILY_SCORE_RULES.reliabilityWindowDays).toBe(RELIABILITY_RULES.windowDays);
    expect(DAILY_SCORE_RULES.reliabilityWindowDays).toBe(7);
    const window = reliabilityWindowOf('2026-12-02');
    expect(window).toEqual([
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
    expect(window).not.toContain('2026-11-25');
    expect(window).not.toContain('2026-12-03');
  });

  it('crosses a year boundary', () => {
    expect(reliabilityWindowOf('2027-01-03')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
  });
});

/** The reliability category a remote server with only this input gets. */
function scoreOf(input: ReturnType<typeof reliabilityInputOf>): number | null {
  return scoreServer({
    server: {
      name: 'notes',
      description: '',
      repoUrl: '',
      registryId: '',
      remoteEndpointUrl: 'https://notes.example.org/mcp',
      isRemote: true,
      hasSandboxProbe: false,
      registryMetadata: {},
      npmUrl: '',
      pypiUrl: '',
      dockerhubUrl: '',
      lastCommitAt: null,
    },
    staticAnalysis: null,
    deepProbe: null,
    reliability: input,
    agentUsability: null,
    now: '2026-12-02T23:59:59Z',
  }).categories.reliability;
}

describe('reliabilityInputOf', () => {
  const evidence: ReliabilityEvidence = {
    daily: [
      { letter: 'o', elapsedMs: 100 },
      { letter: 'o', elapsedMs: 300 },
      { letter: 'd', elapsedMs: 5000 },
      { letter: 'a', elapsedMs: 200 },
    ],
    hourly: [{ letter: 'o', elapsedMs: 400 }],
    fiveMinuteCounters: [{ answered: 4, checks: 5 }],
    fiveMinuteTimings: [
      { letter: 'o', elapsedMs: 150 },
      { letter: 'd', elapsedMs: 9000 },
      { letter: 'o', elapsedMs: 250 },
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

  it('counts a sign-in or payment answer as up, and a down check in the count but not among the times', () => {
    const input = reliabilityInputOf({
      daily: [
        { letter: 'a', elapsedMs: 10 },
        { letter: 'p', elapsedMs: 20 },
        { letter: 'd', elapsedMs: 1 },
      ],
      hourly: [],
      fiveMinuteCounters: [],
      fiveMinuteTimings: [],
    });
    expect(input.probeCount).toBe(3);
    expect(input.uptimePct).toBeCloseTo(200 / 3, 12);
    expect(input.latencyP50Ms).toBe(10);
    expect(input.latencyP95Ms).toBe(20);
  });

  it('leaves out a check without a wall time from the percentiles, not from the count', () => {
    const input = reliabilityInputOf({
      daily: [{ letter: 'o', elapsedMs: 120 }],
      hourly: [{ letter: 'o' }],
      fiveMinuteCounters: [],
      fiveMinuteTimings: [{ letter: 'o' }],
    });
    expect(input).toEqual({ uptimePct: 100, latencyP50Ms: 120, latencyP95Ms: 120, probeCount: 2 });
  });

  it('takes p50 and p95 by nearest rank: of twenty times, the 10th and the 19th', () => {
    expect(DAILY_SCORE_RULES.latencyPercentiles).toEqual({ p50: 50, p95: 95 });
    const daily = Array.from({ length: 20 }, (_, i) => ({ letter: 'o', elapsedMs: (i + 1) * 10 }));
    const input = reliabilityInputOf({ daily, hourly: [], fiveMinuteCounters: [], fiveMinuteTimings: [] });
    expect(input.latencyP50Ms).toBe(100);
    expect(input.latencyP95Ms).toBe(190);
  });

  it("feeds the score's probe-count gate: 10 checks are scored, 9 are not", () => {
    expect(RELIABILITY_RULES.minimumProbeCount).toBe(10);
    const ten = reliabilityInputOf(evidence);
    expect(ten.probeCount).toBe(10);
    expect(scoreOf(ten)).toEqual(expect.any(Number));
    const nine = reliabilityInputOf({ ...evidence, fiveMinuteCounters: [{ answered: 4, checks: 4 }] });
    expect(nine.probeCount).toBe(9);
    expect(scoreOf(nine)).toBeNull();
  });

  it('counts every hourly check of the window from its tallies, and reads the kept hourly observations no more', () => {
    // A week of hourly checks, no five-minute checks: 7 daily checks at 300 ms; 6 days of 24 hourly checks and the
    // scored day's 23, 3 of them failed. Of the 164 answering hourly checks, 100 took 150 ms, 60 took 400 ms and 4
    // took 2,000 ms.
    const day = (answered: number, checks: number, latencyMs: [number, number][]) => ({ answered, checks, latencyMs });
    const hourlyTallies = [
      day(24, 24, [[150, 24]]),
      day(24, 24, [[150, 24]]),
      day(24, 24, [[150, 24]]),
      day(24, 24, [[150, 24]]),
      day(23, 24, [
        [150, 4],
        [400, 19],
      ]),
      day(22, 24, [
        [400, 20],
        [2000, 2],
      ]),
      day(23, 23, [
        [400, 21],
        [2000, 2],
      ]),
    ];
    const input = reliabilityInputOf({
      daily: Array.from({ length: 7 }, () => ({ letter: 'o', elapsedMs: 300 })),
      hourlyTallies,
      // The two observations the hourly file keeps are in the tallies already: not counted again.
      hourly: [
        { letter: 'd', elapsedMs: 1 },
        { letter: 'o', elapsedMs: 1 },
      ],
      fiveMinuteCounters: [],
      fiveMinuteTimings: [],
    });
    // 7 + 167 = 174 checks, 7 + 164 = 171 answered: uptime 171 / 174 = 98.2758...%.
    expect(input.probeCount).toBe(174);
    expect(input.uptimePct).toBeCloseTo((171 * 100) / 174, 12);
    // 171 times, fastest first: 100 at 150, 7 at 300, 60 at 400, 4 at 2,000. p50 is the 86th (150); p95 the
    // ceil(0.95 * 171) = 163rd, which is among the 400s (108th to 167th).
    expect(input.latencyP50Ms).toBe(150);
    expect(input.latencyP95Ms).toBe(400);
  });

  it('reads five-minute wall times from the counters that kept them, the kept observations only before that', () => {
    const withTimes = reliabilityInputOf({
      daily: [{ letter: 'o', elapsedMs: 100 }],
      hourly: [],
      fiveMinuteCounters: [
        { answered: 3, checks: 4, latencyMs: [[50, 3]] },
        { answered: 2, checks: 2 },
      ],
      fiveMinuteTimings: [{ letter: 'o', elapsedMs: 9000 }],
    });
    // 7 checks, 6 answered; times 50, 50, 50, 100 (the kept 9,000 ms observation is in a counter already).
    expect(withTimes).toEqual({ uptimePct: 600 / 7, latencyP50Ms: 50, latencyP95Ms: 100, probeCount: 7 });
  });

  it('reaches the gate of 10 on hourly checks alone: 9 checks stay pending, 10 are scored', () => {
    const tally = (checks: number) => [{ answered: checks, checks, latencyMs: [[180, checks]] as [number, number][] }];
    const gate = (checks: number) =>
      reliabilityInputOf({
        daily: [],
        hourlyTallies: tally(checks),
        hourly: [],
        fiveMinuteCounters: [],
        fiveMinuteTimings: [],
      });
    expect(gate(9)).toEqual({ uptimePct: 100, latencyP50Ms: 180, latencyP95Ms: 180, probeCount: 9 });
    expect(scoreOf(gate(9))).toBeNull();
    // trunc(100 * 0.75 + 92 * 0.15 + 92 * 0.10) = trunc(98) = 98 (180 ms scores 92 on the latency curve).
    expect(scoreOf(gate(10))).toBe(98);
  });

  it('gives no uptime and no latency without checks', () => {
    expect(reliabilityInputOf({ daily: [], hourly: [], fiveMinuteCounters: [], fiveMinuteTimings: [] })).toEqual({
      uptimePct: null,
      latencyP50Ms: null,
      latencyP95Ms: null,
      probeCount: 0,
    });
  });
});

describe('isSchemaValid', () => {
  it('is true for tools without an issue, and false for an issue or an entry that is not a tool', () => {
    expect(isSchemaValid(analyzeRuntimeSchemas([GOOD_TOOL]))).toBe(true);
    const noSchema = analyzeRuntimeSchemas([{ name: 'ping' }]);
    expect(noSchema.details.schema_completeness.issues).toContain('no_input_schema');
    expect(isSchemaValid(noSchema)).toBe(false);
    const withStray = analyzeRuntimeSchemas([GOOD_TOOL, 'not a tool']);
    expect(withStray.details.skipped_entries).toBe(1);
    expect(isSchemaValid(withStray)).toBe(false);
    expect(isSchemaValid(analyzeRuntimeSchemas([]))).toBe(false);
  });
});

describe('deepProbeOf', () => {
  it('reads tools, schema validity and no auth discovery for a server that listed tools', () => {
    const schemas = analyzeRuntimeSchemas([GOOD_TOOL]);
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

  it("marks a list with one of the engine's schema issues invalid, and knows no validity without a list", () => {
    const schemas = analyzeRuntimeSchemas([{ name: 'ping' }]);
    expect(deepProbeOf({ letter: 'o', elapsedMs: 80, toolCount: 1 }, schemas, null).schemaValid).toBe(false);
    expect(deepProbeOf({ letter: 'o', elapsedMs: 80, toolCount: 1 }, null, null)).toMatchObject({
      schemaValid: null,
      toolsCount: null,
    });
  });

  it('reads auth discovery only when the server asked for sign-in, and nothing more when it did not answer', () => {
    expect(deepProbeOf({ letter: 'a', elapsedMs: 50, toolCount: 0 }, null, false)).toMatchObject({
      isReachable: true,
      authDiscoveryValid: false,
      schemaValid: null,
      toolsCount: null,
    });
    expect(deepProbeOf({ letter: 'a', elapsedMs: 50, toolCount: 0 }, null, null).authDiscoveryValid).toBeNull();
    expect(deepProbeOf({ letter: 'p', elapsedMs: 50, toolCount: 0 }, null, true)).toMatchObject({
      isReachable: true,
      connectionMs: 50,
      authDiscoveryValid: null,
    });
    expect(deepProbeOf({ letter: 'd', elapsedMs: 10_000, toolCount: 0 }, null, true)).toMatchObject({
      isReachable: false,
      connectionMs: null,
      authDiscoveryValid: null,
    });
  });
});

describe('staticAnalysisFrom', () => {
  const facts: RepositoryFacts = {
    fullName: 'acme/notes',
    defaultBranch: 'main',
    archived: false,
    pushedAt: '2026-11-30T00:00:00Z',
    stars: 0,
    forks: 0,
    openIssues: 0,
    license: { spdxId: 'MIT', name: 'MIT License' },
    paths: ['README.md', 'LICENSE', 'package.json'],
    treeTruncated: false,
    recentCommits: 3,
    releases: [],
    tags: [],
  };

  it('is null with neither runtime schemas nor a repository', () => {
    expect(staticAnalysisFrom(null, null)).toBeNull();
  });

  it('leaves the five repository parts pending without a repository read', () => {
    const schemas = analyzeRuntimeSchemas([GOOD_TOOL]);
    expect(staticAnalysisFrom(schemas, null)).toEqual({
      schemaCompleteness: schemas.schemaCompleteness,
      descriptionQuality: schemas.descriptionQuality,
      documentationCoverage: null,
      maintenancePulse: null,
      dependencyHealth: null,
      licenseClarity: null,
      versionHygiene: null,
      details: schemas.details,
    });
  });

  it('leaves the schema parts not measured (not finite) with only a repository', () => {
    const repository = analyzeRepository(facts, { now: '2026-12-02T23:59:59Z' });
    const analysis = staticAnalysisFrom(null, repository);
    expect(analysis?.schemaCompleteness).toBeNaN();
    expect(analysis?.descriptionQuality).toBeNaN();
    expect(analysis?.licenseClarity).toBe(100);
  });
});
