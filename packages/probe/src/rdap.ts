// Runtime-neutral module (network only through the injected client): a domain's registration date from its
// public RDAP record. The lookup goes to the RDAP service only, never to the server whose domain it is: a
// hop whose host is that domain, or under it, is refused before anything is sent.
import { describeType, parseIpv4 } from '@mcp-atlas/base';
import { getDomain } from 'tldts';
import { z } from 'zod';
import { ProbeInputError } from './errors.js';
import { hostOf, normalizeHostname } from './guard.js';
import { isIpAddress } from './ip.js';
import { type NetworkOptions, resolveNetworkSettings } from './options.js';
import {
  DEFAULT_RDAP_URL,
  RDAP_ACCEPT,
  RDAP_CAP_BYTES,
  RDAP_MAX_REDIRECTS,
  RDAP_REGISTRATION_EVENT,
  RDAP_TIMEOUT_MS,
} from './outside-constants.js';
import { normalizeBaseUrl, type OutsideFailureReason, requestOutsideJson } from './outside-request.js';

/** Options of `readDomainRegistration`. */
export interface RdapOptions extends NetworkOptions {
  /** The RDAP service's base URL; the lookup is `<rdapUrl>/domain/<domain>`. Default https://rdap.org. */
  rdapUrl?: string;
}

/** An RDAP event as RFC 9083 describes it (only the fields read here are checked). */
export const RdapEventSchema = z.looseObject({ eventAction: z.string(), eventDate: z.string().optional() });
/** The type RdapEventSchema validates. */
export type RdapEvent = z.infer<typeof RdapEventSchema>;

/** The part of an RDAP domain answer read here: its name and its events. */
export const RdapDomainSchema = z.looseObject({
  objectClassName: z.string().optional(),
  ldhName: z.string().optional(),
  events: z.array(RdapEventSchema),
});

/** What a registration lookup found: the date, or why there is none. */
export type DomainRegistrationRead =
  | {
      ok: true;
      /** The host asked about. */
      host: string;
      /** The domain looked up: the host's registrable domain under the ICANN section of the public suffix list. */
      domain: string;
      /** The registration event's date, as an ISO 8601 UTC time. */
      registeredAt: string;
      /** The URL that answered (after redirects). */
      rdapUrl: string;
    }
  | {
      ok: false;
      host: string;
      domain: string | null;
      reason: OutsideFailureReason;
      message: string;
      /** The URL asked when it failed, or null when nothing was asked. */
      rdapUrl: string | null;
      httpStatus: number | null;
    };

function hostFrom(value: string): string {
  if (value.includes('://')) {
    try {
      return hostOf(new URL(value));
    } catch {
      return normalizeHostname(value);
    }
  }
  return normalizeHostname(value.startsWith('[') ? value.slice(1, -1) : value);
}

/**
 * The domain RDAP holds a record for: the host's registrable domain by the ICANN section of the public
 * suffix list (a registry knows `vercel.app`, not `my-app.vercel.app`), or null for an IP address, a bare
 * public suffix or a name outside every suffix. Accepts a host name or a URL.
 *
 * @example
 * rdapDomainOf('https://mcp.shop.example.co.uk/mcp') // 'example.co.uk'
 * rdapDomainOf('my-app.vercel.app')                   // 'vercel.app'
 * rdapDomainOf('192.0.2.1')                           // null
 */
export function rdapDomainOf(hostOrUrl: string): string | null {
  if (typeof hostOrUrl !== 'string')
    throw new ProbeInputError(
      'url-not-string',
      `host must be a string, got ${describeType(hostOrUrl, { article: true })}`,
    );
  const host = hostFrom(hostOrUrl.trim());
  if (host === '' || isIpAddress(host) || parseIpv4(host) !== null) return null;
  return getDomain(host, { allowPrivateDomains: false }) ?? null;
}

/** True when `host` is `domain` or a name under it. */
function isUnderDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * The earliest dated registration event, as an ISO time, or null. A date outside years 0000 to 9999 has no
 * plain ISO 8601 form (`+275760-…`) and no registration is dated there, so it counts as no date.
 */
