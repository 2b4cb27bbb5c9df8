// Type test, checked by `pnpm typecheck` (tsc): it pins the public shapes of the package's contract.
import type { RiskLevel } from '@mcp-atlas/risk';
import { expectTypeOf } from 'vitest';
import {
  analyzeToolList,
  combineToolHashes,
  diffToolLists,
  estimateTokens,
  type Finding,
  type FindingId,
  type HashOptions,
  hashTool,
  hashToolList,
  type RiskRise,
  type Sha256,
  sha256Hex,
  type ToolListDiff,
} from '../src/index.js';

expectTypeOf(estimateTokens).toEqualTypeOf<(toolsJson: string) => number>();
// The contract's one-argument calls, plus the optional HashOptions every hashing function takes.
expectTypeOf(hashTool).toEqualTypeOf<(tool: unknown, options?: HashOptions) => string>();
expectTypeOf(hashToolList).toEqualTypeOf<(tools: readonly unknown[], options?: HashOptions) => string>();
expectTypeOf(combineToolHashes).toEqualTypeOf<(hashes: readonly string[], options?: HashOptions) => string>();
expectTypeOf(sha256Hex).toEqualTypeOf<(text: string, options?: HashOptions) => string>();
expectTypeOf<HashOptions>().toEqualTypeOf<{ sha256?: Sha256 }>();
expectTypeOf<Sha256>().toEqualTypeOf<(bytes: Uint8Array) => Uint8Array>();
// Node's createHash digest (a Buffer) fits the hook.
expectTypeOf<(bytes: Uint8Array) => Buffer>().toExtend<Sha256>();
expectTypeOf(hashTool).toBeCallableWith({ name: 'ping' });
expectTypeOf(hashToolList).toBeCallableWith([]);

expectTypeOf<FindingId>().toEqualTypeOf<
  | 'heavy-tool-list'
  | 'very-long-description'
  | 'missing-descriptions'
  | 'no-annotations'
  | 'missing-schema'
  | 'duplicate-names'
  | 'older-protocol'
  | 'slow'
  | 'tool-list-cut'
>();
expectTypeOf<Finding>().toEqualTypeOf<{ id: FindingId; message: string; tools?: string[]; value?: number }>();

// The contract's input is accepted (the package also accepts null for the optional fields, as the probe gives them).
expectTypeOf<{
  tools: readonly unknown[];
  toolsJson: string;
  protocolVersion?: string;
  elapsedMs?: number;
}>().toExtend<Parameters<typeof analyzeToolList>[0]>();
expectTypeOf<{ tools: unknown[]; toolsJson: string; protocolVersion: string | null; elapsedMs: number }>().toExtend<
  Parameters<typeof analyzeToolList>[0]
>();
expectTypeOf(analyzeToolList).returns.toEqualTypeOf<Finding[]>();

expectTypeOf<RiskRise>().toEqualTypeOf<{ name: string; from: RiskLevel | null; to: RiskLevel }>();
expectTypeOf<ToolListDiff>().toEqualTypeOf<{
  added: string[];
  removed: string[];
  changed: string[];
  rewritten: string[];
  riskRises: { name: string; from: RiskLevel | null; to: RiskLevel }[];
  renamed: { from: string; to: string }[];
  silent: boolean;
  unchanged: boolean;
}>();
expectTypeOf<{ tools: readonly unknown[]; serverVersion?: string }>().toExtend<Parameters<typeof diffToolLists>[0]>();
expectTypeOf<{ tools: readonly unknown[]; serverVersion?: string }>().toExtend<Parameters<typeof diffToolLists>[1]>();
expectTypeOf(diffToolLists).returns.toEqualTypeOf<ToolListDiff>();
