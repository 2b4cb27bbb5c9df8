import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  classifyTools,
  createClassifier,
  DEFAULT_POLICY,
  decideToolCall,
  decideToolCalls,
  type GatewayPolicy,
  RiskOptionsError,
  type ToolLike,
} from '../src/index.js';

// A real tools/list result (the CLI's sample), plus hand-made tools for the cases it lacks.
const SAMPLE = JSON.parse(readFileSync(new URL('../examples/sample-tools.json', import.meta.url), 'utf8')) as {
  tools: ToolLike[];
};

const READ_ONLY: ToolLike = { name: 'get_page', annotations: {} };
const CHANGES: ToolLike = { name: 'update_page', annotations: {} };
const HIGH: ToolLike = { name: 'delete_page', annotations: {} };
const annotated = { serverHasAnnotations: true };
const bare = { serverHasAnnotations: false };

function decisionOf(tool: ToolLike, policy?: GatewayPolicy, context = annotated) {
  return decideToolCall(tool, policy, context);
}

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RiskOptionsError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(TypeError);
    expect((error as Error).name).toBe('RiskOptionsError');
    return (error as RiskOptionsError).code;
  }
  return undefined;
}

describe('decideToolCall with the default policy', () => {
  it('allows read-only, asks for changes-data and denies high-risk', () => {
    expect(decisionOf(READ_ONLY).decision).toBe('allow');
    expect(decisionOf(CHANGES).decision).toBe('ask');
    expect(decisionOf(HIGH).decision).toBe('deny');
  });

  it('says why in one sentence naming the level, the rule and what decided', () => {
    expect(decisionOf(READ_ONLY).why).toBe(
      'Allowed: rated read-only (rule 6) because its verb "get" reads, and its annotations do not deny read-only.',
    );
    expect(decisionOf(CHANGES).why).toBe(
      'Ask the user first: rated changes-data (rule 5) because its verb "update" changes data.',
    );
    expect(decisionOf(HIGH).why).toBe(
      'Denied: rated high-risk (rule 2) because its verb "delete" deletes, pays, grants, deploys or runs code.',
    );
    expect(decisionOf({ name: 'customers_delete', annotations: { destructiveHint: true } }).why).toBe(
      'Denied: rated high-risk (rule 1) because the tool declares destructiveHint: true.',
    );
  });

  it('names the description wording when the description raised the tool', () => {
    const tool = { name: 'edit_doc', description: 'Permanently deletes the document.', annotations: {} };
    const result = decisionOf(tool);
    expect(result).toMatchObject({ decision: 'deny', verdict: { level: 'high-risk', rule: 5, raised: true } });
    expect(result.why).toBe(
      'Denied: rated high-risk (raised from rule 5) because its description says it deletes permanently.',
    );
  });

  it('returns the same verdict as classifyTools on a real tools list', () => {
    const decisions = decideToolCalls(SAMPLE.tools);
    expect(decisions.map((d) => d.verdict)).toEqual(classifyTools(SAMPLE.tools));
    expect(decisions.map((d, i) => [SAMPLE.tools[i]?.name, d.decision])).toEqual([
      ['list_invoices', 'allow'],
      ['get_invoice', 'allow'],
      ['create_invoice', 'ask'],
      ['send_invoice', 'ask'],
      ['refund_payment', 'deny'],
      ['customers_delete', 'deny'],
      ['rotateApiKey', 'deny'],
      ['run_report', 'deny'],
      ['archive_project', 'ask'],
      ['workspace_cleanup', 'deny'], // raised by its description
      ['weather', 'ask'],
    ]);
    for (const decision of decisions) expect(decision.why).toMatch(/^[A-Z][^\n]*\.$/);
  });

  it('DEFAULT_POLICY is frozen and holds the documented values', () => {
    expect(DEFAULT_POLICY).toEqual({
      readOnly: 'allow',
      changesData: 'ask',
      highRisk: 'deny',
      trustAnnotations: true,
      extraHighRiskVerbs: [],
      extraReadVerbs: [],
      extraSensitiveNouns: [],
    });
    expect(Object.isFrozen(DEFAULT_POLICY)).toBe(true);
    expect(Object.isFrozen(DEFAULT_POLICY.extraHighRiskVerbs)).toBe(true);
  });
});

