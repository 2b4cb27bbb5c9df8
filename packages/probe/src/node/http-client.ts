// Node-only: the HTTP client that pins every connection to the addresses the guard checked. It uses
// node:http/node:https with a `lookup` that answers only those addresses, so the TLS name check and the
// Host header still use the host name while the socket can only reach a checked address.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction as NetLookup } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { HeaderReader, HttpClient, HttpClientFactory, HttpRequest, HttpResponse } from '../http.js';

class NodeHeaders implements HeaderReader {
  constructor(private readonly headers: http.IncomingHttpHeaders) {}
  get(name: string): string | null {
    const value = this.headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}

function familyOf(address: string): 4 | 6 {
  return address.includes(':') ? 6 : 4;
}

/** A `lookup` for net/tls that ignores the name and answers the pinned addresses. */
function pinnedLookup(addresses: readonly string[]): NetLookup {
  return ((
    _hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (...args: unknown[]) => void,
  ) => {
    const wanted =
      options.family === 4 || options.family === 6
        ? addresses.filter((a) => familyOf(a) === options.family)
        : addresses;
    const list = (wanted.length > 0 ? wanted : addresses).map((address) => ({ address, family: familyOf(address) }));
    if (options.all === true) callback(null, list);
    else callback(null, list[0]?.address, list[0]?.family);
  }) as unknown as NetLookup;
}

function decoderFor(encoding: string | undefined): NodeJS.ReadWriteStream | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

function hostnameOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * An `HttpClient` factory for Node. Each check gets its own keep-alive agents (one per origin and
 * address set), so its steps share a connection, and `close()` destroys every socket it opened: nothing
 * outlives the check. Connections go only to `request.addresses` when given; bodies are decoded
 * (gzip, deflate, br) as they stream, so a size cap counts decoded bytes and a compression bomb is cut
 * off after the cap. Redirects are never followed.
 *
 * @example
 * const result = await probeServer(url, { lookup: lookupHost, httpClient: createNodeHttpClient });
 */
export const createNodeHttpClient: HttpClientFactory = (): HttpClient => {
  const agents = new Map<string, http.Agent>();
  const open = new Set<http.ClientRequest>();

  function agentFor(url: URL, addresses: readonly string[] | null): http.Agent {
    const key = `${url.protocol}//${url.host}|${addresses?.join(',') ?? ''}`;
    let agent = agents.get(key);
    if (agent === undefined) {
      const options = {
        keepAlive: true,
        scheduling: 'lifo' as const,
        ...(addresses === null ? {} : { lookup: pinnedLookup(addresses) }),
      };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      agents.set(key, agent);
    }
    return agent;
  }

  // The steps of a check go to one URL; parse it once.
  let lastHref = '';
  let lastUrl: URL | null = null;

  function request(req: HttpRequest): Promise<HttpResponse> {
    if (lastUrl === null || req.url !== lastHref) {
      lastUrl = new URL(req.url);
      lastHref = req.url;
    }
    const url = lastUrl;
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<HttpResponse>((resolve, reject) => {
      if (req.signal.aborted) {
        reject(new Error('aborted before the request was sent'));
        return;
      }
      const outgoing = transport.request({
        protocol: url.protocol,
        hostname: hostnameOf(url),
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers:
          req.body === undefined
            ? req.headers
            : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        agent: agentFor(url, req.addresses),
        signal: req.signal,
      });
      open.add(outgoing);
      outgoing.once('close', () => open.delete(outgoing));
      // A persistent listener: a socket error after the response (or a second one) must never go unheard
      // and crash the process; once settled, reject is a no-op.
      outgoing.on('error', reject);
      outgoing.once('response', (incoming: http.IncomingMessage) => {
        // The reader sees body errors through its own iteration; this keeps an unread body's reset quiet.
        incoming.on('error', () => undefined);
        const decoder = decoderFor(incoming.headers['content-encoding']);
        let body: Readable = incoming;
        if (decoder !== null) {
          body = decoder as unknown as Readable;
          // pipeline destroys both ends on an error, so a cut-off or corrupt compressed body ends the read.
          pipeline(incoming, decoder, () => undefined);
        }
        let discarded = false;
        resolve({
          status: incoming.statusCode ?? 0,
          headers: new NodeHeaders(incoming.headers),
          body,
          discard() {
            if (discarded) return;
            discarded = true;
            if (incoming.complete) {
              incoming.resume();
              if (body !== incoming) body.destroy();
            } else {
              // An unfinished body cannot be skipped cheaply; dropping the socket is the only bound.
              incoming.destroy();
              if (body !== incoming) body.destroy();
            }
          },
        });
      });
      if (req.body !== undefined) outgoing.end(req.body);
      else outgoing.end();
    });
  }

  return {
    request,
    close() {
      for (const outgoing of open) outgoing.destroy();
      open.clear();
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
};
