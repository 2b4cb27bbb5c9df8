// POST /api/submissions, GET /api/submissions/:id and the submit_mcp_server MCP tool: the guard, the
// idempotent answers, the daily limits, and bad input refused with a 400 that changes nothing.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MCP_CALL_LOG_PREFIX } from '../src/data/paths.js';
import { SubmissionAnswerSchema } from '../src/http/submission-intake.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { putJson } from '../src/storage/storage.js';
import {
  dumpStorage,
  FIXTURE_NOW,
  getJsonAt,
  postJson,
  type RunningFixture,
  startFixture,
  urlOf,
  writeFixture,
} from './fixtures/http-atlas.js';

const running: RunningFixture[] = [];
const clients: Client[] = [];

afterEach(async () => {
  while (clients.length > 0) await clients.pop()!.close();
  for (const f of running.splice(0)) await f.close();
});

async function fixture(options: Parameters<typeof startFixture>[0] = {}): Promise<RunningFixture> {
  const f = await startFixture(options);
  running.push(f);
  return f;
}

const submit = (f: RunningFixture, body: unknown, ip = '192.0.2.10') =>
  postJson(`${f.base}/api/submissions`, body, { 'x-forwarded-for': ip });

describe('POST /api/submissions', () => {
  it('starts an observation, stores one record, and shows it at GET /api/submissions/:id', async () => {
    const f = await fixture();
    const before = await dumpStorage(f.storage);
    const answer = await submit(f, { url: 'https://mcp.recipes.example/mcp' });
    expect(answer.status).toBe(201);
    expect(SubmissionAnswerSchema.parse(answer.body)).toBeTruthy();
    const id = answer.body.submission.id as string;
    expect(id).toMatch(/^sub-[0-9a-f]{20}$/);
    expect(answer.body.submission).toMatchObject({
      url: 'https://mcp.recipes.example/mcp',
      status: 'observing',
      submittedAt: FIXTURE_NOW.toISOString(),
      nextCheckAt: FIXTURE_NOW.toISOString(),
      soFar: { checks: 0, answered: 0, toolListChanges: 0, undescribedChecks: 0 },
      decisions: [],
    });
    const after = await dumpStorage(f.storage);
    const added = [...after.keys()].filter((path) => !before.has(path)).sort();
    expect(added).toEqual([`state/rate-counters/2026-12-01.json`, `state/submissions/${id}.json`]);
    // The rate counter names a keyed hash of the network and the host, never the address.
    expect(after.get('state/rate-counters/2026-12-01.json')).not.toContain('192.0.2');
    expect((await getJsonAt(`${f.base}/api/submissions/${id}`)).body).toEqual(answer.body.submission);
  });

  it('answers a URL already under observation, or already watched, with what exists and stores nothing', async () => {
    const f = await fixture();
    const first = await submit(f, { url: 'https://mcp.recipes.example/mcp' });
    const before = await dumpStorage(f.storage);
    // The same URL, spelled with an upper-case host and a default port, is the same URL.
    const again = await submit(f, { url: 'https://MCP.Recipes.example:443/mcp' }, '203.0.113.9');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ created: false, submission: first.body.submission });
    const watched = await submit(f, { url: urlOf('notes-hub') });
    expect(watched.status).toBe(200);
    expect(watched.body).toEqual({
      created: false,
      submission: {
        id: null,
        url: urlOf('notes-hub'),
        status: 'watched',
        serverId: 'notes-hub',
        submittedAt: null,
        window: null,
        nextCheckAt: null,
        soFar: null,
        decisions: [],
        stoppedBecause: null,
        earlier: [],
      },
    });
    expect(await dumpStorage(f.storage)).toEqual(before);
  });

  it('takes 3 new submissions a day per host and refuses the 4th with 429 until the next UTC day', async () => {
    const f = await fixture();
    for (const path of ['/a', '/b', '/c'])
      expect((await submit(f, { url: `https://mcp.busy.example${path}` })).status).toBe(201);
    const before = await dumpStorage(f.storage);
    const fourth = await submit(f, { url: 'https://mcp.busy.example/d' }, '203.0.113.50');
    expect(fourth.status).toBe(429);
    expect(fourth.body.error).toEqual({
      code: 'host_daily_limit',
      message: '3 servers on mcp.busy.example were already submitted today (UTC); more are taken tomorrow',
      limit: 3,
    });
    // 10:00 UTC: 14 hours to the next UTC day.
    expect(fourth.headers.get('retry-after')).toBe(String(14 * 3600));
    expect(await dumpStorage(f.storage)).toEqual(before);
    f.setNow(new Date('2026-12-02T00:00:00.000Z'));
    expect((await submit(f, { url: 'https://mcp.busy.example/d' })).status).toBe(201);
  });

  it('takes 10 new submissions a day per network and refuses the 11th; another network is not held back', async () => {
    const f = await fixture();
    // 192.0.2.1 to 192.0.2.10 share one /24 network: one requester.
    for (let i = 1; i <= 10; i++)
      expect((await submit(f, { url: `https://mcp${i}.many.example/mcp` }, `192.0.2.${i}`)).status).toBe(201);
    const eleventh = await submit(f, { url: 'https://mcp11.many.example/mcp' }, '192.0.2.200');
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.error).toMatchObject({ code: 'requester_daily_limit', limit: 10 });
    expect((await submit(f, { url: 'https://mcp11.many.example/mcp' }, '198.51.100.1')).status).toBe(201);
  });

  it('refuses a URL the guard would never probe, an opted-out host, and malformed bodies, each with a 400 that changes nothing', async () => {
    const { storage, keys } = await writeFixture(createMemoryStorage());
    await putJson(storage, 'state/opted-out.json', { hosts: ['gone.example'] });
    const f = await fixture({ storage, keys });
    const before = await dumpStorage(f.storage);
    const cases: [unknown, string, string][] = [
      [{ url: 'http://mcp.plain.example/mcp' }, 'url_refused', 'guard:not-https'],
      [{ url: 'https://203.0.113.5/mcp' }, 'url_refused', 'guard:ip-literal'],
      [{ url: 'https://[2001:db8::1]/mcp' }, 'url_refused', 'guard:ip-literal'],
      [{ url: 'https://localhost/mcp' }, 'url_refused', 'guard:localhost'],
      [{ url: 'https://printer.local/mcp' }, 'url_refused', 'guard:local-name'],
      [{ url: 'https://mcp.example/{tenant}/mcp' }, 'url_refused', 'guard:template'],
      [{ url: 'https://user:pw@mcp.example/mcp' }, 'url_refused', 'guard:user-info'],
      [{ url: 'https://mcp.gone.example/mcp' }, 'url_refused', 'guard:opted-out'],
      [{ url: 'ftp://mcp.example/mcp' }, 'url_refused', 'guard:'],
      [{ url: 'https://mcp.example/mcp#tools' }, 'invalid_body', 'url: must not carry a #fragment'],
      [{ url: 'mcp.example/mcp' }, 'invalid_body', 'url: must be an absolute URL such as https://mcp.example.com/mcp'],
      [{ url: 'https://mcp.example/ mcp' }, 'invalid_body', 'url: must not contain spaces or control characters'],
      [{ url: '' }, 'invalid_body', 'url: must not be empty'],
      [{ url: `https://mcp.example/${'a'.repeat(2048)}` }, 'invalid_body', 'url: must be at most 2048 characters'],
      [{ url: 42 }, 'invalid_body', 'url: '],
      [{}, 'invalid_body', 'url: '],
      [{ url: 'https://mcp.example/mcp', title: 'Mine' }, 'invalid_body', 'Unrecognized key'],
      [['https://mcp.example/mcp'], 'invalid_body', '(body): '],
      ['{"url": ', 'invalid_json', 'the body is not JSON'],
    ];
    for (const [body, code, words] of cases) {
      const answer = await submit(f, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error.code, JSON.stringify(body).slice(0, 80)).toBe(code);
      expect(answer.body.error.message, JSON.stringify(body).slice(0, 80)).toContain(words);
    }
    const wrongType = await fetch(`${f.base}/api/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"url":"https://mcp.example/mcp"}',
    });
    expect(wrongType.status).toBe(415);
    const huge = await submit(f, { url: `https://mcp.example/${'a'.repeat(5000)}` });
    expect(huge.status).toBe(413);
    expect(await dumpStorage(f.storage)).toEqual(before);
  });
});

