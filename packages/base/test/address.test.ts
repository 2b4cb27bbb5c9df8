// The address parsers probe, reliability and the app share: dotted quads with no octal ambiguity, and IPv6 in
// every spelling a resolver, a URL or a proxy header hands over.
import { describe, expect, it } from 'vitest';
import { parseIpv4, parseIpv6 } from '../src/index.js';

describe('parseIpv4', () => {
  it('reads dotted quads into 4 bytes', () => {
    expect(Array.from(parseIpv4('192.168.1.20') ?? [])).toEqual([192, 168, 1, 20]);
    expect(Array.from(parseIpv4('0.0.0.0') ?? [])).toEqual([0, 0, 0, 0]);
    expect(Array.from(parseIpv4('255.255.255.255') ?? [])).toEqual([255, 255, 255, 255]);
  });

  it.each([
    '256.1.1.1',
    '1.2.3',
    '01.2.3.4', // a leading zero reads as octal to some resolvers
    '0x7f.0.0.1',
    '1.2.3.4.5',
    '1.2.3.-4',
    'a.b.c.d',
    '',
    'localhost',
    '1.2.3.4/24',
    ' 10.1.2.3',
  ])('refuses %j', (text) => {
    expect(parseIpv4(text)).toBeNull();
  });
});

describe('parseIpv6', () => {
  it('reads ::, brackets, zones and an IPv4 tail into 16 bytes', () => {
    expect(Array.from(parseIpv6('::1') ?? [])).toEqual([...new Array(15).fill(0), 1]);
    expect(Array.from(parseIpv6('::') ?? [])).toEqual(new Array(16).fill(0));
    expect(Array.from(parseIpv6('[2001:db8::8:800:200c:417a]') ?? []).slice(0, 4)).toEqual([0x20, 0x01, 0x0d, 0xb8]);
    expect(Array.from(parseIpv6('fe80::1%eth0') ?? []).slice(0, 2)).toEqual([0xfe, 0x80]);
    expect(Array.from(parseIpv6('::ffff:10.1.2.3') ?? []).slice(10)).toEqual([0xff, 0xff, 10, 1, 2, 3]);
    expect(Array.from(parseIpv6('2001:0DB8:ABCD:0012:0000:0000:0000:0001') ?? []).slice(0, 8)).toEqual([
      0x20, 0x01, 0x0d, 0xb8, 0xab, 0xcd, 0x00, 0x12,
    ]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).not.toBeNull();
    expect(parseIpv6('1:2:3:4:5:6:7::')).not.toBeNull();
    expect(parseIpv6('64:ff9b::198.51.100.1')).not.toBeNull();
  });

  it('drops a zone whatever follows the %, an empty one included', () => {
    expect(parseIpv6('fe80::1%')).toEqual(parseIpv6('fe80::1'));
    expect(parseIpv6('[fe80::1%eth0]')).toEqual(parseIpv6('fe80::1'));
  });

  it.each([
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '1:2:3:4::5:6:7:8', // :: must stand for at least one group
    '12345::',
    'example.com',
    '2001:db8:::1',
    'g::1',
    ':1::',
    '1:2:3:4:5:6:7',
    '::ffff:1.2.3',
    '::1:2:3:4:5:6:7:8',
    '%eth0',
    '1.2.3.4::',
    '1.2.3.4',
    '',
  ])('refuses %j', (text) => {
    expect(parseIpv6(text)).toBeNull();
  });
});
