import { createHash, createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DayRootBodySchema, ErrorBodySchema, WellKnownSchema } from '../src/http/schemas.js';
import { FIXTURE_DAYS, getJsonAt, type RunningFixture, startFixture, TODAY } from './fixtures/http-atlas.js';

let f: RunningFixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(async () => {
  await f.close();
});

/** 7Maps' verification, step by step, with node:crypto alone and our host in place of theirs. */
async function verifyDay(base: string, day: string): Promise<'verified' | 'mismatch'> {
  const wk = await (await fetch(`${base}/.well-known/mcp-atlas.json`)).json();
  const r = await (await fetch(`${base}/api/maps?a=root&day=${day}`)).json();
  const root = createHash('sha256')
    .update(`${r.previous_root || ''}\n${r.files.join('\n')}`)
    .digest('hex');
  const ok = verify(
    null,
    Buffer.from(r.root, 'hex'),
    createPublicKey(wk.integrity.public_key_pem),
    Buffer.from(r.signature, 'base64'),
  );
  return root === r.root && ok ? 'verified' : 'mismatch';
}

describe('GET /.well-known/mcp-atlas.json', () => {
  it('publishes the public key as SPKI PEM, the methodology version and the bot user agent', async () => {
    const { status, body } = await getJsonAt(`${f.base}/.well-known/mcp-atlas.json`);
    expect(status).toBe(200);
    const wk = WellKnownSchema.parse(body);
    expect(wk.methodology_version).toBe('1.0.0');
    expect(wk.user_agent).toBe('mcp-atlas-bot/0.1.0 (+https://example.test/bot)');
    expect(wk.version).toBe('0.1.0-test');
    expect(wk.integrity.public_key_pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
    const key = createPublicKey(wk.integrity.public_key_pem);
    expect(key.asymmetricKeyType).toBe('ed25519');
    expect(key.export({ format: 'der', type: 'spki' }).subarray(-32)).toEqual(Buffer.from(f.keys.publicKey));
    expect(wk.integrity.latest_day).toBe(FIXTURE_DAYS.at(-1));
  });
});

describe('GET /api/maps?a=root', () => {
  it.each(FIXTURE_DAYS)("verifies %s exactly as 7Maps' snippet does", async (day) => {
    expect(await verifyDay(f.base, day)).toBe('verified');
  });

  it('serves exactly the five fields of the day root, chained to the day before', async () => {
    const first = await getJsonAt(`${f.base}/api/maps?a=root&day=${FIXTURE_DAYS[0]}`);
    const second = await getJsonAt(`${f.base}/api/maps?a=root&day=${FIXTURE_DAYS[1]}`);
    expect(Object.keys(second.body).sort()).toEqual(['day', 'files', 'previous_root', 'root', 'signature']);
    expect(DayRootBodySchema.parse(first.body).previous_root).toBeNull();
    expect(second.body.previous_root).toBe(first.body.root);
    expect(second.body.files.some((line: string) => line.endsWith('  results/000.json'))).toBe(true);
    expect(second.headers.get('cache-control')).toContain('max-age');
  });

  it('answers a tampered copy with mismatch: the check is real', async () => {
    const r = (await getJsonAt(`${f.base}/api/maps?a=root&day=${FIXTURE_DAYS[2]}`)).body;
    const files = [...r.files];
    files[0] = files[0].replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
    const root = createHash('sha256')
      .update(`${r.previous_root || ''}\n${files.join('\n')}`)
      .digest('hex');
    expect(root).not.toBe(r.root);
  });

  it('answers 404 for a day without a root (today is not sealed yet)', async () => {
    const response = await getJsonAt(`${f.base}/api/maps?a=root&day=${TODAY}`);
    expect(response.status).toBe(404);
    expect(ErrorBodySchema.parse(response.body).error.code).toBe('no_root');
  });

  it.each([
    ['a missing day', '/api/maps?a=root'],
    ['a day that is not YYYY-MM-DD', '/api/maps?a=root&day=2026-11-3'],
    ['a day that is not on the calendar', '/api/maps?a=root&day=2026-02-30'],
    ['an a other than root', '/api/maps?a=leaf&day=2026-11-30'],
    ['a missing a', '/api/maps?day=2026-11-30'],
    ['an unknown parameter', '/api/maps?a=root&day=2026-11-30&format=xml'],
  ])('refuses %s with 400', async (_what, path) => {
    const response = await getJsonAt(f.base + path);
    expect(response.status).toBe(400);
    expect(ErrorBodySchema.parse(response.body).error.code).toBe('invalid_query');
  });
});