export function registrationDateOf(events: readonly RdapEvent[]): string | null {
  let earliest: number | null = null;
  for (const event of events) {
    if (event.eventAction.toLowerCase() !== RDAP_REGISTRATION_EVENT || event.eventDate === undefined) continue;
    const ms = Date.parse(event.eventDate);
    if (Number.isNaN(ms) || !/^\d{4}-/.test(new Date(ms).toISOString())) continue;
    if (earliest === null || ms < earliest) earliest = ms;
  }
  return earliest === null ? null : new Date(earliest).toISOString();
}

/**
 * Reads the registration date of the domain of `hostOrUrl` (a server's host name or URL) from
 * `<rdapUrl>/domain/<domain>` (RFC 9082), following up to 3 redirects (rdap.org redirects to the
 * registry's server), 10 s and 512 KiB in all. Every hop passes the probe's guard, and a hop whose host is
 * the looked-up domain or under it is refused (`refused-own-domain`), so the lookup can never reach the
 * server. The date is the earliest `events[]` entry with `eventAction: "registration"`. Never throws for
 * what a service does; a failure names its reason.
 *
 * @example
 * const read = await readDomainRegistration('https://mcp.example.com/mcp', { ...nodeNetwork });
 * if (read.ok) console.log(read.domain, read.registeredAt); // 'example.com' '1995-08-14T04:00:00.000Z'
 */
export async function readDomainRegistration(
  hostOrUrl: string,
  options?: RdapOptions,
): Promise<DomainRegistrationRead> {
  const domain = rdapDomainOf(hostOrUrl);
  const base = normalizeBaseUrl(options?.rdapUrl ?? DEFAULT_RDAP_URL);
  if (base === null)
    throw new ProbeInputError(
      'invalid-origin',
      `rdapUrl must be an absolute http(s) URL without query, got ${String(options?.rdapUrl).slice(0, 100)}`,
    );
  const network = resolveNetworkSettings(options);
  const host = hostFrom(hostOrUrl.trim());
  if (domain === null) {
    return {
      ok: false,
      host,
      domain: null,
      reason: 'no-domain',
      message: `${host || 'the host'} has no registrable domain to look up`,
      rdapUrl: null,
      httpStatus: null,
    };
  }
  const url = `${base}/domain/${domain}`;
  const answer = await requestOutsideJson(
    {
      url,
      method: 'GET',
      accept: RDAP_ACCEPT,
      timeoutMs: RDAP_TIMEOUT_MS,
      capBytes: RDAP_CAP_BYTES,
      maxRedirects: RDAP_MAX_REDIRECTS,
      refuseHop: (hop) => {
        const hopHost = hostOf(hop);
        return isUnderDomain(hopHost, domain)
          ? `the RDAP request would go to ${hopHost}, which is under ${domain}, the domain being looked up`
          : null;
      },
    },
    network,
  );
  if (!answer.ok) {
    const message =
      answer.httpStatus === 404 ? `the RDAP service has no record of ${domain} (HTTP 404)` : answer.message;
    return {
      ok: false,
      host,
      domain,
      reason: answer.reason,
      message,
      rdapUrl: answer.url,
      httpStatus: answer.httpStatus,
    };
  }
  const failed = (reason: OutsideFailureReason, message: string): DomainRegistrationRead => ({
    ok: false,
    host,
    domain,
    reason,
    message,
    rdapUrl: answer.url,
    httpStatus: answer.status,
  });
  const record = RdapDomainSchema.safeParse(answer.json);
  if (!record.success)
    return failed(
      'unexpected-answer',
      `not an RDAP domain record: ${record.error.issues[0]?.message ?? 'invalid'} at ${record.error.issues[0]?.path.join('.') || 'the top'}`,
    );
  const named = record.data.ldhName;
  // A record for another domain is a broken answer, however valid its shape.
  if (named !== undefined && normalizeHostname(named) !== domain)
    return failed('unexpected-answer', `the record is for ${named.slice(0, 100)}, not ${domain}`);
  const registeredAt = registrationDateOf(record.data.events);
  if (registeredAt === null)
    return failed('no-registration-event', `the record of ${domain} has no dated registration event`);
  return { ok: true, host, domain, registeredAt, rdapUrl: answer.url };
}
