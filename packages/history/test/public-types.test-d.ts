// Pins the public types of the contract; checked by `tsc` (pnpm typecheck).
import { expectTypeOf } from 'vitest';
import type {
  ChainVerdict,
  computeRoot,
  DayRoot,
  daysToSign,
  FilesCheck,
  fileLine,
  generateKeyPair,
  HistoryErrorCode,
  KeyPair,
  previousRootFor,
  publicKeyPem,
  Sha256,
  sealDay,
  verifyChain,
  verifyDayRoot,
  verifyFiles,
} from '../src/index.js';

expectTypeOf<DayRoot>().toEqualTypeOf<{
  day: string;
  root: string;
  previous_root: string | null;
  files: string[];
  signature: string;
}>();
expectTypeOf<ReturnType<typeof fileLine>>().toEqualTypeOf<string>();
expectTypeOf<Parameters<typeof fileLine>[0]>().toEqualTypeOf<string>();
expectTypeOf<Parameters<typeof fileLine>[1]>().toEqualTypeOf<Uint8Array>();
expectTypeOf<Parameters<typeof computeRoot>[0]>().toEqualTypeOf<string | null>();
expectTypeOf<Parameters<typeof computeRoot>[1]>().toEqualTypeOf<readonly string[]>();
expectTypeOf<ReturnType<typeof sealDay>>().toEqualTypeOf<Promise<DayRoot>>();
expectTypeOf<ReturnType<typeof verifyDayRoot>>().toEqualTypeOf<Promise<boolean>>();
expectTypeOf<ReturnType<typeof verifyChain>>().toEqualTypeOf<Promise<ChainVerdict>>();
expectTypeOf<ChainVerdict>().toMatchTypeOf<{ ok: true } | { ok: false; day: string; reason: string }>();
expectTypeOf<ReturnType<typeof verifyFiles>>().toEqualTypeOf<FilesCheck>();
expectTypeOf<FilesCheck>().toEqualTypeOf<{ ok: boolean; mismatched: string[]; missing: string[]; extra: string[] }>();
expectTypeOf<ReturnType<typeof previousRootFor>>().toEqualTypeOf<string | null>();
expectTypeOf<Parameters<typeof previousRootFor>[1]>().toEqualTypeOf<ReadonlyMap<string, string>>();
expectTypeOf<ReturnType<typeof daysToSign>>().toEqualTypeOf<string[]>();
expectTypeOf<Parameters<typeof daysToSign>[1]>().toEqualTypeOf<ReadonlySet<string>>();
expectTypeOf<ReturnType<typeof publicKeyPem>>().toEqualTypeOf<string>();
expectTypeOf<ReturnType<typeof generateKeyPair>>().toEqualTypeOf<Promise<KeyPair>>();
expectTypeOf<KeyPair>().toEqualTypeOf<{ privateKey: Uint8Array; publicKey: Uint8Array }>();
expectTypeOf<Sha256>().toEqualTypeOf<(bytes: Uint8Array) => Uint8Array>();
expectTypeOf<'invalid-day'>().toMatchTypeOf<HistoryErrorCode>();
