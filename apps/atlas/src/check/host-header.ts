// Deep mode's DNS-rebinding check for a server on this machine. A web page on another site can point its own
// name at 127.0.0.1 and make the browser post to a local MCP server; the only sign the server sees is a Host
// header naming that other site. So one initialize request is sent with a foreign Host header, and a local
// server must refuse it. node:http is used because fetch does not let a caller set Host.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type ForeignHostAnswer, judgeForeignHostAnswer } from '@mcp-atlas/operations';
import { FOREIGN_HOST_HEADER } from './constants.js';
import type { HostHeaderCheck } from './report-schema.js';
import { type ExtraHeader, headerRecord, isLoopbackUrl } from './target-access.js';

/** What the check needs: the endpoint (user info already moved into headers), the extra headers, the limit. */
export interface HostHeaderInput {
  url: string;
  headers: readonly ExtraHeader[];
  letter: string;
  timeoutMs: number;
}

function sendWithForeignHost(input: HostHeaderInput): Promise<ForeignHostAnswer> {
  const url = new URL(input.url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mcp-atlas-check', version: '0' } },
  });
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: {
          ...headerRecord(input.headers),
          host: FOREIGN_HOST_HEADER,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
        timeout: input.timeoutMs,
        // A local test certificate names localhost, not the foreign host; the answer's status is all that counts.
        ...(url.protocol === 'https:' ? { rejectUnauthorized: false, servername: url.hostname } : {}),
      },
      (response) => {
        resolve({ status: response.statusCode ?? 0 });
        response.destroy();
      },
    );
    req.on('timeout', () => {
      resolve({ timedOut: true });
      req.destroy();
    });
    req.on('error', (error) => resolve({ closed: error.message }));
    req.end(body);
  });
}

/** Runs the Host-header check; a server that is not on this machine, or did not pass the handshake, is not-run. */
export async function checkHostHeader(input: HostHeaderInput): Promise<HostHeaderCheck> {
  const host = FOREIGN_HOST_HEADER;
  if (!isLoopbackUrl(input.url))
    return { outcome: 'not-run', status: null, host, reason: 'only a server on this machine (loopback) is checked' };
  if (input.letter !== 'o')
    return { outcome: 'not-run', status: null, host, reason: `the handshake did not pass (letter ${input.letter})` };
  // The verdict by status is the operating rule of @mcp-atlas/operations; this file only sends the request.
  return judgeForeignHostAnswer(await sendWithForeignHost(input), host, input.timeoutMs);
}
