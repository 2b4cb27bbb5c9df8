// Owner tokens: the short line an owner puts in a well-known file to prove control of a host. One mechanism
// serves both forms: the opt-out form (/.well-known/mcp-atlas-optout.txt, per host name) and owner
// verification (/.well-known/mcp-atlas-verify.txt, per origin of a watched server).
import { createHmac } from 'node:crypto';
import type { OwnerTokenKind } from '@mcp-atlas/probe';
import { DOCUMENT_RULES } from '@mcp-atlas/probe/rules';

export type { OwnerTokenKind };

/** Hex characters of the keyed hash in a token: 128 bits, which nobody guesses. */
export const OWNER_TOKEN_HEX_LENGTH = 32;

const TOKEN_PREFIX: Readonly<Record<OwnerTokenKind, string>> = {
  'opt-out': 'mcp-atlas-optout-',
  verify: 'mcp-atlas-verify-',
};

/**
 * The token for a subject (a host name for opt-out, an origin for verification): a keyed hash, so nothing
 * needs storing and nobody can make one for a host they do not control. The purpose is part of the hashed
 * text, so an opt-out token never verifies ownership and the reverse.
 *
 * @example ownerToken(secret, 'verify', 'https://mcp.example.com') // 'mcp-atlas-verify-3f1c…' (32 hex)
 */
export function ownerToken(secret: Uint8Array, kind: OwnerTokenKind, subject: string): string {
  const digest = createHmac('sha256', secret).update(`${kind}:${subject}`).digest('hex');
  return `${TOKEN_PREFIX[kind]}${digest.slice(0, OWNER_TOKEN_HEX_LENGTH)}`;
}

/** The well-known path of a kind of token file. */
export function ownerTokenPath(kind: OwnerTokenKind): string {
  return kind === 'opt-out' ? DOCUMENT_RULES.optOutTokenPath : DOCUMENT_RULES.verifyTokenPath;
}

/**
 * Reads an origin's token file of one kind and says whether it holds the token; the app passes the probe's
 * `readOwnerToken` bound to its guarded, pinned network.
 */
export type OwnerTokenFileReader = (
  origin: string,
  kind: OwnerTokenKind,
  token: string,
) => Promise<{ matches: boolean; detail: string | null }>;

/**
 * One reader for both kinds of token file: `readOptOut` (the older, opt-out-only reader) for opt-out files
 * when it is given, `readOwner` otherwise; null when neither is given (the forms then answer 503). A
 * verification file is never read without `readOwner`.
 */
export function combineTokenReaders(
  readOptOut: ((origin: string, token: string) => Promise<{ matches: boolean; detail: string | null }>) | undefined,
  readOwner: OwnerTokenFileReader | undefined,
): OwnerTokenFileReader | null {
  if (readOptOut === undefined && readOwner === undefined) return null;
  return (origin, kind, token) => {
    if (kind === 'opt-out' && readOptOut !== undefined) return readOptOut(origin, token);
    if (readOwner !== undefined) return readOwner(origin, kind, token);
    return Promise.resolve({ matches: false, detail: 'this service cannot read verification files' });
  };
}
