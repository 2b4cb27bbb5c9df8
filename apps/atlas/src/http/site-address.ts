// Where the service is reached, decided once at start-up from the operator's settings and the bound
// address, never from a request. Every absolute URL the app builds (pages, embed snippets, the verification
// snippet) starts with `origin`; the Host and Origin checks accept only the names listed here. A request's
// Host or X-Forwarded-Host header is never read to build a URL: anyone can send any value there, and a
// shared cache would then hand the attacker's links to every later visitor.

/** The host names that always mean this machine (as URL.hostname writes them). */
export const LOOPBACK_HOST_NAMES: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Where the service is reached and which Host and Origin values name it. */
export interface SiteAddress {
  /** The origin every absolute URL the app builds starts with, such as https://atlas.example.org. */
  readonly origin: string;
  /** True when a request's Host header (host and optional port) names this service. */
  acceptsHost(authority: string): boolean;
  /** True when a browser's Origin header names this service (a page of ours may post to us). */
  acceptsOrigin(origin: string): boolean;
}

/** What {@link createSiteAddress} decides from. */
export interface SiteAddressOptions {
  /** The public URL an operator gave (`--public-url`); null or absent when the service is reached on loopback. */
  publicUrl?: string | null;
  /** The address the server is bound to (`--host`). */
  bindHost: string;
  /** The port it listens on; null accepts any port on loopback (an app served by someone else, or tests). */
  port: number | null;
}

/** A setting the site address cannot be built from: the command turns it into a usage error. */
export class SiteAddressError extends Error {}

/** True when `host` (a bound address or a URL hostname) is a loopback name. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase();
  return LOOPBACK_HOST_NAMES.has(bare) || bare === '::1';
}

/**
 * Parses the operator's public URL: http or https, no user info, no path other than `/`, no query or fragment.
 * Throws a SiteAddressError naming what is wrong.
 */
export function parsePublicUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SiteAddressError('--public-url must be an absolute URL such as https://atlas.example.org');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new SiteAddressError('--public-url must start with https:// or http://');
  if (url.username !== '' || url.password !== '')
    throw new SiteAddressError('--public-url must not hold a user name or password');
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new SiteAddressError(
      '--public-url must be an origin only (scheme, host and optional port), with no path, query or fragment',
    );
  }
  return url;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * The port a URL of `protocol` uses when it names none. Only http and https reach here (parsePublicUrl refuses
 * other schemes, and the loopback and Origin checks use only these two), so any other scheme is a bug.
 */
function defaultPortOf(protocol: string): string {
  const port = DEFAULT_PORTS[protocol];
  if (port === undefined) throw new Error(`site address: no default port for protocol ${JSON.stringify(protocol)}`);
  return port;
}

/** Host name and port (default port filled in) of an authority read as `protocol`, or null when it is not one. */
function splitAuthority(authority: string, protocol: string): { hostname: string; port: string } | null {
  // A Host header is host[:port] and nothing else; anything a URL would read as user info or a path is refused.
  if (authority === '' || /[\s/\\?#@]/.test(authority)) return null;
  let url: URL;
  try {
    url = new URL(`${protocol}//${authority}`);
  } catch {
    return null;
  }
  // Outside the try, so a scheme without a default port fails loudly instead of reading as a refused Host.
  return { hostname: url.hostname.toLowerCase(), port: url.port === '' ? defaultPortOf(protocol) : url.port };
}

/** The origin of a loopback service bound to `bindHost` on `port`. */
function loopbackOrigin(bindHost: string, port: number | null): string {
  const name = bindHost === '::1' ? '[::1]' : bindHost.toLowerCase();
  return port === null ? `http://${name}` : `http://${name}:${port}`;
}

/**
 * Decides where the service is reached. With a public URL, its origin names the service and its host is
 * accepted; when bound to loopback, the loopback names with the bound port are accepted too (a local proxy,
 * a health check, the conformance run), and so are they at the public URL's port when that URL is itself on a
 * loopback name. Without a public URL the service must be bound to loopback, and the
 * bound address names it. Throws a SiteAddressError for a bad public URL or a public bind without one.
 *
 * @example
 * const site = createSiteAddress({ publicUrl: 'https://atlas.example.org', bindHost: '127.0.0.1', port: 8787 });
 * site.origin;                         // 'https://atlas.example.org'
 * site.acceptsHost('evil.example');    // false
 * site.acceptsHost('localhost:8787');  // true
 */
export function createSiteAddress(options: SiteAddressOptions): SiteAddress {
  const publicUrl =
    options.publicUrl === undefined || options.publicUrl === null ? null : parsePublicUrl(options.publicUrl);
  const loopback = isLoopbackHost(options.bindHost);
  if (publicUrl === null && !loopback) {
    throw new SiteAddressError(
      `the service is bound to ${options.bindHost}, which is not a loopback address: give --public-url so that pages and the Host check know the service's name`,
    );
  }
  const publicPort =
    publicUrl === null ? null : publicUrl.port === '' ? defaultPortOf(publicUrl.protocol) : publicUrl.port;
  // A public URL on a loopback name (a container on one machine, published at http://localhost:8787) is reached
  // by the other loopback names too, at that URL's port: 127.0.0.1 and localhost name the same service there.
  const localPublicUrl = publicUrl !== null && publicUrl.protocol === 'http:' && isLoopbackHost(publicUrl.hostname);
  const loopbackNamesAccepted = loopback || localPublicUrl;
  const loopbackPort = loopback ? (options.port === null ? null : String(options.port)) : publicPort;

  const isPublicAuthority = (authority: string, protocol: string): boolean => {
    if (publicUrl === null || protocol !== publicUrl.protocol) return false;
    const parts = splitAuthority(authority, protocol);
    return parts !== null && parts.hostname === publicUrl.hostname && parts.port === publicPort;
  };
  const isLoopbackAuthority = (authority: string, protocol: string): boolean => {
    if (!loopbackNamesAccepted || protocol !== 'http:') return false;
    const parts = splitAuthority(authority, protocol);
    return (
      parts !== null &&
      LOOPBACK_HOST_NAMES.has(parts.hostname) &&
      (loopbackPort === null || parts.port === loopbackPort)
    );
  };

  return {
    origin: publicUrl !== null ? publicUrl.origin : loopbackOrigin(options.bindHost, options.port),
    acceptsHost: (authority) => {
      const lower = authority.toLowerCase();
      // A proxy in front keeps the public Host, whatever scheme the visitor used; the app itself speaks http.
      return isPublicAuthority(lower, publicUrl?.protocol ?? 'https:') || isLoopbackAuthority(lower, 'http:');
    },
    acceptsOrigin: (origin) => {
      const match = /^(https?:)\/\/([^/]+)$/i.exec(origin);
      if (match === null) return false;
      const [, protocol, authority] = match;
      // Both groups are required by the pattern, so a match always holds them; the check narrows the types.
      if (protocol === undefined || authority === undefined) return false;
      return (
        isPublicAuthority(authority.toLowerCase(), protocol.toLowerCase()) ||
        isLoopbackAuthority(authority.toLowerCase(), protocol.toLowerCase())
      );
    },
  };
}
