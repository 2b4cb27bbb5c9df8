// How check reaches a server that needs more than a bare URL or command: extra HTTP headers (`--header`, and the
// Basic authorization a URL's user info stands for), extra environment for a stdio server (`--env`), and the
// time limit (`--timeout`). The values live only in memory; what is recorded is built by redact.ts.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { parseIpv6 } from '@mcp-atlas/base';
import { classifyAddress } from '@mcp-atlas/probe';
import { CheckUsageError } from './errors.js';

/** One extra HTTP header, as given with `--header 'Name: value'`. */
export interface ExtraHeader {
  name: string;
  value: string;
}

// RFC 9110 token characters: what a header name may be made of.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Reads one `--header 'Name: value'`; a missing colon, a bad name or a line break is a usage error. */
export function parseHeader(text: string): ExtraHeader {
  const colon = text.indexOf(':');
  const name = colon === -1 ? '' : text.slice(0, colon).trim();
  // The value is never echoed in the message: it is usually a token.
  if (colon === -1 || !HEADER_NAME.test(name))
    throw new CheckUsageError('--header must look like "Name: value" (the name made of letters, digits and -)');
  const value = text.slice(colon + 1).trim();
  if (/[\r\n\0]/.test(value)) throw new CheckUsageError(`--header ${name}: the value may not hold a line break`);
  return { name, value };
}

/**
 * Splits a URL's user info off: fetch refuses a URL that carries one, and a server behind Basic sign-in expects
 * it as an `Authorization` header instead. Returns the URL without it and that header, or null.
 */
export function splitUserInfo(url: string): { url: string; authorization: ExtraHeader | null } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url, authorization: null };
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  const basic = Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
  return { url: parsed.toString(), authorization: { name: 'Authorization', value: `Basic ${basic}` } };
}

/** The headers as one lower-cased record; a later header of the same name replaces an earlier one. */
export function headerRecord(headers: readonly ExtraHeader[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const header of headers) record[header.name.toLowerCase()] = header.value;
  return record;
}

/**
 * A fetch that adds the extra headers to every request to `origin` (for the SDK's client in deep mode and
 * `--list-all`), and to no other origin: a token meant for the server never reaches anyone else.
 */
export function fetchWithExtraHeaders(
  base: typeof fetch,
  origin: string,
  headers: readonly ExtraHeader[],
): typeof fetch {
  if (headers.length === 0) return base;
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).origin !== origin) return base(input, init);
    const merged = new Headers(init?.headers);
    for (const header of headers) if (!merged.has(header.name)) merged.set(header.name, header.value);
    return base(input, { ...init, headers: merged });
  };
}

// What a variable's name may be made of: the POSIX shell's names.
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads the `--env` entries into the variables handed to a stdio server. `NAME=VALUE` (the form Docker and the
 * MCP Inspector take) passes that value; `NAME` passes the variable's value from check's own environment, and a
 * name that is not set there is a usage error: a server started without its key fails in a way that is hard to
 * tell from a real failure. No message quotes an entry's value, nor an entry that is not a name: either may be a
 * secret.
 */
export function readPassedEnvironment(
  entries: readonly string[],
  environment: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const passed: Record<string, string> = {};
  entries.forEach((entry, index) => {
    const equals = entry.indexOf('=');
    const name = equals === -1 ? entry : entry.slice(0, equals);
    if (!VARIABLE_NAME.test(name))
      throw new CheckUsageError(
        `--env number ${index + 1} is neither NAME nor NAME=VALUE (a name is letters, digits and _, not starting with a digit)`,
      );
    if (equals !== -1) {
      const value = entry.slice(equals + 1);
      // The operating system refuses such a value, and Node's error would quote it in full.
      if (value.includes('\0')) throw new CheckUsageError(`--env ${name}: the value may not hold a NUL character`);
      passed[name] = value;
      return;
    }
    const value = environment[name];
    if (value === undefined) throw new CheckUsageError(`--env ${name}: the variable is not set`);
    passed[name] = value;
  });
  return passed;
}

/** Reads `--timeout MS`: a whole number of milliseconds from 1 to one hour. */
export function parseTimeout(text: string | undefined): number | null {
  if (text === undefined) return null;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1 || value > 3_600_000)
    throw new CheckUsageError(`--timeout must be a whole number of milliseconds from 1 to 3600000, got "${text}"`);
  return value;
}

/** True for a URL whose host is a loopback name or address, where deep mode needs no extra flag. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost') return true;
  // The probe files ::1 under "not-global-unicast", so the one IPv6 loopback address is matched here.
  const v6 = parseIpv6(host);
  if (v6 !== null)
    return (
      v6.every((byte, index) => byte === (index === 15 ? 1 : 0)) ||
      classifyAddress(host).range === 'ipv4-mapped:loopback'
    );
  try {
    return classifyAddress(host).range === 'loopback';
  } catch {
    return false;
  }
}

/** True when `file` is a file this process may run. */
async function isRunnable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether `command` names a program that can be started: a path (relative to `cwd`) to a runnable file, or a name
 * found in one of the folders of `searchPath` (check's own PATH, which the server is started with). A typo in the
 * command is then a usage error before anything runs, not a broken server.
 */
export async function findsProgram(command: string, searchPath: string, cwd: string): Promise<boolean> {
  if (command.includes('/')) return isRunnable(resolve(cwd, command));
  for (const folder of searchPath.split(delimiter)) {
    if (folder !== '' && (await isRunnable(join(resolve(cwd, folder), command)))) return true;
  }
  return false;
}
