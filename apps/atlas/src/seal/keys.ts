// The signing key: made once, kept under keys/ with owner-only permissions, never served.
//
// The key goes through the storage seam like every other file. When the caller also says where the data
// folder is on disk (`dataDir`), two guards apply that the seam cannot express: a key file readable by
// others is tightened to 0600 with a warning, and a new key is written so that the folder entries leading
// to it survive a power cut (each newly created folder's parent is fsynced, and keys/ after the link).
//
// A new key is created only where none exists (Storage.createIfAbsent, or its folder primitive on disk), so two
// processes that start on a fresh store at the same moment cannot end up signing with different keys: exactly
// one creation wins, and every other process reads the winner's key and signs with it.
import { createHmac } from 'node:crypto';
import { chmod, mkdir, open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  generateKeyPair,
  privateKeyFromPem,
  privateKeyPem,
  publicKeyFor,
  publicKeyFromPem,
  publicKeyPem,
} from '@mcp-atlas/history';
import { z } from 'zod';
import { PUBLIC_KEY_PATH, SIGNING_KEY_PATH } from '../data/paths.js';
import { createFileIfAbsent } from '../storage/fs-storage.js';
import { getJson, jsonBytes, type Storage } from '../storage/storage.js';

const KeyFileSchema = z.object({ private_key_pem: z.string(), created: z.string() });

/** Permissions of the signing key file: read and write for its owner only. */
export const KEY_FILE_MODE = 0o600;

/** Permissions of a keys/ folder this module creates: its owner only. */
export const KEY_FOLDER_MODE = 0o700;

/** Permission bits that let anyone but the owner read, write or enter. */
const GROUP_AND_OTHER_BITS = 0o077;

