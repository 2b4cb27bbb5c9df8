// probeServer's `headers`: a server that needs a token lists its tools when given one, the token reaches only the
// server's own origin (not the origin a redirect leads to, not the authorization server sign-in discovery reads),
// the result never holds it, and a header the HTTP layer owns, or a value with a line break, is refused.
import { describe, expect, it } from 'vitest';
import { ProbeInputError, probeServer } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/http-client.js';
import {
  type LocalServer,
  sendJson,
  startRawServer,
  startScriptedServer,
  trackServersPerFile,
} from './fixtures/servers.js';

const TOKEN = 'Bearer s3cret-for-this-test-only';
const network = { allowPrivate: true, httpClient: createNodeHttpClient } as const;
const track = trackServersPerFile();

/** Requests that carried an Authorization header, on any of `seen`. */
function authorizedRequests(...seen: LocalServer[]): string[] {
  return seen.flatMap((server) =>
    server.requests
      .filter((request) => request.headers.authorization !== undefined)
      .map((r) => `${r.method} ${r.path}`),
  );
}

describe('probeServer with headers', () => {
  it('lists the tools of a server that needs a token, and sends the token to no other origin', async () => {
    const authServer = await track(
      startRawServer((req, res) => {
        if (req.url === '/.well-known/oauth-authorization-server')
          return sendJson(res, 200, { issuer: 'x', authorization_endpoint: 'x', token_endpoint: 'x' });
        res.writeHead(404).end();
      }),
    );
    const mcp = await track(
      startScriptedServer({
        override: (req, res) => {
          if (req.method === 'GET' && req.url === '/.well-known/oauth-protected-resource/mcp') {
            sendJson(res, 200, { resource: 'x', authorization_servers: [authServer.origin] });
            return true;
          }
          if (req.headers.authorization === TOKEN) return false;
          res.writeHead(401, { 'www-authenticate': 'Bearer realm="test"' }).end();
          return true;
        },
      }),
    );
    const signedIn = await probeServer(mcp.url, { ...network, headers: { Authorization: TOKEN } });
    expect(signedIn).toMatchObject({ letter: 'o', toolCount: 2 });
    expect(JSON.stringify(signedIn)).not.toContain('s3cret');

    // A token the server refuses: sign-in discovery reads the authorization server, which never sees the token.
    const refused = await probeServer(mcp.url, { ...network, headers: { Authorization: 'Bearer wrong-one' } });
    expect(refused.letter).toBe('a');
    expect(refused.authDiscovery?.authorizationServerMetadata).toEqual({
      url: `${authServer.origin}/.well-known/oauth-authorization-server`,
      kind: 'oauth',
    });
    expect(authServer.requests.length).toBeGreaterThan(0);
    expect(authorizedRequests(authServer)).toEqual([]);
    expect(authorizedRequests(mcp).length).toBeGreaterThan(0);
  });

  it('does not carry the token across a redirect to another origin', async () => {
    const elsewhere = await track(startScriptedServer());
    const redirecting = await track(
      startRawServer((_req, res) => {
        res.writeHead(307, { location: elsewhere.url }).end();
      }),
    );
    const result = await probeServer(redirecting.url, { ...network, headers: { Authorization: TOKEN } });
    expect(elsewhere.requests.length).toBeGreaterThan(0);
    expect(authorizedRequests(elsewhere)).toEqual([]);
    expect(authorizedRequests(redirecting)).toEqual(['POST /mcp']);
    expect(JSON.stringify(result)).not.toContain('s3cret');
  });

  it('keeps its own protocol headers over an extra one of the same name', async () => {
    const mcp = await track(startScriptedServer());
    const result = await probeServer(mcp.url, { ...network, headers: { 'Content-Type': 'text/plain', 'X-Team': 'a' } });
    expect(result.letter).toBe('o');
    const first = mcp.requests[0];
    expect(first?.headers['content-type']).toBe('application/json');
    expect(first?.headers['x-team']).toBe('a');
  });

  it('refuses a header the HTTP layer owns, a bad name, a value with a line break, and no value quoted', async () => {
    const cases: unknown[] = [
      { Host: 'evil.example' },
      { 'Content-Length': '1' },
      { 'Bad Name': 'x' },
      { Authorization: 'Bearer s3cret\r\nX-Injected: 1' },
      { Authorization: 42 },
      ['Authorization: x'],
    ];
    for (const headers of cases) {
      const attempt = probeServer('http://127.0.0.1:9/mcp', { ...network, headers: headers as Record<string, string> });
      await expect(attempt, JSON.stringify(headers)).rejects.toThrow(ProbeInputError);
      await attempt.catch((error: Error) => expect(error.message).not.toContain('s3cret'));
    }
  });
});
