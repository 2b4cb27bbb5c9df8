// Node-only: host name resolution through the operating system's resolver (getaddrinfo), every address.
import { lookup } from 'node:dns/promises';

/**
 * Resolves a host name to all its addresses (IPv4 and IPv6, in the resolver's order) with the system
 * resolver, as `probeServer`'s `lookup` option expects. The probe checks every address before it
 * connects and then connects only to them.
 *
 * @example
 * await lookupHost('example.com') // ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']
 */
export async function lookupHost(hostname: string): Promise<string[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}
