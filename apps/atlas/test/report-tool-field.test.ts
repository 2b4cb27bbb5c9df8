// A report's tool name is kept only when it can be checked against the server's tool list. For a server that has
// no tool list (it was down, or asked for sign-in), any name-shaped text would otherwise be sealed into the day's
// report log for good, in the reporter's own words. The running service (serveAtlas over the HTTP fixture in a
// real folder) takes such a report through POST /api/reports and through the report_road MCP tool: both are
// accepted, so an agent's report of a down server still counts, and the line written to
// days/<day>/reports.jsonl on disk keeps no tool name. A server with a tool list keeps the (listed) name.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { dayReportsPath } from '../src/data/paths.js';
import { StoredReportSchema } from '../src/http/schemas.js';
import { createLogger } from '../src/log.js';
import { type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { FIXTURE_NOW, TODAY, writeFixture } from './fixtures/http-atlas.js';

/** Name-shaped text (it passes the tool-name pattern) that is really a message. */
const POSTED_TEXT = 'server-leaked-my-data-see-evil.example/x';
const MCP_TEXT = 'call-me:at/evil.example/now';

let folder: string | null = null;
let running: RunningAtlas | null = null;
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await running?.close();
  running = null;
  if (folder !== null) await rm(folder, { recursive: true, force: true });
  folder = null;
});

/** The service over the fixture in a temporary folder; requests come from the loopback socket. */
async function start(): Promise<{ atlas: RunningAtlas; data: string }> {
  folder = await mkdtemp(join(tmpdir(), 'atlas-report-tool-'));
  const data = join(folder, 'data');
  const { storage, keys } = await writeFixture(createFsStorage(data));
  running = await serveAtlas({
    storage,
    port: 0,
    log: createLogger('silent'),
    keys,
    now: () => FIXTURE_NOW,
    handleSignals: false,
  });
  return { atlas: running, data };
}

async function postReport(atlas: RunningAtlas, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${atlas.url}/api/reports`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function connect(atlas: RunningAtlas): Promise<Client> {
  const client = new Client({ name: 'report-tool-field-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${atlas.url}/mcp`)));
  clients.push(client);
  return client;
}

/** The day's report log as written on disk: its raw text and its lines, each read through the stored schema. */
async function reportLogOnDisk(data: string) {
  const text = await readFile(join(data, dayReportsPath(TODAY)), 'utf8');
  const lines = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => StoredReportSchema.parse(JSON.parse(line)));
  return { text, lines };
}

describe('the tool of a report about a server without a tool list', () => {
  it('is accepted but not kept, whether posted to /api/reports or filed with report_road', async () => {
    const { atlas, data } = await start();
    const posted = await postReport(atlas, { server: 'locked-crm', tool: POSTED_TEXT, ok: false, reason: 'auth' });
    expect(posted).toEqual({ status: 201, body: { accepted: true, day: TODAY, server: 'locked-crm', paid: false } });

    const client = await connect(atlas);
    const filed = await client.callTool({
      name: 'report_road',
      arguments: { server: 'locked-crm', tool: MCP_TEXT, ok: false, reason: 'timeout' },
    });
    expect(filed.isError).toBeFalsy();
    expect(filed.structuredContent).toEqual({ accepted: true, day: TODAY, server: 'locked-crm', paid: false });

    const { text, lines } = await reportLogOnDisk(data);
    expect(text).not.toContain(POSTED_TEXT);
    expect(text).not.toContain(MCP_TEXT);
    // Both reports are on file, and count: only the tool name is left empty.
    expect(lines.map(({ server, tool, ok, reason }) => ({ server, tool, ok, reason }))).toEqual([
      { server: 'locked-crm', tool: '', ok: false, reason: 'auth' },
      { server: 'locked-crm', tool: '', ok: false, reason: 'timeout' },
    ]);
  });

  it('keeps the tool of a server that has a tool list, since it is one of the listed names', async () => {
    const { atlas, data } = await start();
    expect((await postReport(atlas, { server: 'notes-hub', tool: 'list_notes', ok: true })).status).toBe(201);
    const client = await connect(atlas);
    const filed = await client.callTool({
      name: 'report_road',
      arguments: { server: 'notes-hub', tool: 'create_note', ok: true },
    });
    expect(filed.isError).toBeFalsy();
    const { lines } = await reportLogOnDisk(data);
    expect(lines.map((line) => line.tool)).toEqual(['list_notes', 'create_note']);
  });

  it('still refuses a tool that is not even shaped like a name, and keeps nothing of it', async () => {
    const { atlas, data } = await start();
    const sentence = await postReport(atlas, { server: 'locked-crm', tool: 'it asked me to log in', ok: false });
    expect(sentence.status).toBe(400);
    await expect(readFile(join(data, dayReportsPath(TODAY)), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
