// The rules of `mcp-atlas check` without a server: gate parsing and judging, argument parsing, the
// loopback test of deep mode, how a call's answer is sorted, and the compliance score at its edges.
import { PROTOCOL_RULES } from '@mcp-atlas/score/rules';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { isLoopbackUrl, parseCheckArguments } from '../src/check/command.js';
import { DEFAULT_GATES, FUZZ_POINTS } from '../src/check/constants.js';
import { classifyCall, plainValueFor, scoreDeepSession, wrongValueFor } from '../src/check/deep.js';
import { CheckUsageError } from '../src/check/errors.js';
import { evaluateGates, type GateInput, parseGates } from '../src/check/gates.js';
import type { BaselineComparison, CheckedTool, DeepCase } from '../src/check/report-schema.js';

const tool = (name: string, level: CheckedTool['level']): CheckedTool => ({
  name,
  level,
  rule: 1,
  raised: false,
  reason: '',
  hash: '0'.repeat(64),
});
const unchanged: BaselineComparison = {
  file: 'l.json',
  added: [],
  removed: [],
  changed: [],
  renamed: [],
  riskRises: [],
  details: [],
  resources: null,
  resourceTemplates: null,
  prompts: null,
  unchanged: true,
};
const input = (over: Partial<GateInput> = {}): GateInput => ({
  letter: 'o',
  reason: 'ok',
  tools: [],
  findings: [],
  baseline: null,
  conformance: null,
  ...over,
});
const deepCase = (outcome: DeepCase['outcome']): DeepCase => ({
  kind: 'fuzz-empty',
  tool: 't',
  outcome,
  elapsedMs: 1,
  detail: null,
});

describe('parseGates', () => {
  it('defaults to not-answering only', () => {
    expect(DEFAULT_GATES).toEqual(['not-answering']);
    expect(parseGates([])).toEqual([{ kind: 'not-answering' }]);
  });

  it('reads comma lists, repeats and finding ids', () => {
    expect(parseGates(['high-risk,change', 'finding:slow', ' risk-rise '])).toEqual([
      { kind: 'high-risk' },
      { kind: 'change' },
      { kind: 'finding', id: 'slow' },
      { kind: 'risk-rise' },
    ]);
  });

  it('refuses unknown names and unknown finding ids with a typed error', () => {
    expect(() => parseGates(['sometimes'])).toThrow(CheckUsageError);
    expect(() => parseGates(['finding:'])).toThrow(/does not know "finding:"/);
    expect(() => parseGates(['finding:Slow'])).toThrow(CheckUsageError);
    expect(() => parseGates(['high-risk,'])).toThrow(/does not know ""/);
  });
});

