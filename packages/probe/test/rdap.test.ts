// A domain's registration date from a real RDAP service on 127.0.0.1 (raw node:http speaking RFC 9083), and
// every way such a service can misbehave: no answer in time, a huge body, text that is not JSON, a 500, a
// record without a registration event, a record for another domain. The lookup must never reach the
// server whose domain it looks up, whether the base URL or a redirect points there.
import type http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeInputError } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { DEFAULT_RDAP_URL, RDAP_CAP_BYTES, RDAP_TIMEOUT_MS } from '../src/outside-constants.js';
import { rdapDomainOf, readDomainRegistration, registrationDateOf } from '../src/rdap.js';
import { CLIENTS, scaledClock, tableLookup } from './fixtures/env.js';
import { type LocalServer, sendJson, startRawServer } from './fixtures/servers.js';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const routes = new Map<string, Route>();
let rdap: LocalServer;

function record(domain: string, events: unknown[]): Record<string, unknown> {
  return { objectClassName: 'domain', ldhName: domain.toUpperCase(), events, rdapConformance: ['rdap_level_0'] };
}

beforeAll(async () => {
  rdap = await startRawServer((req, res) => {
    const route = routes.get(req.url ?? '');
    if (route === undefined)
      return sendJson(res, 404, { errorCode: 404, title: 'Not Found' }, { 'content-type': 'application/rdap+json' });
    route(req, res);
  });
  routes.set('/domain/old-bank.test', (_req, res) =>
    sendJson(
      res,
      200,
      record('old-bank.test', [
        { eventAction: 'last changed', eventDate: '2026-01-02T00:00:00Z' },
        { eventAction: 'registration', eventDate: '1997-09-15T04:00:00Z' },
        { eventAction: 'expiration', eventDate: '2028-09-14T04:00:00Z' },
      ]),
      { 'content-type': 'application/rdap+json' },
    ),
  );
});

afterAll(async () => {
  await rdap.close();
});

const network = { allowPrivate: true, httpClient: createNodeHttpClient };

