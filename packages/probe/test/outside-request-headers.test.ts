// The outside readers' one request loop with a caller's headers (GitHub's token and API version) and answer
// headers handed back (GitHub's rate-limit headers), against raw node:http servers on 127.0.0.1: what arrives,
// what is refused before any connection, which headers come back on a 200, a 403 and a 429, that a credential
// stays on its origin, and that the token shows in no thrown message and no answer, however a server echoes it.
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeInputError } from '../src/errors.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { resolveNetworkSettings } from '../src/options.js';
import {
  OUTSIDE_CREDENTIAL_HEADERS,
  OUTSIDE_REFUSED_REQUEST_HEADERS,
  REDACTED_CREDENTIAL,
} from '../src/outside-constants.js';
import { type OutsideRequest, redactSecrets, requestOutsideJson } from '../src/outside-request.js';
import { CLIENTS } from './fixtures/env.js';
import { type LocalServer, sendJson, startRawServer } from './fixtures/servers.js';

const TOKEN = 'ghs_headerTestToken0123456789abcdefXYZ';
const RATE_HEADERS = ['X-RateLimit-Remaining', 'x-ratelimit-reset', 'Retry-After'];

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const routes = new Map<string, Route>();
let main: LocalServer;
let other: LocalServer;

function route(req: http.IncomingMessage, res: http.ServerResponse): void {
  const handler = routes.get(req.url ?? '');
  if (handler === undefined) sendJson(res, 404, { message: 'Not Found' });
  else handler(req, res);
}

beforeAll(async () => {
  main = await startRawServer(route, '/');
  other = await startRawServer((_req, res) => sendJson(res, 200, { where: 'other' }), '/');
  routes.set('/ok', (_req, res) =>
    sendJson(res, 200, { fine: true }, { 'x-ratelimit-remaining': '4999', 'x-ratelimit-reset': '1796216400' }),
  );
  routes.set('/limited', (_req, res) =>
    sendJson(
      res,
      403,
      { message: 'API rate limit exceeded' },
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1796216400', 'x-other': 'not asked for' },
    ),
  );
  routes.set('/too-many', (_req, res) => sendJson(res, 429, { message: 'secondary limit' }, { 'retry-after': '60' }));
  routes.set('/to-other', (_req, res) => {
    res.writeHead(302, { location: `${other.origin}/landed`, 'x-ratelimit-remaining': '7' });
    res.end();
  });
  routes.set('/to-self', (_req, res) => {
    res.writeHead(301, { location: '/ok' });
    res.end();
  });
  routes.set('/loop', (_req, res) => {
    res.writeHead(302, { location: '/loop', 'retry-after': '5' });
    res.end();
  });
  // Port 1 on loopback has no listener: the second hop gets no answer at all.
  routes.set('/to-closed', (_req, res) => {
    res.writeHead(302, { location: 'http://127.0.0.1:1/gone', 'retry-after': '9' });
    res.end();
  });
  routes.set('/no-location', (_req, res) => {
    res.writeHead(302);
    res.end();
  });
  // A hostile server that writes the Authorization it got into every place an answer can carry text.
  routes.set('/echo-body', (req, res) =>
    sendJson(res, 200, { seen: req.headers.authorization, [`key ${req.headers.authorization}`]: [1] }),
  );
  routes.set('/echo-escaped', (req, res) => {
    const escaped = [...String(req.headers.authorization)].map(
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"seen":"${escaped.join('')}"}`);
  });
  routes.set('/echo-status', (req, res) =>
    sendJson(
      res,
      403,
      { message: `bad ${req.headers.authorization}` },
      { 'x-ratelimit-remaining': `${req.headers.authorization}` },
    ),
  );
  routes.set('/echo-location', (req, res) => {
    res.writeHead(302, { location: `http://[${String(req.headers.authorization).replace(' ', '-')}` });
    res.end();
  });
  routes.set('/echo-redirect', (req, res) => {
    res.writeHead(302, { location: `/not-here?seen=${String(req.headers.authorization).split(' ')[1]}` });
    res.end();
  });
});

afterAll(async () => {
  await main.close();
  await other.close();
});

function request(path: string, extra: Partial<OutsideRequest> = {}): OutsideRequest {
  return {
    url: `${main.origin}${path}`,
    method: 'GET',
    accept: 'application/json',
    timeoutMs: 5_000,
    capBytes: 64 * 1024,
    maxRedirects: 2,
    ...extra,
  };
}

const nodeNetwork = resolveNetworkSettings({ allowPrivate: true, httpClient: createNodeHttpClient });

