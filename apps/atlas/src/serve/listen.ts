// Starting an HTTP server on a port (0 picks a free one) and learning the port it got.
import { type ServerType, serve } from '@hono/node-server';

/**
 * A fetch handler as @hono/node-server calls it: the request, then the bindings (`{ incoming, outgoing }`,
 * where the socket's address is read from). A wrapper must pass both on, or the app cannot tell clients apart.
 */
export type NodeFetchHandler = (request: Request, bindings?: unknown) => Response | Promise<Response>;

/** Serves `fetchHandler` on `hostname:port`; resolves once listening, rejects when the port cannot be had. */
export function listen(
  fetchHandler: NodeFetchHandler,
  port: number,
  hostname: string,
): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: fetchHandler, port, hostname }, (info) => resolve({ server, port: info.port }));
    server.once('error', reject);
  });
}