describe('each level under each decision the policy allows', () => {
  it.each(['allow', 'ask'] as const)('read-only: %s', (readOnly) => {
    expect(decisionOf(READ_ONLY, { readOnly }).decision).toBe(readOnly);
    expect(decisionOf(CHANGES, { readOnly }).decision).toBe('ask');
    expect(decisionOf(HIGH, { readOnly }).decision).toBe('deny');
  });
  it.each(['allow', 'ask', 'deny'] as const)('changes-data: %s', (changesData) => {
    expect(decisionOf(CHANGES, { changesData }).decision).toBe(changesData);
    expect(decisionOf(READ_ONLY, { changesData }).decision).toBe('allow');
    expect(decisionOf(HIGH, { changesData }).decision).toBe('deny');
  });
  it.each(['ask', 'deny'] as const)('high-risk: %s', (highRisk) => {
    expect(decisionOf(HIGH, { highRisk }).decision).toBe(highRisk);
    expect(decisionOf(READ_ONLY, { highRisk }).decision).toBe('allow');
    expect(decisionOf(CHANGES, { highRisk }).decision).toBe('ask');
  });
  it('opens the sentence with the decision', () => {
    expect(decisionOf(HIGH, { highRisk: 'ask' }).why).toMatch(/^Ask the user first: rated high-risk \(rule 2\)/);
    expect(decisionOf(CHANGES, { changesData: 'deny' }).why).toMatch(/^Denied: rated changes-data \(rule 5\)/);
    expect(decisionOf(CHANGES, { changesData: 'allow' }).why).toMatch(/^Allowed: rated changes-data/);
  });
});

describe('trustAnnotations', () => {
  const untrusted = { trustAnnotations: false };

  it('readOnlyHint: true on a changing verb: read-only when trusted, changes-data when not', () => {
    const tool = { name: 'update_cache', annotations: { readOnlyHint: true } };
    expect(decisionOf(tool)).toMatchObject({ decision: 'allow', verdict: { level: 'read-only', rule: 3 } });
    expect(decisionOf(tool, untrusted)).toMatchObject({ decision: 'ask', verdict: { level: 'changes-data', rule: 5 } });
  });

  it('an annotated reading verb: read-only when trusted, rule 7 when not, on any server', () => {
    expect(decisionOf(READ_ONLY, {}, annotated).verdict).toMatchObject({ level: 'read-only', rule: 6 });
    expect(decisionOf(READ_ONLY, {}, bare).verdict).toMatchObject({ level: 'read-only', rule: 6 });
    for (const context of [annotated, bare]) {
      const result = decisionOf(READ_ONLY, untrusted, context);
      expect(result).toMatchObject({ decision: 'ask', verdict: { level: 'changes-data', rule: 7 } });
      expect(result.why).toBe(
        `Ask the user first: rated changes-data (rule 7) because its verb "get" reads, but the server's annotations are not trusted here, so it needs a check.`,
      );
    }
  });

  it('an unannotated reading verb: rule 8 or rule 7 by the server when trusted, rule 7 when not', () => {
    const tool = { name: 'list_pages' };
    expect(decisionOf(tool, {}, annotated).verdict).toMatchObject({ level: 'changes-data', rule: 8 });
    expect(decisionOf(tool, {}, bare).verdict).toMatchObject({ level: 'changes-data', rule: 7 });
    expect(decisionOf(tool, untrusted, annotated).verdict).toMatchObject({ level: 'changes-data', rule: 7 });
    expect(decisionOf(tool, untrusted, bare).verdict).toMatchObject({ level: 'changes-data', rule: 7 });
  });

  it('untrusted hints can only raise: destructiveHint still counts, even beside readOnlyHint', () => {
    const both = { name: 'get_thing', annotations: { destructiveHint: true, readOnlyHint: true } };
    expect(decisionOf(both).verdict).toMatchObject({ level: 'read-only', rule: 3 });
    expect(decisionOf(both, untrusted)).toMatchObject({ decision: 'deny', verdict: { level: 'high-risk', rule: 1 } });
    const destructive = { name: 'get_thing', annotations: { destructiveHint: true } };
    expect(decisionOf(destructive, untrusted).verdict).toMatchObject({ level: 'high-risk', rule: 1 });
  });

  it('untrusted readOnlyHint does not stop the description raise', () => {
    const tool = {
      name: 'update_page',
      description: 'Permanently deletes the page.',
      annotations: { readOnlyHint: true },
    };
    expect(decisionOf(tool).decision).toBe('allow');
    expect(decisionOf(tool, untrusted)).toMatchObject({ decision: 'deny', verdict: { raised: true, rule: 5 } });
  });

  it('with no annotations at all, trusting changes nothing', () => {
    const trusted = decideToolCalls(SAMPLE.tools.map(({ annotations: _a, ...tool }) => tool));
    const distrusted = decideToolCalls(
      SAMPLE.tools.map(({ annotations: _a, ...tool }) => tool),
      untrusted,
    );
    expect(distrusted.map((d) => d.verdict.level)).toEqual(trusted.map((d) => d.verdict.level));
  });
});