describe.each(CLIENTS)('with the %s', (_name, httpClient) => {
  const network = resolveNetworkSettings({ allowPrivate: true, httpClient });

  it('sends the caller headers as given, beside its own', async () => {
    const before = main.requests.length;
    const answer = await requestOutsideJson(
      request('/ok', { headers: { 'X-GitHub-Api-Version': '2022-11-28', Authorization: `Bearer ${TOKEN}` } }),
      network,
    );
    expect(answer).toMatchObject({ ok: true, status: 200, json: { fine: true }, requests: 1 });
    const sent = main.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers).toMatchObject({
      'x-github-api-version': '2022-11-28',
      authorization: `Bearer ${TOKEN}`,
      accept: 'application/json',
      host: `127.0.0.1:${main.port}`,
    });
    expect(sent[0]?.headers['user-agent']).toMatch(/^mcp-atlas-bot\//);
  });

  it('hands back the answer headers asked for, lower-case, on a 200, a 403 and a 429', async () => {
    const ok = await requestOutsideJson(request('/ok', { responseHeaders: RATE_HEADERS }), network);
    expect(ok).toMatchObject({ ok: true, status: 200 });
    expect(ok.headers).toEqual({ 'x-ratelimit-remaining': '4999', 'x-ratelimit-reset': '1796216400' });
    const limited = await requestOutsideJson(request('/limited', { responseHeaders: RATE_HEADERS }), network);
    expect(limited).toMatchObject({ ok: false, reason: 'http-status', httpStatus: 403 });
    expect(limited.headers).toEqual({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1796216400' });
    const tooMany = await requestOutsideJson(request('/too-many', { responseHeaders: RATE_HEADERS }), network);
    expect(tooMany).toMatchObject({ ok: false, httpStatus: 429, headers: { 'retry-after': '60' } });
  });
});

describe('what is refused before any connection', () => {
  async function expectRefused(extra: Partial<OutsideRequest>, words: RegExp): Promise<string> {
    const before = main.acceptedSockets();
    const error = await requestOutsideJson(request('/ok', extra), nodeNetwork).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ProbeInputError);
    expect((error as ProbeInputError).code).toBe('invalid-option');
    expect((error as Error).message).toMatch(words);
    expect(main.acceptedSockets()).toBe(before);
    return (error as Error).message;
  }

  it('refuses a value with a line break, and never repeats the value', async () => {
    for (const value of [`Bearer ${TOKEN}\r\nX-Injected: 1`, `Bearer ${TOKEN}\n`, `Bearer ${TOKEN}\r`, `a\u0000b`]) {
      const message = await expectRefused({ headers: { Authorization: value } }, /authorization.*no line break/);
      expect(message).not.toContain(TOKEN);
    }
    await expectRefused({ headers: { 'X-Note': 'a\r\nHost: evil.example' } }, /x-note/);
  });

  it('keeps the tab a header value may hold', async () => {
    const answer = await requestOutsideJson(request('/ok', { headers: { 'X-Note': 'a\tb' } }), nodeNetwork);
    expect(answer.ok).toBe(true);
    expect(main.requests.at(-1)?.headers['x-note']).toBe('a\tb');
  });

  it('refuses a Host header in any case, so the pinned host is the one named', async () => {
    for (const name of ['Host', 'host', 'HOST'])
      await expectRefused({ headers: { [name]: 'evil.example' } }, /host is written by the request/);
  });

  it('refuses every hop-by-hop, framing or own header of the list', async () => {
    expect(OUTSIDE_REFUSED_REQUEST_HEADERS.size).toBe(14);
    for (const name of OUTSIDE_REFUSED_REQUEST_HEADERS)
      await expectRefused({ headers: { [name.toUpperCase()]: 'x' } }, new RegExp(`${name} is written`));
  });

  it('refuses a name that is not a token, a name given twice, and answer-header names that are not tokens', async () => {
    const message = await expectRefused({ headers: { [`X-A\r\n${TOKEN}`]: 'x' } }, /header name must be an HTTP token/);
    expect(message).not.toContain(TOKEN);
    await expectRefused({ headers: { 'X-Twice': '1', 'x-twice': '2' } }, /x-twice is given twice/);
    await expectRefused({ headers: { '': 'x' } }, /HTTP token/);
    await expectRefused({ responseHeaders: ['retry after'] }, /responseHeaders: a header name/);
  });
});

describe('credentials and redirects', () => {
  it('sends a credential to the first origin only, and other headers everywhere', async () => {
    const answer = await requestOutsideJson(
      request('/to-other', { headers: { Authorization: `Bearer ${TOKEN}`, Cookie: 'sid=1', 'X-Trace': 't' } }),
      nodeNetwork,
    );
    expect(answer).toMatchObject({ ok: true, json: { where: 'other' }, requests: 2 });
    expect(main.requests.at(-1)?.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, cookie: 'sid=1' });
    const landed = other.requests.at(-1)?.headers;
    expect(landed?.authorization).toBeUndefined();
    expect(landed?.cookie).toBeUndefined();
    expect(landed?.['x-trace']).toBe('t');
    expect([...OUTSIDE_CREDENTIAL_HEADERS]).toEqual(['authorization', 'cookie', 'x-api-key']);
  });

  it('keeps a credential on a redirect within the origin, and counts both requests', async () => {
    const before = main.requests.length;
    const answer = await requestOutsideJson(
      request('/to-self', { headers: { Authorization: 'Bearer abc' } }),
      nodeNetwork,
    );
    expect(answer).toMatchObject({ ok: true, requests: 2 });
    expect(main.requests.slice(before).map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/to-self', 'Bearer abc'],
      ['/ok', 'Bearer abc'],
    ]);
  });

  it('hands back the headers of the answer whose status it reports, and none when no answer came', async () => {
    const loop = await requestOutsideJson(request('/loop', { responseHeaders: RATE_HEADERS }), nodeNetwork);
    expect(loop).toMatchObject({ ok: false, reason: 'redirect-limit', httpStatus: 302, requests: 3 });
    expect(loop.headers).toEqual({ 'retry-after': '5' });
    const refused = await requestOutsideJson(
      { ...request('/ok', { responseHeaders: RATE_HEADERS }), url: 'http://localhost/ok' },
      resolveNetworkSettings({ httpClient: createNodeHttpClient }),
    );
    expect(refused).toMatchObject({ ok: false, httpStatus: null, requests: 0, headers: {} });
    const closed = await requestOutsideJson(request('/to-closed', { responseHeaders: RATE_HEADERS }), nodeNetwork);
    expect(closed).toMatchObject({ ok: false, reason: 'no-connection', httpStatus: null, requests: 2 });
    expect(closed.headers).toEqual({});
  });

  it('answers no headers field to a caller that asked for none', async () => {
    const answer = await requestOutsideJson(request('/limited'), nodeNetwork);
    expect(answer).not.toHaveProperty('headers');
  });

  it('says a GET redirect came without a Location, and a POST redirect is not followed', async () => {
    expect(await requestOutsideJson(request('/no-location'), nodeNetwork)).toMatchObject({
      ok: false,
      reason: 'http-status',
      message: 'answered 302 without a Location',
    });
    expect(await requestOutsideJson(request('/to-self', { method: 'POST', body: '{}' }), nodeNetwork)).toMatchObject({
      ok: false,
      reason: 'http-status',
      message: 'answered 301 (redirect not followed)',
    });
  });
});

