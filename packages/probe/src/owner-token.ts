// Runtime-neutral module (network only through the injected client): reading the short text file an owner
// puts on their host to prove control of it, with the same guard, pinning and limits as every other read.
import { OPT_OUT_TOKEN_PATH, OWNER_TOKEN_CAP_BYTES, VERIFY_TOKEN_PATH, WELL_KNOWN_TIMEOUT_MS } from './constants.js';
import { ProbeInputError } from './errors.js';
import { getDocument } from './get-document.js';
import { decodeUtf8 } from './http.js';
import { type NetworkOptions, resolveNetworkSettings } from './options.js';
import { checkOrigin } from './robots.js';

/** Which token file: the opt-out form's, or owner verification's. */
export type OwnerTokenKind = 'opt-out' | 'verify';

/** What the host's token file held. */
export interface OwnerTokenRead {
  url: string;
  /** The HTTP status, or null when there was no answer. */
  httpStatus: number | null;
  /** True when `token` is one of the file's lines (surrounding whitespace ignored). */
  matches: boolean;
  /** Why it did not match, or null. */
  detail: string | null;
}

/**
 * Reads `<origin>/.well-known/mcp-atlas-optout.txt` (or `mcp-atlas-verify.txt`) once, 4 s, 4 KiB, no
 * redirects, and says whether `token` is one of its lines. Never throws for what the host does.
 *
 * @example
 * const read = await readOwnerToken('https://mcp.example.com', 'opt-out', token, nodeNetwork);
 * if (read.matches) optOut('mcp.example.com');
 */
export async function readOwnerToken(
  origin: string,
  kind: OwnerTokenKind,
  token: string,
  options?: NetworkOptions,
): Promise<OwnerTokenRead> {
  if (kind !== 'opt-out' && kind !== 'verify')
    throw new ProbeInputError('invalid-option', `kind must be opt-out or verify, got ${String(kind)}`);
  if (typeof token !== 'string' || token.trim() === '')
    throw new ProbeInputError('invalid-option', 'token must be a non-empty string');
  const base = checkOrigin(origin);
  const url = `${base}${kind === 'opt-out' ? OPT_OUT_TOKEN_PATH : VERIFY_TOKEN_PATH}`;
  const got = await getDocument(url, resolveNetworkSettings(options), {
    timeoutMs: WELL_KNOWN_TIMEOUT_MS,
    capBytes: OWNER_TOKEN_CAP_BYTES,
    maxRedirects: 0,
    accept: 'text/plain',
  });
  if (!got.ok) return { url, httpStatus: null, matches: false, detail: `${got.reason}: ${got.message}` };
  if (got.status < 200 || got.status >= 300)
    return { url, httpStatus: got.status, matches: false, detail: `answered ${got.status}` };
  const text = decodeUtf8(got.bytes);
  if (text === null) return { url, httpStatus: got.status, matches: false, detail: 'not valid UTF-8' };
  const matches = text.split(/\r?\n/).some((line) => line.trim() === token.trim());
  return { url, httpStatus: got.status, matches, detail: matches ? null : 'the file does not hold the token' };
}
