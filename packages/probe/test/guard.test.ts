import { describe, expect, it } from 'vitest';
import { isSameSite, registrableDomain, resolveTarget } from '../src/guard.js';
import {
  checkTarget,
  isOptedOut,
  listRegistryServers,
  ProbeInputError,
  probeServer,
  readRobots,
  readWellKnown,
} from '../src/index.js';
import { recordingFetch, tableLookup } from './fixtures/env.js';

describe('checkTarget refuses before any request', () => {
  it('accepts a plain https URL on a public name', () => {
    expect(checkTarget('https://mcp.example.com/mcp')).toEqual({ ok: true });
  });

  it.each([
    ['https://127.0.0.1/mcp', 'dotted'],
    ['https://2130706433/mcp', 'decimal'],
    ['https://0x7f000001/mcp', 'hex'],
    ['https://0x7f.0.0.1/mcp', 'hex part'],
    ['https://0177.0.0.1/mcp', 'octal part'],
    ['https://127.1/mcp', 'short form'],
    ['https://8.8.8.8/mcp', 'a public address is still a literal'],
    ['https://[::1]/mcp', 'IPv6'],
    ['https://[2606:4700::1111]/mcp', 'public IPv6'],
    ['https://[::ffff:127.0.0.1]/mcp', 'IPv4-mapped'],
    ['https://[::ffff:7f00:1]/mcp', 'IPv4-mapped, hex'],
  ])('refuses the IP literal %s (%s)', (url) => {
    expect(checkTarget(url)).toMatchObject({ ok: false, reason: 'guard:ip-literal' });
  });

  it.each([
    ['https://localhost/mcp', 'guard:localhost'],
    ['https://LOCALHOST./mcp', 'guard:localhost'],
    ['https://api.localhost/mcp', 'guard:localhost'],
    ['https://printer.local/mcp', 'guard:local-name'],
    ['https://tools.corp.internal/mcp', 'guard:local-name'],
    ['https://Tools.Corp.INTERNAL./mcp', 'guard:local-name'],
  ])('refuses the local name %s', (url, reason) => {
    expect(checkTarget(url)).toMatchObject({ ok: false, reason });
  });

  it('does not refuse names that merely contain those words', () => {
    expect(checkTarget('https://local.example.com/mcp')).toEqual({ ok: true });
    expect(checkTarget('https://internal-tools.example.com/mcp')).toEqual({ ok: true });
    expect(checkTarget('https://mylocalhost.com/mcp')).toEqual({ ok: true });
  });

  it.each([
    ['http://mcp.example.com/mcp', 'guard:not-https'],
    ['ftp://mcp.example.com/mcp', 'guard:not-https'],
    ['file:///etc/passwd', 'guard:not-https'],
    ['https://user:secret@mcp.example.com/mcp', 'guard:user-info'],
    ['https://token@mcp.example.com/mcp', 'guard:user-info'],
    ['https://mcp.example.com/{tenant}/mcp', 'guard:template'],
    ['https://{region}.example.com/mcp', 'guard:template'],
    ['not a url', 'guard:invalid-url'],
    ['https://1.2.3.256/', 'guard:invalid-url'],
  ])('refuses %s with %s', (url, reason) => {
    expect(checkTarget(url)).toMatchObject({ ok: false, reason });
  });

  it('refuses an SSE-only remote whatever its URL', () => {
    expect(checkTarget('https://mcp.example.com/sse', { remoteType: 'sse' })).toMatchObject({
      ok: false,
      reason: 'guard:sse-only',
    });
    expect(checkTarget('https://mcp.example.com/mcp', { remoteType: 'streamable-http' })).toEqual({ ok: true });
  });

  it('refuses opted-out hosts and their subdomains, not their parents', () => {
    const optedOut = ['Example.com.'];
    expect(checkTarget('https://example.com/mcp', { optedOut })).toMatchObject({
      ok: false,
      reason: 'guard:opted-out',
    });
    expect(checkTarget('https://mcp.example.com/mcp', { optedOut })).toMatchObject({
      ok: false,
      reason: 'guard:opted-out',
    });
    expect(checkTarget('https://notexample.com/mcp', { optedOut })).toEqual({ ok: true });
    expect(isOptedOut('example.com', ['mcp.example.com'])).toBe(false);
    expect(isOptedOut('mcp.example.com', ['https://mcp.example.com/any'])).toBe(true);
  });

  it('allowPrivate lifts the address rules and the https rule, and nothing else', () => {
    const allowPrivate = true;
    expect(checkTarget('http://127.0.0.1:8080/mcp', { allowPrivate })).toEqual({ ok: true });
    expect(checkTarget('https://[::1]/mcp', { allowPrivate })).toEqual({ ok: true });
    expect(checkTarget('http://localhost:3000/mcp', { allowPrivate })).toEqual({ ok: true });
    expect(checkTarget('http://printer.local/mcp', { allowPrivate })).toEqual({ ok: true });
    expect(checkTarget('ftp://127.0.0.1/mcp', { allowPrivate })).toMatchObject({ reason: 'guard:not-https' });
    expect(checkTarget('http://u:p@127.0.0.1/mcp', { allowPrivate })).toMatchObject({ reason: 'guard:user-info' });
    expect(checkTarget('http://127.0.0.1/{x}', { allowPrivate })).toMatchObject({ reason: 'guard:template' });
    expect(checkTarget('http://localhost/mcp', { allowPrivate, optedOut: ['localhost'] })).toMatchObject({
      reason: 'guard:opted-out',
    });
    expect(checkTarget('http://127.0.0.1/sse', { allowPrivate, remoteType: 'SSE' })).toMatchObject({
      reason: 'guard:sse-only',
    });
  });

  it('throws a typed error for a caller mistake, not a refusal', () => {
    expect(() => checkTarget(42 as unknown as string)).toThrow(ProbeInputError);
    expect(() => checkTarget('https://a.example.com', { optedOut: 5 as unknown as string[] })).toThrow(
      /optedOut must be an iterable/,
    );
    expect(() => checkTarget('https://a.example.com', { allowPrivate: 'yes' as unknown as boolean })).toThrow(
      /allowPrivate must be a boolean/,
    );
  });
});