describe('the token in no answer', () => {
  const withToken = (path: string): OutsideRequest =>
    request(path, { headers: { Authorization: `Bearer ${TOKEN}` }, responseHeaders: RATE_HEADERS });

  it('is redacted from a 2xx body, its keys and its escaped strings', async () => {
    const body = await requestOutsideJson(withToken('/echo-body'), nodeNetwork);
    expect(body).toMatchObject({ ok: true, json: { seen: `Bearer ${REDACTED_CREDENTIAL}` } });
    if (!body.ok) throw new Error(body.message);
    expect(Object.keys(body.json as object)).toContain(`key Bearer ${REDACTED_CREDENTIAL}`);
    const escaped = await requestOutsideJson(withToken('/echo-escaped'), nodeNetwork);
    expect(escaped).toMatchObject({ ok: true, json: { seen: `Bearer ${REDACTED_CREDENTIAL}` } });
    for (const answer of [body, escaped]) expect(JSON.stringify(answer)).not.toContain(TOKEN);
  });

  it('is redacted from a failure message, its URL and the answer headers handed back', async () => {
    const status = await requestOutsideJson(withToken('/echo-status'), nodeNetwork);
    expect(status).toMatchObject({ ok: false, httpStatus: 403 });
    expect(status.headers?.['x-ratelimit-remaining']).toBe(`Bearer ${REDACTED_CREDENTIAL}`);
    const location = await requestOutsideJson(withToken('/echo-location'), nodeNetwork);
    expect(location).toMatchObject({ ok: false, reason: 'redirect-invalid' });
    const redirected = await requestOutsideJson(withToken('/echo-redirect'), nodeNetwork);
    expect(redirected).toMatchObject({ ok: false, httpStatus: 404, url: `${main.origin}/not-here?seen=[token]` });
    expect(main.requests.at(-1)?.path).toBe(`/not-here?seen=${TOKEN}`);
    for (const answer of [status, location, redirected]) {
      expect(JSON.stringify(answer)).not.toContain(TOKEN);
      if (!answer.ok) expect(answer.message).not.toContain(TOKEN);
    }
  });
});

describe('redactSecrets', () => {
  it('returns what holds no secret as it was, without copying', () => {
    const value = { a: ['x', { b: 'y' }], n: 1, z: null };
    expect(redactSecrets(value, ['secret'])).toBe(value);
    expect(redactSecrets(value, [])).toBe(value);
  });

  it('replaces a secret in nested strings and keys, and leaves the rest shared', () => {
    const untouched = { deep: ['plain'] };
    const value = { list: ['a secret here', untouched], 'secret-key': 2 };
    const redacted = redactSecrets(value, ['secret']);
    expect(redacted).toEqual({ list: ['a [token] here', untouched], '[token]-key': 2 });
    expect(redacted.list[1]).toBe(untouched);
    expect(value.list[0]).toBe('a secret here');
  });
});
