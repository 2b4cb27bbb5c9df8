// Sign-in discovery after a 401, in the MCP spec's order, against raw node:http servers on 127.0.0.1: the MCP
// endpoint answers 401 (with or without a resource_metadata URL in WWW-Authenticate), its origin serves the
// protected resource metadata at some of the places a client looks, and a second server (another origin) is the
// authorization server. Each test names the branch of the order it proves, and checks every document read.
import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  authorizationServerCandidates,
  protectedResourceCandidates,
  resourceMetadataUrlOf,
} from '../src/auth-discovery.js';
import { AUTH_DISCOVERY_BUDGET_MS, FIVE_MINUTE_CHECK_DEADLINE_MS } from '../src/constants.js';
import { type AuthDiscovery, ProbeResultSchema, probeServer } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/http-client.js';
import { scaledClock } from './fixtures/env.js';
import {
  type LocalServer,
  sendJson,
  startRawServer,
  startScriptedServer,
  trackServersPerFile,
} from './fixtures/servers.js';

const track = trackServersPerFile();

/** Paths a server answers with a JSON document; a function gets the server's own origin. */
type Documents = Record<string, (origin: string) => unknown>;

/** A server that answers the documents it has and 404 to every other GET; `mcp` handles the rest. */
function documentServer(documents: Documents, mcp?: (res: http.ServerResponse, origin: string) => void) {
  let origin = '';
  const started = startRawServer((req, res) => {
    const document = req.method === 'GET' ? documents[req.url ?? ''] : undefined;
    if (document !== undefined) return sendJson(res, 200, document(origin));
    if (req.method === 'POST' && mcp !== undefined) return mcp(res, origin);
    res.writeHead(404).end();
  });
  return track(started).then((server) => {
    origin = server.origin;
    return server;
  });
}

/** An authorization server whose metadata is served at `path` (issuer `origin + issuerPath`). */
function authorizationServer(path: string, issuerPath = ''): Promise<LocalServer> {
  return documentServer({ [path]: (origin) => ({ issuer: `${origin}${issuerPath}`, token_endpoint: `${origin}/t` }) });
}

/** An MCP endpoint at /mcp answering 401 with `challenge(origin)`, serving `documents` on its origin. */
function signInServer(documents: Documents, challenge: (origin: string) => string): Promise<LocalServer> {
  return documentServer(documents, (res, origin) => {
    res.writeHead(401, { 'www-authenticate': challenge(origin), 'content-type': 'application/json' });
    res.end('{"error":"unauthorized"}');
  });
}

const prm = (issuer: string) => () => ({ resource: 'ignored', authorization_servers: [issuer] });

async function discover(server: LocalServer): Promise<AuthDiscovery> {
  const result = await probeServer(server.url, { allowPrivate: true, httpClient: createNodeHttpClient });
  expect(ProbeResultSchema.parse(result)).toEqual(result);
  expect(result).toMatchObject({ letter: 'a', reason: 'auth-required' });
  return result.authDiscovery as AuthDiscovery;
}

const readUrls = (found: AuthDiscovery) => found.reads.map((read) => read.url);

