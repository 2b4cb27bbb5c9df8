import { afterEach, describe, expect, it } from 'vitest';
import { registerSensor, sensorTokenKeyOf } from '../src/data/sensor-registrations.js';
import { ErrorBodySchema, SensorAcceptedSchema, StoredSensorBatchSchema } from '../src/http/schemas.js';
import { sensorBatchPath } from '../src/http/sensor-intake.js';
import { putJson } from '../src/storage/storage.js';
import {
  dumpStorage,
  FIXTURE_NOW,
  FIXTURE_REPORTER_SECRET,
  postJson,
  type RunningFixture,
  startFixture,
  TODAY,
  urlOf,
} from './fixtures/http-atlas.js';

const running: RunningFixture[] = [];
async function start(options: Parameters<typeof startFixture>[0] = {}): Promise<RunningFixture> {
  const f = await startFixture(options);
  running.push(f);
  return f;
}
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

function send(f: RunningFixture, body: unknown, ip = '198.51.100.20') {
  return postJson(`${f.base}/api/sensors`, body, { 'x-forwarded-for': ip });
}

/** `n` outcomes about notes-hub within the last hour of the fixture's "now" (10:00 UTC). */
function outcomes(n: number): { server: string; ok: boolean; at: string }[] {
  return Array.from({ length: n }, (_, i) => ({ server: 'notes-hub', ok: i % 5 !== 0, at: '2026-12-01T09:30:00Z' }));
}

async function sensorFiles(f: RunningFixture): Promise<Map<string, string>> {
  const all = await dumpStorage(f.storage);
  return new Map([...all].filter(([path]) => path.startsWith('sensors/')));
}

describe('POST /api/sensors: what is kept', () => {
  it('stores an accepted batch under sensors/<day>/<sensor>/, outside the signed day folders', async () => {
    const f = await start();
    const before = await dumpStorage(f.storage);
    const response = await send(f, {
      sensor: 'gw-alpha',
      outcomes: [
        { server: 'notes-hub', ok: true, at: '2026-12-01T09:00:00Z', ms: 120 },
        { server: urlOf('weather-desk'), ok: false, at: '2026-12-01T11:00:00+02:00', reason: 'timeout', ms: 30000 },
        { server: 'ticket-yard', ok: true, at: '2026-12-01T09:59:59.5Z' },
      ],
    });
    expect(response.status).toBe(201);
    expect(SensorAcceptedSchema.parse(response.body)).toEqual({
      accepted: 3,
      dropped: { tooOld: 0, fromFuture: 0, overDailyLimit: 0, unknownServer: 0 },
    });
    const after = await dumpStorage(f.storage);
    const changed = [...after.keys()].filter((path) => before.get(path) !== after.get(path));
    expect(changed).toEqual([sensorBatchPath(TODAY, 'gw-alpha', 0)]);
    expect(changed[0]).toBe('sensors/2026-12-01/gw-alpha/000000.json');
    const stored = StoredSensorBatchSchema.parse(JSON.parse(after.get(changed[0]!)!));
    expect(stored).toEqual({
      sensor: 'gw-alpha',
      day: TODAY,
      received: '2026-12-01T10:00:00.000Z',
      // Sent without a token: a keyed id of the sender's network and day, never its address.
      network: expect.stringMatching(/^[0-9a-f]{32}$/),
      outcomes: [
        { server: 'notes-hub', ok: true, at: '2026-12-01T09:00:00.000Z', ms: 120 },
        { server: 'weather-desk', ok: false, at: '2026-12-01T09:00:00.000Z', reason: 'timeout', ms: 30000 },
        { server: 'ticket-yard', ok: true, at: '2026-12-01T09:59:59.500Z' },
      ],
    });
  });

  it('numbers a sensor’s batches of one day in order', async () => {
    const f = await start();
    await send(f, { sensor: 'gw-alpha', outcomes: outcomes(2) });
    await send(f, { sensor: 'gw-alpha', outcomes: outcomes(1) });
    expect([...(await sensorFiles(f)).keys()]).toEqual([
      'sensors/2026-12-01/gw-alpha/000000.json',
      'sensors/2026-12-01/gw-alpha/000001.json',
    ]);
  });

  it('never stores the sender’s address or network', async () => {
    const f = await start();
    await send(f, { sensor: 'gw-alpha', outcomes: outcomes(3) }, '198.51.100.222');
    await send(f, { sensor: 'gw-beta', outcomes: outcomes(3) }, '2001:db8:beef:7::1');
    const everything = [...(await dumpStorage(f.storage)).values()].join('\n');
    for (const secret of ['198.51.100', '2001:db8:beef', '/24', '/48'])
      expect(everything.includes(secret), secret).toBe(false);
  });

  it('drops outcomes older than 24 hours or dated after now, and keeps one exactly 24 hours old', async () => {
    const f = await start();
    const response = await send(f, {
      sensor: 'gw-alpha',
      outcomes: [
        { server: 'notes-hub', ok: true, at: '2026-11-30T10:00:00Z' },
        { server: 'notes-hub', ok: true, at: '2026-11-30T09:59:59Z' },
        { server: 'notes-hub', ok: true, at: '2026-12-01T10:00:00Z' },
        { server: 'notes-hub', ok: true, at: '2026-12-01T10:00:01Z' },
      ],
    });
    expect(response.body).toEqual({
      accepted: 2,
      dropped: { tooOld: 1, fromFuture: 1, overDailyLimit: 0, unknownServer: 0 },
    });
    const [stored] = [...(await sensorFiles(f)).values()];
    expect(JSON.parse(stored!).outcomes.map((o: { at: string }) => o.at)).toEqual([
      '2026-11-30T10:00:00.000Z',
      '2026-12-01T10:00:00.000Z',
    ]);
  });

  it('drops outcomes about servers it does not watch, and stores nothing when none is left', async () => {
    const f = await start();
    const response = await send(f, {
      sensor: 'gw-alpha',
      outcomes: [
        { server: 'somebody-else', ok: true, at: '2026-12-01T09:00:00Z' },
        { server: 'https://elsewhere.example.test/mcp', ok: false, at: '2026-12-01T09:00:00Z' },
      ],
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      accepted: 0,
      dropped: { tooOld: 0, fromFuture: 0, overDailyLimit: 0, unknownServer: 2 },
    });
    expect((await sensorFiles(f)).size).toBe(0);
  });

  it('takes a batch of exactly 100 outcomes', async () => {
    const f = await start();
    const response = await send(f, { sensor: 'gw-alpha', outcomes: outcomes(100) });
    expect(response.status).toBe(201);
    expect(response.body.accepted).toBe(100);
  });
});

