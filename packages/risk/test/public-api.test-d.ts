// Type tests: `tsc` (the typecheck task) fails when the public types drift from the contract.
import { expectTypeOf } from 'vitest';
import type { RiskLevel, RiskRule, RiskVerdict, ToolLike } from '../src/index.js';
import { classifyTool, classifyTools, splitWords, toolVerb } from '../src/index.js';

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
expectTypeOf(splitWords).returns.toEqualTypeOf<string[]>();