describe('the resource_metadata URL of a challenge', () => {
  const endpoint = new URL('https://mcp.example.com/mcp');
  it('is read quoted or not, and only as an http(s) URL', () => {
    expect(resourceMetadataUrlOf('Bearer resource_metadata="https://a.example/prm"', endpoint)).toBe(
      'https://a.example/prm',
    );
    expect(resourceMetadataUrlOf('Bearer realm="x", resource_metadata=https://a.example/p, scope="s"', endpoint)).toBe(
      'https://a.example/p',
    );
    expect(resourceMetadataUrlOf('Bearer resource_metadata="javascript:alert(1)"', endpoint)).toBeNull();
    expect(resourceMetadataUrlOf('Bearer realm="x"', endpoint)).toBeNull();
    expect(resourceMetadataUrlOf(null, endpoint)).toBeNull();
  });

  it('comes first, then the path-based and the root well-known URLs; the root alone for a root endpoint', () => {
    expect(
      protectedResourceCandidates(endpoint, 'Bearer resource_metadata="https://a.example/prm"').map((c) => c.url),
    ).toEqual([
      'https://a.example/prm',
      'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
    expect(protectedResourceCandidates(new URL('https://mcp.example.com/'), null).map((c) => c.url)).toEqual([
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
  });

  it('leads to authorization server metadata by path insertion, then OpenID Connect inserted and appended', () => {
    expect(authorizationServerCandidates(new URL('https://auth.example/tenant1/')).map((c) => c.url)).toEqual([
      'https://auth.example/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example/.well-known/openid-configuration/tenant1',
      'https://auth.example/tenant1/.well-known/openid-configuration',
    ]);
    expect(authorizationServerCandidates(new URL('https://auth.example')).map((c) => c.url)).toEqual([
      'https://auth.example/.well-known/oauth-authorization-server',
      'https://auth.example/.well-known/openid-configuration',
    ]);
  });
});

describe('sign-in discovery after a 401', () => {
  it("follows the challenge's resource_metadata URL, then the authorization server it names", async () => {
    const auth = await authorizationServer('/.well-known/oauth-authorization-server');
    const server = await signInServer(
      { '/meta/prm': prm(auth.origin), '/.well-known/oauth-protected-resource/mcp': prm('http://127.0.0.1:9/') },
      (origin) => `Bearer resource_metadata="${origin}/meta/prm"`,
    );
    const found = await discover(server);
    expect(found).toEqual({
      protectedResource: { url: `${server.origin}/meta/prm`, source: 'www-authenticate' },
      authorizationServer: { issuer: `${auth.origin}/`, source: 'protected-resource' },
      authorizationServerMetadata: { url: `${auth.origin}/.well-known/oauth-authorization-server`, kind: 'oauth' },
      reads: [
        { url: `${server.origin}/meta/prm`, httpStatus: 200, found: true, detail: null },
        { url: `${auth.origin}/.well-known/oauth-authorization-server`, httpStatus: 200, found: true, detail: null },
      ],
    });
  });

  it('without a resource_metadata URL, reads the path-based well-known URL before the root', async () => {
    const auth = await authorizationServer('/.well-known/oauth-authorization-server');
    const server = await signInServer(
      {
        '/.well-known/oauth-protected-resource/mcp': prm(auth.origin),
        '/.well-known/oauth-protected-resource': prm('x'),
      },
      () => 'Bearer realm="mcp"',
    );
    const found = await discover(server);
    expect(found.protectedResource).toEqual({
      url: `${server.origin}/.well-known/oauth-protected-resource/mcp`,
      source: 'path',
    });
    expect(found.authorizationServerMetadata?.kind).toBe('oauth');
    expect(readUrls(found)).toEqual([
      `${server.origin}/.well-known/oauth-protected-resource/mcp`,
      `${auth.origin}/.well-known/oauth-authorization-server`,
    ]);
  });

  it('falls back from a challenge URL that is not found to the path-based one, then to the root', async () => {
    const auth = await authorizationServer('/.well-known/oauth-authorization-server');
    const server = await signInServer(
      { '/.well-known/oauth-protected-resource': prm(auth.origin) },
      (origin) => `Bearer resource_metadata="${origin}/missing"`,
    );
    const found = await discover(server);
    expect(found.protectedResource).toEqual({
      url: `${server.origin}/.well-known/oauth-protected-resource`,
      source: 'root',
    });
    expect(found.reads.map((read) => [read.httpStatus, read.found])).toEqual([
      [404, false],
      [404, false],
      [200, true],
      [200, true],
    ]);
    expect(found.reads[0]?.detail).toBe('answered 404');
  });

  it('reads an issuer with a path by OAuth insertion, then OpenID Connect inserted, then appended', async () => {
    const auth = await authorizationServer('/tenant1/.well-known/openid-configuration', '/tenant1');
    const server = await signInServer(
      { '/.well-known/oauth-protected-resource/mcp': () => ({ authorization_servers: [`${auth.origin}/tenant1`] }) },
      () => 'Bearer',
    );
    const found = await discover(server);
    expect(found.authorizationServerMetadata).toEqual({
      url: `${auth.origin}/tenant1/.well-known/openid-configuration`,
      kind: 'openid',
    });
    expect(readUrls(found).slice(1)).toEqual([
      `${auth.origin}/.well-known/oauth-authorization-server/tenant1`,
      `${auth.origin}/.well-known/openid-configuration/tenant1`,
      `${auth.origin}/tenant1/.well-known/openid-configuration`,
    ]);
  });

  it("without protected resource metadata, reads the server's own origin as its authorization server", async () => {
    const server = await signInServer(
      { '/.well-known/openid-configuration': (origin) => ({ issuer: origin }) },
      () => 'Bearer',
    );
    const found = await discover(server);
    expect(found).toMatchObject({
      protectedResource: null,
      authorizationServer: { issuer: `${server.origin}/`, source: 'server-origin' },
      authorizationServerMetadata: { url: `${server.origin}/.well-known/openid-configuration`, kind: 'openid' },
    });
    expect(found.reads).toHaveLength(4);
  });

  it('a document that is not a JSON object does not count, and nothing found is recorded as such', async () => {
    const server = await track(
      startRawServer((req, res) => {
        if (req.method === 'POST') return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        if (req.url === '/.well-known/oauth-protected-resource/mcp') return sendJson(res, 200, ['a', 'list']);
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>sign in</html>');
      }),
    );
    const found = await discover(server);
    expect(found).toMatchObject({ protectedResource: null, authorizationServerMetadata: null });
    expect(found.reads.map((read) => read.detail)).toEqual(['not a JSON object', 'not JSON', 'not JSON', 'not JSON']);
  });

  it('documents that never answer end inside the discovery budget, and the letter stays a', async () => {
    const server = await track(
      startRawServer((req, res) => {
        if (req.method === 'POST') return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        res.writeHead(200, { 'content-type': 'application/json' }); // and never ends
      }),
    );
    const clock = scaledClock(20);
    const started = clock.now();
    const result = await probeServer(server.url, {
      allowPrivate: true,
      httpClient: createNodeHttpClient,
      clock,
      deadlineMs: FIVE_MINUTE_CHECK_DEADLINE_MS,
    });
    expect(result.letter).toBe('a');
    const found = result.authDiscovery as AuthDiscovery;
    expect(found.protectedResource).toBeNull();
    expect(found.reads.length).toBeGreaterThan(0);
    expect(found.reads.every((read) => read.found === false && read.detail !== null)).toBe(true);
    // Two 4 s reads fill the 8 s budget; nothing is read after it.
    expect(found.reads.length).toBeLessThanOrEqual(AUTH_DISCOVERY_BUDGET_MS / 4_000);
    expect(clock.now() - started).toBeLessThan(FIVE_MINUTE_CHECK_DEADLINE_MS);
  });

  it('is not run for a server that answers', async () => {
    const server = await track(startScriptedServer({ tools: [] }));
    const result = await probeServer(server.url, { allowPrivate: true, httpClient: createNodeHttpClient });
    expect(result).toMatchObject({ letter: 'o', authDiscovery: null });
    expect(server.requests.some((request) => request.method === 'GET')).toBe(false);
  });
});