describe('resolveTarget checks every address a name resolves to', () => {
  it('returns the public addresses to pin', async () => {
    const { lookup } = tableLookup({ 'mcp.example.com': ['93.184.215.14', '2606:2800:21f:cb07::1'] });
    expect(await resolveTarget('https://mcp.example.com/mcp', { lookup })).toEqual({
      ok: true,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07::1'],
    });
  });

  it.each([
    [['10.0.0.5'], 'private'],
    [['93.184.215.14', '127.0.0.1'], 'loopback'],
    [['100.100.1.1'], 'cgnat'],
    [['169.254.169.254'], 'link-local'],
    [['224.0.0.251'], 'multicast'],
    [['::ffff:192.168.0.1'], 'ipv4-mapped:private'],
    [['fd00::1'], 'not-global-unicast'],
  ])('refuses a name that resolves to %j (%s), naming the guard', async (addresses, range) => {
    const { lookup } = tableLookup({ 'rebind.example.com': addresses });
    const resolved = await resolveTarget('https://rebind.example.com/mcp', { lookup });
    expect(resolved).toMatchObject({ ok: false, reason: 'guard:private-address' });
    expect(resolved.ok === false && resolved.message).toContain(range);
  });

  it('a failed or empty lookup is dns-failed, not a guard refusal', async () => {
    expect(await resolveTarget('https://nowhere.example.com/', { lookup: tableLookup({}).lookup })).toMatchObject({
      ok: false,
      reason: 'dns-failed',
    });
    expect(await resolveTarget('https://empty.example.com/', { lookup: async () => [] })).toMatchObject({
      ok: false,
      reason: 'dns-failed',
    });
  });

  it('without a lookup a name is refused, unless allowPrivate lets the transport resolve it', async () => {
    expect(await resolveTarget('https://mcp.example.com/')).toMatchObject({ ok: false, reason: 'guard:no-resolver' });
    expect(await resolveTarget('http://mcp.example.com/', { allowPrivate: true })).toEqual({
      ok: true,
      addresses: null,
    });
  });

  it('allowPrivate accepts private answers and pins an IP literal to itself', async () => {
    const { lookup } = tableLookup({ 'box.test': ['192.168.1.9'] });
    expect(await resolveTarget('http://box.test/', { lookup, allowPrivate: true })).toEqual({
      ok: true,
      addresses: ['192.168.1.9'],
    });
    expect(await resolveTarget('http://[::1]:8080/', { allowPrivate: true })).toEqual({ ok: true, addresses: ['::1'] });
  });

  it('a lookup that hangs is given up when the signal fires', async () => {
    const controller = new AbortController();
    const pending = resolveTarget('https://slow.example.com/', {
      lookup: () => new Promise<string[]>(() => undefined),
      signal: controller.signal,
    });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, reason: 'dns-failed' });
  });
});

