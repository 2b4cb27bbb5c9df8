// One Streamable HTTP request answered by a fresh MCP server and transport, both closed once the answer is
// ready: stateless (no session id), with plain JSON answers, so every request carries all it needs. The
// service's own MCP endpoint answers this way, and so do the demo fleet and the test servers.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** Connects `server` to a stateless transport, answers `request`, then closes both. */
export async function answerStatelessMcp(
  server: McpServer,
  request: Request,
  options: {
    maxRequestBodySize?: number;
    /** The body, already read and parsed by the caller (who then checked its size and batch length). */
    parsedBody?: unknown;
  } = {},
): Promise<Response> {
  // No sessionIdGenerator: the transport runs stateless.
  const transport = new WebStandardStreamableHTTPServerTransport({
    enableJsonResponse: true,
    ...(options.maxRequestBodySize !== undefined ? { maxRequestBodySize: options.maxRequestBodySize } : {}),
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(
      request,
      options.parsedBody === undefined ? undefined : { parsedBody: options.parsedBody },
    );
  } finally {
    await transport.close();
    await server.close();
  }
}
