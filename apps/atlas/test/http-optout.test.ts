import { type ServerType, serve } from '@hono/node-server';
import { readOwnerToken } from '@mcp-atlas/probe';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson } from '../src/storage/storage.js';
import { dumpStorage, postJson, type RunningFixture, startFixture } from './fixtures/http-atlas.js';

// The owner's host, on loopback: it serves whatever token file the test puts there.
let ownerHost: { server: ServerType; origin: string };
let tokenFile: string | null = null;
let fixture: RunningFixture;
let reads: string[] = [];

beforeAll(async () => {
  const app = new Hono();
  app.get('/.well-known/mcp-atlas-optout.txt', (c) => (tokenFile === null ? c.text('no', 404) : c.text(tokenFile)));
  ownerHost = await new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
      resolve({ server, origin: `http://127.0.0.1:${info.port}` }),
    );
  });
  fixture = await startFixture({
    deps: {
      // The form names a public host; the test's stand-in for it is the loopback server above.
      readOptOutToken: (origin, token) => {
        reads.push(origin);
        return readOwnerToken(ownerHost.origin, 'opt-out', token, { allowPrivate: true });
      },
    },
  });
});

afterAll(async () => {
  await fixture.close();
  ownerHost.server.close();
});

describe('the opt-out form', () => {
  it('gives a token for a host, and opts the host out once its file holds the token', async () => {
    const asked = await postJson(`${fixture.base}/api/optout`, { host: 'mcp.owner.example' });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      host: 'mcp.owner.example',
      file: 'https://mcp.owner.example/.well-known/mcp-atlas-optout.txt',
    });
    expect(asked.body.token).toMatch(/^mcp-atlas-optout-[0-9a-f]{32}$/);
    // The same host always gets the same token; another host another one.
    expect((await postJson(`${fixture.base}/api/optout`, { host: 'mcp.owner.example' })).body.token).toBe(
      asked.body.token,
    );
    expect((await postJson(`${fixture.base}/api/optout`, { host: 'other.example' })).body.token).not.toBe(
      asked.body.token,
    );

    tokenFile = null;
    const early = await postJson(`${fixture.base}/api/optout/confirm`, { host: 'mcp.owner.example' });
    expect(early.status).toBe(403);
    expect(early.body.error.code).toBe('token_not_found');
    expect(await getJson(fixture.storage, 'state/opted-out.json')).toBeNull();

    tokenFile = `${asked.body.token}\n`;
    const done = await postJson(`${fixture.base}/api/optout/confirm`, { host: 'mcp.owner.example' });
    expect(done).toMatchObject({ status: 200, body: { host: 'mcp.owner.example', optedOut: true } });
    expect(reads.at(-1)).toBe('https://mcp.owner.example');
    expect(await getJson(fixture.storage, 'state/opted-out.json')).toEqual({ hosts: ['mcp.owner.example'] });
  });

  it('refuses what is not a bare host name, and stores nothing', async () => {
    const before = await dumpStorage(fixture.storage);
    reads = [];
    for (const host of ['https://x.example', 'x.example:8443', '127.0.0.1', 'localhost', 'X.EXAMPLE', 'a b.example']) {
      expect((await postJson(`${fixture.base}/api/optout/confirm`, { host })).status, host).toBe(400);
    }
    expect((await postJson(`${fixture.base}/api/optout`, { host: 'x.example', note: 'hi' })).status).toBe(400);
    expect(reads).toEqual([]);
    expect(await dumpStorage(fixture.storage)).toEqual(before);
  });
});
