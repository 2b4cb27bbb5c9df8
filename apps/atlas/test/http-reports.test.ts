import { afterEach, describe, expect, it } from 'vitest';
import { dayReportsPath, rootPath } from '../src/data/paths.js';
import { anonymousReporterId, secondsUntilNextUtcDay } from '../src/http/report-intake.js';
import { ErrorBodySchema, ReportAcceptedSchema, StoredReportSchema } from '../src/http/schemas.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import type { Storage } from '../src/storage/storage.js';
import {
  dumpStorage,
  postJson,
  type RunningFixture,
  startFixture,
  TODAY,
  urlOf,
  writeFixture,
} from './fixtures/http-atlas.js';

const HASH = 'a'.repeat(64);
const running: RunningFixture[] = [];
async function start(options: Parameters<typeof startFixture>[0] = {}): Promise<RunningFixture> {
  const f = await startFixture(options);
  running.push(f);
  return f;
}
afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

/** Posts a report as if from `ip` (the fixture trusts one proxy hop, so X-Forwarded-For is the client). */
function report(f: RunningFixture, body: unknown, ip: string, headers: Record<string, string> = {}) {
  return postJson(`${f.base}/api/reports`, body, { 'x-forwarded-for': ip, ...headers });
}

async function storedReports(f: RunningFixture): Promise<unknown[]> {
  const bytes = await f.storage.get(dayReportsPath(TODAY));
  if (bytes === null) return [];
  return new TextDecoder()
    .decode(bytes)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

const minimal = { server: 'notes-hub', tool: 'list_notes', ok: true };

describe('POST /api/reports: what is kept', () => {
  it('appends one JSON line with the fixed fields, the reporter, paid and the time', async () => {
    const f = await start();
    const response = await report(f, minimal, '198.51.100.7');
    expect(response.status).toBe(201);
    expect(ReportAcceptedSchema.parse(response.body)).toEqual({
      accepted: true,
      day: TODAY,
      server: 'notes-hub',
      paid: false,
    });
    const lines = await storedReports(f);
    expect(lines).toHaveLength(1);
    const line = StoredReportSchema.parse(lines[0]);
    expect(line).toEqual({
      server: 'notes-hub',
      tool: 'list_notes',
      ok: true,
      reporter: anonymousReporterId(new Uint8Array(32).fill(7), '198.51.100.0/24'),
      paid: false,
      at: '2026-12-01T10:00:00.000Z',
    });
  });

  it('keeps every optional field, and files a report given by URL under the server id', async () => {
    const f = await start();
    const full = {
      server: urlOf('notes-hub'),
      tool: 'create_note',
      ok: false,
      reason: 'server_error',
      ms: 812.5,
      matched: false,
      resultTokens: 120,
      charged: 0.02,
      surprise: 'side_effect',
      toolsHash: HASH,
    };
    expect((await report(f, full, '198.51.100.7')).status).toBe(201);
    const [line] = await storedReports(f);
    expect(Object.keys(line as object)).toEqual([
      'server',
      'tool',
      'ok',
      'reason',
      'ms',
      'matched',
      'resultTokens',
      'charged',
      'surprise',
      'toolsHash',
      'reporter',
      'paid',
      'at',
    ]);
    expect(line).toMatchObject({ ...full, server: 'notes-hub' });
  });

  it('writes only under days/<UTC day>/reports.jsonl, one line per report, in arrival order', async () => {
    const f = await start();
    const before = await dumpStorage(f.storage);
    await report(f, { ...minimal, tool: 'list_notes' }, '198.51.100.7');
    await report(f, { ...minimal, tool: 'create_note' }, '198.51.100.7');
    const after = await dumpStorage(f.storage);
    const changed = [...after.keys()].filter((path) => before.get(path) !== after.get(path));
    expect(changed).toEqual([dayReportsPath(TODAY)]);
    expect((await storedReports(f)).map((r: any) => r.tool)).toEqual(['list_notes', 'create_note']);
  });

  it('never stores an address, a network, a user agent, a license key or any free text', async () => {
    const f = await start();
    const agent = 'SecretAgent/9.9 (gadget-ua-marker)';
    await report(f, minimal, '198.51.100.77', { 'user-agent': agent });
    await report(f, minimal, '2001:db8:cafe:12::34', { 'user-agent': agent });
    await report(f, minimal, '203.0.113.9', { 'x-mcp-atlas-license': 'lic-alpha-0001', 'user-agent': agent });
    await report(f, { ...minimal, note: 'the tool was great, call me at 555' }, '203.0.113.10');
    const everything = [...(await dumpStorage(f.storage)).values()].join('\n');
    for (const secret of [
      '198.51.100',
      '2001:db8:cafe',
      '203.0.113',
      agent,
      'gadget-ua-marker',
      'lic-alpha-0001',
      'call me',
      '/24',
      '/48',
    ]) {
      expect(everything.includes(secret), secret).toBe(false);
    }
    expect(await storedReports(f)).toHaveLength(3);
  });
});

describe('POST /api/reports: refusals store nothing', () => {
  const cases: [string, unknown, string][] = [
    ['an extra field', { ...minimal, comment: 'it worked fine' }, '(body)'],
    ['two extra fields', { ...minimal, agent: 'x', prompt: 'y' }, '(body)'],
    ['ok as a string', { ...minimal, ok: 'yes' }, 'ok'],
    ['a missing ok', { server: 'notes-hub', tool: 'list_notes' }, 'ok'],
    ['a missing server', { tool: 'list_notes', ok: true }, 'server'],
    ['an empty tool', { ...minimal, tool: '' }, 'tool'],
    ['a tool name over 128 characters', { ...minimal, tool: 't'.repeat(129) }, 'tool'],
    ['a negative ms', { ...minimal, ms: -1 }, 'ms'],
    ['ms as text', { ...minimal, ms: 'fast' }, 'ms'],
    ['ms over one hour', { ...minimal, ms: 3_600_001 }, 'ms'],
    ['fractional result tokens', { ...minimal, resultTokens: 1.5 }, 'resultTokens'],
    ['a negative charge', { ...minimal, charged: -0.01 }, 'charged'],
    ['a reason outside the seven', { ...minimal, ok: false, reason: 'bored' }, 'reason'],
    ['a reason on a call that worked', { ...minimal, reason: 'timeout' }, 'reason'],
    ['a surprise outside the four', { ...minimal, surprise: 'delight' }, 'surprise'],
    ['a short tools hash', { ...minimal, toolsHash: 'abc123' }, 'toolsHash'],
    ['an upper-case tools hash', { ...minimal, toolsHash: 'A'.repeat(64) }, 'toolsHash'],
    ['matched as a number', { ...minimal, matched: 1 }, 'matched'],
    ['a null field', { ...minimal, reason: null }, 'reason'],
    ['an array', [minimal], '(body)'],
    ['a string', '"report"', '(body)'],
    ['null', 'null', '(body)'],
  ];

  it.each(cases)('refuses %s with a 400 naming the field', async (_what, body, field) => {
    const f = await start();
    const before = await dumpStorage(f.storage);
    const response = await report(f, body, '198.51.100.7');
    expect(response.status).toBe(400);
    const error = ErrorBodySchema.parse(response.body).error;
    expect(error.code).toBe('invalid_body');
    expect(error.issues?.map((i) => i.path)).toContain(field);
    expect(await dumpStorage(f.storage)).toEqual(before);
  });

  it('names the unknown field in the message', async () => {
    const f = await start();
    const response = await report(f, { ...minimal, comment: 'x' }, '198.51.100.7');
    expect(response.body.error.message).toContain('comment');
  });

  it('refuses a body that is not JSON with 400 invalid_json', async () => {
    const f = await start();
    const before = await dumpStorage(f.storage);
    const response = await report(f, '{"server": "notes-hub",', '198.51.100.7');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
    expect(await dumpStorage(f.storage)).toEqual(before);
  });

  it.each([
    ['text/plain (what a browser may send from another site without asking)', 'text/plain'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['no content type', ''],
  ])('refuses a JSON body declared as %s with 415', async (_what, contentType) => {
    const f = await start();
    const before = await dumpStorage(f.storage);
    const headers: Record<string, string> = { 'x-forwarded-for': '198.51.100.7' };
    if (contentType !== '') headers['content-type'] = contentType;
    const response = await fetch(`${f.base}/api/reports`, {
      method: 'POST',
      headers,
      body: new TextEncoder().encode(JSON.stringify(minimal)),
    });
    expect(response.status).toBe(415);
    expect((await response.json()).error.code).toBe('unsupported_media_type');
    expect(await dumpStorage(f.storage)).toEqual(before);
  });

  it('takes application/json with a charset parameter', async () => {
    const f = await start();
    const response = await report(f, minimal, '198.51.100.7', { 'content-type': 'application/json; charset=utf-8' });
    expect(response.status).toBe(201);
  });

  it('refuses a body over 4 KiB with 413', async () => {
    const f = await start();
    const before = await dumpStorage(f.storage);
    const response = await report(f, { ...minimal, padding: 'x'.repeat(5000) }, '198.51.100.7');
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({ code: 'body_too_large', limit: 4096 });
    expect(await dumpStorage(f.storage)).toEqual(before);
  });

  it('answers 404 for an unknown server and for a tool the server did not list', async () => {
    const f = await start();
    const before = await dumpStorage(f.storage);
    const server = await report(f, { ...minimal, server: 'nobody-home' }, '198.51.100.7');
    expect(server.status).toBe(404);
    expect(server.body.error.code).toBe('unknown_server');
    const tool = await report(f, { ...minimal, tool: 'launch_rocket' }, '198.51.100.7');
    expect(tool.status).toBe(404);
    expect(tool.body.error.code).toBe('unknown_tool');
    expect(await dumpStorage(f.storage)).toEqual(before);
  });

  it('takes any tool name on a server without a tool list, but only a name, not a sentence', async () => {
    const f = await start();
    expect(
      (await report(f, { server: 'locked-crm', tool: 'find_contact', ok: false, reason: 'auth' }, '198.51.100.7'))
        .status,
    ).toBe(201);
    const sentence = await report(
      f,
      { server: 'locked-crm', tool: 'it asked me to log in', ok: false },
      '198.51.100.7',
    );
    expect(sentence.status).toBe(400);
    expect(sentence.body.error.issues[0].path).toBe('tool');
    expect(await storedReports(f)).toHaveLength(1);
  });

  it('refuses reports for a day that is already sealed with 409', async () => {
    const f = await start();
    f.setNow(new Date('2026-11-30T12:00:00.000Z'));
    const before = await dumpStorage(f.storage);
    const response = await report(f, minimal, '198.51.100.7');
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('day_sealed');
    expect(await dumpStorage(f.storage)).toEqual(before);
  });

  it('answers 409 when the day is sealed between the check and the append, and the sealed day keeps no line', async () => {
    const { storage: inner, keys } = await writeFixture(createMemoryStorage());
    // The seal lands at the worst instant: after the intake saw no root, right before its line is written.
    const sealingAtAppend: Storage = {
      ...inner,
      append: async (path, bytes) => {
        if (path === dayReportsPath(TODAY)) await inner.put(rootPath(TODAY), new TextEncoder().encode('{}\n'));
        return inner.append(path, bytes);
      },
    };
    const f = await start({ storage: sealingAtAppend, keys });
    const response = await report(f, minimal, '198.51.100.7');
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('day_sealed');
    expect(await inner.get(dayReportsPath(TODAY))).toBeNull();
  });
});

describe('POST /api/reports: quotas', () => {
  it('takes 3 reports a day about one server from one reporter, and refuses the 4th with 429', async () => {
    const f = await start();
    for (let i = 0; i < 3; i++) expect((await report(f, minimal, '198.51.100.7')).status).toBe(201);
    const fourth = await report(f, minimal, '198.51.100.7');
    expect(fourth.status).toBe(429);
    expect(fourth.body.error).toMatchObject({ code: 'server_daily_limit', limit: 3 });
    // 10:00 UTC: the quota starts over in 14 hours.
    expect(fourth.headers.get('retry-after')).toBe(String(14 * 3600));
    // Another server is still open to the same reporter, and the same server to another reporter.
    expect((await report(f, { server: 'weather-desk', tool: 'get_forecast', ok: true }, '198.51.100.7')).status).toBe(
      201,
    );
    expect((await report(f, minimal, '192.0.2.1')).status).toBe(201);
    expect(await storedReports(f)).toHaveLength(5);
  });

  it('takes 50 reports a day from one reporter across servers, and refuses the 51st with 429', async () => {
    const f = await start({ fillers: 17 });
    const servers = ['notes-hub', ...Array.from({ length: 17 }, (_, i) => `filler-${String(i + 1).padStart(2, '0')}`)];
    let sent = 0;
    for (const server of servers) {
      for (let i = 0; i < 3 && sent < 50; i++, sent++) {
        const tool = server === 'notes-hub' ? 'list_notes' : 'open_record';
        expect((await report(f, { server, tool, ok: true }, '198.51.100.7')).status).toBe(201);
      }
    }
    expect(sent).toBe(50);
    // filler-17 has had 2 reports from this reporter: its own limit is not what refuses the 51st.
    const refused = await report(f, { server: 'filler-17', tool: 'open_record', ok: true }, '198.51.100.7');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'reporter_daily_limit', limit: 50 });
    expect(await storedReports(f)).toHaveLength(50);
  });

  it('starts the quotas over on the next UTC day', async () => {
    const f = await start();
    for (let i = 0; i < 3; i++) await report(f, minimal, '198.51.100.7');
    expect((await report(f, minimal, '198.51.100.7')).status).toBe(429);
    f.setNow(new Date('2026-12-02T00:00:01.000Z'));
    const next = await report(f, minimal, '198.51.100.7');
    expect(next.status).toBe(201);
    expect(next.body.day).toBe('2026-12-02');
  });

  it('keeps the day’s quotas across a restart, by reading the day’s log back', async () => {
    const f = await start();
    for (let i = 0; i < 3; i++) await report(f, minimal, '198.51.100.7');
    const again = await start({ storage: f.storage, keys: f.keys });
    expect((await report(again, minimal, '198.51.100.7')).status).toBe(429);
    expect((await report(again, minimal, '198.51.101.7')).status).toBe(201);
  });

  it('loses no report when many arrive at once, and lets exactly 3 through from one reporter', async () => {
    const f = await start();
    const distinct = await Promise.all(Array.from({ length: 20 }, (_, i) => report(f, minimal, `10.${i}.0.1`)));
    expect(distinct.map((r) => r.status)).toEqual(new Array(20).fill(201));
    const same = await Promise.all(Array.from({ length: 10 }, () => report(f, minimal, '172.16.5.5')));
    expect(same.filter((r) => r.status === 201)).toHaveLength(3);
    expect(same.filter((r) => r.status === 429)).toHaveLength(7);
    expect(await storedReports(f)).toHaveLength(23);
  });
});

