// The deep-mode compliance score, with hand-computed cases at and around each rounding edge, the cap and
// every outcome's worth.
import { PROTOCOL_RULES } from '@mcp-atlas/score/rules';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  COMPLIANCE_MAX,
  COMPLIANCE_PARTS,
  DEEP_CALL_TIMEOUT_MS,
  DEEP_MAX_TOOLS,
  ERROR_HANDLING_PASS_OUTCOME,
  FUZZ_OVERSIZED_CHARS,
  FUZZ_POINTS,
  SMOKE_PASS_OUTCOME,
  scoreFuzz,
  scoreShare,
  UNREACHABLE_LETTER,
} from '../src/compliance.js';
import {
  type ComplianceInput,
  classifyDeepCall,
  DEEP_CALL_OUTCOMES,
  type DeepCallOutcome,
  scoreCompliance,
} from '../src/index.js';

const none: ComplianceInput = {
  letter: 'o',
  toolCount: 0,
  usableSchemaCount: 0,
  errorHandling: [],
  fuzz: [],
  smoke: [],
  authDiscovery: null,
};
const times = (outcome: DeepCallOutcome, n: number): DeepCallOutcome[] => Array.from({ length: n }, () => outcome);

describe('the constants', () => {
  it('hold the published values', () => {
    expect(COMPLIANCE_MAX).toBe(100);
    expect(PROTOCOL_RULES.authDiscoveryBonus).toBe(10);
    expect(FUZZ_POINTS).toEqual({ 'proper-error': 100, accepted: 50, crash: 0, hang: 0 });
    expect(COMPLIANCE_PARTS).toEqual(['reachability', 'schemaValidity', 'errorHandling', 'fuzz', 'smoke']);
    expect(DEEP_CALL_OUTCOMES).toEqual(['proper-error', 'accepted', 'crash', 'hang']);
    expect(ERROR_HANDLING_PASS_OUTCOME).toBe('proper-error');
    expect(SMOKE_PASS_OUTCOME).toBe('accepted');
    expect(UNREACHABLE_LETTER).toBe('d');
    expect(DEEP_CALL_TIMEOUT_MS).toBe(10_000);
    expect(DEEP_MAX_TOOLS).toBe(5);
    expect(FUZZ_OVERSIZED_CHARS).toBe(100_000);
  });
});

describe('classifyDeepCall', () => {
  it('sorts results: isError true is a proper error, anything else accepted', () => {
    expect(classifyDeepCall({ result: { content: [], isError: true } })).toEqual({
      outcome: 'proper-error',
      detail: 'tool error result',
    });
    expect(classifyDeepCall({ result: { content: [], isError: false } })).toEqual({
      outcome: 'accepted',
      detail: null,
    });
    expect(classifyDeepCall({ result: { content: [] } })).toEqual({ outcome: 'accepted', detail: null });
    expect(classifyDeepCall({ result: null })).toEqual({ outcome: 'accepted', detail: null });
  });

  it('sorts errors: a JSON-RPC error is proper, the SDK timeout a hang, a closed connection or anything else a crash', () => {
    expect(classifyDeepCall({ error: new McpError(-32602, 'bad') })).toEqual({
      outcome: 'proper-error',
      detail: 'JSON-RPC error -32602',
    });
    expect(classifyDeepCall({ error: new McpError(-32601, 'no such tool') }).outcome).toBe('proper-error');
    expect(classifyDeepCall({ error: new McpError(-32001, 'timed out') }).outcome).toBe('hang');
    expect(classifyDeepCall({ error: new McpError(-32000, 'closed') }).outcome).toBe('crash');
    expect(classifyDeepCall({ error: new Error('socket hang up') })).toEqual({
      outcome: 'crash',
      detail: 'socket hang up',
    });
    expect(classifyDeepCall({ error: 'plain text' })).toEqual({ outcome: 'crash', detail: 'plain text' });
    // An McpError of another copy of the SDK: recognised by its name and numeric code.
    const foreign = Object.assign(new Error('MCP error -32602: bad'), { name: 'McpError', code: -32602 });
    expect(classifyDeepCall({ error: foreign })).toEqual({ outcome: 'proper-error', detail: 'JSON-RPC error -32602' });
    // A transport error with an HTTP status as its code is not a JSON-RPC error.
    const http = Object.assign(new Error('Streamable HTTP error'), { name: 'StreamableHTTPError', code: 500 });
    expect(classifyDeepCall({ error: http }).outcome).toBe('crash');
  });
});

describe('scoreShare', () => {
  it('is null with nothing to measure, not zero', () => {
    expect(scoreShare(0, 0)).toBeNull();
  });

  it('gives the ends exactly', () => {
    expect(scoreShare(0, 1)).toBe(0);
    expect(scoreShare(1, 1)).toBe(100);
  });

  it('rounds half up, and below and above the half', () => {
    expect(scoreShare(1, 8)).toBe(13); // 12.5
    expect(scoreShare(1, 3)).toBe(33); // 33.33
    expect(scoreShare(2, 3)).toBe(67); // 66.67
    expect(scoreShare(1, 200)).toBe(1); // 0.5
    expect(scoreShare(1, 201)).toBe(0); // 0.4975
  });
});