describe('the server-annotation context', () => {
  it('a lone tool without a context counts its own annotations as the server', () => {
    expect(decideToolCall({ name: 'list_pages' }).verdict.rule).toBe(7);
    expect(decideToolCall({ name: 'list_pages', annotations: {} }).verdict.rule).toBe(6);
  });

  it('decideToolCalls reads it from the list itself unless a context is given', () => {
    const tools = [{ name: 'list_pages' }, { name: 'get_page', annotations: { readOnlyHint: true } }];
    expect(decideToolCalls(tools).map((d) => d.verdict.rule)).toEqual([8, 3]);
    expect(decideToolCalls(tools, undefined, bare).map((d) => d.verdict.rule)).toEqual([7, 3]);
    expect(decideToolCalls([{ name: 'list_pages' }]).map((d) => d.verdict.rule)).toEqual([7]);
  });

  it('never throws on a hostile entry', () => {
    const results = decideToolCalls([null, 7, { name: 42 }, {}, 'delete_all', { name: 'ok', annotations: [] }]);
    expect(results.map((r) => r.decision)).toEqual(['ask', 'ask', 'ask', 'ask', 'ask', 'ask']);
    expect(results[0]?.why).toBe(
      'Ask the user first: rated changes-data (rule 8) because the entry is not a tool object, so it is treated as changing data.',
    );
  });
});

