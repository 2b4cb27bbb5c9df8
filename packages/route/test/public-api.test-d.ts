// Pins the public types; checked by `pnpm typecheck` (tsc), which fails on any drift.
import type { RiskLevel } from '@mcp-atlas/risk';
import { expectTypeOf } from 'vitest';
import {
  categorize,
  createToolIndex,
  type EvalReport,
  evaluateSearch,
  type IndexServer,
  type RouteCandidate,
  type RouteResult,
  routeTask,
  type SearchHit,
  type SearchJob,
  searchTools,
  type TaskRisk,
  type ToolIndex,
} from '../src/index.js';

expectTypeOf(createToolIndex).parameter(0).toEqualTypeOf<readonly IndexServer[]>();
expectTypeOf(createToolIndex).returns.toEqualTypeOf<ToolIndex>();
expectTypeOf(searchTools).returns.toEqualTypeOf<SearchHit[]>();
expectTypeOf(searchTools)
  .parameter(2)
  .toEqualTypeOf<{ risk?: 'read' | 'change' | 'any'; limit?: number; answeringOnly?: boolean } | undefined>();
expectTypeOf<SearchHit>().toEqualTypeOf<{
  serverId: string;
  tool: string;
  description: string;
  level: RiskLevel;
  score: number;
}>();
expectTypeOf(routeTask).returns.toEqualTypeOf<RouteResult>();
expectTypeOf<RouteResult['taskRisk']>().toEqualTypeOf<'read' | 'change' | 'high'>();
expectTypeOf<TaskRisk>().toEqualTypeOf<'read' | 'change' | 'high'>();
expectTypeOf<RouteResult['setAside'][number]>().toEqualTypeOf<{ serverId: string; tool?: string; reason: string }>();
expectTypeOf<keyof RouteCandidate['factors']>().toEqualTypeOf<
  | 'textMatch'
  | 'successChance'
  | 'stability'
  | 'leastPrivilege'
  | 'highRiskShare'
  | 'verbBonus'
  | 'directory'
  | 'guard'
  | 'agents'
>();
expectTypeOf(categorize).returns.toEqualTypeOf<string | null>();
expectTypeOf(evaluateSearch).parameter(0).toEqualTypeOf<readonly SearchJob[]>();
expectTypeOf(evaluateSearch).returns.toEqualTypeOf<EvalReport>();
expectTypeOf<IndexServer['agentsReliability']>().toEqualTypeOf<number | null | undefined>();
