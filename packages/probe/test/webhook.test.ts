// One webhook delivery through the probe's guard, against a raw node:http receiver on loopback: the body and
// headers arrive as sent, a 2xx is delivered, any other status (a redirect included, never followed) is a failed
// delivery with its status, a URL the guard refuses is never contacted, and a receiver that never answers is a
// timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHttpClient } from '../src/node/index.js';
import { postWebhook } from '../src/outside.js';
import { type LocalServer, startRawServer } from './fixtures/servers.js';

let receiver: LocalServer;
const network = { allowPrivate: true, httpClient: createNodeHttpClient };

beforeAll(async () => {
  receiver = await startRawServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    if (req.url === '/moved') return res.writeHead(302, { location: '/ok' }).end();
    if (req.url === '/broken') return res.writeHead(500).end('oops');
    res.writeHead(204).end();
  });
});
afterAll(async () => {
  await receiver.close();
});

const post = (path: string, timeoutMs = 5_000) => ({
  url: `${receiver.origin}${path}`,
  body: '{"event":"owner.alert"}',
  headers: { 'content-type': 'application/json', 'x-mcp-atlas-signature': 'sha256=abc' },
  timeoutMs,
});

describe('postWebhook', () => {
  it('delivers on a 2xx, sending the body and headers as given', async () => {
    expect(await postWebhook(post('/ok'), network)).toMatchObject({ ok: true, status: 204 });
    expect(receiver.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/ok',
      body: '{"event":"owner.alert"}',
      headers: expect.objectContaining({ 'content-type': 'application/json', 'x-mcp-atlas-signature': 'sha256=abc' }),
    });
  });

  it('fails on a 500 and on a redirect, which it does not follow', async () => {
    expect(await postWebhook(post('/broken'), network)).toMatchObject({
      ok: false,
      status: 500,
      reason: 'http-status',
    });
    const before = receiver.requests.length;
    expect(await postWebhook(post('/moved'), network)).toMatchObject({ ok: false, status: 302, reason: 'http-status' });
    expect(receiver.requests.length).toBe(before + 1);
  });

  it('never contacts a URL the guard refuses: http, or a private address, unless allowed', async () => {
    const before = receiver.requests.length;
    const refused = await postWebhook(post('/ok'), { httpClient: createNodeHttpClient });
    expect(refused).toMatchObject({ ok: false, status: null, reason: 'guard:not-https' });
    expect(receiver.requests.length).toBe(before);
  });

  it('is a timeout when the receiver never answers', async () => {
    expect(await postWebhook(post('/hang', 300), network)).toMatchObject({
      ok: false,
      status: null,
      reason: 'timeout',
    });
  });
});
