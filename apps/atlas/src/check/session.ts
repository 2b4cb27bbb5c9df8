// The MCP client sessions check opens itself, beyond the probe's handshake: deep mode's tool calls and the
// `--list-all` reads. One place builds the transport so both reach the server the same way: the extra headers
// on every HTTP request, the passed variables for a stdio server, and the probe's process-group transport.
import { ProcessGroupStdioTransport, type StdioIsolation } from '@mcp-atlas/probe/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CHECK_CLIENT_NAME } from './constants.js';
import { type ExtraHeader, fetchWithExtraHeaders } from './target-access.js';

/** Where a session connects: a URL (user info already moved into `headers`) or a command with its variables. */
export type SessionTarget =
  | { kind: 'http'; url: string; fetch?: typeof fetch; headers?: readonly ExtraHeader[] }
  | {
      kind: 'stdio';
      command: string;
      args: readonly string[];
      env?: Readonly<Record<string, string>>;
      /** What the server's processes run in; absent means `auto` (a PID namespace where bubblewrap works). */
      isolation?: StdioIsolation;
    };

/** Builds the transport of one session to the target. */
export function makeSessionTransport(target: SessionTarget): Transport {
  if (target.kind === 'http') {
    const headers = target.headers ?? [];
    const base = target.fetch ?? fetch;
    return new StreamableHTTPClientTransport(new URL(target.url), {
      ...(target.fetch === undefined && headers.length === 0
        ? {}
        : { fetch: fetchWithExtraHeaders(base, new URL(target.url).origin, headers) }),
    });
  }
  // The probe's transport runs the server in its own process group (and PID namespace, where it can) and ends
  // all of it on close, so a server started through a wrapper (npx, sh -c) leaves no process behind after a
  // crash, a hang or the end.
  return new ProcessGroupStdioTransport({
    command: target.command,
    args: [...target.args],
    ...(target.env === undefined ? {} : { env: { ...target.env } }),
    ...(target.isolation === undefined ? {} : { isolation: target.isolation }),
    stderr: 'ignore',
  });
}

/** Opens a connected SDK client; the initialize request gets `timeoutMs`. */
export async function openSession(target: SessionTarget, version: string, timeoutMs: number): Promise<Client> {
  const client = new Client({ name: CHECK_CLIENT_NAME, version });
  await client.connect(makeSessionTransport(target), { timeout: timeoutMs });
  return client;
}