/** The service's Ed25519 key pair. */
export interface SigningKeys {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

/** Where the key lives on disk, for the guards the storage seam cannot give. */
export interface KeyFileOptions {
  /** The data folder on local disk that `storage` reads; without it only the storage seam is used. */
  dataDir?: string;
  /** Where a warning goes (a key file whose permissions were tightened); the default is stderr. */
  warn?: (message: string) => void;
}

/** A key file that is open to others and cannot be tightened: the service refuses to use it. */
export class KeyFilePermissionError extends Error {}

const warnOnStderr = (message: string): void => {
  process.stderr.write(`mcp-atlas: ${message}\n`);
};

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

/**
 * Tightens an existing key file that others can read (or write) to 0600, and warns. Refuses with
 * KeyFilePermissionError when it cannot be tightened (the file belongs to someone else). A missing file
 * is left alone. Returns true when it changed the permissions.
 */
export async function secureKeyFile(dataDir: string, warn: (message: string) => void = warnOnStderr): Promise<boolean> {
  const path = join(dataDir, SIGNING_KEY_PATH);
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if ((mode & GROUP_AND_OTHER_BITS) === 0) return false;
  try {
    await chmod(path, KEY_FILE_MODE);
  } catch (error) {
    throw new KeyFilePermissionError(
      `the signing key ${path} has permissions ${octal(mode)}, open to other users, and cannot be tightened (${(error as NodeJS.ErrnoException).code ?? 'error'}); run chmod 600 on it`,
    );
  }
  warn(
    `the signing key ${path} had permissions ${octal(mode)}, open to other users; tightened to ${octal(KEY_FILE_MODE)}`,
  );
  return true;
}

async function fsyncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates `folder` (and any missing parents) and fsyncs the parent of every folder it created, so the new
 * entries are on disk before anything is written inside them.
 */
async function makeFolderDurably(folder: string): Promise<void> {
  const first = await mkdir(folder, { recursive: true, mode: KEY_FOLDER_MODE });
  if (first === undefined) return;
  // `first` is the outermost folder created; every folder from its parent down to `folder`'s parent gained an entry.
  const parents: string[] = [];
  for (let current = folder; current !== dirname(first); current = dirname(current)) parents.push(dirname(current));
  for (const parent of parents.reverse()) await fsyncDirectory(parent);
}

/**
 * Creates the key file on disk with 0600 unless one is there, its folder made durably; the creation fsyncs keys/
 * after its link. Returns true when this call created it.
 */
async function createKeyFile(dataDir: string, bytes: Uint8Array): Promise<boolean> {
  const path = join(dataDir, SIGNING_KEY_PATH);
  await makeFolderDurably(dirname(path));
  return createFileIfAbsent(path, bytes, KEY_FILE_MODE);
}

/** Thrown when a key was created by another process at the same moment but cannot be read back afterwards. */
export class SigningKeyRaceError extends Error {}

/** Loads the signing key, or null when none was made yet. With `dataDir`, a key file open to others is tightened first. */
export async function loadSigningKeys(storage: Storage, options: KeyFileOptions = {}): Promise<SigningKeys | null> {
  if (options.dataDir !== undefined) await secureKeyFile(options.dataDir, options.warn);
  const saved = await getJson(storage, SIGNING_KEY_PATH);
  if (saved === null) return null;
  const privateKey = privateKeyFromPem(KeyFileSchema.parse(saved).private_key_pem);
  return { privateKey, publicKey: publicKeyFor(privateKey) };
}

/**
 * Loads the signing key, creating and storing a new one on first use (durably on disk when `dataDir` is given).
 * Safe when several processes call it at once on one fresh store: the key is created only where none exists, so
 * one process's key is stored and every caller, the others included, returns that key.
 */
export async function loadOrCreateSigningKeys(
  storage: Storage,
  now: Date,
  options: KeyFileOptions = {},
): Promise<SigningKeys> {
  return (await openSigningKeys(storage, now, options)).keys;
}

/**
 * {@link loadOrCreateSigningKeys}, also saying whether this call created the key (false when it was stored
 * already, or when another process created it first), so the caller warns about a new key only once.
 */
export async function openSigningKeys(
  storage: Storage,
  now: Date,
  options: KeyFileOptions = {},
): Promise<{ keys: SigningKeys; created: boolean }> {
  const saved = await loadSigningKeys(storage, options);
  if (saved !== null) return { keys: saved, created: false };
  const pair = await generateKeyPair();
  const record = { private_key_pem: privateKeyPem(pair.privateKey), created: now.toISOString() };
  const bytes = jsonBytes(record);
  const created =
    options.dataDir === undefined
      ? await storage.createIfAbsent(SIGNING_KEY_PATH, bytes)
      : await createKeyFile(options.dataDir, bytes);
  if (created) return { keys: pair, created: true };
  // Another process created the key between our look and our creation: its key is the store's, so sign with it.
  const winner = await loadSigningKeys(storage, options);
  if (winner === null)
    throw new SigningKeyRaceError(`${SIGNING_KEY_PATH} was created by another process but cannot be read back`);
  return { keys: winner, created: false };
}

const PublicKeyFileSchema = z.object({ public_key_pem: z.string() });

/**
 * Records the public key in a store that must not hold the private one (PostgreSQL), so `verify` and
 * `keys export-public` can read it there. Rewritten only when it changed (after a key rotation).
 */
export async function recordPublicKey(storage: Storage, publicKey: Uint8Array): Promise<void> {
  const pem = publicKeyPem(publicKey);
  const saved = PublicKeyFileSchema.safeParse(await getJson(storage, PUBLIC_KEY_PATH).catch(() => null));
  if (saved.success && saved.data.public_key_pem === pem) return;
  await storage.put(PUBLIC_KEY_PATH, jsonBytes({ public_key_pem: pem }));
}

/**
 * The public key a store's history is checked against: the half of its private key (a data folder), else the
 * public key recorded by {@link recordPublicKey} (a PostgreSQL store); null when it holds neither.
 */
export async function loadPublicKey(storage: Storage, options: KeyFileOptions = {}): Promise<Uint8Array | null> {
  const keys = await loadSigningKeys(storage, options);
  if (keys !== null) return keys.publicKey;
  const saved = await getJson(storage, PUBLIC_KEY_PATH);
  return saved === null ? null : publicKeyFromPem(PublicKeyFileSchema.parse(saved).public_key_pem);
}

/**
 * The secret anonymous reporter ids and agent ids are keyed with: stable across restarts and never stored, because
 * it is derived from the signing key, which never leaves keys/.
 */
export function reporterSecretOf(keys: Pick<SigningKeys, 'privateKey'>): Uint8Array {
  return createHmac('sha256', keys.privateKey).update('mcp-atlas reporter ids').digest();
}
