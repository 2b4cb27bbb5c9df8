// Runtime-neutral module (no node: imports): the small HTTP client interface the probe talks through, an adapter
// that builds one from any WHATWG `fetch`, capped body reading, and the mapping of transport errors to
// the reasons a result names. The pinned Node client lives behind `@mcp-atlas/probe/node`.
import { DRAIN_CAP_BYTES } from './constants.js';

/** One request the probe sends. `addresses` are the checked addresses to connect to (null: unpinned). */
export interface HttpRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly signal: AbortSignal;
  readonly addresses: readonly string[] | null;
}

/** Header lookup by case-insensitive name; several values come back joined by `, `. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** A response as the probe sees it: the raw status (redirects are never followed by the client). */
export interface HttpResponse {
  readonly status: number;
  readonly headers: HeaderReader;
  /** The decoded body (gzip, deflate and br undone), or null when there is none. */
  readonly body: AsyncIterable<Uint8Array> | null;
  /** Stops reading; the connection is released or dropped. Safe to call more than once. */
  discard(): void;
}

/**
 * What the probe needs from an HTTP stack. One client serves one check (so the steps of a check can
 * share a connection), and `close` drops every connection it opened. A client must not follow
 * redirects, must decode content encodings before handing bytes over, and must connect only to
 * `request.addresses` when they are given.
 */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
  close(): void;
}

/** Makes a fresh client for each check. */
export type HttpClientFactory = () => HttpClient;

/** The `fetch` signature the adapter accepts (the global one, or a test's recording stand-in). */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

class FetchHeaders implements HeaderReader {
  constructor(private readonly headers: Headers) {}
  get(name: string): string | null {
    return this.headers.get(name);
  }
}

async function* iterateStream(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): AsyncGenerator<Uint8Array, void, undefined> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    if (value !== undefined && value.byteLength > 0) yield value;
  }
}

/**
 * An `HttpClient` over a WHATWG `fetch` with `redirect: 'manual'`. It cannot pin connections to checked
 * addresses (fetch has no such knob), so it is meant for runtimes without Node's `http`, and for tests;
 * in Node use `createNodeHttpClient` from `@mcp-atlas/probe/node`. Every request asks for
 * `Connection: close` (ignored where the header is forbidden) so no socket outlives the check in a
 * connection pool the probe does not own.
 */
export function createFetchHttpClient(fetchImpl: FetchFunction): HttpClientFactory {
  return () => ({
    async request(request: HttpRequest): Promise<HttpResponse> {
      const init: RequestInit = {
        method: request.method,
        headers: { ...request.headers, connection: 'close' },
        redirect: 'manual',
        signal: request.signal,
      };
      if (request.body !== undefined) init.body = request.body;
      const response = await fetchImpl(request.url, init);
      const reader = response.body === null ? null : response.body.getReader();
      let discarded = false;
      return {
        status: response.status,
        headers: new FetchHeaders(response.headers),
        body: reader === null ? null : iterateStream(reader),
        discard() {
          if (discarded || reader === null) return;
          discarded = true;
          reader.cancel().catch(() => undefined);
        },
      };
    },
    close() {
      // The fetch implementation owns its connections; Connection: close keeps none alive.
    },
  });
}

/** The outcome of reading a body under a cap. */
export type CappedBody = { ok: true; bytes: Uint8Array } | { ok: false; overCap: true; head: Uint8Array };

/**
 * Reads a whole body, stopping (and discarding the rest) once more than `cap` bytes arrived, so a huge
 * or endless answer costs at most `cap` bytes of memory (plus one chunk). Over the cap, `head` holds the
 * first `cap` bytes. Transport errors and aborts propagate.
 */
export async function readCappedBody(response: HttpResponse, cap: number): Promise<CappedBody> {
  if (response.body === null) return { ok: true, bytes: new Uint8Array(0) };
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    if (total + chunk.byteLength > cap) {
      response.discard();
      // The first `cap` bytes are kept: robots.txt, for one, is read up to its cap, not refused past it.
      chunks.push(chunk.subarray(0, cap - total));
      return { ok: false, overCap: true, head: concatBytes(chunks, cap) };
    }
    total += chunk.byteLength;
    chunks.push(chunk);
  }
  return { ok: true, bytes: concatBytes(chunks, total) };
}

/** @internal Joins chunks into one array. */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/**
 * Reads and forgets up to DRAIN_CAP_BYTES of an answer whose content does not matter (the notification's),
 * so its connection can serve the next step; a longer or stalled body is dropped instead. Never throws.
 */
export async function drainBody(response: HttpResponse): Promise<void> {
  if (response.body === null) return;
  let total = 0;
  try {
    for await (const chunk of response.body) {
      total += chunk.byteLength;
      if (total > DRAIN_CAP_BYTES) break;
    }
  } catch {
    // A broken body after the status arrived changes nothing: only the status is read.
  } finally {
    response.discard();
  }
}

// Decoders keep no state between whole-body calls, so one of each serves every answer. The lenient one is
// the fast path; only text that holds a replacement character is decoded again strictly, to tell a
// server's own U+FFFD from bytes that are not UTF-8.
const lenientUtf8 = new TextDecoder('utf-8');
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 strictly (JSON text must be UTF-8); null when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  const text = lenientUtf8.decode(bytes);
  if (!text.includes('\uFFFD')) return text;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Why a request failed below HTTP: the reasons a result can name for a transport error. */
export type TransportFailure = 'no-connection' | 'tls-error' | 'invalid-http';

function errorCode(error: unknown): string {
  let current: unknown = error;
  // fetch wraps the socket error as `cause`; walk down to the first coded one.
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

/**
 * Maps a transport error to a failure kind and a short message. Header overflows and malformed HTTP are
 * `invalid-http`, certificate and handshake errors are `tls-error`, everything else is `no-connection`.
 */
export function classifyTransportError(error: unknown): { failure: TransportFailure; message: string } {
  const code = errorCode(error);
  const text = error instanceof Error ? error.message : String(error);
  const detail = code === '' ? text : `${code}: ${text}`;
  if (code === 'HPE_HEADER_OVERFLOW' || code === 'UND_ERR_HEADERS_OVERFLOW') {
    return { failure: 'invalid-http', message: `the answer's headers are too large (${detail})` };
  }
  if (code.startsWith('HPE_') || code === 'UND_ERR_INFO' || code.startsWith('Z_') || code === 'ERR_INVALID_CHAR') {
    return { failure: 'invalid-http', message: `the answer is not valid HTTP (${detail})` };
  }
  if (
    code.startsWith('ERR_TLS') ||
    code.startsWith('ERR_SSL') ||
    code.includes('CERT') ||
    code.includes('SELF_SIGNED') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'
  ) {
    return { failure: 'tls-error', message: `the TLS handshake failed (${detail})` };
  }
  return { failure: 'no-connection', message: `no connection (${detail})` };
}

/** @internal The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaTypeOf(contentType: string | null): string {
  if (contentType === null) return '';
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}
