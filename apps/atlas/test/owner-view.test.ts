// The owner view, behind the owner's access token. The owner's host is a real MCP server on loopback serving the
// verification file; the owner verifies, asks for an access token (shown once, kept only as its hash), and reads
// what the service knows: alerts, demand, agents' reports, changes and the score. Without the token, with a wrong
// one, with the verification token, or after a new one replaced it, the view answers 401 and says nothing more.
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { writeOwnerAlerts } from '../src/data/owner-alerts.js';
import { demandAggregatePath, SERVERS_PATH } from '../src/data/paths.js';
import { OwnerViewSchema } from '../src/http/owner-view.js';
import { hashOwnerAccess, OWNER_ACCESS_PREFIX, ownerAccessMatches } from '../src/owners/owner-access.js';
import { getJson, putJson } from '../src/storage/storage.js';
import { dumpStorage, postJson } from './fixtures/http-atlas.js';
import { type OwnerHost, startOwnerHost, startWorld, type World } from './fixtures/submission-world.js';

const START = '2026-05-04T00:10:00.000Z';
const FROM = { 'x-forwarded-for': '198.51.100.44' };
const ID = 'recipe-box';

let world: World | null = null;
let owner: OwnerHost | null = null;

afterEach(async () => {
  await world?.close();
  await owner?.close();
  world = null;
  owner = null;
});

/** A world watching one server on the owner's host, verified by its owner. */
async function verifiedWorld(): Promise<{ w: World; host: OwnerHost }> {
  const host = await startOwnerHost();
  const w = await startWorld(START);
  world = w;
  owner = host;
  await putJson(w.storage, SERVERS_PATH, {
    servers: [{ id: ID, url: host.url, title: 'Recipe Box', source: 'registry' }],
  });
  expect(await w.tickAt(START)).toContain('daily');
  const token = await postJson(`${w.base}/api/owners/token`, { server: ID }, FROM);
  host.state.verifyFile = `${token.body.token}\n`;
  w.clock.set('2026-05-04T09:30:00.000Z');
  expect((await postJson(`${w.base}/api/owners/verify`, { server: ID }, FROM)).status).toBe(200);
  return { w, host };
}

