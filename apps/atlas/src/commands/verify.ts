// `mcp-atlas verify`: check a signed chain, from a data folder or a running service.
import { resolve } from 'node:path';
import { verifyChain } from '@mcp-atlas/history';
import { loadSigningKeys } from '../seal/keys.js';
import { readRoots } from '../seal/seal-day.js';
import { createFsStorage } from '../storage/fs-storage.js';
import { verifyRemote } from '../verify/verify-remote.js';
import { EXIT_FAILED, EXIT_OK, parse, UsageError } from './shared.js';

export const VERIFY_USAGE = `  verify  (--data DIR | --url BASE)             check the signed chain; prints "verified" or the first broken day`;

/** Runs `verify`; resolves to 0 when verified, 1 when broken. */
export async function commandVerify(args: readonly string[]): Promise<number> {
  const flags = parse(args, { data: { type: 'string' }, url: { type: 'string' } });
  if ((flags.data === undefined) === (flags.url === undefined)) throw new UsageError('verify needs exactly one of --data DIR or --url BASE');
  if (typeof flags.url === 'string') {
    const verdict = await verifyRemote(flags.url);
    process.stdout.write(verdict.ok ? 'verified\n' : `broken: ${verdict.day}: ${verdict.reason}\n`);
    return verdict.ok ? EXIT_OK : EXIT_FAILED;
  }
  const storage = createFsStorage(resolve(String(flags.data)));
  const keys = await loadSigningKeys(storage);
  if (keys === null) throw new UsageError(`${String(flags.data)} holds no signing key, so there is nothing to verify against`);
  const records = [...(await readRoots(storage)).values()].sort((a, b) => a.day.localeCompare(b.day));
  const verdict = await verifyChain(records, keys.publicKey);
  process.stdout.write(verdict.ok ? 'verified\n' : `broken: ${verdict.day}: ${verdict.reason}\n`);
  return verdict.ok ? EXIT_OK : EXIT_FAILED;
}
