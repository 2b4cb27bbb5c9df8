import { describe, expect, it } from 'vitest';
import { checkReportQuota, ReliabilityInputError, reporterKey } from '../src/index.js';

describe('reporterKey for IPv4', () => {
  it('keys an address by its /24 network', () => {
    expect(reporterKey('198.51.100.23')).toBe('198.51.100.0/24');
    expect(reporterKey('198.51.100.250')).toBe('198.51.100.0/24');
    expect(reporterKey('198.51.101.23')).toBe('198.51.101.0/24');
    expect(reporterKey('0.0.0.0')).toBe('0.0.0.0/24');
    expect(reporterKey('255.255.255.255')).toBe('255.255.255.0/24');
    expect(reporterKey(' 10.1.2.3 ')).toBe('10.1.2.0/24');
  });

  it('refuses anything that is not a dotted quad', () => {
    for (const bad of [
      '256.1.1.1',
      '1.2.3',
      '1.2.3.4.5',
      '01.2.3.4',
      '1.2.3.-4',
      'a.b.c.d',
      '',
      'localhost',
      '1.2.3.4/24',
    ]) {
      expect(() => reporterKey(bad), bad).toThrow(ReliabilityInputError);
    }
    expect(() => reporterKey(42 as unknown as string)).toThrow(/expected an IPv4 or IPv6 address/);
  });
});

describe('reporterKey for IPv6', () => {
  it('keys an address by its /48 prefix in RFC 5952 form', () => {
    expect(reporterKey('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48');
    expect(reporterKey('2001:0DB8:ABCD:0012:0000:0000:0000:0001')).toBe('2001:db8:abcd::/48');
    expect(reporterKey('2001:db8:abcd:ffff:ffff:ffff:ffff:ffff')).toBe('2001:db8:abcd::/48');
    expect(reporterKey('2001:db8:abce::1')).toBe('2001:db8:abce::/48');
    expect(reporterKey('2001:db8::1')).toBe('2001:db8::/48');
    expect(reporterKey('2001:db8:0:1::')).toBe('2001:db8::/48');
    expect(reporterKey('1:2:3:4:5:6:7:8')).toBe('1:2:3::/48');
    expect(reporterKey('0:0:1::')).toBe('0:0:1::/48');
    expect(reporterKey('::1')).toBe('::/48');
    expect(reporterKey('::')).toBe('::/48');
    expect(reporterKey('1:2:3:4:5:6:7::')).toBe('1:2:3::/48');
  });

  it('drops brackets and zone ids', () => {
    expect(reporterKey('[2001:db8:1::5]')).toBe('2001:db8:1::/48');
    expect(reporterKey('fe80::1%eth0')).toBe('fe80::/48');
  });

  it('keys IPv4-mapped addresses as IPv4, in dotted or hex form', () => {
    expect(reporterKey('::ffff:198.51.100.200')).toBe('198.51.100.0/24');
    expect(reporterKey('::ffff:c633:64c8')).toBe('198.51.100.0/24');
    expect(reporterKey('0:0:0:0:0:ffff:198.51.100.7')).toBe('198.51.100.0/24');
  });

  it('keeps other embedded IPv4 forms as IPv6', () => {
    expect(reporterKey('64:ff9b::198.51.100.1')).toBe('64:ff9b::/48');
  });

  it('refuses malformed IPv6 text', () => {
    for (const bad of [
      '2001:db8:::1',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      '12345::',
      'g::1',
      ':1::',
      '1:2:3:4:5:6:7',
      '::ffff:1.2.3',
      '::1:2:3:4:5:6:7:8',
      '%eth0',
      'fe80::1%',
      '1.2.3.4::',
    ]) {
      expect(() => reporterKey(bad), bad).toThrow(ReliabilityInputError);
    }
  });
});

describe('checkReportQuota', () => {
  it('admits up to 50 a day per reporter and 3 a day per server', () => {
    expect(checkReportQuota({ reporterToday: 0, reporterServerToday: 0 })).toEqual({ admitted: true });
    expect(checkReportQuota({ reporterToday: 49, reporterServerToday: 2 })).toEqual({ admitted: true });
  });

  it('refuses the 51st report of the day', () => {
    expect(checkReportQuota({ reporterToday: 50, reporterServerToday: 0 })).toEqual({
      admitted: false,
      reason: 'reporter_daily_limit',
      limit: 50,
    });
  });

  it('refuses the 4th report of the day about one server', () => {
    expect(checkReportQuota({ reporterToday: 10, reporterServerToday: 3 })).toEqual({
      admitted: false,
      reason: 'server_daily_limit',
      limit: 3,
    });
  });

  it('names the reporter-wide limit first when both are reached', () => {
    expect(checkReportQuota({ reporterToday: 50, reporterServerToday: 3 })).toMatchObject({
      reason: 'reporter_daily_limit',
    });
  });

  it('throws on counts that are not whole numbers', () => {
    expect(() => checkReportQuota({ reporterToday: -1, reporterServerToday: 0 })).toThrow(/reporterToday/);
    expect(() => checkReportQuota({ reporterToday: 0, reporterServerToday: 0.5 })).toThrow(/reporterServerToday/);
  });
});