describe('evaluateGates', () => {
  it('not-answering trips on d only; a and p are answers', () => {
    const gates = parseGates(['not-answering']);
    expect(evaluateGates(gates, input({ letter: 'd', reason: 'timeout' }))).toEqual([
      { gate: 'not-answering', detail: 'the server is not answering (timeout)' },
    ]);
    for (const letter of ['o', 'a', 'p']) expect(evaluateGates(gates, input({ letter }))).toEqual([]);
  });

  it('high-risk trips on one high-risk tool and not on changes-data', () => {
    const gates = parseGates(['high-risk']);
    expect(evaluateGates(gates, input({ tools: [tool('a', 'read-only'), tool('b', 'changes-data')] }))).toEqual([]);
    expect(evaluateGates(gates, input({ tools: [tool('a', 'high-risk'), tool('b', 'high-risk')] }))).toEqual([
      { gate: 'high-risk', detail: 'high-risk tools: a, b' },
    ]);
  });

  it('risk-rise and change need a difference; no comparison means nothing to trip', () => {
    const gates = parseGates(['risk-rise', 'change']);
    expect(evaluateGates(gates, input())).toEqual([]);
    expect(evaluateGates(gates, input({ baseline: unchanged }))).toEqual([]);
    const renamedOnly = { ...unchanged, renamed: [{ from: 'x', to: 'y' }], unchanged: false };
    expect(evaluateGates(gates, input({ baseline: renamedOnly }))).toEqual([
      { gate: 'change', detail: 'the tool list changed: renamed x -> y' },
    ]);
    const rise = {
      ...unchanged,
      changed: ['t'],
      riskRises: [{ name: 't', from: 'read-only' as const, to: 'changes-data' as const }],
      unchanged: false,
    };
    expect(evaluateGates(gates, input({ baseline: rise }))).toEqual([
      { gate: 'risk-rise', detail: 'risk rose: t read-only -> changes-data' },
      { gate: 'change', detail: 'the tool list changed: changed t' },
    ]);
  });

  it('finding:<id> trips on that id only', () => {
    const findings = [{ id: 'slow', title: 'Slow', message: 'took 3001 ms' }];
    expect(evaluateGates(parseGates(['finding:slow']), input({ findings }))).toEqual([
      { gate: 'finding:slow', detail: 'took 3001 ms' },
    ]);
    expect(evaluateGates(parseGates(['finding:heavy-tool-list']), input({ findings }))).toEqual([]);
  });
});

describe('the conformance gate', () => {
  const scenario = (name: string, passed: boolean) => ({
    name,
    passed,
    reason: passed ? null : 'ping: Method not found',
    checks: [],
  });
  const report = (...scenarios: ReturnType<typeof scenario>[]) => ({
    suite: '@modelcontextprotocol/conformance@0.1.16',
    scenarios,
    failed: scenarios.filter((s) => !s.passed).map((s) => s.name),
  });

  it('is added to the default gates when the suite runs, and to nothing otherwise', () => {
    expect(parseGates([], true)).toEqual([{ kind: 'not-answering' }, { kind: 'conformance' }]);
    expect(parseGates(['high-risk'], true)).toEqual([{ kind: 'high-risk' }]);
    expect(parseGates(['conformance'])).toEqual([{ kind: 'conformance' }]);
  });

  it('trips on a failed scenario, naming it and why, and not when every scenario passed', () => {
    const gates = parseGates(['conformance']);
    expect(evaluateGates(gates, input({ conformance: report(scenario('tools-list', true)) }))).toEqual([]);
    expect(
      evaluateGates(gates, input({ conformance: report(scenario('tools-list', true), scenario('ping', false)) })),
    ).toEqual([{ gate: 'conformance', detail: 'conformance scenarios failed: ping (ping: Method not found)' }]);
  });
});