async function viewWith(base: string, authorization?: string) {
  const response = await fetch(`${base}/api/owners/${ID}/view`, {
    headers: authorization === undefined ? {} : { authorization },
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

describe('the owner access token', () => {
  it('is random, matched by its hash in constant time, and never matches anything else', () => {
    const token = `${OWNER_ACCESS_PREFIX}abc`;
    const hash = hashOwnerAccess(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(ownerAccessMatches(hash, token)).toBe(true);
    expect(ownerAccessMatches(hash, `${OWNER_ACCESS_PREFIX}abd`)).toBe(false);
    expect(ownerAccessMatches(hash, 'abc')).toBe(false);
    expect(ownerAccessMatches(undefined, token)).toBe(false);
    expect(ownerAccessMatches(hash, null)).toBe(false);
  });
});

describe('GET /api/owners/:id/view', () => {
  it('shows the verified owner what the service knows, with the token issued once and kept as a hash', async () => {
    const { w, host } = await verifiedWorld();
    // The service knows a failure alert, a score drop and a day of demand for the server.
    await writeOwnerAlerts(w.storage, {
      servers: {
        [ID]: {
          open: false,
          alerts: [
            {
              at: '2026-05-03T10:00:00.000Z',
              kind: 'hourly',
              letter: 'd',
              reason: 'timeout',
              httpStatus: null,
              failuresInARow: 2,
            },
          ],
          scoreDrops: [
            { day: '2026-05-03', previousDay: '2026-05-02', from: 88, to: 70, drop: 18, fromGrade: 'B', toGrade: 'C' },
          ],
        },
      },
    });
    await putJson(w.storage, demandAggregatePath('2026-05-03'), {
      day: '2026-05-03',
      servers: { [ID]: 4, other: 9 },
      total: 13,
      unreadable: 0,
    });

    const before = host.hits.get('/.well-known/mcp-atlas-verify.txt') ?? 0;
    const issued = await postJson(`${w.base}/api/owners/access`, { server: ID }, FROM);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ server: ID, view: `/api/owners/${ID}/view` });
    expect(issued.body.accessToken).toMatch(/^mcp-atlas-owner-[A-Za-z0-9_-]{43}$/);
    // Issuing reads the verification file again: control of the host is proven for it.
    expect(host.hits.get('/.well-known/mcp-atlas-verify.txt')).toBe(before + 1);
    // Only the hash is stored, nowhere the token.
    const record = (await getJson(w.storage, `state/owners/${ID}.json`)) as { access: { hash: string } };
    expect(record.access.hash).toBe(hashOwnerAccess(issued.body.accessToken));
    for (const [path, text] of await dumpStorage(w.storage))
      expect(text.includes(issued.body.accessToken), path).toBe(false);

    const seen = await viewWith(w.base, `Bearer ${issued.body.accessToken}`);
    expect(seen.status).toBe(200);
    expect(seen.headers.get('cache-control')).toBe('no-store');
    const view = OwnerViewSchema.parse(seen.body);
    expect(view).toMatchObject({ server: ID, title: 'Recipe Box', origin: host.origin, fiveMinuteChecks: false });
    expect(view.alerts.scoreDrops).toHaveLength(1);
    expect(view.alerts.failures).toHaveLength(1);
    expect(view.demand).toContainEqual({ day: '2026-05-03', routed: 4, sensorOutcomes: 0, sensorFailures: 0 });
    expect(view.reports).toMatchObject({ reports: 0, worked: 0, failed: 0, reporters: 0 });
    expect(Array.isArray(view.changes)).toBe(true);
  });

  it('refuses without the token, with a wrong one, with the verification token, and after it was replaced', async () => {
    const { w, host } = await verifiedWorld();
    const first = (await postJson(`${w.base}/api/owners/access`, { server: ID }, FROM)).body.accessToken as string;
    const refusals = [
      undefined,
      'Bearer ',
      `Bearer ${first.slice(0, -1)}x`,
      `Bearer ${host.state.verifyFile?.trim()}`,
      `Basic ${Buffer.from(`owner:${first}`).toString('base64')}`,
    ];
    for (const authorization of refusals) {
      const answer = await viewWith(w.base, authorization);
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="mcp-atlas owners"');
      expect(answer.body.error.code).toBe('owner_token_required');
    }
    // A server nobody verified answers the same, so the answer does not say which servers have owners.
    const unknown = await fetch(`${w.base}/api/owners/nobody-here/view`, {
      headers: { authorization: `Bearer ${first}` },
    });
    expect(unknown.status).toBe(401);

    // A new token replaces the old one.
    const second = (await postJson(`${w.base}/api/owners/access`, { server: ID }, FROM)).body.accessToken as string;
    expect(second).not.toBe(first);
    expect((await viewWith(w.base, `Bearer ${first}`)).status).toBe(401);
    expect((await viewWith(w.base, `Bearer ${second}`)).status).toBe(200);

    // An owner who lost the verification file cannot get a token.
    host.state.verifyFile = '';
    expect((await postJson(`${w.base}/api/owners/access`, { server: ID }, FROM)).status).toBe(403);
  });

  it('needs a verified owner before it issues a token', async () => {
    const host = await startOwnerHost();
    const w = await startWorld(START);
    world = w;
    owner = host;
    await putJson(w.storage, SERVERS_PATH, {
      servers: [{ id: ID, url: host.url, title: 'Recipe Box', source: 'registry' }],
    });
    expect(await w.tickAt(START)).toContain('daily');
    const early = await postJson(`${w.base}/api/owners/access`, { server: ID }, FROM);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('not_verified');
  });
});

describe('owners’ webhooks', () => {
  /** A loopback receiver that answers each request with the next status of `statuses` (the last one repeats). */
  async function startReceiver(statuses: number[]) {
    const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)] as number).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/atlas`;
    return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it('posts a real second-failure alert, signed, retries it after a 500, and logs both tries', async () => {
    const { w, host } = await verifiedWorld();
    const receiver = await startReceiver([500, 204]);
    try {
      const set = await postJson(`${w.base}/api/owners/settings`, { server: ID, webhookUrl: receiver.url }, FROM);
      expect(set.status).toBe(200);
      expect(set.body.webhook).toEqual({ url: receiver.url, setAt: '2026-05-04T09:30:00.000Z' });
      const secret = set.body.webhookSecret as string;
      expect(secret).toMatch(/^mcp-atlas-whsec-[A-Za-z0-9_-]{43}$/);
      // The secret is given once: a later change does not repeat it.
      const again = await postJson(`${w.base}/api/owners/settings`, { server: ID, webhookUrl: receiver.url }, FROM);
      expect(again.body.webhookSecret).toBeUndefined();

      // Second-failure alerts are for owners who asked for five-minute checks.
      await postJson(`${w.base}/api/owners/settings`, { server: ID, fiveMinuteChecks: true }, FROM);
      // The tick runs hour 09's hourly check and a five-minute check, and both fail: the second failure in a row
      // is the owner's alert, delivered in the same tick, and the receiver answers 500.
      host.state.down = true;
      expect(await w.tickAt('2026-05-04T09:35:00.000Z')).toEqual(expect.arrayContaining(['hourly', 'webhooks']));
      expect(receiver.received).toHaveLength(1);
      // Not due again until a minute has passed.
      await w.tickAt('2026-05-04T09:35:30.000Z');
      expect(receiver.received).toHaveLength(1);
      expect(await w.tickAt('2026-05-04T09:36:00.000Z')).toContain('webhooks');
      expect(receiver.received).toHaveLength(2);

      const [first, second] = receiver.received as [(typeof receiver.received)[0], (typeof receiver.received)[0]];
      expect(second.body).toBe(first.body);
      expect(second.headers['x-mcp-atlas-delivery']).toBe(first.headers['x-mcp-atlas-delivery']);
      const body = JSON.parse(second.body);
      expect(body).toMatchObject({ event: 'owner.alert.failure', server: ID, alert: { failuresInARow: 2 } });
      for (const delivery of receiver.received) {
        const timestamp = delivery.headers['x-mcp-atlas-timestamp'] as string;
        const expected = createHmac('sha256', secret).update(`${timestamp}.${delivery.body}`).digest('hex');
        expect(delivery.headers['x-mcp-atlas-signature']).toBe(`sha256=${expected}`);
        expect(delivery.headers['content-type']).toBe('application/json');
      }
      // The secret never travels, and is never stored anywhere but the owner's record.
      expect(JSON.stringify(receiver.received)).not.toContain(secret);

      const access = (await postJson(`${w.base}/api/owners/access`, { server: ID }, FROM)).body.accessToken;
      const view = OwnerViewSchema.parse((await viewWith(w.base, `Bearer ${access}`)).body);
      expect(view.webhook?.deliveries.map((d) => [d.attempt, d.outcome, d.status])).toEqual([
        [1, 'failed', 500],
        [2, 'delivered', 204],
      ]);
      expect(JSON.stringify(view)).not.toContain(secret);
      // No third try: the alert was delivered.
      await w.tickAt('2026-05-04T09:44:00.000Z');
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a webhook URL that is not http(s), and removes the webhook with null', async () => {
    const { w } = await verifiedWorld();
    const bad = await postJson(`${w.base}/api/owners/settings`, { server: ID, webhookUrl: 'ftp://x.example/h' }, FROM);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('webhookUrl');
    await postJson(`${w.base}/api/owners/settings`, { server: ID, webhookUrl: 'https://hooks.example/a' }, FROM);
    const removed = await postJson(`${w.base}/api/owners/settings`, { server: ID, webhookUrl: null }, FROM);
    expect(removed.body.webhook).toBeNull();
    expect(((await getJson(w.storage, `state/owners/${ID}.json`)) as { webhook?: unknown }).webhook).toBeUndefined();
  });
});