describe('scoreFuzz', () => {
  it('is null with no fuzz case', () => {
    expect(scoreFuzz([])).toBeNull();
  });

  it('gives each outcome alone its points', () => {
    for (const outcome of DEEP_CALL_OUTCOMES) expect(scoreFuzz([outcome])).toBe(FUZZ_POINTS[outcome]);
  });

  it('averages the points and rounds half up', () => {
    expect(scoreFuzz(['proper-error', 'accepted'])).toBe(75); // 150 / 2
    expect(scoreFuzz(['proper-error', 'accepted', 'crash', 'hang'])).toBe(38); // 150 / 4 = 37.5
    expect(scoreFuzz(['proper-error', 'proper-error', 'accepted'])).toBe(83); // 250 / 3 = 83.33
    expect(scoreFuzz(['accepted', 'accepted', 'proper-error'])).toBe(67); // 200 / 3 = 66.67
  });
});

describe('scoreCompliance', () => {
  it('scores reachability 0 for the unreachable letter and 100 for every other', () => {
    expect(scoreCompliance({ ...none, letter: 'd' })).toEqual({
      score: 0,
      parts: { reachability: 0, schemaValidity: null, errorHandling: null, fuzz: null, smoke: null },
      authDiscovery: null,
      authBonus: 0,
    });
    for (const letter of ['o', 'a', 'p']) expect(scoreCompliance({ ...none, letter }).parts.reachability).toBe(100);
  });

  it('leaves out the parts that could not be measured instead of counting them as zero', () => {
    expect(scoreCompliance(none)).toEqual({
      score: 100,
      parts: { reachability: 100, schemaValidity: null, errorHandling: null, fuzz: null, smoke: null },
      authDiscovery: null,
      authBonus: 0,
    });
  });

  it('averages the measured parts with equal weight', () => {
    // schema 1 of 2 = 50; error handling 1 of 3 = 33; fuzz (100 + 50) / 2 = 75; smoke 1 of 2 = 50;
    // (100 + 50 + 33 + 75 + 50) / 5 = 61.6 -> 62
    const result = scoreCompliance({
      ...none,
      toolCount: 2,
      usableSchemaCount: 1,
      errorHandling: ['proper-error', 'crash', 'hang'],
      fuzz: ['proper-error', 'accepted'],
      smoke: ['accepted', 'proper-error'],
    });
    expect(result).toEqual({
      score: 62,
      parts: { reachability: 100, schemaValidity: 50, errorHandling: 33, fuzz: 75, smoke: 50 },
      authDiscovery: null,
      authBonus: 0,
    });
  });

  it('rounds the mean half up: (100 + 33) / 2 = 66.5 -> 67, (100 + 32) / 2 = 66', () => {
    expect(scoreCompliance({ ...none, toolCount: 3, usableSchemaCount: 1 }).score).toBe(67);
    expect(scoreCompliance({ ...none, toolCount: 25, usableSchemaCount: 8 }).score).toBe(66); // 8 / 25 = 32
  });

  it('counts only a proper error as a passed error-handling case, and only an accepted call as a passed smoke call', () => {
    const errors = scoreCompliance({ ...none, errorHandling: ['accepted', 'crash', 'hang', 'proper-error'] });
    expect(errors.parts.errorHandling).toBe(25);
    const smoke = scoreCompliance({ ...none, smoke: ['proper-error', 'crash', 'hang', 'accepted'] });
    expect(smoke.parts.smoke).toBe(25);
  });

  it('adds the OAuth discovery bonus only when the metadata was found', () => {
    // reachability 100, schema 1 of 2 = 50: mean 75
    const half = { ...none, letter: 'a', toolCount: 2, usableSchemaCount: 1 };
    expect(scoreCompliance({ ...half, authDiscovery: true })).toMatchObject({
      score: 85,
      authBonus: 10,
      authDiscovery: true,
    });
    expect(scoreCompliance({ ...half, authDiscovery: false })).toMatchObject({
      score: 75,
      authBonus: 0,
      authDiscovery: false,
    });
    expect(scoreCompliance({ ...half, authDiscovery: null })).toMatchObject({
      score: 75,
      authBonus: 0,
      authDiscovery: null,
    });
  });

  it('caps the score with the bonus at COMPLIANCE_MAX: mean 89 -> 99, 90 -> 100, 91 -> 100', () => {
    const withSchemas = (usable: number) =>
      scoreCompliance({ ...none, letter: 'a', toolCount: 100, usableSchemaCount: usable, authDiscovery: true });
    expect(withSchemas(78)).toMatchObject({ score: 99, authBonus: 10 }); // (100 + 78) / 2 = 89
    expect(withSchemas(80)).toMatchObject({ score: 100, authBonus: 10 }); // 90 + 10
    expect(withSchemas(82)).toMatchObject({ score: 100, authBonus: 10 }); // 91 + 10 = 101, capped
  });

  it('averages the rounded parts, not the raw shares', () => {
    // schema 1 of 3 -> 33, error handling 1 of 3 -> 33: (100 + 33 + 33) / 3 = 55.33 -> 55
    // (the raw shares would give (100 + 33.33 + 33.33) / 3 = 55.56 -> 56)
    const result = scoreCompliance({
      ...none,
      toolCount: 3,
      usableSchemaCount: 1,
      errorHandling: ['proper-error', ...times('crash', 2)],
    });
    expect(result.score).toBe(55);
  });
});
