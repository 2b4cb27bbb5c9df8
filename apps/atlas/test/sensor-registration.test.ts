// A stranger who knows a real gateway sensor's id must not be able to spend its allowance. End to end against
// the real `serve` (--trust-proxy 1, a data folder on disk): `mcp-atlas sensors add` registers the victim's
// sensor and prints its token; one network sends 210 batches of 100 failures under the victim's id, first
// without a token (refused: the id is registered), then under an unregistered id of the same shape, until its
// own network's allowance runs out; the real sensor, posting with its token from its own network, is still
// taken, and so is an unregistered sensor on another network. `sensors revoke` ends the token.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readServeSettings, type StartedServe, startServe } from '../src/commands/serve.js';
import { EXIT_FAILED, EXIT_OK, runCommand } from '../src/commands.js';
import { SENSOR_REGISTRATIONS_PREFIX } from '../src/data/paths.js';
import { createLogger } from '../src/log.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { writeFixture } from './fixtures/http-atlas.js';

const ATTACKER = '203.0.113.66';
const VICTIM = '198.51.100.7';
const VICTIM_ID = 'gw-victim-01';

let dir: string;
let one: StartedServe;
let base: string;

/** Runs one command line in this process and keeps what it printed. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
  try {
    return { code: await runCommand(argv, createLogger('silent')), out, err };
  } finally {
    vi.restoreAllMocks();
  }
}

/** A batch of `n` failures about a watched server, dated a minute ago by the real clock the served app reads. */
function failures(sensor: string, n = 100) {
  const at = new Date(Date.now() - 60_000).toISOString();
  return {
    sensor,
    outcomes: Array.from({ length: n }, () => ({ server: 'notes-hub', ok: false, at, reason: 'timeout' })),
  };
}

async function post(
  body: unknown,
  network: string,
  token?: string,
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${base}/api/sensors`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': network,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atlas-sensor-tokens-'));
  await writeFixture(createFsStorage(dir));
  const settings = readServeSettings(['--data', dir, '--port', '0', '--no-schedule', '--trust-proxy', '1'], {});
  one = await startServe(settings, createLogger('silent'), { handleSignals: false });
  base = `http://127.0.0.1:${one.running.port}`;
});

afterAll(async () => {
  await one?.running.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('a stranger sends 210 batches of 100 failures under a real sensor’s id', () => {
  let token: string;

  it('sensors add prints a token once and stores only its digest', async () => {
    const added = await run(['sensors', 'add', VICTIM_ID, '--data', dir]);
    expect(added.code).toBe(EXIT_OK);
    token = added.out.trim();
    expect(token).toMatch(/^mcp-atlas-sensor-[A-Za-z0-9_-]{43}$/);
    expect(added.err).toContain('shown only now');
    const stored = await createFsStorage(dir).list(SENSOR_REGISTRATIONS_PREFIX);
    expect(stored).toEqual([`${SENSOR_REGISTRATIONS_PREFIX}${VICTIM_ID}.json`]);
    const text = new TextDecoder().decode((await createFsStorage(dir).get(stored[0]!))!);
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice('mcp-atlas-sensor-'.length));
    const listed = await run(['sensors', 'list', '--data', dir]);
    expect(listed.out).toMatch(new RegExp(`^${VICTIM_ID}  registered `));
    expect(listed.out).not.toContain(token);
  });

  it('refuses every batch under the registered id without its token, 401 with a clear message', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 210; i++) {
      const answer = await post(failures(VICTIM_ID), ATTACKER);
      statuses.add(answer.status);
      if (i === 0) {
        expect(answer.body.error.code).toBe('sensor_token_required');
        expect(answer.body.error.message).toContain('Authorization: Bearer');
        expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
      }
    }
    expect([...statuses]).toEqual([401]);
    const guessed = await post(failures(VICTIM_ID), ATTACKER, `mcp-atlas-sensor-${'A'.repeat(43)}`);
    expect(guessed).toMatchObject({ status: 401, body: { error: { code: 'invalid_sensor_token' } } });
    const notBearer = await fetch(`${base}/api/sensors`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ATTACKER, authorization: `Basic ${token}` },
      body: JSON.stringify(failures(VICTIM_ID)),
    });
    expect(notBearer.status).toBe(401);
  });

  it('holds the stranger’s unregistered ids to its own network’s allowance', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 210; i++) statuses.push((await post(failures('gw-victim-02'), ATTACKER)).status);
    expect(statuses.slice(0, 200)).toEqual(Array(200).fill(201));
    expect(new Set(statuses.slice(200))).toEqual(new Set([429]));
    // Another id from the same network spends the same allowance.
    expect((await post(failures('gw-other'), ATTACKER)).status).toBe(429);
  });

  it('still takes the real sensor, posting with its token from its own network, and the same id elsewhere', async () => {
    const real = await post(failures(VICTIM_ID), VICTIM, token);
    expect(real).toMatchObject({ status: 201, body: { accepted: 100 } });
    // The token is the sensor's wherever it posts from, the stranger's exhausted network included.
    expect((await post(failures(VICTIM_ID, 1), ATTACKER, token)).status).toBe(201);
    // The unregistered id the stranger filled is still free to a sensor on another network.
    expect((await post(failures('gw-victim-02', 1), VICTIM)).status).toBe(201);
  });

  it('sensors revoke ends the token; the id stays reserved', async () => {
    expect((await run(['sensors', 'revoke', VICTIM_ID, '--data', dir])).code).toBe(EXIT_OK);
    expect((await post(failures(VICTIM_ID, 1), VICTIM, token)).body.error.code).toBe('invalid_sensor_token');
    expect((await post(failures(VICTIM_ID, 1), VICTIM)).body.error.code).toBe('sensor_token_required');
    expect((await run(['sensors', 'revoke', 'gw-never', '--data', dir])).code).toBe(EXIT_FAILED);
    const again = await run(['sensors', 'add', VICTIM_ID, '--data', dir]);
    expect(again.err).toContain('replaced the token of');
    expect((await post(failures(VICTIM_ID, 1), VICTIM, again.out.trim())).status).toBe(201);
  });
});
