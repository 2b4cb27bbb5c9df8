// The signing key as an operator sees it: a key file they keep (--signing-key, PEM or the project's JSON), or
// the key the service made in its data folder; its public fingerprint; and `mcp-atlas keys export-public`.
import { createHash, createPublicKey } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { privateKeyFromPem, publicKeyFor, publicKeyPem } from '@mcp-atlas/history';
import { SIGNING_KEY_PATH } from '../data/paths.js';
import type { Logger } from '../log.js';
import { loadPublicKey, loadSigningKeys, openSigningKeys, recordPublicKey, type SigningKeys } from '../seal/keys.js';
import { mergeEnvironment } from '../serve/settings.js';
import { folderOfFileUrl, StoreUrlError, storeKindOf } from '../storage/open-store.js';
import type { Storage } from '../storage/storage.js';
import { openExistingDataFolder, parseOperatorArgs } from './operator-args.js';
import { EXIT_FAILED, EXIT_OK, type Flags, storeUrlOf, UsageError } from './shared.js';

export const KEYS_USAGE = `  keys    export-public [--data DIR | --store URL] [--signing-key FILE]
          print the public key (SPKI PEM) the service signs with: from --signing-key, else the store's key;
          also from MCP_ATLAS_STORE, MCP_ATLAS_DATA and MCP_ATLAS_SIGNING_KEY`;

/** Permission bits that let anyone but the owner read or write a key file. */
const GROUP_AND_OTHER_BITS = 0o077;

/**
 * The public key's fingerprint, `SHA256:` and the unpadded base64 of the SHA-256 of its SPKI DER bytes, the
 * way `ssh-keygen -l` shows keys: short enough to read out and compare.
 *
 * @example
 * publicKeyFingerprint(keys.publicKey); // 'SHA256:3q2+7w…'
 */
export function publicKeyFingerprint(publicKey: Uint8Array): string {
  const der = createPublicKey(publicKeyPem(publicKey)).export({ type: 'spki', format: 'der' });
  return `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`;
}

/** Reads a private key from text: a PKCS#8 PEM block, or the project's JSON (`{ "private_key_pem": ... }`). */
export function parseSigningKeyText(text: string): Uint8Array {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const value = JSON.parse(trimmed) as { private_key_pem?: unknown };
    if (typeof value.private_key_pem !== 'string') throw new Error('the JSON has no "private_key_pem" string');
    return privateKeyFromPem(value.private_key_pem);
  }
  return privateKeyFromPem(trimmed);
}

/**
 * Loads the key file an operator keeps. It is read, never copied: the data folder gets no copy of it. A file
 * others can read is used with a warning (it is the operator's file to fix). A missing or unreadable file, or
 * one holding no Ed25519 private key, is a UsageError naming the setting.
 */
export async function loadSigningKeyFile(path: string, log?: Pick<Logger, 'warn'>): Promise<SigningKeys> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--signing-key: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let privateKey: Uint8Array;
  try {
    privateKey = parseSigningKeyText(text);
  } catch (error) {
    throw new UsageError(`--signing-key: ${file} holds no Ed25519 private key (${(error as Error).message})`);
  }
  const mode = (await stat(file)).mode;
  if ((mode & GROUP_AND_OTHER_BITS) !== 0)
    log?.warn({ path: file, mode: `0${(mode & 0o777).toString(8)}` }, 'the signing key file is open to other users');
  return { privateKey, publicKey: publicKeyFor(privateKey) };
}

/**
 * The keys `serve` signs with: the operator's file when given, else the data folder's key, made on first start.
 * A key made here is logged once at warn level with its fingerprint and path, since it must now be backed up.
 */
export async function resolveSigningKeys(options: {
  signingKeyFile: string | null;
  storage: Storage;
  dataDir: string;
  log: Logger;
  now?: Date;
}): Promise<SigningKeys> {
  const { log } = options;
  if (options.signingKeyFile !== null) {
    const keys = await loadSigningKeyFile(options.signingKeyFile, log);
    log.info(
      { fingerprint: publicKeyFingerprint(keys.publicKey), path: resolve(options.signingKeyFile) },
      'signing with the key file given',
    );
    return keys;
  }
  const keyFileOptions = { dataDir: options.dataDir, warn: (message: string) => log.warn(message) };
  const { keys, created } = await openSigningKeys(options.storage, options.now ?? new Date(), keyFileOptions);
  // Only the process whose key was stored says so; one that lost a race on a fresh store signs with the winner's.
  if (created)
    log.warn(
      { fingerprint: publicKeyFingerprint(keys.publicKey), path: join(options.dataDir, SIGNING_KEY_PATH) },
      'created a new signing key: back it up (it signs every day of the history), or pass --signing-key',
    );
  return keys;
}

