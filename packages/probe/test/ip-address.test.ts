import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../src/index.js';
import { isIpAddress, isPublicAddress } from '../src/ip.js';

describe('recognising addresses', () => {
  // Parsing itself is @mcp-atlas/base's (tested there); this checks probe's use of it.
  it('isIpAddress accepts both families and nothing else', () => {
    expect(isIpAddress('8.8.8.8')).toBe(true);
    expect(isIpAddress('[::1]')).toBe(true);
    expect(isIpAddress('mcp.example.com')).toBe(false);
  });
});

describe('which addresses are public', () => {
  // Each pair sits on both sides of a range edge, computed by hand from the range's prefix length.
  it.each([
    ['9.255.255.255', true, null],
    ['10.0.0.0', false, 'private'],
    ['10.255.255.255', false, 'private'],
    ['11.0.0.0', true, null],
    ['100.63.255.255', true, null],
    ['100.64.0.0', false, 'cgnat'],
    ['100.127.255.255', false, 'cgnat'],
    ['100.128.0.0', true, null],
    ['126.255.255.255', true, null],
    ['127.0.0.1', false, 'loopback'],
    ['127.255.255.255', false, 'loopback'],
    ['169.253.255.255', true, null],
    ['169.254.169.254', false, 'link-local'],
    ['169.255.0.0', true, null],
    ['172.15.255.255', true, null],
    ['172.16.0.0', false, 'private'],
    ['172.31.255.255', false, 'private'],
    ['172.32.0.0', true, null],
    ['192.0.0.8', false, 'protocol-assignments'],
    ['192.0.2.1', false, 'documentation'],
    ['192.0.3.1', true, null],
    ['192.88.99.1', false, '6to4-relay'],
    ['192.167.255.255', true, null],
    ['192.168.0.0', false, 'private'],
    ['192.169.0.0', true, null],
    ['198.17.255.255', true, null],
    ['198.18.0.0', false, 'benchmarking'],
    ['198.19.255.255', false, 'benchmarking'],
    ['198.20.0.0', true, null],
    ['198.51.100.7', false, 'documentation'],
    ['203.0.113.9', false, 'documentation'],
    ['223.255.255.255', true, null],
    ['224.0.0.1', false, 'multicast'],
    ['239.255.255.250', false, 'multicast'],
    ['240.0.0.1', false, 'reserved'],
    ['255.255.255.255', false, 'reserved'],
    ['0.0.0.0', false, 'this-network'],
    ['8.8.8.8', true, null],
  ])('%s public=%s (%s)', (address, expectedPublic, range) => {
    expect(classifyAddress(address)).toEqual({ address, public: expectedPublic, range });
  });

  it.each([
    ['::', false, 'not-global-unicast'],
    ['::1', false, 'not-global-unicast'],
    ['fe80::1', false, 'not-global-unicast'],
    ['fc00::1', false, 'not-global-unicast'],
    ['fdff:ffff::1', false, 'not-global-unicast'],
    ['ff02::1', false, 'not-global-unicast'],
    ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', false, 'not-global-unicast'],
    ['2000::1', true, null],
    ['2001:0:1::1', false, 'protocol-assignments'],
    ['2001:1ff:ffff::1', false, 'protocol-assignments'],
    ['2001:200::1', true, null],
    ['2001:db8::1', false, 'documentation'],
    ['2606:4700:4700::1111', true, null],
    ['3fff:fff::1', false, 'documentation'],
    ['3fff:1000::1', true, null],
    ['5f00::1', false, 'not-global-unicast'],
    ['3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true, null],
    ['4000::1', false, 'not-global-unicast'],
    ['::ffff:127.0.0.1', false, 'ipv4-mapped:loopback'],
    ['::ffff:7f00:1', false, 'ipv4-mapped:loopback'],
    ['::ffff:10.0.0.5', false, 'ipv4-mapped:private'],
    ['::ffff:8.8.8.8', true, null],
    ['64:ff9b::a00:1', false, 'nat64:private'],
    ['64:ff9b::808:808', true, null],
    ['64:ff9b:1::1', false, 'not-global-unicast'],
    ['2002:c0a8:0101::1', false, '6to4:private'],
    ['2002:0808:0808::1', true, null],
  ])('%s public=%s (%s)', (address, expectedPublic, range) => {
    expect(classifyAddress(address)).toEqual({ address, public: expectedPublic, range });
  });

  it('an unparseable string is never public', () => {
    expect(classifyAddress('localhost')).toEqual({ address: 'localhost', public: false, range: 'unparseable' });
    expect(isPublicAddress('')).toBe(false);
  });

  it('every address in 10/8, 127/8, 192.168/16 and fe80::/10 is refused (property)', () => {
    const byte = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(
        byte,
        byte,
        byte,
        (a, b, c) =>
          !isPublicAddress(`10.${a}.${b}.${c}`) &&
          !isPublicAddress(`127.${a}.${b}.${c}`) &&
          !isPublicAddress(`192.168.${a}.${c}`),
      ),
    );
    const group = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(
        fc.integer({ min: 0xfe80, max: 0xfebf }),
        group,
        (first, last) => !isPublicAddress(`${first.toString(16)}::${last.toString(16)}`),
      ),
    );
  });

  it('an IPv4-mapped address is judged like the IPv4 address it carries (property)', () => {
    const byte = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(byte, byte, byte, byte, (a, b, c, d) => {
        const v4 = `${a}.${b}.${c}.${d}`;
        return isPublicAddress(`::ffff:${v4}`) === isPublicAddress(v4);
      }),
    );
  });
});
