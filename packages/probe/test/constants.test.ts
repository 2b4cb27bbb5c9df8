// The numbers the methodology fixes, pinned: changing one of them changes published results and must be deliberate.
import { describe, expect, it } from 'vitest';
import * as probe from '../src/constants.js';
import { isIpAddress } from '../src/ip.js';

describe('the probe rules', () => {
  it('use the methodology timeouts', () => {
    expect(probe.INITIALIZE_TIMEOUT_MS).toBe(8_000);
    expect(probe.INITIALIZED_TIMEOUT_MS).toBe(5_000);
    expect(probe.TOOLS_LIST_PAGE_TIMEOUT_MS).toBe(8_000);
    expect(probe.FIVE_MINUTE_CHECK_DEADLINE_MS).toBe(30_000);
    expect(probe.ROBOTS_TIMEOUT_MS).toBe(3_000);
    expect(probe.WELL_KNOWN_TIMEOUT_MS).toBe(4_000);
    expect(probe.SITE_SESSION_BUDGET_MS).toBe(12_000);
  });

  it('use the methodology counts and caps', () => {
    expect(probe.MAX_TOOLS_PAGES).toBe(3);
    expect(probe.MAX_TOOLS_KEPT).toBe(500);
    expect(probe.MAX_INITIALIZE_REDIRECTS).toBe(1);
    expect(probe.SITE_MAX_POSTS).toBe(3);
    expect(probe.SITE_MAX_TOOL_NAMES).toBe(25);
    expect(probe.SITE_ANSWER_CAP_BYTES).toBe(65_536);
    expect(probe.INITIALIZE_ANSWER_CAP_BYTES).toBe(65_536);
    expect(probe.TOOLS_PAGE_CAP_BYTES).toBe(8_388_608);
    expect(probe.ROBOTS_CAP_BYTES).toBe(512_000);
    expect(probe.ROBOTS_MAX_REDIRECTS).toBe(5);
  });

  it('offer the methodology protocol versions and statuses', () => {
    expect(probe.DEFAULT_PROTOCOL_VERSION).toBe('2025-06-18');
    expect(probe.SITE_CHECK_PROTOCOL_VERSION).toBe('2025-11-25');
    expect([...probe.NOT_STANDARD_MCP_STATUSES].sort()).toEqual([400, 405, 406, 415, 422]);
    expect([...probe.SIGN_IN_STATUSES].sort()).toEqual([401, 403]);
    expect(probe.PAYMENT_STATUS).toBe(402);
    expect(probe.MCP_ACCEPT).toBe('application/json, text/event-stream');
  });

  it('name the bot and a URL in the user agent, and carry a rules version', () => {
    expect(probe.DEFAULT_USER_AGENT).toBe(`${probe.BOT_TOKEN}/${probe.BOT_VERSION} (+${probe.BOT_INFO_URL})`);
    expect(probe.BOT_TOKEN).toMatch(/^[A-Za-z_-]+$/);
    expect(probe.PROBE_RULES_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('list every CIDR in a form the address parser reads', () => {
    for (const [cidr] of [
      ...probe.NON_PUBLIC_IPV4_RANGES,
      ...probe.NON_PUBLIC_IPV6_RANGES,
      ...probe.IPV6_EMBEDDING_RANGES,
    ]) {
      const [address, prefix] = cidr.split('/') as [string, string];
      expect(isIpAddress(address)).toBe(true);
      expect(Number(prefix)).toBeLessThanOrEqual(address.includes(':') ? 128 : 32);
    }
  });
});
