// `mcp-atlas verify`: check a signed chain, from a data folder or a running service.
//
// From a data folder it checks everything the roots promise: the chain of roots, every sealed day's files
// against that day's lines (a missing day folder or an unlisted file breaks the day), and the day each
// sealed folder names in its index (so a day moved to another date does not verify). Every form checks the
// ends of the history too: its first root must chain to nothing, it must cover --since and --through, a
// service's last root must be the latest day its well-known document names, and a store with no sealed day
// fails unless --allow-empty says that is expected, so days cut off either end are not taken for a history
// that simply ends.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isDay } from '@mcp-atlas/base';
import { type ChainEnds, type ChainSpan, checkChainEnds, HistoryError, publicKeyFromPem } from '@mcp-atlas/history';
import { type FolderVerdict, nodeSha256, verifyFolder } from '@mcp-atlas/history/node';
import { DAYS_PREFIX, ROOTS_PREFIX } from '../data/paths.js';
import { loadPublicKey } from '../seal/keys.js';
import { createFsStorage } from '../storage/fs-storage.js';
import { type OpenedStore, openStore, StoreUrlError } from '../storage/open-store.js';
import type { Storage } from '../storage/storage.js';
import { describeCheckedDays, describeEndsFailure } from '../verify/history-ends.js';
import { verifyRemote } from '../verify/verify-remote.js';
import { EXIT_FAILED, EXIT_OK, type Flags, parseSettings, storeUrlFromEnvironment, UsageError } from './shared.js';

export const VERIFY_USAGE = `  verify  (--data DIR | --store URL | --url BASE) [--key FILE] [--since DAY] [--through DAY] [--allow-empty]
          check the signed chain and the sealed days' files; prints "verified" (and on stderr the first and
          last day checked) or the first broken day. The first root must chain to nothing, and with --url the
          last root must be the latest day the service names. --since/--through DAY: the history must cover
          that day (first sealed day on or before --since, last on or after --through), so days cut off
          either end are caught. A store with no sealed day fails unless --allow-empty.
          --key pins the public key (SPKI PEM); --store takes file:DIR or postgres://user@host:port/db`;

/** Temp files of an interrupted atomic write: never the live copy of anything, so no seal covers them. */
const isTempFile = (path: string): boolean => path.endsWith('.tmp');

async function readPinnedKey(file: string): Promise<Uint8Array> {
  let pem: string;
  try {
    pem = await readFile(resolve(file), 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read --key ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    return publicKeyFromPem(pem);
  } catch (error) {
    if (error instanceof HistoryError)
      throw new UsageError(`--key ${file} is not an Ed25519 public key in SPKI PEM: ${error.message}`);
    throw error;
  }
}

function report(verdict: { ok: true } | { ok: false; day: string; reason: string }): number {
  process.stdout.write(verdict.ok ? 'verified\n' : `broken: ${verdict.day}: ${verdict.reason}\n`);
  return verdict.ok ? EXIT_OK : EXIT_FAILED;
}

/**
 * Verifies the folder `dir`; the public key is the pinned one, else the one kept in `keyStore` (by default the
 * folder itself).
 */
async function verifyDataFolder(
  dir: string,
  pinnedKey: Uint8Array | undefined,
  keyStore: { storage: Storage; dataDir?: string } = { storage: createFsStorage(dir), dataDir: dir },
): Promise<FolderVerdict | null> {
  const publicKey =
    pinnedKey ??
    (await loadPublicKey(keyStore.storage, keyStore.dataDir !== undefined ? { dataDir: keyStore.dataDir } : {})) ??
    undefined;
  if (publicKey === undefined)
    throw new UsageError(`${dir} holds no signing key, so there is nothing to verify against (pass --key FILE)`);
  try {
    return await verifyFolder({
      roots: join(dir, ROOTS_PREFIX),
      days: join(dir, DAYS_PREFIX),
      publicKey,
      // A whole history from its first day: a first root that chains to something had days cut before it.
      anchorRoot: null,
      // Our own data folder is complete by design: a sealed day without its folder lost its files.
      requireDayFolders: true,
      ignoreFile: isTempFile,
      sha256: nodeSha256,
    });
  } catch (error) {
    // No root yet (or no roots folder at all) is a folder nothing was sealed in: there is nothing broken.
    if (
      error instanceof HistoryError &&
      (error.code === 'no-roots' || (error.code === 'folder-unreadable' && error.message.endsWith('ENOENT')))
    )
      return null;
    if (error instanceof HistoryError) throw new UsageError(error.message);
    throw error;
  }
}

/** Opens the store `url` names, for reading only: a URL that names no driver is a usage error. */
async function openStoreToVerify(url: string): Promise<OpenedStore> {
  try {
    return await openStore(url);
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(`--store: ${error.message}`);
    throw error;
  }
}

/**
 * Copies a store's roots and day files into a fresh temp folder, byte for byte, so the folder verifier checks
 * them with the very rules it applies to a data folder. Returns the folder; the caller removes it.
 */
export async function copySealedHistory(storage: Storage): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'mcp-atlas-verify-'));
  for (const prefix of [ROOTS_PREFIX, DAYS_PREFIX]) {
    for (const path of await storage.list(prefix)) {
      const bytes = await storage.get(path);
      if (bytes === null) continue; // deleted since it was listed: not part of what was sealed
      await mkdir(dirname(join(folder, path)), { recursive: true });
      await writeFile(join(folder, path), bytes);
    }
  }
  return folder;
}

