import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyTool,
  createClassifier,
  decideToolCall,
  decideToolCalls,
  type GatewayPolicy,
  type ToolLike,
} from '../src/index.js';
import { KNOWN_VERBS } from '../src/vocabulary.js';

// Names are built from words that matter (verbs of every list, sensitive nouns, made-up words a policy may
// add) so that the generated tools reach every rule, not only rule 8.
const MADE_UP = ['yeet', 'peruse', 'zorch', 'blorp', 'token', 'ssh', 'frob'];
const NAME_WORDS = [
  ...['delete', 'run', 'pay', 'grant', 'update', 'create', 'send', 'get', 'list', 'search', 'read'],
  ...['password', 'payment', 'api', 'key', 'wallet', 'page', 'user', 'report', 'cache', 'Data'],
  ...MADE_UP,
];
const DESCRIPTIONS = [
  'Permanently deletes the page.',
  'Does not delete the records.',
  'Executes arbitrary SQL.',
  'Moves money between accounts.',
  'Lists pages.',
  '',
];

const hint = fc.constantFrom(true, false, undefined, 'true');
const annotations = fc.option(fc.record({ readOnlyHint: hint, destructiveHint: hint }, { requiredKeys: [] }), {
  nil: undefined,
});
const toolArb: fc.Arbitrary<ToolLike> = fc.record(
  {
    name: fc
      .tuple(
        fc.array(fc.constantFrom(...NAME_WORDS), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('_', '-', '.', ''),
      )
      .map(([words, separator]) => words.join(separator)),
    description: fc.oneof(fc.constantFrom(...DESCRIPTIONS), fc.string()),
    annotations,
  },
  { requiredKeys: ['name'] },
) as fc.Arbitrary<ToolLike>;

// The record's keys are optional already, so a missing list is covered without an explicit `undefined`.
const wordList = (pool: readonly string[]) => fc.subarray([...pool]);
const policyArb: fc.Arbitrary<GatewayPolicy> = fc.record(
  {
    readOnly: fc.constantFrom('allow', 'ask'),
    changesData: fc.constantFrom('allow', 'ask', 'deny'),
    highRisk: fc.constantFrom('ask', 'deny'),
    trustAnnotations: fc.boolean(),
    extraHighRiskVerbs: wordList([...MADE_UP, 'update', 'get']),
    // Only words the built-in lists do not call changing or high-risk: anything else is refused up front.
    extraReadVerbs: wordList(MADE_UP.filter((w) => !KNOWN_VERBS.has(w)).concat('list')),
    extraSensitiveNouns: wordList(['token', 'ssh key', 'page', 'report']),
  },
  { requiredKeys: [] },
);
const contextArb = fc.option(fc.record({ serverHasAnnotations: fc.boolean() }), { nil: undefined });

// A word on both verb lists is refused by design (see decide.test.ts); drop it from the read list here.
function withoutConflicts(policy: GatewayPolicy): GatewayPolicy {
  const high = new Set(policy.extraHighRiskVerbs ?? []);
  if (policy.extraReadVerbs === undefined) return policy;
  return { ...policy, extraReadVerbs: policy.extraReadVerbs.filter((w) => !high.has(w)) };
}

describe('decideToolCall never allows a high-risk tool', () => {
  it('under any policy, any context, with any extra words', () => {
    fc.assert(
      fc.property(toolArb, policyArb, contextArb, (tool, rawPolicy, context) => {
        const policy = withoutConflicts(rawPolicy);
        const result = decideToolCall(tool, policy, context);
        if (result.verdict.level === 'high-risk') expect(result.decision).not.toBe('allow');
        // Neither extra words nor distrust of annotations lowers what the built-in rules call high-risk.
        const builtIn = classifyTool(tool, context ?? { serverHasAnnotations: tool.annotations !== undefined });
        if (builtIn.level === 'high-risk') {
          expect(result.verdict.level).toBe('high-risk');
          expect(result.decision).not.toBe('allow');
        }
        expect(result.why.endsWith('.')).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('in the batch form and through a compiled classifier', () => {
    fc.assert(
      fc.property(fc.array(toolArb, { maxLength: 8 }), policyArb, (tools, rawPolicy) => {
        const policy = withoutConflicts(rawPolicy);
        const batch = decideToolCalls(tools, policy);
        const bound = createClassifier(policy).decideToolCalls(tools);
        expect(bound).toEqual(batch);
        for (const result of batch) {
          if (result.verdict.level === 'high-risk') expect(result.decision).not.toBe('allow');
        }
      }),
      { numRuns: 500 },
    );
  });
});
