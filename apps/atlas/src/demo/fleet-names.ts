// The demo fleet's public-looking names and the demo's own resolver. Each member listens on a loopback port, but
// the watched list names it as a public endpoint (https://notes.demo-fleet.example/mcp): the quality score then
// reads the URL a real deployment would have, so the engine's staging rule (which caps any localhost or 127.0.0.1
// endpoint) stays as it is and the demo's leaderboard ranks the members by what they do. `.example` is a name
// reserved for documentation: it never resolves on the internet, and the demo's network answers it itself, by
// sending every request for a fleet name to that member's loopback port. A fleet name it does not know fails as an
// unknown host would; any other URL goes through unchanged.

/** The domain every fleet's names sit under; the first fleet of a process uses it bare, later ones a sub-label. */
export const DEMO_FLEET_DOMAIN = 'demo-fleet.example';

// Public origin -> loopback origin, for every fleet running in this process.
const addresses = new Map<string, string>();
// The fleets' domains in use, so two fleets started side by side (as some tests do) never share a name.
const domainsInUse = new Set<string>();

/** Takes the first free fleet domain: demo-fleet.example, then f2.demo-fleet.example, and so on. */
export function claimFleetDomain(): string {
  for (let n = 1; ; n++) {
    const domain = n === 1 ? DEMO_FLEET_DOMAIN : `f${n}.${DEMO_FLEET_DOMAIN}`;
    if (!domainsInUse.has(domain)) {
      domainsInUse.add(domain);
      return domain;
    }
  }
}

/** The public URL of a member named `id` under `domain`. */
export function publicMemberUrl(id: string, domain: string): string {
  return `https://${id}.${domain}/mcp`;
}

/** Sends requests for `publicUrl`'s origin to `loopbackUrl`'s, until {@link forgetFleetDomain}. */
export function registerFleetAddress(publicUrl: string, loopbackUrl: string): void {
  addresses.set(new URL(publicUrl).origin, new URL(loopbackUrl).origin);
}

/** Frees a fleet's domain and drops every name under it (the fleet has closed). */
export function forgetFleetDomain(domain: string): void {
  domainsInUse.delete(domain);
  for (const origin of [...addresses.keys()])
    if (new URL(origin).hostname.endsWith(`.${domain}`)) addresses.delete(origin);
}

function isFleetName(hostname: string): boolean {
  return hostname === DEMO_FLEET_DOMAIN || hostname.endsWith(`.${DEMO_FLEET_DOMAIN}`);
}

/**
 * Where the demo's network sends a request for `url`: a fleet name's loopback address (same path and query), the
 * URL itself for anything else. Throws, as a failed lookup would, for a fleet name no running member has.
 *
 * @example loopbackUrlOf('https://notes.demo-fleet.example/mcp') // 'http://127.0.0.1:40123/mcp'
 */
export function loopbackUrlOf(url: string): string {
  const parsed = new URL(url);
  if (!isFleetName(parsed.hostname)) return url;
  const target = addresses.get(parsed.origin);
  if (target === undefined) throw new TypeError(`fetch failed: no demo server is named ${parsed.hostname}`);
  return `${target}${parsed.pathname}${parsed.search}`;
}

/** A fetch that resolves the fleet's names to loopback and leaves every other URL alone. */
export function fleetFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    if (input instanceof Request) {
      const target = loopbackUrlOf(input.url);
      return inner(target === input.url ? input : new Request(target, input), init);
    }
    return inner(loopbackUrlOf(String(input)), init);
  };
}
