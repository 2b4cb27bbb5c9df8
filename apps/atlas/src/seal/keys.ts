// The signing key: made once, kept under keys/ with owner-only permissions, never served.
import { generateKeyPair, privateKeyFromPem, privateKeyPem, publicKeyFor } from '@mcp-atlas/history';
import { z } from 'zod';
import { SIGNING_KEY_PATH } from '../data/paths.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';

const KeyFileSchema = z.object({ private_key_pem: z.string(), created: z.string() });

/** The service's Ed25519 key pair. */
export interface SigningKeys {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

/** Loads the signing key, or null when none was made yet. */
export async function loadSigningKeys(storage: Storage): Promise<SigningKeys | null> {
  const saved = await getJson(storage, SIGNING_KEY_PATH);
  if (saved === null) return null;
  const privateKey = privateKeyFromPem(KeyFileSchema.parse(saved).private_key_pem);
  return { privateKey, publicKey: publicKeyFor(privateKey) };
}

/** Loads the signing key, creating and storing a new one on first use. */
export async function loadOrCreateSigningKeys(storage: Storage, now: Date): Promise<SigningKeys> {
  const saved = await loadSigningKeys(storage);
  if (saved !== null) return saved;
  const pair = await generateKeyPair();
  await putJson(storage, SIGNING_KEY_PATH, { private_key_pem: privateKeyPem(pair.privateKey), created: now.toISOString() });
  return pair;
}