describe('reading a registration date from RDAP', () => {
  for (const [clientName, httpClient] of CLIENTS) {
    it(`reads events[].eventAction = "registration" of the server's registrable domain (${clientName})`, async () => {
      const read = await readDomainRegistration('https://mcp.eu.old-bank.test/mcp', {
        allowPrivate: true,
        httpClient,
        rdapUrl: `${rdap.origin}/`,
      });
      expect(read).toEqual({
        ok: true,
        host: 'mcp.eu.old-bank.test',
        domain: 'old-bank.test',
        registeredAt: '1997-09-15T04:00:00.000Z',
        rdapUrl: `${rdap.origin}/domain/old-bank.test`,
      });
      expect(rdap.requests.at(-1)).toMatchObject({ method: 'GET', path: '/domain/old-bank.test' });
      expect(rdap.requests.at(-1)?.headers.accept).toContain('application/rdap+json');
      expect(rdap.requests.at(-1)?.headers['user-agent']).toMatch(/^mcp-atlas-bot\//);
    });
  }

  it('follows the bootstrap redirect to the registry’s own server', async () => {
    routes.set('/domain/moved.test', (_req, res) => {
      res.writeHead(302, { location: '/registry/domain/moved.test' });
      res.end();
    });
    routes.set('/registry/domain/moved.test', (_req, res) =>
      sendJson(res, 200, record('moved.test', [{ eventAction: 'registration', eventDate: '2026-10-01T12:00:00Z' }])),
    );
    const read = await readDomainRegistration('moved.test', { ...network, rdapUrl: rdap.origin });
    expect(read).toMatchObject({
      ok: true,
      domain: 'moved.test',
      registeredAt: '2026-10-01T12:00:00.000Z',
      rdapUrl: `${rdap.origin}/registry/domain/moved.test`,
    });
  });

  it('takes the earliest dated registration event when a record holds several, and skips undated ones', () => {
    expect(
      registrationDateOf([
        { eventAction: 'registration' },
        { eventAction: 'Registration', eventDate: '2020-05-01T00:00:00Z' },
        { eventAction: 'registration', eventDate: '2019-01-01T00:00:00+02:00' },
        { eventAction: 'registration', eventDate: 'not a date' },
      ]),
    ).toBe('2018-12-31T22:00:00.000Z');
    expect(registrationDateOf([{ eventAction: 'expiration', eventDate: '2030-01-01T00:00:00Z' }])).toBeNull();
    // A date with no plain ISO form (beyond year 9999) is no date.
    expect(registrationDateOf([{ eventAction: 'registration', eventDate: '+275760-09-13T00:00:00Z' }])).toBeNull();
  });

  it('looks up the ICANN registrable domain: a platform subdomain gets the platform’s record, an address gets none', () => {
    expect(rdapDomainOf('https://mcp.shop.example.co.uk/mcp')).toBe('example.co.uk');
    expect(rdapDomainOf('my-app.vercel.app')).toBe('vercel.app');
    expect(rdapDomainOf('MCP.Example.COM.')).toBe('example.com');
    expect(rdapDomainOf('192.0.2.1')).toBeNull();
    expect(rdapDomainOf('https://[2001:db8::1]/mcp')).toBeNull();
    expect(rdapDomainOf('co.uk')).toBeNull();
  });

  it('defaults to rdap.org', () => {
    expect(DEFAULT_RDAP_URL).toBe('https://rdap.org');
  });
});

describe('an RDAP lookup never reaches the server it is about', () => {
  it('refuses a base URL on the looked-up domain before anything is sent', async () => {
    const { lookup, calls } = tableLookup({ 'rdap.shop.test': ['127.0.0.1'] });
    const before = rdap.requests.length;
    const read = await readDomainRegistration('https://mcp.shop.test/mcp', {
      ...network,
      lookup,
      rdapUrl: `http://rdap.shop.test:${rdap.port}`,
    });
    expect(read).toMatchObject({ ok: false, domain: 'shop.test', reason: 'refused-own-domain', httpStatus: null });
    expect(read.ok ? '' : read.message).toContain('under shop.test');
    expect(rdap.requests.length).toBe(before);
    expect(calls).toEqual([]);
  });

  it('refuses a base URL that is the domain itself', async () => {
    const before = rdap.requests.length;
    const read = await readDomainRegistration('rdap.test', {
      ...network,
      lookup: tableLookup({ 'rdap.test': ['127.0.0.1'] }).lookup,
      rdapUrl: `http://rdap.test:${rdap.port}`,
    });
    expect(read).toMatchObject({ ok: false, reason: 'refused-own-domain' });
    expect(rdap.requests.length).toBe(before);
  });

  it('refuses a redirect into the looked-up domain, after the first hop only', async () => {
    routes.set('/domain/trap.test', (_req, res) => {
      res.writeHead(302, { location: `http://whois.trap.test:${rdap.port}/domain/trap.test` });
      res.end();
    });
    const { lookup, calls } = tableLookup({ 'whois.trap.test': ['127.0.0.1'] });
    const before = rdap.requests.length;
    const read = await readDomainRegistration('mcp.trap.test', { ...network, lookup, rdapUrl: rdap.origin });
    expect(read).toMatchObject({
      ok: false,
      reason: 'refused-own-domain',
      rdapUrl: `http://whois.trap.test:${rdap.port}/domain/trap.test`,
    });
    expect(rdap.requests.slice(before).map((r) => r.path)).toEqual(['/domain/trap.test']);
    expect(calls).toEqual([]);
  });

  it('allows a service whose name merely ends like the domain (another registrable domain)', async () => {
    routes.set('/domain/bank.test', (_req, res) =>
      sendJson(res, 200, record('bank.test', [{ eventAction: 'registration', eventDate: '2001-01-01T00:00:00Z' }])),
    );
    const { lookup } = tableLookup({ 'rdap.oldbank.test': ['127.0.0.1'] });
    const read = await readDomainRegistration('bank.test', {
      ...network,
      lookup,
      rdapUrl: `http://rdap.oldbank.test:${rdap.port}`,
    });
    expect(read).toMatchObject({ ok: true, domain: 'bank.test' });
  });
});

describe('a misbehaving RDAP service gives a reason, never an exception', () => {
  it('no record (404)', async () => {
    const read = await readDomainRegistration('unknown-name.test', { ...network, rdapUrl: rdap.origin });
    expect(read).toMatchObject({ ok: false, domain: 'unknown-name.test', reason: 'http-status', httpStatus: 404 });
    expect(read.ok ? '' : read.message).toBe('the RDAP service has no record of unknown-name.test (HTTP 404)');
  });

  it('a server error (500)', async () => {
    routes.set('/domain/broken.test', (_req, res) => sendJson(res, 500, { error: 'down' }));
    expect(await readDomainRegistration('broken.test', { ...network, rdapUrl: rdap.origin })).toMatchObject({
      ok: false,
      reason: 'http-status',
      httpStatus: 500,
      message: 'answered HTTP 500',
    });
  });

  it('an answer that is not JSON', async () => {
    routes.set('/domain/html.test', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>rate limited</html>');
    });
    expect(await readDomainRegistration('html.test', { ...network, rdapUrl: rdap.origin })).toMatchObject({
      ok: false,
      reason: 'not-json',
      httpStatus: 200,
    });
  });

  it('JSON that is not a domain record, and a record for another domain', async () => {
    routes.set('/domain/shape.test', (_req, res) => sendJson(res, 200, { events: 'yesterday' }));
    routes.set('/domain/other.test', (_req, res) =>
      sendJson(
        res,
        200,
        record('elsewhere.test', [{ eventAction: 'registration', eventDate: '2001-01-01T00:00:00Z' }]),
      ),
    );
    const shape = await readDomainRegistration('shape.test', { ...network, rdapUrl: rdap.origin });
    expect(shape).toMatchObject({ ok: false, reason: 'unexpected-answer' });
    expect(shape.ok ? '' : shape.message).toContain('events');
    expect(await readDomainRegistration('other.test', { ...network, rdapUrl: rdap.origin })).toMatchObject({
      ok: false,
      reason: 'unexpected-answer',
      message: 'the record is for ELSEWHERE.TEST, not other.test',
    });
  });

  it('a record with no registration event', async () => {
    routes.set('/domain/no-event.test', (_req, res) =>
      sendJson(res, 200, record('no-event.test', [{ eventAction: 'last changed', eventDate: '2026-01-01T00:00:00Z' }])),
    );
    expect(await readDomainRegistration('no-event.test', { ...network, rdapUrl: rdap.origin })).toMatchObject({
      ok: false,
      reason: 'no-registration-event',
      message: 'the record of no-event.test has no dated registration event',
    });
  });

  it('a body over the 512 KiB cap', async () => {
    routes.set('/domain/huge.test', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      res.end(`{"events":[],"notices":"${'x'.repeat(RDAP_CAP_BYTES + 10)}"}`);
    });
    expect(await readDomainRegistration('huge.test', { ...network, rdapUrl: rdap.origin })).toMatchObject({
      ok: false,
      reason: 'too-large',
    });
  });

  it('no answer within 10 s (on a clock running 20 times faster)', async () => {
    routes.set('/domain/slow.test', (_req, res) => {
      setTimeout(() => sendJson(res, 200, record('slow.test', [])), 3_000).unref();
    });
    const clock = scaledClock(20);
    const started = Date.now();
    const read = await readDomainRegistration('slow.test', { ...network, clock, rdapUrl: rdap.origin });
    expect(read).toMatchObject({ ok: false, reason: 'timeout', message: `no answer within ${RDAP_TIMEOUT_MS} ms` });
    expect(clock.requested).toContain(RDAP_TIMEOUT_MS);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('a loop of redirects stops after 3', async () => {
    routes.set('/domain/loop.test', (_req, res) => {
      res.writeHead(302, { location: '/domain/loop.test' });
      res.end();
    });
    const before = rdap.requests.length;
    expect(await readDomainRegistration('loop.test', { ...network, rdapUrl: rdap.origin })).toMatchObject({
      ok: false,
      reason: 'redirect-limit',
    });
    expect(rdap.requests.length - before).toBe(4);
  });

  it('the guard still applies: a loopback service without allowPrivate is refused', async () => {
    const before = rdap.requests.length;
    const read = await readDomainRegistration('old-bank.test', {
      httpClient: createNodeHttpClient,
      rdapUrl: rdap.origin,
    });
    expect(read).toMatchObject({ ok: false, reason: 'guard:not-https' });
    expect(rdap.requests.length).toBe(before);
  });

  it('an IP address has no domain to look up, and nothing is sent', async () => {
    const before = rdap.requests.length;
    expect(await readDomainRegistration('http://127.0.0.1:9/mcp', { ...network, rdapUrl: rdap.origin })).toMatchObject({
      ok: false,
      reason: 'no-domain',
      domain: null,
      rdapUrl: null,
    });
    expect(rdap.requests.length).toBe(before);
  });

  it('a base URL that is not a URL is the caller’s mistake', async () => {
    await expect(readDomainRegistration('old-bank.test', { ...network, rdapUrl: 'rdap.org' })).rejects.toBeInstanceOf(
      ProbeInputError,
    );
    await expect(readDomainRegistration(42 as never, network)).rejects.toBeInstanceOf(ProbeInputError);
  });
});
