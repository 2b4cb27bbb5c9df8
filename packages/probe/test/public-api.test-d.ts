// Type-level pins of the public contract (checked by `tsc`, which includes test/).
import { expectTypeOf } from 'vitest';
import type { ProbeOptions, ProbeResult, TargetCheck } from '../src/index.js';
import { checkSite, checkTarget, listRegistryServers, pickRemote, probeServer } from '../src/index.js';
import { probeStdio } from '../src/node/index.js';

expectTypeOf(probeServer).parameters.toEqualTypeOf<[url: string, options?: ProbeOptions]>();
expectTypeOf(probeServer).returns.toEqualTypeOf<Promise<ProbeResult>>();
expectTypeOf<ProbeResult['letter']>().toEqualTypeOf<'o' | 'a' | 'p' | 'd' | 'n'>();
expectTypeOf<ProbeResult['redirect']>().toEqualTypeOf<{
  location: string;
  followed: boolean;
  sameSite: boolean;
} | null>();
expectTypeOf<ProbeResult['serverInfo']>().toEqualTypeOf<{ name: string; version: string } | null>();
expectTypeOf<ProbeResult['tools']>().toEqualTypeOf<unknown[]>();
expectTypeOf<ProbeResult['toolsJson']>().toEqualTypeOf<string | null>();
expectTypeOf<ProbeResult['listedJson']>().toEqualTypeOf<string | null | undefined>();
expectTypeOf<ProbeOptions['lookup']>().toEqualTypeOf<((hostname: string) => Promise<string[]>) | undefined>();
expectTypeOf<ProbeOptions['fetch']>().toEqualTypeOf<typeof fetch | undefined>();
expectTypeOf<ProbeOptions['clientInfo']>().toEqualTypeOf<{ name: string; version: string } | undefined>();
expectTypeOf(checkTarget).returns.toExtend<TargetCheck>();
expectTypeOf<Extract<TargetCheck, { ok: false }>['reason']>().toExtend<string>();
expectTypeOf(probeStdio).returns.toEqualTypeOf<Promise<ProbeResult>>();
expectTypeOf(listRegistryServers).returns.toExtend<AsyncIterable<{ server: { name: string } }>>();
expectTypeOf(pickRemote).returns.toEqualTypeOf<ReturnType<typeof pickRemote>>();
expectTypeOf(checkSite)
  .returns.resolves.toHaveProperty('verdict')
  .toEqualTypeOf<'pass' | 'partial' | 'fail' | 'not-measured' | 'out-of-scope'>();