/**
 * The one-line refusal of a PostgreSQL store without a key file: the database is shared with every worker and
 * every backup, so the private key is never written to it.
 */
export const PG_SIGNING_KEY_REQUIRED =
  'a PostgreSQL store needs --signing-key FILE (or MCP_ATLAS_SIGNING_KEY=FILE): the private signing key is never kept in the database';

/**
 * The keys a command that signs (serve, seal, scan) uses on `store`: the key file when given (on a PostgreSQL
 * store its public key is recorded there for verify); on a data folder without one, the folder's key, made on
 * first use; on a PostgreSQL store without one, a UsageError ({@link PG_SIGNING_KEY_REQUIRED}).
 */
export async function signingKeysForStore(options: {
  signingKeyFile: string | null;
  store: Storage & { dir: string | null };
  log: Logger;
  now?: Date;
}): Promise<SigningKeys> {
  const { store } = options;
  if (store.dir === null && options.signingKeyFile === null) throw new UsageError(PG_SIGNING_KEY_REQUIRED);
  const keys = await resolveSigningKeys({ ...options, storage: store, dataDir: store.dir ?? '' });
  if (store.dir === null) await recordPublicKey(store, keys.publicKey);
  return keys;
}

/** Where a store keeps the signing key, for a message: the key file of a data folder, or the store's URL. */
function signingKeyPlaceOf(url: string): string {
  try {
    return storeKindOf(url) === 'file' ? join(resolve(folderOfFileUrl(url)), SIGNING_KEY_PATH) : url;
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(`--store: ${error.message}`);
    throw error;
  }
}

/** The store an operator command names, or null when its data folder does not exist (it then holds no key). */
async function existingStoreOrNull(flags: Flags, env: NodeJS.ProcessEnv): Promise<Storage | null> {
  return openExistingDataFolder(flags, env).catch((error: unknown) => {
    if (error instanceof UsageError && error.message.startsWith('no data folder')) return null;
    throw error;
  });
}

/**
 * The keys the service signs with, as an operator command finds them: --signing-key or MCP_ATLAS_SIGNING_KEY
 * when set, else a data folder's own key (--data, --store file:, MCP_ATLAS_STORE or MCP_ATLAS_DATA). A
 * PostgreSQL store never holds the private key, so there the setting is required. Never creates a key; without
 * one, a one-line message saying where it looked.
 */
export async function readOperatorSigningKeys(
  flags: Flags,
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true; keys: SigningKeys } | { ok: false; message: string }> {
  const merged = mergeEnvironment(flags, env).flags;
  if (typeof merged['signing-key'] === 'string')
    return { ok: true, keys: await loadSigningKeyFile(merged['signing-key']) };
  const url = storeUrlOf(flags, env);
  if (storeKindOf(url) === 'postgres') return { ok: false, message: PG_SIGNING_KEY_REQUIRED };
  const storage = await existingStoreOrNull(flags, env);
  const keys = storage === null ? null : await loadSigningKeys(storage).catch(() => null);
  return keys === null ? { ok: false, message: noKeyMessage(url) } : { ok: true, keys };
}

const noKeyMessage = (url: string): string =>
  `no signing key at ${signingKeyPlaceOf(url)} (start serve once, or pass --signing-key FILE)`;

/** Runs `mcp-atlas keys <subcommand>`. */
export async function commandKeys(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { flags, words } = parseOperatorArgs(args, {
    data: { type: 'string' },
    store: { type: 'string' },
    'signing-key': { type: 'string' },
  });
  if (words.length !== 1 || words[0] !== 'export-public')
    throw new UsageError('keys takes one subcommand: export-public');
  const merged = mergeEnvironment(flags, env).flags;
  let publicKey: Uint8Array | null;
  if (typeof merged['signing-key'] === 'string') {
    publicKey = (await loadSigningKeyFile(merged['signing-key'])).publicKey;
  } else {
    // A data folder's key, or the public key a PostgreSQL store records when the service signs with a key file.
    const url = storeUrlOf(flags, env);
    const storage = await existingStoreOrNull(flags, env);
    publicKey = storage === null ? null : await loadPublicKey(storage).catch(() => null);
    if (publicKey === null) {
      process.stderr.write(`mcp-atlas: ${noKeyMessage(url)}\n`);
      return EXIT_FAILED;
    }
  }
  process.stdout.write(publicKeyPem(publicKey));
  return EXIT_OK;
}
