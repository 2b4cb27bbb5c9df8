// Owner verification on a simulated clock: the owner's host is a real MCP server on loopback that serves
// /.well-known/mcp-atlas-verify.txt as the test sets it; the service reads it through the probe's guarded
// reader. A verified owner's note shows on the server page as their words, and their five-minute opt-in
// reaches the schedule.
import { afterEach, describe, expect, it } from 'vitest';
import { FIVE_MINUTE_OPT_IN_PATH, SERVERS_PATH } from '../src/data/paths.js';
import { ServerDetailSchema } from '../src/http/schemas.js';
import { getJson, putJson } from '../src/storage/storage.js';
import { dumpStorage, getJsonAt, postJson } from './fixtures/http-atlas.js';
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

/** A world watching one server on the owner's loopback host, after its first daily check. */
async function watchedWorld(): Promise<{ w: World; host: OwnerHost }> {
  const host = await startOwnerHost();
  const w = await startWorld(START);
  await putJson(w.storage, SERVERS_PATH, {
    servers: [{ id: ID, url: host.url, title: 'Recipe Box', source: 'registry' }],
  });
  expect(await w.tickAt(START)).toContain('daily');
  world = w;
  owner = host;
  return { w, host };
}

describe('owner verification and notes', () => {
  it('verifies through the token file, shows the note as the owner’s words, and re-reads the file for every change', async () => {
    const { w, host } = await watchedWorld();
    const token = await postJson(`${w.base}/api/owners/token`, { server: ID }, FROM);
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({
      server: ID,
      origin: host.origin,
      file: `${host.origin}/.well-known/mcp-atlas-verify.txt`,
    });
    expect(token.body.token).toMatch(/^mcp-atlas-verify-[0-9a-f]{32}$/);
    // Asking again gives the same token: it is a keyed hash of the origin, nothing is stored.
    expect((await postJson(`${w.base}/api/owners/token`, { server: ID }, FROM)).body.token).toBe(token.body.token);

    // Not verified yet: a change is refused before any read.
    const early = await postJson(`${w.base}/api/owners/settings`, { server: ID, note: 'Hello' }, FROM);
    expect(early.status).toBe(409);
    expect(early.body.error).toEqual({
      code: 'not_verified',
      message: `verify control of ${host.origin} first: POST /api/owners/verify`,
    });
    expect(host.hits.get('/.well-known/mcp-atlas-verify.txt') ?? 0).toBe(0);

    // The file is not there yet.
    const missing = await postJson(`${w.base}/api/owners/verify`, { server: ID }, FROM);
    expect(missing.status).toBe(403);
    expect(missing.body.error.code).toBe('token_not_found');
    expect(await getJson(w.storage, `state/owners/${ID}.json`)).toBeNull();

    host.state.verifyFile = `# mcp-atlas\n${token.body.token}\n`;
    w.clock.set('2026-05-04T09:30:00.000Z');
    const verified = await postJson(`${w.base}/api/owners/verify`, { server: ID }, FROM);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      server: ID,
      origin: host.origin,
      verifiedAt: '2026-05-04T09:30:00.000Z',
      note: null,
      fiveMinuteChecks: false,
      webhook: null,
    });

    w.clock.set('2026-05-04T09:45:00.000Z');
    const note = 'Maintained by the Recipe Box team; planned upkeep on Sundays 02:00-03:00 UTC.';
    const set = await postJson(
      `${w.base}/api/owners/settings`,
      { server: ID, note: `  ${note} `, fiveMinuteChecks: true },
      FROM,
    );
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      server: ID,
      origin: host.origin,
      verifiedAt: '2026-05-04T09:45:00.000Z',
      note: { text: note, setAt: '2026-05-04T09:45:00.000Z' },
      fiveMinuteChecks: true,
      webhook: null,
    });
    expect(await getJson(w.storage, FIVE_MINUTE_OPT_IN_PATH)).toEqual({ servers: [ID] });
    // Three reads so far: the missing file, the verification, the change.
    expect(host.hits.get('/.well-known/mcp-atlas-verify.txt')).toBe(3);

    await w.refresh();
    const detail = ServerDetailSchema.parse((await getJsonAt(`${w.base}/api/servers/${ID}`)).body);
    expect(detail.owner).toEqual({
      origin: host.origin,
      verifiedAt: '2026-05-04T09:45:00.000Z',
      note: {
        text: note,
        setAt: '2026-05-04T09:45:00.000Z',
        attribution: "The owner's own words, not mcp-atlas's; shown as written and not checked by us.",
      },
      fiveMinuteChecks: true,
    });

    // The schedule now checks the server every five minutes (this tick also runs hour 09's hourly check).
    const before = host.hits.get('/mcp') ?? 0;
    expect(await w.tickAt('2026-05-04T09:50:00.000Z')).toEqual(expect.arrayContaining(['hourly', 'five-minute']));
    expect((host.hits.get('/mcp') ?? 0) - before).toBe(6);
    expect(await w.tickAt('2026-05-04T09:55:00.000Z')).toEqual(['five-minute']);
    expect((host.hits.get('/mcp') ?? 0) - before).toBe(9);
    const state = (await getJson(w.storage, `state/servers/${ID}.json`)) as {
      fiveMinute: { day: string; answered: number; checks: number; latencyMs: [number, number][] }[];
    };
    expect(state.fiveMinute.map(({ day, answered, checks }) => ({ day, answered, checks }))).toEqual([
      { day: '2026-05-04', answered: 2, checks: 2 },
    ]);
    // Both answering checks keep their wall time (how long each took depends on the machine, so only the count).
    expect(state.fiveMinute[0]?.latencyMs.reduce((sum, [, n]) => sum + n, 0)).toBe(2);

    // Once the token is gone from the file, no change goes through and the note stays as it was.
    host.state.verifyFile = 'something else\n';
    const stored = await dumpStorage(w.storage);
    const lost = await postJson(`${w.base}/api/owners/settings`, { server: ID, note: 'Not the owner any more' }, FROM);
    expect(lost.status).toBe(403);
    expect(lost.body.error.message).toBe(
      `${host.origin}/.well-known/mcp-atlas-verify.txt does not hold the token (the file does not hold the token)`,
    );
    const after = await dumpStorage(w.storage);
    // Only the day's rate counter moved (the read happened and counts); the owner file is as it was.
    for (const [path, text] of stored)
      if (!path.startsWith('state/rate-counters/')) expect(after.get(path), path).toBe(text);

    // With the token back, the owner removes the note and stops the five-minute checks.
    host.state.verifyFile = token.body.token;
    const cleared = await postJson(
      `${w.base}/api/owners/settings`,
      { server: ID, note: null, fiveMinuteChecks: false },
      FROM,
    );
    expect(cleared.body).toMatchObject({ note: null, fiveMinuteChecks: false });
    expect(await getJson(w.storage, FIVE_MINUTE_OPT_IN_PATH)).toEqual({ servers: [] });
    await w.refresh();
    expect((await getJsonAt(`${w.base}/api/servers/${ID}`)).body.owner).toMatchObject({
      note: null,
      fiveMinuteChecks: false,
    });
  });

  it('reads one host’s token file at most 3 failing times a network a day, 1 more per network once the host has 10, and 429 without reading after that', async () => {
    const { w, host } = await watchedWorld();
    const verifyFrom = (network: string) =>
      postJson(`${w.base}/api/owners/verify`, { server: ID }, { 'x-forwarded-for': network });
    // One network: 3 failing reads, then refused without a read.
    for (let i = 0; i < 3; i++) expect((await verifyFrom('203.0.0.1')).status).toBe(403);
    const refused = await verifyFrom('203.0.0.2');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({
      code: 'requester_host_failure_limit',
      message:
        "this network's last 3 checks of the token file of 127.0.0.1 found no token today (UTC); try again tomorrow, or from the host owner's own network",
      limit: 3,
    });
    expect(host.hits.get('/.well-known/mcp-atlas-verify.txt')).toBe(3);
    // Two more networks bring the host to 9 failures; a fourth network fails once (the 10th), and once more on
    // the full host, which spends its last try.
    for (const network of ['203.0.1.1', '203.0.2.1'])
      for (let i = 0; i < 3; i++) expect((await verifyFrom(network)).status).toBe(403);
    expect((await verifyFrom('203.0.3.1')).status).toBe(403);
    expect((await verifyFrom('203.0.3.1')).status).toBe(403);
    expect((await verifyFrom('203.0.3.1')).status).toBe(429);
    // Every further network gets exactly one read.
    expect((await verifyFrom('203.0.4.1')).status).toBe(403);
    expect((await verifyFrom('203.0.4.1')).status).toBe(429);
    expect(host.hits.get('/.well-known/mcp-atlas-verify.txt')).toBe(12);
    w.clock.set('2026-05-05T00:00:00.000Z');
    expect((await verifyFrom('203.0.0.1')).status).toBe(403);
    expect(host.hits.get('/.well-known/mcp-atlas-verify.txt')).toBe(13);
  });

  it('refuses bad input at each owner step with a 400 that reads nothing and changes nothing', async () => {
    const { w, host } = await watchedWorld();
    const before = await dumpStorage(w.storage);
    const cases: [string, unknown, string][] = [
      ['token', {}, 'server: '],
      ['token', { server: 'Recipe Box' }, 'server: a server id is lower-case letters, digits and dashes'],
      ['token', { server: ID, note: 'x' }, 'Unrecognized key'],
      ['verify', { server: 42 }, 'server: '],
      ['verify', ['recipe-box'], '(body): '],
      ['settings', { server: ID }, 'note: give at least one of note, fiveMinuteChecks and webhookUrl'],
      ['settings', { server: ID, note: '' }, 'note: must not be empty; send null to remove the note'],
      ['settings', { server: ID, note: '   ' }, 'note: must not be empty'],
      ['settings', { server: ID, note: 'x'.repeat(281) }, 'note: must be at most 280 characters'],
      ['settings', { server: ID, note: 'line one\nline two' }, 'note: must be plain text on one line'],
      [
        'settings',
        { server: ID, note: 'hidden\u202Etext' },
        'note: must be plain text on one line, without control or invisible characters',
      ],
      ['settings', { server: ID, note: '<b>bold</b>' }, 'note: must be plain text: no < or >'],
      ['settings', { server: ID, fiveMinuteChecks: 'yes' }, 'fiveMinuteChecks: '],
      ['settings', { server: ID, note: 'hi', colour: 'red' }, 'Unrecognized key'],
    ];
    for (const [step, body, words] of cases) {
      const answer = await postJson(`${w.base}/api/owners/${step}`, body, FROM);
      expect(answer.status, `${step} ${JSON.stringify(body).slice(0, 60)}`).toBe(400);
      expect(answer.body.error.code).toBe('invalid_body');
      expect(answer.body.error.message, `${step} ${JSON.stringify(body).slice(0, 60)}`).toContain(words);
    }
    for (const step of ['token', 'verify', 'settings']) {
      const notJson = await postJson(`${w.base}/api/owners/${step}`, '{"server":', FROM);
      expect(notJson.status).toBe(400);
      expect(notJson.body.error.code).toBe('invalid_json');
      const unknown = await postJson(
        `${w.base}/api/owners/${step}`,
        { server: 'no-such-server', ...(step === 'settings' ? { note: 'x' } : {}) },
        FROM,
      );
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('unknown_server');
    }
    // The limit counts characters (code points), not UTF-16 units: 280 emoji pass the note's rules (and then
    // meet the unverified owner's 409), 281 do not.
    expect((await postJson(`${w.base}/api/owners/settings`, { server: ID, note: '🍲'.repeat(280) }, FROM)).status).toBe(
      409,
    );
    expect((await postJson(`${w.base}/api/owners/settings`, { server: ID, note: '🍲'.repeat(281) }, FROM)).status).toBe(
      400,
    );
    expect(host.hits.get('/.well-known/mcp-atlas-verify.txt') ?? 0).toBe(0);
    expect(await dumpStorage(w.storage)).toEqual(before);
  });
});