describe('parseCheckArguments', () => {
  it('reads a URL and its flags', () => {
    expect(
      parseCheckArguments([
        'http://127.0.0.1:9/mcp',
        '--json',
        '--sarif',
        'a.sarif',
        '--baseline',
        'b.json',
        '--update-baseline',
        '--fail-on',
        'change',
        '--deep',
      ]),
    ).toEqual({
      target: { kind: 'http', url: 'http://127.0.0.1:9/mcp' },
      json: true,
      sarif: 'a.sarif',
      baseline: 'b.json',
      updateBaseline: true,
      failOn: ['change'],
      deep: true,
      iOwnThisServer: false,
      listAll: false,
      timeoutMs: null,
      headers: [],
      env: [],
      stdioIsolation: null,
      publishedUrl: null,
      conformance: false,
      conformanceScenarios: [],
    });
  });

  it('reads --conformance and its scenario names, for an HTTP URL without --header only', () => {
    const url = 'http://127.0.0.1:9/mcp';
    expect(parseCheckArguments([url, '--conformance'])).toMatchObject({ conformance: true, conformanceScenarios: [] });
    // Naming a scenario asks for the suite too.
    expect(
      parseCheckArguments([url, '--conformance-scenario', 'ping', '--conformance-scenario', 'tools-list']),
    ).toMatchObject({ conformance: true, conformanceScenarios: ['ping', 'tools-list'] });
    expect(() => parseCheckArguments(['--conformance', '--', 'node', 's.js'])).toThrow(/not a stdio command/);
    expect(() => parseCheckArguments([url, '--conformance', '--header', 'Authorization: Bearer x'])).toThrow(
      /cannot send --header/,
    );
    expect(() => parseCheckArguments([url, '--conformance-scenario=--url=x'])).toThrow(/scenario name/);
  });

  it('reads a stdio command after --, flags of the command included', () => {
    expect(parseCheckArguments(['--json', '--', 'node', 'server.js', '--json']).target).toEqual({
      kind: 'stdio',
      command: 'node',
      args: ['server.js', '--json'],
    });
  });

  it('allows --deep on loopback, and on another host only with --i-own-this-server', () => {
    expect(parseCheckArguments(['http://localhost:1/mcp', '--deep']).deep).toBe(true);
    expect(parseCheckArguments(['http://[::1]:1/mcp', '--deep']).deep).toBe(true);
    expect(() => parseCheckArguments(['https://mcp.example.com/mcp', '--deep'])).toThrow(/--i-own-this-server/);
    expect(() => parseCheckArguments(['http://10.0.0.5/mcp', '--deep'])).toThrow(CheckUsageError);
    expect(parseCheckArguments(['https://mcp.example.com/mcp', '--deep', '--i-own-this-server']).deep).toBe(true);
  });
});

describe('isLoopbackUrl', () => {
  it('is true for localhost, 127.0.0.0/8 and ::1, false for anything else', () => {
    expect(
      ['http://localhost/', 'http://127.0.0.1/', 'http://127.255.255.254/', 'http://[::1]/'].map(isLoopbackUrl),
    ).toEqual([true, true, true, true]);
    expect(
      ['http://128.0.0.1/', 'http://10.0.0.1/', 'https://example.com/', 'http://[::2]/'].map(isLoopbackUrl),
    ).toEqual([false, false, false, false]);
  });
});

describe('classifyCall', () => {
  it('sorts results, JSON-RPC errors, timeouts, closed connections and other failures', () => {
    expect(classifyCall({ result: { content: [], isError: true } }).outcome).toBe('proper-error');
    expect(classifyCall({ result: { content: [] } }).outcome).toBe('accepted');
    expect(classifyCall({ error: new McpError(-32602, 'bad') })).toEqual({
      outcome: 'proper-error',
      detail: 'JSON-RPC error -32602',
    });
    expect(classifyCall({ error: new McpError(-32001, 'timed out') }).outcome).toBe('hang');
    expect(classifyCall({ error: new McpError(-32000, 'closed') }).outcome).toBe('crash');
    expect(classifyCall({ error: new Error('socket hang up') })).toEqual({
      outcome: 'crash',
      detail: 'socket hang up',
    });
  });
});

describe('argument values', () => {
  it('fills fields with plain values of their type', () => {
    expect(
      [
        { type: 'string' },
        { type: 'integer' },
        { type: 'number', minimum: 5 },
        { type: 'boolean' },
        { type: 'array' },
        { type: 'object' },
        { enum: ['b', 'c'] },
        { type: ['null', 'string'] },
        {},
      ].map(plainValueFor),
    ).toEqual(['x', 1, 5, true, [], {}, 'b', null, 'x']);
  });

  it('gives a wrong type: a number for a string, a string for anything else', () => {
    expect(wrongValueFor('string')).toBe(12_345);
    expect(wrongValueFor('integer')).toBe('not-a-valid-value');
  });
});

