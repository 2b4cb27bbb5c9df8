// The app's own outside-service settings: the 04:05 UTC line of the OSV check, the base URLs (defaults,
// flags, refusals), and how the read model shows a cached domain age only while it is under 30 days old.
import { describe, expect, it } from 'vitest';
import { EXIT_USAGE, runCommand } from '../src/commands.js';
import { createLogger } from '../src/log.js';
import {
  isAfterOsvTime,
  OSV_CHECK_TIME_UTC,
  OutsideUrlError,
  readOutsideFlags,
  resolveOutsideUrls,
} from '../src/outside/outside-config.js';
import type { DomainAgesFile } from '../src/outside/outside-schemas.js';
import { domainAgeOf, packagesOfServer } from '../src/outside/read-outside.js';

describe('the OSV check time', () => {
  it('is 04:05 UTC: not at 04:04:59, from 04:05:00 on, the whole rest of the day', () => {
    expect(OSV_CHECK_TIME_UTC).toEqual({ hour: 4, minute: 5 });
    expect(isAfterOsvTime(new Date('2026-11-10T00:00:00Z'))).toBe(false);
    expect(isAfterOsvTime(new Date('2026-11-10T04:04:59.999Z'))).toBe(false);
    expect(isAfterOsvTime(new Date('2026-11-10T04:05:00Z'))).toBe(true);
    expect(isAfterOsvTime(new Date('2026-11-10T04:06:00Z'))).toBe(true);
    expect(isAfterOsvTime(new Date('2026-11-10T23:59:59Z'))).toBe(true);
    // 06:05 at +02:00 is 04:05 UTC.
    expect(isAfterOsvTime(new Date('2026-11-10T06:04:00+02:00'))).toBe(false);
    expect(isAfterOsvTime(new Date('2026-11-10T06:05:00+02:00'))).toBe(true);
  });
});

describe('the outside services’ base URLs', () => {
  it('default to the public services', () => {
    expect(resolveOutsideUrls()).toEqual({
      rdapUrl: 'https://rdap.org',
      npmUrl: 'https://registry.npmjs.org',
      pypiUrl: 'https://pypi.org',
      osvUrl: 'https://api.osv.dev',
      npmDownloadsUrl: 'https://api.npmjs.org',
      pypiStatsUrl: 'https://pypistats.org',
    });
  });

  it('take each flag, and refuse one that is not an http(s) URL with the flag’s name', () => {
    expect(
      readOutsideFlags({
        rdap: 'https://rdap.example.org',
        'npm-registry': 'https://npm.example.org',
        pypi: 'https://pypi.example.org',
        osv: 'https://osv.example.org',
        'npm-downloads': 'https://downloads.example.org',
        'pypi-stats': 'https://stats.example.org',
      }),
    ).toEqual({
      rdapUrl: 'https://rdap.example.org',
      npmUrl: 'https://npm.example.org',
      pypiUrl: 'https://pypi.example.org',
      osvUrl: 'https://osv.example.org',
      npmDownloadsUrl: 'https://downloads.example.org',
      pypiStatsUrl: 'https://stats.example.org',
    });
    expect(readOutsideFlags({})).toEqual({});
    expect(() => readOutsideFlags({ osv: 'api.osv.dev' })).toThrow(
      '--osv must be an absolute http(s) URL with no query or fragment, got "api.osv.dev"',
    );
    expect(() => readOutsideFlags({ rdap: 'ftp://rdap.example.org' })).toThrow(OutsideUrlError);
    expect(() => resolveOutsideUrls({ npmUrl: 'registry' })).toThrow('npmUrl must be an absolute http(s) URL');
    // Paths are appended to a base, so a query or fragment is refused at start-up, as every lookup would refuse it.
    expect(() => resolveOutsideUrls({ rdapUrl: 'https://rdap.example.org/?k=1' })).toThrow(
      'rdapUrl must be an absolute http(s) URL with no query or fragment',
    );
    expect(() => resolveOutsideUrls({ osvUrl: 'https://osv.example.org/#x' })).toThrow(OutsideUrlError);
    expect(resolveOutsideUrls({ osvUrl: 'https://osv.example.org/base/' }).osvUrl).toBe(
      'https://osv.example.org/base/',
    );
  });

  it('a bad URL on the serve command is a usage error, before anything starts', async () => {
    expect(await runCommand(['serve', '--no-schedule', '--pypi', 'not a url'], createLogger('silent'))).toBe(
      EXIT_USAGE,
    );
  });
});

describe('a cached domain age in the read model', () => {
  const cache: DomainAgesFile = {
    lastScanDay: '2026-11-01',
    waiting: [],
    domains: {
      'shop.test': {
        domain: 'shop.test',
        lookedUpDay: '2026-11-01',
        lookedUpAt: '2026-11-01T00:40:00.000Z',
        registeredAt: '2026-09-01T00:00:00.000Z',
        problem: null,
        rdapUrl: 'http://rdap/domain/shop.test',
      },
    },
  };

  it('is shown from the lookup day through day 29, with the age of the day asked', () => {
    // 2026-09-01 to 2026-11-30 is 90 days; to 2026-11-29, 89.
    expect(domainAgeOf('https://mcp.shop.test/mcp', cache, '2026-11-29')).toMatchObject({ ageDays: 89, young: true });
    expect(domainAgeOf('https://mcp.shop.test/mcp', cache, '2026-11-30')).toMatchObject({ ageDays: 90, young: false });
  });

  it('is gone from day 30 (it is read again at the next scan)', () => {
    expect(domainAgeOf('https://mcp.shop.test/mcp', cache, '2026-12-01')).toBeNull();
  });

  it('is null for a server on another domain or on an address', () => {
    expect(domainAgeOf('https://mcp.other.test/mcp', cache, '2026-11-10')).toBeNull();
    expect(domainAgeOf('http://127.0.0.1:8080/mcp', cache, '2026-11-10')).toBeNull();
  });

  it('packages of a server not in the layer are an empty list', () => {
    expect(packagesOfServer({ shown: null, newer: null }, 'x')).toEqual({
      day: null,
      osv: null,
      packages: [],
      newer: null,
    });
  });
});
