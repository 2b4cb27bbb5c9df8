// The owner's access token: what a verified owner sends (Authorization: Bearer …) to read their owner view. The
// verification token cannot serve: it sits in a public file on the owner's host. This one is random, shown once
// when issued, and stored only as its SHA-256 hash, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The prefix of every access token, so a leaked one is recognisable in a secret scanner. */
export const OWNER_ACCESS_PREFIX = 'mcp-atlas-owner-';

/** Random bytes in a token: 256 bits. */
const ACCESS_TOKEN_BYTES = 32;

/** A token's stored form: the hex SHA-256 of the whole token. */
export function hashOwnerAccess(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new access token and the hash to store; the token itself is never stored. */
export function mintOwnerAccess(): { token: string; hash: string } {
  const token = `${OWNER_ACCESS_PREFIX}${randomBytes(ACCESS_TOKEN_BYTES).toString('base64url')}`;
  return { token, hash: hashOwnerAccess(token) };
}

/**
 * Whether `token` is the one whose hash is `storedHash`: the hashes are compared in constant time, so the time
 * taken says nothing about how much of a guess was right. A missing hash or token never matches.
 */
export function ownerAccessMatches(storedHash: string | undefined, token: string | null): boolean {
  if (storedHash === undefined || token === null || !token.startsWith(OWNER_ACCESS_PREFIX)) return false;
  const given = Buffer.from(hashOwnerAccess(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === given.length && timingSafeEqual(stored, given);
}