describe('registrable domains decide which redirects stay on the site', () => {
  it.each([
    ['mcp.example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['alice.github.io', 'alice.github.io'],
    ['my-app.vercel.app', 'my-app.vercel.app'],
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
  ])('%s belongs to %s', (host, domain) => {
    expect(registrableDomain(host)).toBe(domain);
  });

  it('compares sites, ignoring scheme and port', () => {
    expect(isSameSite('https://mcp.example.com/mcp', 'https://api.example.com:8443/v2')).toBe(true);
    expect(isSameSite('https://example.co.uk/', 'https://other.co.uk/')).toBe(false);
    expect(isSameSite('https://alice.github.io/', 'https://mallory.github.io/')).toBe(false);
    expect(isSameSite('http://127.0.0.1:1/', 'http://127.0.0.1:2/')).toBe(true);
  });
});

describe('a refused target never opens a connection', () => {
  const refusals: [string, string][] = [
    ['https://127.0.0.1/mcp', 'guard:ip-literal'],
    ['https://0x7f.1/mcp', 'guard:ip-literal'],
    ['https://[::ffff:10.0.0.1]/mcp', 'guard:ip-literal'],
    ['https://localhost/mcp', 'guard:localhost'],
    ['https://nas.local/mcp', 'guard:local-name'],
    ['http://mcp.example.com/mcp', 'guard:not-https'],
    ['https://a:b@mcp.example.com/mcp', 'guard:user-info'],
    ['https://mcp.example.com/{id}', 'guard:template'],
    ['https://gone.example.org/mcp', 'guard:opted-out'],
  ];

  it.each(refusals)('probeServer(%s) is d/%s with no lookup and no request', async (url, reason) => {
    const recorder = recordingFetch();
    const dns = tableLookup({});
    const result = await probeServer(url, { fetch: recorder.fetch, lookup: dns.lookup, optedOut: ['example.org'] });
    expect(result).toMatchObject({ letter: 'd', reason, steps: [], toolsJson: null });
    expect(result.message.length).toBeGreaterThan(0);
    expect(recorder.calls).toEqual([]);
    expect(dns.calls).toEqual([]);
  });

  it('a name resolving to a private address is looked up, refused, and never requested', async () => {
    const recorder = recordingFetch();
    const dns = tableLookup({ 'mcp.example.com': ['93.184.215.14', '10.1.1.1'] });
    const result = await probeServer('https://mcp.example.com/mcp', { fetch: recorder.fetch, lookup: dns.lookup });
    expect(result).toMatchObject({ letter: 'd', reason: 'guard:private-address', failedStep: 'resolve' });
    expect(result.message).toContain('10.1.1.1');
    expect(dns.calls).toEqual(['mcp.example.com']);
    expect(recorder.calls).toEqual([]);
  });

  it('with no lookup at all a public name is refused as guard:no-resolver', async () => {
    const recorder = recordingFetch();
    const result = await probeServer('https://mcp.example.com/mcp', { fetch: recorder.fetch });
    expect(result).toMatchObject({ letter: 'd', reason: 'guard:no-resolver' });
    expect(recorder.calls).toEqual([]);
  });

  it('a same-site redirect to a name that resolves privately is refused before the second request', async () => {
    const calls: string[] = [];
    const fetchStub = (async (input: string | URL | Request) => {
      calls.push(String(input));
      return new Response(null, { status: 307, headers: { location: 'https://internal.example.com/mcp' } });
    }) as typeof fetch;
    const dns = tableLookup({ 'mcp.example.com': ['93.184.215.14'], 'internal.example.com': ['192.168.10.10'] });
    const result = await probeServer('https://mcp.example.com/mcp', { fetch: fetchStub, lookup: dns.lookup });
    expect(result).toMatchObject({ letter: 'd', reason: 'guard:private-address' });
    expect(result.redirect).toEqual({ location: 'https://internal.example.com/mcp', followed: false, sameSite: true });
    expect(calls).toEqual(['https://mcp.example.com/mcp']);
    expect(dns.calls).toEqual(['mcp.example.com', 'internal.example.com']);
  });

  it('a redirect to plain http on the same site is refused by the https rule', async () => {
    const calls: string[] = [];
    const fetchStub = (async (input: string | URL | Request) => {
      calls.push(String(input));
      return new Response(null, { status: 308, headers: { location: 'http://mcp.example.com/mcp' } });
    }) as typeof fetch;
    const dns = tableLookup({ 'mcp.example.com': ['93.184.215.14'] });
    const result = await probeServer('https://mcp.example.com/mcp', { fetch: fetchStub, lookup: dns.lookup });
    expect(result).toMatchObject({ letter: 'd', reason: 'guard:not-https' });
    expect(calls).toHaveLength(1);
  });

  it('the other readers refuse the same way without a request', async () => {
    const recorder = recordingFetch();
    const robots = await readRobots('https://localhost', 'mcp-atlas-bot', { fetch: recorder.fetch });
    expect(robots).toMatchObject({ status: 'refused', excludesOrigin: false });
    const wellKnown = await readWellKnown('https://10.0.0.1', { fetch: recorder.fetch });
    expect(wellKnown.oauthProtectedResource).toMatchObject({ found: false });
    expect(wellKnown.oauthProtectedResource.detail).toContain('guard:ip-literal');
    const listing = listRegistryServers('https://registry.internal', { fetch: recorder.fetch });
    await expect(listing.next()).rejects.toThrow(/guard:local-name/);
    expect(recorder.calls).toEqual([]);
  });
});
