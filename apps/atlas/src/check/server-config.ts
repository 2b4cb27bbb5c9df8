// `check --config FILE --server NAME`: the server to check, read from a client configuration file in the shape
// MCP clients and the MCP Inspector share: `{ "mcpServers": { "<name>": { ... } } }`, where an entry is either a
// stdio server (`command`, `args`, `env`) or a remote one (`url`, with `type` "streamable-http", "http" or "sse",
// and optional `headers`). Its env and header values are secrets: they are handed to check's scrubber and never
// quoted in a message.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { CheckUsageError } from './errors.js';
import type { CheckTarget } from './run-check.js';
import { type ExtraHeader, parseHeader } from './target-access.js';

const ServerEntrySchema = z.object({
  type: z.enum(['stdio', 'streamable-http', 'http', 'sse']).optional(),
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  url: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const ClientConfigSchema = z.object({ mcpServers: z.record(z.string(), ServerEntrySchema) });

/** The server a configuration file names: what to check, and the environment or headers it is given. */
export interface ConfiguredServer {
  name: string;
  target: CheckTarget;
  /** `NAME=VALUE` entries for a stdio server, as `--env` takes them. */
  env: string[];
  headers: ExtraHeader[];
  /** Every value of the entry's env and headers, for the scrubber. */
  secrets: string[];
}

async function readConfigFile(file: string, cwd: string): Promise<z.infer<typeof ClientConfigSchema>> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new CheckUsageError(`cannot read --config ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CheckUsageError(`--config ${file} is not JSON`);
  }
  const parsed = ClientConfigSchema.safeParse(json);
  // Only the path of the first problem is named: a value in the file may be a secret.
  if (!parsed.success)
    throw new CheckUsageError(
      `--config ${file} is not a client configuration ({ "mcpServers": { "<name>": { ... } } }): look at ${parsed.error.issues[0]?.path.join('.') || 'the top level'}`,
    );
  return parsed.data;
}

/** The entry `name` picks, or the only one when no name is given. */
function pickEntry(
  servers: Record<string, z.infer<typeof ServerEntrySchema>>,
  name: string | null,
  file: string,
): [string, z.infer<typeof ServerEntrySchema>] {
  const names = Object.keys(servers);
  if (name !== null) {
    const entry = Object.hasOwn(servers, name) ? servers[name] : undefined;
    if (entry === undefined)
      throw new CheckUsageError(`--config ${file} has no server "${name}"; it names ${names.join(', ') || 'none'}`);
    return [name, entry];
  }
  const [only] = names;
  if (names.length !== 1 || only === undefined)
    throw new CheckUsageError(
      `--config ${file} names ${names.length} servers (${names.join(', ')}): pick one with --server NAME`,
    );
  return [only, servers[only] as z.infer<typeof ServerEntrySchema>];
}

function targetOf(name: string, entry: z.infer<typeof ServerEntrySchema>): CheckTarget {
  if (entry.command !== undefined && entry.url !== undefined)
    throw new CheckUsageError(`server "${name}" has both a command and a url`);
  if (entry.command !== undefined) return { kind: 'stdio', command: entry.command, args: entry.args ?? [] };
  if (entry.url === undefined) throw new CheckUsageError(`server "${name}" has neither a command nor a url`);
  let url: URL;
  try {
    url = new URL(entry.url);
  } catch {
    throw new CheckUsageError(`server "${name}": its url is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CheckUsageError(`server "${name}": its url must be http or https`);
  return { kind: 'http', url: entry.url };
}

/**
 * Reads the server `name` (or the file's only server) from the client configuration `file`, relative to `cwd`.
 * Throws CheckUsageError for a file that cannot be read or parsed, or a name it does not hold.
 *
 * @example
 * await readConfiguredServer('mcp.json', 'notes', process.cwd());
 * // { name: 'notes', target: { kind: 'stdio', command: 'node', args: ['server.mjs'] }, env: ['TOKEN=…'], … }
 */
export async function readConfiguredServer(file: string, name: string | null, cwd: string): Promise<ConfiguredServer> {
  const config = await readConfigFile(file, cwd);
  const [picked, entry] = pickEntry(config.mcpServers, name, file);
  const target = targetOf(picked, entry);
  const env = Object.entries(entry.env ?? {}).map(([key, value]) => `${key}=${value}`);
  const headers = Object.entries(entry.headers ?? {}).map(([key, value]) => parseHeader(`${key}: ${value}`));
  if (target.kind === 'http' && env.length > 0)
    throw new CheckUsageError(`server "${picked}" has a url, so its env cannot reach it; give it headers`);
  if (target.kind === 'stdio' && headers.length > 0)
    throw new CheckUsageError(`server "${picked}" runs over stdio, so its headers cannot reach it; give it env`);
  return {
    name: picked,
    target,
    env,
    headers,
    secrets: [...Object.values(entry.env ?? {}), ...Object.values(entry.headers ?? {})],
  };
}