/** Verifies the store at `url`: a file: store as its folder, any other through a copy of its sealed history. */
async function verifyStoreUrl(url: string, pinnedKey: Uint8Array | undefined): Promise<FolderVerdict | null> {
  const store = await openStoreToVerify(url);
  try {
    if (store.dir !== null) return await verifyDataFolder(store.dir, pinnedKey);
    const copy = await copySealedHistory(store);
    try {
      return await verifyDataFolder(copy, pinnedKey, { storage: store });
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  } finally {
    await store.close();
  }
}

/** The --since or --through flag: a day written YYYY-MM-DD, or undefined when absent. */
function readDayFlag(flags: Flags, name: 'since' | 'through'): string | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !isDay(raw)) throw new UsageError(`--${name} must be a date written YYYY-MM-DD`);
  return raw;
}

/** What the caller knows about the ends of the history, from --since, --through and --allow-empty. */
function readEnds(flags: Flags): Omit<ChainEnds, 'latest'> {
  const since = readDayFlag(flags, 'since');
  const through = readDayFlag(flags, 'through');
  if (since !== undefined && through !== undefined && since > through)
    throw new UsageError(`--since ${since} comes after --through ${through}`);
  return {
    ...(since === undefined ? {} : { since }),
    ...(through === undefined ? {} : { through }),
    allowEmpty: flags['allow-empty'] === true,
  };
}

/** Prints the days checked on stderr, then "verified". */
function reportVerified(days: number, span: ChainSpan | null): number {
  process.stderr.write(
    span === null
      ? 'mcp-atlas: no day is sealed yet, so there is no history to check\n'
      : `mcp-atlas: ${describeCheckedDays(days, span)}\n`,
  );
  return report({ ok: true });
}

/** Runs `verify`; resolves to 0 when verified, 1 when broken. */
export async function commandVerify(args: readonly string[]): Promise<number> {
  const flags = parseSettings(args, {
    data: { type: 'string' },
    store: { type: 'string' },
    url: { type: 'string' },
    key: { type: 'string' },
    since: { type: 'string' },
    through: { type: 'string' },
    'allow-empty': { type: 'boolean' },
  });
  const chosen = [flags.data, flags.store, flags.url].filter((flag) => flag !== undefined).length;
  if (chosen > 1) throw new UsageError('verify takes one of --data DIR, --store URL or --url BASE, not several');
  if (chosen === 0) {
    // Configured by the environment alone, as a unit file or a container runs it.
    const fromEnv = storeUrlFromEnvironment();
    if (fromEnv === null)
      throw new UsageError(
        'verify needs one of --data DIR, --store URL or --url BASE (or MCP_ATLAS_STORE or MCP_ATLAS_DATA)',
      );
    flags.store = fromEnv;
  }
  const ends = readEnds(flags);
  const pinnedKey = typeof flags.key === 'string' ? await readPinnedKey(flags.key) : undefined;
  if (typeof flags.url === 'string') {
    const remote = await verifyRemote(flags.url, { ends, ...(pinnedKey === undefined ? {} : { pinnedKey }) });
    if (!remote.ok) return report(remote);
    const span =
      remote.firstDay === null || remote.lastDay === null ? null : { first: remote.firstDay, last: remote.lastDay };
    return reportVerified(remote.days, span);
  }
  const verdict =
    typeof flags.store === 'string'
      ? await verifyStoreUrl(flags.store, pinnedKey)
      : await verifyDataFolder(resolve(String(flags.data)), pinnedKey);
  if (verdict !== null && !verdict.ok) return report(verdict);
  const span = verdict === null ? null : { first: verdict.firstDay, last: verdict.lastDay };
  const checked = checkChainEnds(span, ends);
  if (!checked.ok) return report({ ok: false, ...describeEndsFailure(checked) });
  if (verdict !== null && verdict.unboundDays.length > 0) {
    process.stderr.write(
      `mcp-atlas: ${verdict.unboundDays.length} sealed day(s) have no index.json, so only their root's name dates them: ${verdict.unboundDays.join(', ')}\n`,
    );
  }
  return reportVerified(verdict?.days ?? 0, span);
}
