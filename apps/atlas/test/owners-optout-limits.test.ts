// The opt-out form shares owner verification's token mechanism and its daily limits: every confirm reads the
// host's token file once and counts as one ownership check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOwnerToken } from '@mcp-atlas/probe';
import { optOutToken } from '../src/http/optout.js';
import { ownerToken } from '../src/owners/token.js';
import { getJson } from '../src/storage/storage.js';
import { postJson, startFixture, type RunningFixture } from './fixtures/http-atlas.js';
import { startOwnerHost, type OwnerHost } from './fixtures/submission-world.js';

let host: OwnerHost;
let fixture: RunningFixture;
const SECRET = new Uint8Array(32).fill(7);

beforeAll(async () => {
  host = await startOwnerHost();
  fixture = await startFixture({
    // The form names a public host; the test's stand-in for it is the loopback host above.
    deps: { readOwnerToken: (_origin, kind, token) => readOwnerToken(host.origin, kind, token, { allowPrivate: true }) },
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

  it('reads the file through readOwnerToken when no opt-out reader is given, and limits confirms to 10 a host a day', async () => {
    const asked = await postJson(`${fixture.base}/api/optout`, { host: 'mcp.limited.example' });
    host.state.optOutFile = null;
    for (let i = 0; i < 10; i++) {
      const answer = await postJson(`${fixture.base}/api/optout/confirm`, { host: 'mcp.limited.example' }, { 'x-forwarded-for': `192.0.${i}.9` });
      expect(answer.status).toBe(403);
    }
    host.state.optOutFile = asked.body.token;
    const refused = await postJson(`${fixture.base}/api/optout/confirm`, { host: 'mcp.limited.example' }, { 'x-forwarded-for': '192.0.77.9' });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'host_daily_limit', limit: 10 });
    expect(host.hits.get('/.well-known/mcp-atlas-optout.txt')).toBe(10);
    expect(await getJson(fixture.storage, 'state/opted-out.json')).toBeNull();
    // Another host has its own allowance.
    const other = await postJson(`${fixture.base}/api/optout`, { host: 'mcp.other.example' });
    host.state.optOutFile = other.body.token;
    const done = await postJson(`${fixture.base}/api/optout/confirm`, { host: 'mcp.other.example' }, { 'x-forwarded-for': '192.0.77.9' });
    expect(done).toMatchObject({ status: 200, body: { host: 'mcp.other.example', optedOut: true } });
  });
});