describe('POST /api/sensors: refusals store nothing', () => {
  const ok = { server: 'notes-hub', ok: true, at: '2026-12-01T09:00:00Z' };
  const cases: [string, unknown, string][] = [
    ['101 outcomes', { sensor: 'gw-alpha', outcomes: outcomes(101) }, 'outcomes'],
    ['no outcomes', { sensor: 'gw-alpha', outcomes: [] }, 'outcomes'],
    ['an extra batch field', { sensor: 'gw-alpha', outcomes: [ok], version: '1.2' }, '(body)'],
    [
      'an extra outcome field (arguments)',
      { sensor: 'gw-alpha', outcomes: [ok, { ...ok, args: { q: 'secret' } }] },
      'outcomes.1',
    ],
    ['an extra outcome field (user id)', { sensor: 'gw-alpha', outcomes: [{ ...ok, user: 'u-1' }] }, 'outcomes.0'],
    ['a missing sensor', { outcomes: [ok] }, 'sensor'],
    ['a sensor id with a slash', { sensor: '../gw', outcomes: [ok] }, 'sensor'],
    ['a sensor id in upper case', { sensor: 'GW-ALPHA', outcomes: [ok] }, 'sensor'],
    ['a sensor id over 64 characters', { sensor: 'g'.repeat(65), outcomes: [ok] }, 'sensor'],
    ['ok as a string', { sensor: 'gw-alpha', outcomes: [{ ...ok, ok: 'true' }] }, 'outcomes.0.ok'],
    [
      'a time without an offset',
      { sensor: 'gw-alpha', outcomes: [{ ...ok, at: '2026-12-01T09:00:00' }] },
      'outcomes.0.at',
    ],
    ['a time in words', { sensor: 'gw-alpha', outcomes: [{ ...ok, at: 'an hour ago' }] }, 'outcomes.0.at'],
    [
      'a reason on a call that worked',
      { sensor: 'gw-alpha', outcomes: [{ ...ok, reason: 'timeout' }] },
      'outcomes.0.reason',
    ],
    [
      'an unknown reason',
      { sensor: 'gw-alpha', outcomes: [{ ...ok, ok: false, reason: 'gremlins' }] },
      'outcomes.0.reason',
    ],
    ['a negative ms', { sensor: 'gw-alpha', outcomes: [{ ...ok, ms: -5 }] }, 'outcomes.0.ms'],
    ['outcomes as an object', { sensor: 'gw-alpha', outcomes: { 0: ok } }, 'outcomes'],
  ];

  it.each(cases)('refuses %s with a 400 naming the field', async (_what, body, field) => {
    const f = await start();
    const before = await dumpStorage(f.storage);
    const response = await send(f, body);
    expect(response.status).toBe(400);
    const error = ErrorBodySchema.parse(response.body).error;
    expect(error.code).toBe('invalid_body');
    expect(error.issues?.map((i) => i.path)).toContain(field);
    expect(await dumpStorage(f.storage)).toEqual(before);
  });

  it('says how many outcomes a batch may carry', async () => {
    const f = await start();
    expect((await send(f, { sensor: 'gw-alpha', outcomes: outcomes(101) })).body.error.message).toContain(
      'at most 100 outcomes',
    );
  });

  it('refuses a body that is not JSON (400), not declared as JSON (415) or over 64 KiB (413)', async () => {
    const f = await start();
    expect((await send(f, 'sensor=gw')).body.error.code).toBe('invalid_json');
    const plain = await fetch(`${f.base}/api/sensors`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-forwarded-for': '198.51.100.20' },
      body: JSON.stringify({ sensor: 'gw-alpha', outcomes: outcomes(1) }),
    });
    expect(plain.status).toBe(415);
    const huge = await send(f, {
      sensor: 'gw-alpha',
      outcomes: [{ server: 'x'.repeat(70_000), ok: true, at: '2026-12-01T09:00:00Z' }],
    });
    expect(huge.status).toBe(413);
    expect((await sensorFiles(f)).size).toBe(0);
  });
});