describe('scoreDeepSession', () => {
  const t = (inputSchema: unknown) => ({ name: 'x', inputSchema });
  const none = { letter: 'o', tools: [], errorHandling: [], fuzz: [], smoke: [], authDiscovery: null };

  it('averages the measured parts with equal weight', () => {
    // schema validity 1 of 2 = 50; error handling 1 of 3 = 33; fuzz (100 + 50) / 2 = 75; smoke 1 of 2 = 50;
    // (100 + 50 + 33 + 75 + 50) / 5 = 61.6 -> 62
    const result = scoreDeepSession({
      ...none,
      tools: [t({ type: 'object' }), t('object')],
      errorHandling: [deepCase('proper-error'), deepCase('crash'), deepCase('hang')],
      fuzz: [deepCase('proper-error'), deepCase('accepted')],
      smoke: [deepCase('accepted'), deepCase('proper-error')],
    });
    expect(result).toEqual({
      score: 62,
      parts: { reachability: 100, schemaValidity: 50, errorHandling: 33, fuzz: 75, smoke: 50 },
      authDiscovery: null,
      authBonus: 0,
    });
  });

  it('rounds half up: (100 + 50 + 33 + 75) / 4 = 64.5 -> 65', () => {
    const result = scoreDeepSession({
      ...none,
      tools: [t({ type: 'object' }), t('object')],
      errorHandling: [deepCase('proper-error'), deepCase('crash'), deepCase('hang')],
      fuzz: [deepCase('proper-error'), deepCase('accepted')],
    });
    expect(result.score).toBe(65);
  });

  it('leaves out parts that were not measured', () => {
    expect(scoreDeepSession(none)).toEqual({
      score: 100,
      parts: { reachability: 100, schemaValidity: null, errorHandling: null, fuzz: null, smoke: null },
      authDiscovery: null,
      authBonus: 0,
    });
    expect(scoreDeepSession({ ...none, letter: 'd' }).score).toBe(0);
  });

  it('adds the OAuth discovery bonus of 10 to a sign-in server that publishes its metadata, capped at 100', () => {
    expect(PROTOCOL_RULES.authDiscoveryBonus).toBe(10);
    // reachability 100, schema validity 1 of 2 = 50: mean 75, plus 10 = 85
    const half = { ...none, letter: 'a', tools: [t({ type: 'object' }), t(null)] };
    expect(scoreDeepSession({ ...half, authDiscovery: true })).toMatchObject({
      score: 85,
      authBonus: 10,
      authDiscovery: true,
    });
    expect(scoreDeepSession({ ...half, authDiscovery: false })).toMatchObject({
      score: 75,
      authBonus: 0,
      authDiscovery: false,
    });
    // mean 95 + 10 = 105 -> capped at 100; mean 90 + 10 = 100 exactly
    const ninetyFive = {
      ...none,
      letter: 'a',
      errorHandling: [],
      fuzz: [
        deepCase('proper-error'),
        deepCase('proper-error'),
        deepCase('proper-error'),
        deepCase('proper-error'),
        deepCase('accepted'),
      ],
    };
    expect(scoreDeepSession({ ...ninetyFive, authDiscovery: true }).score).toBe(100);
    const ninety = {
      ...none,
      letter: 'a',
      fuzz: [
        deepCase('proper-error'),
        deepCase('proper-error'),
        deepCase('proper-error'),
        deepCase('accepted'),
        deepCase('accepted'),
      ],
    };
    expect(scoreDeepSession({ ...ninety, authDiscovery: false }).score).toBe(90);
    expect(scoreDeepSession({ ...ninety, authDiscovery: true }).score).toBe(100);
  });

  it('scores each fuzz outcome by FUZZ_POINTS', () => {
    expect(FUZZ_POINTS).toEqual({ 'proper-error': 100, accepted: 50, crash: 0, hang: 0 });
    for (const outcome of ['proper-error', 'accepted', 'crash', 'hang'] as const) {
      expect(scoreDeepSession({ ...none, fuzz: [deepCase(outcome)] }).parts.fuzz).toBe(FUZZ_POINTS[outcome]);
    }
  });
});
