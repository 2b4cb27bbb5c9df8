// The opt-out form shares owner verification's token mechanism and its daily limits: every confirm reads the
// host's token file once and counts as one ownership check.

import { readOwnerToken } from '@mcp-atlas/probe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optOutToken } from '../src/http/optout.js';
import { ownerToken } from '../src/owners/token.js';
import { getJson } from '../src/storage/storage.js';
import { postJson, type RunningFixture, startFixture } from './fixtures/http-atlas.js';
import { type OwnerHost, startOwnerHost } from './fixtures/submission-world.js';

let host: OwnerHost;
let fixture: RunningFixture;
const SECRET = new Uint8Array(32).fill(7);

beforeAll(async () => {
  host = await startOwnerHost();
  fixture = await startFixture({
    // The form names a public host; the test's stand-in for it is the loopback host above.
    deps: {
      readOwnerToken: (_origin, kind, token) => readOwnerToken(host.origin, kind, token, { allowPrivate: true }),
    },
  });
});

afterAll(async () => {
  await fixture.close();
  await host.close();
});

describe('the opt-out form and owner tokens', () => {
  it('keeps the opt-out token as it was, and never lets one kind of token stand for the other', () => {
    expect(optOutToken(SECRET, 'mcp.owner.example')).toBe(ownerToken(SECRET, 'opt-out', 'mcp.owner.example'));
    expect(optOutToken(SECRET, 'mcp.owner.example')).toMatch(/^mcp-atlas-optout-[0-9a-f]{32}$/);
    const verify = ownerToken(SECRET, 'verify', 'https://mcp.owner.example');
    expect(verify).toMatch(/^mcp-atlas-verify-[0-9a-f]{32}$/);
    expect(verify.slice(-32)).not.toBe(ownerToken(SECRET, 'opt-out', 'https://mcp.owner.example').slice(-32));
  });

  it('reads the file through readOwnerToken when no opt-out reader is given, and limits failed confirms per network, not per host', async () => {
    const asked = await postJson(`${fixture.base}/api/optout`, { host: 'mcp.limited.example' });
    host.state.optOutFile = null;
    // Ten networks fail once each: the host's failure counter is full.
    for (let i = 0; i < 10; i++) {
      const answer = await postJson(
        `${fixture.base}/api/optout/confirm`,
        { host: 'mcp.limited.example' },
        { 'x-forwarded-for': `192.0.${i}.9` },
      );
      expect(answer.status).toBe(403);
    }
    // A network that already failed gets one more try on the full host, then 429 without a read.
    expect(
      (
        await postJson(
          `${fixture.base}/api/optout/confirm`,
          { host: 'mcp.limited.example' },
          { 'x-forwarded-for': '192.0.0.9' },
        )
      ).status,
    ).toBe(403);
    const refused = await postJson(
      `${fixture.base}/api/optout/confirm`,
      { host: 'mcp.limited.example' },
      { 'x-forwarded-for': '192.0.0.9' },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'requester_host_failure_limit', limit: 3 });
    expect(host.hits.get('/.well-known/mcp-atlas-optout.txt')).toBe(11);
    expect(await getJson(fixture.storage, 'state/opted-out.json')).toBeNull();
    // The owner puts the file up: the full host counter does not refuse a proof that succeeds.
    host.state.optOutFile = asked.body.token;
    const done = await postJson(
      `${fixture.base}/api/optout/confirm`,
      { host: 'mcp.limited.example' },
      { 'x-forwarded-for': '192.0.77.9' },
    );
    expect(done).toMatchObject({ status: 200, body: { host: 'mcp.limited.example', optedOut: true } });
    expect(await getJson(fixture.storage, 'state/opted-out.json')).toEqual({ hosts: ['mcp.limited.example'] });
  });
});