describe('GET /api/submissions/:id', () => {
  it('refuses an id that is not one with 400, and an unknown one with 404', async () => {
    const f = await fixture();
    const bad = await getJsonAt(`${f.base}/api/submissions/notes-hub`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: 'invalid_path',
      message: 'id: a submission id is "sub-" and 20 lower-case hex characters',
    });
    const unknown = await getJsonAt(`${f.base}/api/submissions/sub-${'0'.repeat(20)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('unknown_submission');
  });
});

describe('the submit_mcp_server MCP tool', () => {
  async function connect(f: RunningFixture, ip: string): Promise<Client> {
    const client = new Client({ name: 'atlas-submission-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${f.base}/mcp`), {
        requestInit: { headers: { 'x-forwarded-for': ip } },
      }),
    );
    clients.push(client);
    return client;
  }

  it('submits through the same intake: same answer, same limits, same refusals', async () => {
    const f = await fixture();
    const client = await connect(f, '192.0.2.77');
    const result = await client.callTool({
      name: 'submit_mcp_server',
      arguments: { url: 'https://mcp.agents.example/mcp' },
    });
    expect(result.isError).toBeFalsy();
    const answer = SubmissionAnswerSchema.parse(result.structuredContent);
    expect(answer).toMatchObject({
      created: true,
      submission: { status: 'observing', url: 'https://mcp.agents.example/mcp' },
    });
    // The same URL over HTTP finds the same submission.
    expect((await submit(f, { url: 'https://mcp.agents.example/mcp' })).body.submission.id).toBe(answer.submission.id);

    // Every MCP call is written to the call log, refused ones included (it exists to trace abuse); nothing else may change.
    const withoutCallLog = async () =>
      new Map([...(await dumpStorage(f.storage))].filter(([path]) => !path.startsWith(MCP_CALL_LOG_PREFIX)));
    const before = await withoutCallLog();
    const loggedBefore = (await f.storage.list(MCP_CALL_LOG_PREFIX)).length;
    const refused = await client.callTool({ name: 'submit_mcp_server', arguments: { url: 'https://127.0.0.1/mcp' } });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]!.text).toContain('url_refused: url: ');
    const malformed = await client.callTool({
      name: 'submit_mcp_server',
      arguments: { url: 'https://mcp.example/mcp', extra: 1 },
    });
    expect(malformed.isError).toBe(true);
    expect(await withoutCallLog()).toEqual(before);
    expect((await f.storage.list(MCP_CALL_LOG_PREFIX)).length).toBe(loggedBefore);
  });
});