describe('POST /api/sensors: daily limits', () => {
  it('takes up to 20,000 outcomes a registered sensor a day, counting what was stored before a restart', async () => {
    const f = await start();
    const { token } = await registerSensor(
      f.storage,
      sensorTokenKeyOf(FIXTURE_REPORTER_SECRET),
      'gw-busy',
      FIXTURE_NOW,
    );
    const send = (body: unknown, ip = '198.51.100.20') =>
      postJson(`${f.base}/api/sensors`, body, { 'x-forwarded-for': ip, authorization: `Bearer ${token}` });
    // 19,950 outcomes already stored today by this sensor (as a previous run of the app would have left them).
    await putJson(f.storage, sensorBatchPath(TODAY, 'gw-busy', 0), {
      sensor: 'gw-busy',
      day: TODAY,
      received: '2026-12-01T08:00:00.000Z',
      registered: true,
      outcomes: Array.from({ length: 19_950 }, () => ({
        server: 'notes-hub',
        ok: true,
        at: '2026-12-01T07:59:00.000Z',
      })),
    });
    const partly = await send({ sensor: 'gw-busy', outcomes: outcomes(100) });
    expect(partly.status).toBe(201);
    expect(partly.body).toEqual({
      accepted: 50,
      dropped: { tooOld: 0, fromFuture: 0, overDailyLimit: 50, unknownServer: 0 },
    });
    const full = await send({ sensor: 'gw-busy', outcomes: outcomes(1) }, '192.0.2.77');
    expect(full.status).toBe(429);
    expect(full.body.error).toMatchObject({ code: 'daily_limit_reached', limit: 20_000 });
    expect(full.headers.get('retry-after')).toBe(String(14 * 3600));
    expect([...(await sensorFiles(f)).keys()]).toEqual([
      sensorBatchPath(TODAY, 'gw-busy', 0),
      sensorBatchPath(TODAY, 'gw-busy', 1),
    ]);
    // Another sensor on another network is not affected, and the next UTC day starts over.
    expect(
      (
        await postJson(
          `${f.base}/api/sensors`,
          { sensor: 'gw-calm', outcomes: outcomes(1) },
          { 'x-forwarded-for': '192.0.2.9' },
        )
      ).status,
    ).toBe(201);
    f.setNow(new Date('2026-12-02T00:30:00.000Z'));
    const tomorrow = await send({
      sensor: 'gw-busy',
      outcomes: [{ server: 'notes-hub', ok: true, at: '2026-12-02T00:10:00Z' }],
    });
    expect(tomorrow.status).toBe(201);
  });

  it('gives one network one sensor’s daily budget, however many sensor ids it uses', async () => {
    const f = await start();
    for (let i = 0; i < 200; i++) {
      const response = await send(f, { sensor: `gw-${i}`, outcomes: outcomes(100) }, `198.51.100.${i % 250}`);
      expect(response.status).toBe(201);
    }
    const refused = await send(f, { sensor: 'gw-new', outcomes: outcomes(1) }, '198.51.100.251');
    expect(refused.status).toBe(429);
    // The same new sensor id from another network is fine.
    expect((await send(f, { sensor: 'gw-new', outcomes: outcomes(1) }, '192.0.2.1')).status).toBe(201);
  });
});

describe('POST /api/sensors: registered sensors and networks', () => {
  it('counts a network’s batches stored before a restart, and no other network’s', async () => {
    const f = await start();
    for (let i = 0; i < 199; i++)
      expect((await send(f, { sensor: `gw-${i}`, outcomes: outcomes(100) })).status).toBe(201);
    // A new app on the same store: the network's 19,900 outcomes come back from the stored batches.
    const again = await start({ storage: f.storage, keys: f.keys });
    const last = await send(again, { sensor: 'gw-late', outcomes: outcomes(100) });
    expect(last.status).toBe(201);
    expect((await send(again, { sensor: 'gw-late', outcomes: outcomes(1) })).status).toBe(429);
    expect((await send(again, { sensor: 'gw-late', outcomes: outcomes(1) }, '192.0.2.1')).status).toBe(201);
  });

  it('refuses a batch under an id whose registration cannot be read, rather than let it through', async () => {
    const f = await start();
    await f.storage.put('state/sensors/gw-broken.json', new TextEncoder().encode('{ not json'));
    const answer = await send(f, { sensor: 'gw-broken', outcomes: outcomes(1) });
    expect(answer).toMatchObject({ status: 503, body: { error: { code: 'sensor_registration_unreadable' } } });
    expect((await sensorFiles(f)).size).toBe(0);
  });
});