describe('extra words', () => {
  it('an extra high-risk verb turns an unknown or changing verb high-risk (normalised like a name)', () => {
    expect(decisionOf({ name: 'yeet_pod' }).verdict).toMatchObject({ level: 'changes-data', rule: 8 });
    const result = decisionOf({ name: 'yeet_pod' }, { extraHighRiskVerbs: [' Yeet '] });
    expect(result).toMatchObject({ decision: 'deny', verdict: { level: 'high-risk', rule: 2, verb: 'yeet' } });
    expect(result.why).toContain('its verb "yeet"');
    expect(decisionOf(CHANGES, { extraHighRiskVerbs: ['UPDATE'] }).verdict).toMatchObject({ level: 'high-risk' });
    expect(decisionOf({ name: 'podYeet' }, { extraHighRiskVerbs: ['yeet'] }).verdict.level).toBe('high-risk');
  });

  it('an extra reading verb gives a verb to a name the lists cannot read', () => {
    const tool = { name: 'peruse_docs', annotations: {} };
    expect(decisionOf(tool).decision).toBe('ask');
    expect(decisionOf(tool, { extraReadVerbs: ['peruse'] })).toMatchObject({
      decision: 'allow',
      verdict: { level: 'read-only', rule: 6, verb: 'peruse' },
    });
  });

  it('an extra reading verb never takes a name from a known verb, nor excuses a sensitive noun', () => {
    const policy = { extraReadVerbs: ['peruse'] };
    expect(decisionOf({ name: 'peruse_delete', annotations: {} }, policy).verdict).toMatchObject({
      level: 'high-risk',
      verb: 'delete',
    });
    expect(decisionOf({ name: 'peruse_update', annotations: {} }, policy).verdict).toMatchObject({ verb: 'update' });
    expect(decisionOf({ name: 'peruse_password', annotations: {} }, policy).verdict).toMatchObject({
      level: 'high-risk',
      rule: 4,
    });
  });

  it('an extra sensitive noun, one word or two, makes a non-reading tool high-risk', () => {
    const policy = { extraSensitiveNouns: ['token', 'SSH key'] };
    expect(decisionOf({ name: 'create_token' }, policy)).toMatchObject({ decision: 'deny', verdict: { rule: 4 } });
    const pair = decisionOf({ name: 'addSshKey' }, policy);
    expect(pair.verdict).toMatchObject({ level: 'high-risk', rule: 4 });
    expect(pair.why).toContain('"ssh key"');
    expect(decisionOf({ name: 'add_ssh_agent' }, policy).verdict.level).toBe('changes-data');
    expect(decisionOf({ name: 'get_ssh_key', annotations: {} }, policy).verdict.level).toBe('read-only');
    expect(decisionOf({ name: 'create_api_key' }, policy).verdict.rule).toBe(4);
  });

  it('rejects bad words with a RiskOptionsError that says which', () => {
    expect(errorCode(() => decisionOf(CHANGES, { extraReadVerbs: ['run'] }))).toBe('word-conflict');
    expect(errorCode(() => decisionOf(CHANGES, { extraReadVerbs: ['Update'] }))).toBe('word-conflict');
    expect(errorCode(() => createClassifier({ extraHighRiskVerbs: ['zap'], extraReadVerbs: ['zap'] }))).toBe(
      'word-conflict',
    );
    expect(errorCode(() => createClassifier({ extraHighRiskVerbs: [''] }))).toBe('empty-word');
    expect(errorCode(() => createClassifier({ extraSensitiveNouns: [' _ '] }))).toBe('empty-word');
    expect(errorCode(() => createClassifier({ extraReadVerbs: [42 as unknown as string] }))).toBe('word-not-string');
    expect(errorCode(() => createClassifier({ extraHighRiskVerbs: ['massDelete'] }))).toBe('too-many-words');
    expect(errorCode(() => createClassifier({ extraSensitiveNouns: ['private signing key'] }))).toBe('too-many-words');
    expect(errorCode(() => createClassifier({ extraHighRiskVerbs: 'zap' as unknown as string[] }))).toBe(
      'words-not-array',
    );
    expect(() => createClassifier({ extraReadVerbs: ['x', 'delete'] })).toThrow(
      'extraReadVerbs[1] "delete" is already a high-risk verb',
    );
    expect(() => createClassifier({ extraHighRiskVerbs: ['massDelete'] })).toThrow(/reads as 2 words \(mass delete\)/);
  });

  it('accepts a built-in word again as a no-op', () => {
    const gate = createClassifier({
      extraReadVerbs: ['get'],
      extraHighRiskVerbs: ['delete'],
      extraSensitiveNouns: ['wallet'],
    });
    expect(gate.classifyTools(SAMPLE.tools)).toEqual(classifyTools(SAMPLE.tools));
  });
});

