// Starting an HTTP server on a port (0 picks a free one) and learning the port it got.
import { serve, type ServerType } from '@hono/node-server';

/** Serves `fetchHandler` on `hostname:port`; resolves once listening, rejects when the port cannot be had. */
export function listen(
  fetchHandler: (request: Request) => Response | Promise<Response>,
  port: number,
  hostname: string,
): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: fetchHandler, port, hostname }, (info) => resolve({ server, port: info.port }));
    server.once('error', reject);
  });
}
