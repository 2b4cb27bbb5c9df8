/**
 * Loading the public key to verify against, from a PEM file or a published well-known document.
 * Node-only (file system; `fetch` is injectable).
 */
import { readFile } from 'node:fs/promises';
import { KEY_FETCH_TIMEOUT_MS, WELL_KNOWN_PATH } from '../constants.js';
import { describeValue, HistoryError } from '../errors.js';
import { publicKeyFromPem } from '../keys.js';

/** How `loadPublicKey` reaches the network; tests pass their own. */
export interface LoadKeyOptions {
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Defaults to `KEY_FETCH_TIMEOUT_MS`. */
  timeoutMs?: number;
}

const PEM_START = '-----BEGIN';

function keyFromDocument(text: string, where: string): Uint8Array {
  if (text.trimStart().startsWith(PEM_START)) return publicKeyFromPem(text);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new HistoryError('invalid-pem', `${where} is neither a PEM block nor JSON`);
  }
  const pem = (document as { integrity?: { public_key_pem?: unknown } } | null)?.integrity?.public_key_pem;
  if (typeof pem !== 'string') {
    throw new HistoryError('invalid-pem', `${where} has no integrity.public_key_pem string`);
  }
  return publicKeyFromPem(pem);
}

function wellKnownUrl(source: string): URL {
  const url = new URL(source);
  if (url.pathname === '/' || url.pathname === '') url.pathname = WELL_KNOWN_PATH;
  return url;
}

async function fetchText(url: URL, options: LoadKeyOptions): Promise<string> {
  const fetcher = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await fetcher(url, {
      headers: { accept: 'application/json, application/x-pem-file' },
      signal: AbortSignal.timeout(options.timeoutMs ?? KEY_FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    throw new HistoryError('key-unavailable', `GET ${url.href} failed: ${(error as Error).message}`);
  }
  if (!response.ok) throw new HistoryError('key-unavailable', `GET ${url.href} answered HTTP ${response.status}`);
  return response.text();
}

/**
 * The raw 32-byte public key from `source`: an `http(s)://` URL of a well-known document (a bare
 * origin gets `/.well-known/mcp-atlas.json`) whose `integrity.public_key_pem` holds the key, or a
 * URL serving the PEM itself, or a file path holding a PEM block or such a JSON document.
 * Throws `key-unavailable` when it cannot be read and `invalid-pem` when it holds no Ed25519 key.
 *
 * @example
 * const publicKey = await loadPublicKey('https://atlas.example/.well-known/mcp-atlas.json');
 */
export async function loadPublicKey(source: string, options: LoadKeyOptions = {}): Promise<Uint8Array> {
  if (typeof source !== 'string' || source === '') {
    throw new HistoryError(
      'invalid-input',
      `key source must be a file path or an http(s) URL, got ${describeValue(source)}`,
    );
  }
  if (/^https?:\/\//i.test(source)) {
    const url = wellKnownUrl(source);
    return keyFromDocument(await fetchText(url, options), url.href);
  }
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (error) {
    throw new HistoryError(
      'key-unavailable',
      `cannot read key file ${describeValue(source)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return keyFromDocument(text, `key file ${describeValue(source)}`);
}
