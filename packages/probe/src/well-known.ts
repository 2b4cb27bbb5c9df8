// Runtime-neutral module (no node: imports; network only through the injected client): the once-a-day reads of an origin's well-known
// documents: OAuth protected-resource metadata (does sign-in publish its metadata?) and the agent card.

import type { Deadline } from './clock.js';
import {
  AGENT_CARD_PATHS,
  OAUTH_PROTECTED_RESOURCE_PATH,
  WELL_KNOWN_CAP_BYTES,
  WELL_KNOWN_TIMEOUT_MS,
} from './constants.js';
import { getDocument } from './get-document.js';
import { decodeUtf8 } from './http.js';
import { describeTooDeep, parseBoundedJson } from './json-depth.js';
import { type NetworkOptions, type NetworkSettings, resolveNetworkSettings } from './options.js';
import { checkOrigin } from './robots.js';
import type { WellKnownDocument, WellKnownResult } from './schemas.js';

/**
 * @internal GETs one JSON document (4 s inside `deadline` when given, 256 KiB, no redirects); found only for a 2xx JSON object or array
 * within MAX_JSON_DEPTH levels (a deeper one is not found, its detail starting `too-deep:`).
 */
export async function readJsonDocument(
  url: string,
  network: NetworkSettings,
  accept = 'application/json',
  deadline?: Deadline,
): Promise<WellKnownDocument> {
  const got = await getDocument(url, network, {
    timeoutMs: WELL_KNOWN_TIMEOUT_MS,
    capBytes: WELL_KNOWN_CAP_BYTES,
    maxRedirects: 0,
    accept,
    ...(deadline === undefined ? {} : { deadline }),
  });
  if (!got.ok) return { url, httpStatus: null, found: false, document: null, detail: `${got.reason}: ${got.message}` };
  const miss = (detail: string): WellKnownDocument => ({
    url,
    httpStatus: got.status,
    found: false,
    document: null,
    detail,
  });
  if (got.status < 200 || got.status >= 300) return miss(`answered ${got.status}`);
  if (got.overCap) return miss(`larger than ${WELL_KNOWN_CAP_BYTES} bytes`);
  const text = decodeUtf8(got.bytes);
  if (text === null) return miss('not valid UTF-8');
  const parsed = parseBoundedJson(text);
  if (!parsed.ok) return miss(parsed.why === 'too-deep' ? `too-deep: ${describeTooDeep('the document')}` : 'not JSON');
  const document = parsed.value;
  if (document === null || typeof document !== 'object') return miss('not a JSON object');
  return { url, httpStatus: got.status, found: true, document, detail: null };
}

/**
 * Reads an origin's `/.well-known/oauth-protected-resource`, and `/.well-known/agent-card.json` (or,
 * when that is missing, `/.well-known/agent.json`), 4 s each. A document counts as found when it
 * answers 2xx with a JSON object; otherwise `detail` says what came back. Never throws for what the
 * origin does.
 *
 * @example
 * const docs = await readWellKnown('https://example.com', nodeNetwork);
 * docs.oauthProtectedResource.found // sign-in publishes OAuth metadata
 */
export async function readWellKnown(origin: string, options?: NetworkOptions): Promise<WellKnownResult> {
  const base = checkOrigin(origin);
  const network = resolveNetworkSettings(options);
  const oauthProtectedResource = await readJsonDocument(`${base}${OAUTH_PROTECTED_RESOURCE_PATH}`, network);
  let agentCard: WellKnownDocument | null = null;
  for (const path of AGENT_CARD_PATHS) {
    agentCard = await readJsonDocument(`${base}${path}`, network);
    if (agentCard.found) break;
  }
  return { origin: base, oauthProtectedResource, agentCard: agentCard as WellKnownDocument };
}
