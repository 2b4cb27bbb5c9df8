// Daily limits a stranger could spend for an owner. Both attacks over HTTP against the served app,
// with the owner's host a real server on loopback serving its token files as the test sets them:
//   1. a stranger's network spends the host's token-file reads with failures; the owner's real proof must
//      still succeed (opt-out confirmation and owner verification alike);
//   2. a stranger files three junk submissions on the owner's host; the owner's own submission must still
//      be taken once the owner proves control of the host.
import { readOwnerToken } from '@mcp-atlas/probe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownerToken } from '../src/owners/token.js';
import { getJson } from '../src/storage/storage.js';
import { dumpStorage, postJson, type RunningFixture, startFixture, urlOf } from './fixtures/http-atlas.js';
import { type OwnerHost, startOwnerHost } from './fixtures/submission-world.js';

const SECRET = new Uint8Array(32).fill(7);
const STRANGER = { 'x-forwarded-for': '203.0.113.66' };
const OWNER = { 'x-forwarded-for': '198.51.100.7' };

let host: OwnerHost;
let fixture: RunningFixture;

beforeEach(async () => {
  host = await startOwnerHost();
  fixture = await startFixture({
    // The forms name public hosts; the owner's loopback host stands in for every one of them.
    deps: {
      readOwnerToken: (_origin, kind, token) => readOwnerToken(host.origin, kind, token, { allowPrivate: true }),
    },
  });
});

afterEach(async () => {
  await fixture.close();
  await host.close();
});

const tokenReads = (kind: 'optout' | 'verify') => host.hits.get(`/.well-known/mcp-atlas-${kind}.txt`) ?? 0;

describe('a stranger spends failed token-file reads on a host', () => {
  it("cannot keep its owner from opting out: 10 failed confirms from one network, then the owner's real proof succeeds", async () => {
    const victim = { host: 'mcp.victim.example' };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await postJson(`${fixture.base}/api/optout/confirm`, victim, STRANGER)).status);
    // The stranger's own network is stopped after 3 failures; the other 7 were refused without a read.
    expect(statuses).toEqual([403, 403, 403, 429, 429, 429, 429, 429, 429, 429]);
    expect(tokenReads('optout')).toBe(3);

    host.state.optOutFile = (await postJson(`${fixture.base}/api/optout`, victim, OWNER)).body.token;
    const done = await postJson(`${fixture.base}/api/optout/confirm`, victim, OWNER);
    expect(done).toMatchObject({ status: 200, body: { host: 'mcp.victim.example', optedOut: true } });
    expect(await getJson(fixture.storage, 'state/opted-out.json')).toEqual({ hosts: ['mcp.victim.example'] });
  });

  it("cannot keep its owner from verifying either, even after ten networks fill the host's failure counter", async () => {
    const server = { server: 'notes-hub' };
    for (let network = 0; network < 10; network++) {
      expect(
        (await postJson(`${fixture.base}/api/owners/verify`, server, { 'x-forwarded-for': `203.0.${network}.66` }))
          .status,
      ).toBe(403);
    }
    host.state.verifyFile = `${ownerToken(SECRET, 'verify', new URL(urlOf('notes-hub')).origin)}\n`;
    const verified = await postJson(`${fixture.base}/api/owners/verify`, server, OWNER);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ server: 'notes-hub', note: null, fiveMinuteChecks: false });
    // A stranger whose file read fails on the full host has one try left at most.
    host.state.verifyFile = null;
    expect(
      (await postJson(`${fixture.base}/api/owners/verify`, server, { 'x-forwarded-for': '203.0.50.66' })).status,
    ).toBe(403);
    expect(
      (await postJson(`${fixture.base}/api/owners/verify`, server, { 'x-forwarded-for': '203.0.50.66' })).status,
    ).toBe(429);
    expect(tokenReads('verify')).toBe(12);
  });

  it('holds concurrent reads of one network to its 3 failures', async () => {
    const victim = { host: 'mcp.crowded.example' };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => postJson(`${fixture.base}/api/optout/confirm`, victim, STRANGER)),
    );
    expect(answers.filter((a) => a.status === 403)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(9);
    expect(tokenReads('optout')).toBe(3);
  });
});

describe('a stranger files junk submissions on a host', () => {
  const junk = ['/junk-1', '/junk-2', '/junk-3'].map((path) => ({ url: `https://mcp.victim.example${path}` }));
  const ownerUrl = { url: 'https://mcp.victim.example/mcp' };

  async function fileJunk(): Promise<void> {
    for (const body of junk)
      expect((await postJson(`${fixture.base}/api/submissions`, body, STRANGER)).status).toBe(201);
  }

  it("cannot block the owner's own submission: the owner proves control and is taken past the host's limit", async () => {
    await fileJunk();
    // Without proof the host's limit holds, and the refusal says how to prove control.
    const token = ownerToken(SECRET, 'verify', 'https://mcp.victim.example');
    const blocked = await postJson(`${fixture.base}/api/submissions`, ownerUrl, OWNER);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('host_daily_limit');
    expect(blocked.body.error.message).toContain(
      `put ${token} on a line of https://mcp.victim.example/.well-known/mcp-atlas-verify.txt`,
    );
    expect(tokenReads('verify')).toBe(0);

    host.state.verifyFile = `${token}\n`;
    const taken = await postJson(`${fixture.base}/api/submissions`, { ...ownerUrl, proveOwnership: true }, OWNER);
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({
      created: true,
      submission: { url: 'https://mcp.victim.example/mcp', status: 'observing' },
    });
    expect(tokenReads('verify')).toBe(1);
  });

  it('takes nothing from a claim of ownership the file does not back, and stores only the failed read', async () => {
    await fileJunk();
    const before = await dumpStorage(fixture.storage);
    const claimed = await postJson(`${fixture.base}/api/submissions`, { ...ownerUrl, proveOwnership: true }, STRANGER);
    expect(claimed.status).toBe(403);
    expect(claimed.body.error.code).toBe('token_not_found');
    const after = await dumpStorage(fixture.storage);
    const changed = [...after.keys()].filter((path) => before.get(path) !== after.get(path));
    expect(changed).toEqual(['state/rate-counters/2026-12-01.json']);
  });

  it('asks for proof only when the host limit is reached: below it, proveOwnership reads nothing', async () => {
    const taken = await postJson(`${fixture.base}/api/submissions`, { ...ownerUrl, proveOwnership: true }, OWNER);
    expect(taken.status).toBe(201);
    expect(tokenReads('verify')).toBe(0);
  });
});
