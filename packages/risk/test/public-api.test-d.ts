// Type tests: `tsc` (the typecheck task) fails when the public types drift from the contract.
import { expectTypeOf } from 'vitest';
import type {
  ClassifyContext,
  GatewayPolicy,
  RiskClassifier,
  RiskLevel,
  RiskRule,
  RiskVerdict,
  ToolCallDecision,
  ToolLike,
} from '../src/index.js';
import {
  classifyTool,
  classifyTools,
  createClassifier,
  DEFAULT_POLICY,
  decideToolCall,
  decideToolCalls,
  looksSecretName,
  SECRET_NAME_WORDS,
  toolVerb,
} from '../src/index.js';
import { VERB_RULES } from '../src/rules.js';

expectTypeOf<RiskLevel>().toEqualTypeOf<'read-only' | 'changes-data' | 'high-risk'>();
expectTypeOf<RiskRule>().toEqualTypeOf<1 | 2 | 3 | 4 | 5 | 6 | 7 | 8>();
expectTypeOf<RiskVerdict>().toEqualTypeOf<{
  level: RiskLevel;
  rule: RiskRule;
  raised: boolean;
  verb: string | null;
  reason: string;
}>();
expectTypeOf(classifyTool).parameters.toEqualTypeOf<[ToolLike, { serverHasAnnotations: boolean }]>();
expectTypeOf(classifyTools).toEqualTypeOf<(tools: readonly unknown[]) => RiskVerdict[]>();
expectTypeOf(toolVerb).returns.toEqualTypeOf<string | null>();
expectTypeOf(looksSecretName).toEqualTypeOf<(name: string) => boolean>();
expectTypeOf(SECRET_NAME_WORDS).toEqualTypeOf<ReadonlySet<string>>();

// The gateway calls.

expectTypeOf(decideToolCall).toEqualTypeOf<
  (tool: ToolLike, policy?: GatewayPolicy, context?: ClassifyContext) => ToolCallDecision
>();
expectTypeOf(decideToolCalls).returns.toEqualTypeOf<ToolCallDecision[]>();
expectTypeOf<ToolCallDecision['decision']>().toEqualTypeOf<'allow' | 'ask' | 'deny'>();
expectTypeOf<GatewayPolicy['highRisk']>().toEqualTypeOf<'ask' | 'deny' | undefined>();
expectTypeOf(createClassifier).returns.toEqualTypeOf<RiskClassifier>();
expectTypeOf(DEFAULT_POLICY.highRisk).toEqualTypeOf<'ask' | 'deny'>();
// The word sets are typed read-only, so `.add` does not even compile.
// @ts-expect-error ReadonlySet has no add
VERB_RULES.highRiskVerbs.add('nuke');