describe('policy checks', () => {
  it.each([
    [{ highRisk: 'allow' }, 'bad-decision'],
    [{ readOnly: 'deny' }, 'bad-decision'],
    [{ changesData: 'maybe' }, 'bad-decision'],
    [{ highrisk: 'ask' }, 'unknown-option'],
    [{ trustAnnotations: 'yes' }, 'bad-trust'],
    [null, 'policy-not-object'],
    [['ask'], 'policy-not-object'],
  ])('%j is refused (%s)', (policy, code) => {
    expect(errorCode(() => decideToolCall(HIGH, policy as GatewayPolicy))).toBe(code);
    expect(errorCode(() => createClassifier(policy as GatewayPolicy))).toBe(code);
  });

  it('refuses a bad context and a tools value that is not an array', () => {
    expect(errorCode(() => decideToolCall(HIGH, {}, { serverHasAnnotations: 'no' as unknown as boolean }))).toBe(
      'context-not-object',
    );
    expect(errorCode(() => decideToolCalls({ tools: [] } as unknown as unknown[]))).toBe('tools-not-array');
  });
});

describe('createClassifier', () => {
  const gate = createClassifier({ extraHighRiskVerbs: ['yeet'], extraReadVerbs: ['peruse'], highRisk: 'ask' });

  it('binds its words and takes its policy fields as defaults', () => {
    expect(gate.decideToolCall({ name: 'yeet_pod' })).toMatchObject({ decision: 'ask', verdict: { rule: 2 } });
    expect(gate.decideToolCall({ name: 'yeet_pod' }, { highRisk: 'deny' }).decision).toBe('deny');
    expect(gate.classifyTool({ name: 'peruse_docs', annotations: {} }, annotated).level).toBe('read-only');
    expect(gate.decideToolCalls([{ name: 'yeet_pod' }, { name: 'peruse_docs' }]).map((d) => d.verdict.rule)).toEqual([
      2, 7,
    ]);
  });

  it('leaves the plain functions on the built-in lists', () => {
    expect(decideToolCall({ name: 'yeet_pod' })).toMatchObject({ decision: 'ask', verdict: { rule: 8 } });
    expect(classifyTools([{ name: 'yeet_pod' }])[0]?.rule).toBe(8);
  });

  it('takes decision fields per call but not words', () => {
    expect(errorCode(() => gate.decideToolCall(HIGH, { extraHighRiskVerbs: ['zap'] }))).toBe('words-fixed');
    expect(gate.decideToolCall(HIGH, { ...DEFAULT_POLICY }).decision).toBe('deny');
  });

  it('applies its trustAnnotations to classifyTool as well', () => {
    const wary = createClassifier({ trustAnnotations: false });
    const tool = { name: 'update_cache', annotations: { readOnlyHint: true } };
    expect(wary.classifyTool(tool, annotated)).toMatchObject({ level: 'changes-data', rule: 5 });
    expect(wary.classifyTools([tool])[0]).toMatchObject({ level: 'changes-data', rule: 5 });
    expect(wary.decideToolCall(tool, { trustAnnotations: true }).decision).toBe('allow');
  });
});

describe('the why sentence cache', () => {
  it('gives each decision its own sentence for the same reason', () => {
    expect(decisionOf(CHANGES, { changesData: 'deny' }).why).toMatch(/^Denied: /);
    expect(decisionOf(CHANGES, { changesData: 'allow' }).why).toMatch(/^Allowed: /);
    expect(decisionOf(CHANGES).why).toMatch(/^Ask the user first: /);
  });

  it('stays right past its size limit and for long reasons it does not keep', () => {
    const names = Array.from({ length: 5000 }, (_, i) => `widget${i}`);
    const results = decideToolCalls(names.map((name) => ({ name })));
    results.forEach((result, i) => {
      expect(result.why).toBe(
        `Ask the user first: rated changes-data (rule 8) because nothing in "widget${i}" says clearly what it does, so it is treated as changing data.`,
      );
    });
    const long = 'w'.repeat(2000);
    expect(decideToolCall({ name: long }).why).toContain(`"${long}"`);
    expect(decideToolCall({ name: long }, { changesData: 'deny' }).why).toMatch(/^Denied: /);
  });
});
