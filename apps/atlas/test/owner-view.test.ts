// The owner view, behind the owner's access token. The owner's host is a real MCP server on loopback serving the
// verification file; the owner verifies, asks for an access token (shown once, kept only as its hash), and reads
// what the service knows: alerts, demand, agents' reports, changes and the score. Without the token, with a wrong
// one, with the verification token, or after a new one replaced it, the view answers 401 and says nothing more.
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