describe('POST /api/reports: who the reporter is', () => {
  it('counts IPv4 addresses in one /24 as one reporter, and the next /24 as another', async () => {
    const f = await start();
    expect((await report(f, minimal, '198.51.100.1')).status).toBe(201);
    expect((await report(f, minimal, '198.51.100.128')).status).toBe(201);
    expect((await report(f, minimal, '198.51.100.255')).status).toBe(201);
    expect((await report(f, minimal, '198.51.100.42')).status).toBe(429);
    expect((await report(f, minimal, '198.51.101.1')).status).toBe(201);
    const reporters = (await storedReports(f)).map((r: any) => r.reporter);
    expect(new Set(reporters.slice(0, 3)).size).toBe(1);
    expect(reporters[3]).not.toBe(reporters[0]);
  });

  it('counts IPv6 addresses in one /48 as one reporter, and the next /48 as another', async () => {
    const f = await start();
    expect((await report(f, minimal, '2001:db8:aa::1')).status).toBe(201);
    expect((await report(f, minimal, '2001:db8:aa:1::2')).status).toBe(201);
    expect((await report(f, minimal, '2001:db8:aa:ffff:ffff:ffff:ffff:ffff')).status).toBe(201);
    expect((await report(f, minimal, '2001:db8:aa:42::9')).status).toBe(429);
    expect((await report(f, minimal, '2001:db8:ab::1')).status).toBe(201);
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 network', async () => {
    const f = await start();
    for (let i = 0; i < 3; i++) await report(f, minimal, '198.51.100.9');
    expect((await report(f, minimal, '::ffff:198.51.100.10')).status).toBe(429);
  });

  it('never tells reporters apart by user agent', async () => {
    const f = await start();
    for (const agent of ['agent-a/1', 'agent-b/2', 'agent-c/3']) {
      expect((await report(f, minimal, '198.51.100.7', { 'user-agent': agent })).status).toBe(201);
    }
    expect((await report(f, minimal, '198.51.100.7', { 'user-agent': 'agent-d/4' })).status).toBe(429);
    // The same user agent from another network is another reporter.
    expect((await report(f, minimal, '192.0.2.7', { 'user-agent': 'agent-a/1' })).status).toBe(201);
  });

  it('counts a report with a license key that validates as a paying reporter’s, with its own quota', async () => {
    const f = await start();
    for (let i = 0; i < 3; i++) await report(f, minimal, '198.51.100.7');
    const paid = await report(f, minimal, '198.51.100.7', { 'x-mcp-atlas-license': 'lic-alpha-0001' });
    expect(paid.status).toBe(201);
    expect(paid.body.paid).toBe(true);
    // The same key from another network is the same paying reporter.
    await report(f, minimal, '192.0.2.50', { 'x-mcp-atlas-license': 'lic-alpha-0001' });
    await report(f, minimal, '203.0.113.50', { 'x-mcp-atlas-license': 'lic-alpha-0001' });
    expect((await report(f, minimal, '192.0.2.51', { 'x-mcp-atlas-license': 'lic-alpha-0001' })).status).toBe(429);
    // Another key is another paying reporter.
    expect((await report(f, minimal, '198.51.100.7', { 'x-mcp-atlas-license': 'lic-beta-0002' })).status).toBe(201);
    const lines = (await storedReports(f)) as any[];
    const paidLines = lines.filter((r) => r.paid);
    expect(paidLines).toHaveLength(4);
    expect(paidLines.every((r) => r.reporter.startsWith('paid:'))).toBe(true);
    expect(new Set(paidLines.map((r) => r.reporter)).size).toBe(2);
    expect(lines.filter((r) => !r.paid).every((r) => r.reporter.startsWith('anon:'))).toBe(true);
  });

  it('counts a report whose license key does not validate as anonymous, keyed by its network', async () => {
    const f = await start();
    const response = await report(f, minimal, '198.51.100.7', { 'x-mcp-atlas-license': 'lic-made-up-9999' });
    expect(response.status).toBe(201);
    expect(response.body.paid).toBe(false);
    await report(f, minimal, '198.51.100.8');
    await report(f, minimal, '198.51.100.9');
    expect((await report(f, minimal, '198.51.100.10', { 'x-mcp-atlas-license': 'lic-other-0000' })).status).toBe(429);
  });

  it('refuses a license header over 256 characters with 400', async () => {
    const f = await start();
    const response = await report(f, minimal, '198.51.100.7', { 'x-mcp-atlas-license': 'k'.repeat(257) });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_license');
    expect(await storedReports(f)).toHaveLength(0);
  });

  it('refuses a forwarded address that is not an IP, or a missing one, with 400', async () => {
    const f = await start();
    expect((await report(f, minimal, 'not-an-address')).body.error.code).toBe('invalid_client_address');
    const missing = await postJson(`${f.base}/api/reports`, minimal);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('no_client_address');
    expect(await storedReports(f)).toHaveLength(0);
  });

  it('uses the socket address and ignores X-Forwarded-For when no proxy is trusted', async () => {
    const f = await start({ deps: { trustedProxyHops: 0 } });
    for (let i = 0; i < 3; i++) expect((await report(f, minimal, `192.0.2.${i + 1}`)).status).toBe(201);
    // All four came from 127.0.0.1, whatever the header claimed.
    expect((await report(f, minimal, '203.0.113.99')).status).toBe(429);
    const [line] = (await storedReports(f)) as any[];
    expect(line.reporter).toBe(anonymousReporterId(new Uint8Array(32).fill(7), '127.0.0.0/24'));
  });

  it('takes the address a trusted proxy appended, not the one a client wrote before it', async () => {
    const f = await start();
    for (let i = 0; i < 3; i++) expect((await report(f, minimal, `10.0.0.${i}, 198.51.100.7`)).status).toBe(201);
    expect((await report(f, minimal, '10.9.9.9, 198.51.100.8')).status).toBe(429);
  });
});

describe('secondsUntilNextUtcDay', () => {
  it.each([
    ['2026-12-01T10:00:00.000Z', 14 * 3600],
    ['2026-12-01T23:59:59.000Z', 1],
    ['2026-12-01T23:59:59.900Z', 1],
    ['2026-12-01T00:00:00.000Z', 86_400],
  ])('at %s is %i', (now, seconds) => {
    expect(secondsUntilNextUtcDay(new Date(now))).toBe(seconds);
  });
});
