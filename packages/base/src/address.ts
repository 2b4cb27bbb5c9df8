/**
 * IP addresses read into bytes. probe reads the addresses a host name resolves to with them (so it never
 * connects to a private host), reliability the address of an anonymous reporter (to count its network), and
 * the app a check's target; they all read an address the same way.
 *
 * Both parsers answer null for text that is not an address of their kind, so each caller raises its own error.
 * Pure module: no I/O, no clock, no dependency.
 */

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * Parses a dotted-quad IPv4 address (four decimal parts, each 0 to 255) into 4 bytes, or null. Other
 * spellings (hex, octal, fewer parts) are not accepted here: URL parsing turns those into dotted form.
 *
 * @example
 * parseIpv4('192.168.1.20') // Uint8Array [192, 168, 1, 20]
 * parseIpv4('01.2.3.4')     // null (a leading zero)
 */
export function parseIpv4(text: string): Uint8Array | null {
  const match = DOTTED_QUAD.exec(text);
  if (match === null) return null;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = match[i + 1] as string;
    // A leading zero would be read as octal by some resolvers; refuse the ambiguity.
    if (part.length > 1 && part.startsWith('0')) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[i] = value;
  }
  return bytes;
}

/**
 * Parses an IPv6 address (with `::`, an embedded dotted IPv4 tail, optional brackets and an optional
 * zone, which is dropped) into 16 bytes, or null.
 *
 * @example
 * parseIpv6('::1')             // Uint8Array [0, 0, ..., 0, 1]
 * parseIpv6('::ffff:10.1.2.3') // bytes 10 to 15: [0xff, 0xff, 10, 1, 2, 3]
 * parseIpv6('1::2::3')         // null
 */
export function parseIpv6(text: string): Uint8Array | null {
  let body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = body.indexOf('%');
  if (zone !== -1) body = body.slice(0, zone);
  if (body.length === 0 || !/^[0-9a-fA-F:.]+$/.test(body)) return null;

  let tail: Uint8Array | null = null;
  const lastColon = body.lastIndexOf(':');
  if (body.includes('.')) {
    tail = parseIpv4(body.slice(lastColon + 1));
    if (tail === null) return null;
    // Keep a placeholder of two groups so the group count below stays right.
    body = `${body.slice(0, lastColon + 1)}0:0`;
  }

  const halves = body.split('::');
  if (halves.length > 2) return null;
  const head = splitGroups(halves[0] as string);
  const rest = halves.length === 2 ? splitGroups(halves[1] as string) : [];
  if (head === null || rest === null) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;

  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  if (tail !== null) bytes.set(tail, 12);
  return bytes;
}

function splitGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  for (const part of text.split(':')) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return null;
    groups.push(parseInt(part, 16));
  }
  return groups;
}
