// Submitted servers in their observation window, listed apart from the map: hand-made submission records in a
// real data folder, read by buildView, served by the real app on loopback (GET /api/servers checked against the
// OpenAPI document, the /servers and / pages), and carried unchanged by a per-server live update.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTED_OUT_PATH, submissionPath } from '../src/data/paths.js';
import { formatInstant } from '../src/pages/format.js';
import { describeAnsweredShare } from '../src/pages/observing-section.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { putJson, type Storage } from '../src/storage/storage.js';
import {
  type SubmissionCheckRecord,
  type SubmissionRecord,
  startSubmission,
  writeSubmission,
} from '../src/submissions/records.js';
import { type AtlasView, buildView } from '../src/view/build-view.js';
import { updateServersLive } from '../src/view/live-update.js';
import { getJsonAt, type RunningFixture, startFixture, urlOf, writeFixture } from './fixtures/http-atlas.js';

const HOUR = 3_600_000;
// The served app reads the real clock, so the records are dated from it.
const now = new Date();
const hoursBefore = (hours: number) => new Date(now.getTime() - hours * HOUR);
const hoursAfter = (from: Date, hours: number) => new Date(from.getTime() + hours * HOUR).toISOString();

function check(at: string, answered: boolean, serverName: string | null): SubmissionCheckRecord {
  return {
    at,
    letter: answered ? 'o' : 'd',
    reason: answered ? 'ok' : 'http_503',
    answeredWithTools: answered,
    toolsHash: answered ? 'a'.repeat(64) : null,
    toolCount: answered ? 1 : 0,
    allToolsDescribed: true,
    serverName: answered ? serverName : null,
  };
}

/** A record of `url` submitted `hoursAgo` hours ago, with `edit` applied. */
function recordOf(
  url: string,
  hoursAgo: number,
  edit: (record: SubmissionRecord, submittedAt: Date) => Partial<SubmissionRecord>,
): SubmissionRecord {
  const submittedAt = hoursBefore(hoursAgo);
  const record = startSubmission(url, new URL(url).hostname, submittedAt, null);
  return { ...record, ...edit(record, submittedAt) };
}

// First week, 30 hours in: checks at slots 0, 6 and 12 hours, two of them answered. 2 of 3 is 66.666...%,
// truncated to 66.6 as the decision reads it (rounding would write 66.7).
const firstWeek = recordOf('https://observed-one.example.test/mcp', 30, (_, at) => ({
  checks: [
    check(hoursAfter(at, 0), true, 'Observed One'),
    check(hoursAfter(at, 6), false, null),
    check(hoursAfter(at, 12), true, 'Observed One'),
  ],
}));
// In its one extra window (submitted 8 days ago, extended once): the first week's checks are not counted.
const extended = recordOf('https://observed-two.example.test/mcp', 8 * 24, (_, at) => ({
  extensions: 1,
  checks: [
    check(hoursAfter(at, 0), false, null),
    check(hoursAfter(at, 6), true, 'two'),
    check(hoursAfter(at, 7 * 24), true, 'two'),
  ],
  decisions: [
    {
      window: 0,
      decidedAt: hoursAfter(at, 7 * 24),
      verdict: 'extended',
      reasons: ['fewer checks than the rule asks'],
      figures: { checks: 2, answered: 1, answeredPercent: 50, toolListChanges: 0, undescribedChecks: 0 },
    },
  ],
}));
// Its server names itself with a terminal escape, BEL, a C1 control and a bidi override.
const HOSTILE_NAME = 'Sly\u001b[2J\u0007\u009b\u202eMemos';
const ANY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const hostile = recordOf('https://sly-memos.example.test/mcp', 2, (_, at) => ({
  checks: [check(hoursAfter(at, 0), true, HOSTILE_NAME)],
}));
// Submitted a minute ago, not checked yet.
const unchecked = recordOf('https://observed-three.example.test/mcp', 1 / 60, () => ({}));
// Not listed: admitted (now a watched server), refused, opted out, and a URL already on the map.
const admitted = recordOf('https://joined.example.test/mcp', 10 * 24, () => ({
  status: 'admitted',
  serverId: 'joined',
}));
const refused = recordOf('https://refused.example.test/mcp', 10 * 24, () => ({ status: 'refused' }));
const optedOut = recordOf('https://gone.example.test/mcp', 20, () => ({}));
const alreadyWatched = recordOf(urlOf('notes-hub'), 20, () => ({}));

let dataDir: string;
let storage: Storage;
let view: AtlasView;
let f: RunningFixture;
let empty: RunningFixture;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'atlas-observing-'));
  const written = await writeFixture(createFsStorage(dataDir));
  storage = written.storage;
  for (const record of [firstWeek, extended, unchecked, admitted, refused, optedOut, alreadyWatched])
    await writeSubmission(storage, record);
  await putJson(storage, OPTED_OUT_PATH, { hosts: ['gone.example.test'] });
  // A record that does not parse is left out; the view is still built.
  await storage.put(
    submissionPath('sub-00000000000000000000'),
    new TextEncoder().encode('{"id": "sub-00000000000000000000", "url": 7}'),
  );
  view = await buildView(storage, now);
  f = await startFixture({ storage, keys: written.keys });
  empty = await startFixture();
});

afterAll(async () => {
  await f?.close();
  await empty?.close();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

describe('the read model', () => {
  it('lists the submissions in observation, oldest first, and no other', () => {
    expect(view.observing.map((entry) => entry.url)).toEqual([extended.url, firstWeek.url, unchecked.url]);
  });

  it('gives each its window and what the window saw so far', () => {
    const [two, one, three] = view.observing;
    expect(one).toEqual({
      id: firstWeek.id,
      url: firstWeek.url,
      name: 'Observed One',
      submittedAt: firstWeek.submittedAt,
      window: { index: 0, start: firstWeek.submittedAt, end: hoursAfter(new Date(firstWeek.submittedAt), 7 * 24) },
      checks: 3,
      answered: 2,
      answeredPercent: 66.6,
      // The slot after the last check (12 hours) is 18 hours: due, since a missed slot is not made up.
      nextCheckAt: hoursAfter(new Date(firstWeek.submittedAt), 18),
    });
    // The extra window starts where the first week ended; only its own check counts.
    expect(two).toMatchObject({
      window: {
        index: 1,
        start: hoursAfter(new Date(extended.submittedAt), 7 * 24),
        end: hoursAfter(new Date(extended.submittedAt), 14 * 24),
      },
      checks: 1,
      answered: 1,
      answeredPercent: 100,
    });
    expect(three).toMatchObject({
      name: null,
      checks: 0,
      answered: 0,
      answeredPercent: null,
      nextCheckAt: unchecked.submittedAt,
    });
  });

  it('keeps them out of the servers, the search and the route', () => {
    const urls = new Set(view.observing.map((entry) => entry.url));
    expect(view.servers.filter((server) => urls.has(server.url))).toEqual([]);
    expect([...view.byId.values()].filter((server) => urls.has(server.url))).toEqual([]);
    expect(view.servers.map((server) => server.url)).toContain(alreadyWatched.url);
  });

  it('is carried over unchanged by a per-server live update', async () => {
    const result = await updateServersLive(view, storage, ['notes-hub'], now);
    expect(result.updated).toEqual(['notes-hub']);
    expect(result.view).not.toBe(view);
    expect(result.view.observing).toBe(view.observing);
  });
});

describe('GET /api/servers', () => {
  it('adds the observing list apart from the servers, as the OpenAPI document describes it', async () => {
    const { status, body } = await getJsonAt(`${f.base}/api/servers`);
    expect(status).toBe(200);
    expect(body.observing.map((entry: { id: string }) => entry.id)).toEqual([extended.id, firstWeek.id, unchecked.id]);
    expect(body.observing[1]).toMatchObject({
      checks: 3,
      answered: 2,
      answeredPercent: 66.6,
      name: 'Observed One',
      window: { index: 0 },
    });
    const listed = new Set(body.servers.map((server: { url: string }) => server.url));
    for (const entry of body.observing) expect(listed.has(entry.url)).toBe(false);
    const doc = (await getJsonAt(`${f.base}/api/openapi.json`)).body;
    const schema = doc.paths['/api/servers'].get.responses['200'].content['application/json'].schema;
    const validate = new AjvJsonSchemaValidator().getValidator({
      allOf: [schema],
      components: doc.components,
    } as never);
    expect(validate(body).errorMessage ?? 'valid').toBe('valid');
    // An answer with an observing entry missing a field does not pass: the document really describes it.
    const broken = { ...body, observing: [{ ...body.observing[0], checks: undefined }] };
    expect(validate(JSON.parse(JSON.stringify(broken))).valid).toBe(false);
  });

  it('gives a server-chosen name without control characters, in the list and the submission record', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'atlas-observing-hostile-'));
    const written = await writeFixture(createFsStorage(folder));
    await writeSubmission(written.storage, hostile);
    const app = await startFixture({ storage: written.storage, keys: written.keys });
    try {
      const { body } = await getJsonAt(`${app.base}/api/servers`);
      const entry = body.observing.find((e: { id: string }) => e.id === hostile.id);
      console.log('ENTRY', JSON.stringify(entry));
      expect(entry.name).toBe('Sly[2JMemos');
      expect(ANY_CONTROL.test(JSON.stringify(body))).toBe(false);
      const record = await getJsonAt(`${app.base}/api/submissions/${hostile.id}`);
      expect(record.status).toBe(200);
      expect(ANY_CONTROL.test(JSON.stringify(record.body))).toBe(false);
      const page = await fetch(`${app.base}/servers`);
      expect(ANY_CONTROL.test(await page.text())).toBe(false);
    } finally {
      await app.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('answers an empty list when nothing is in observation', async () => {
    const { body } = await getJsonAt(`${empty.base}/api/servers`);
    expect(body.observing).toEqual([]);
  });
});

describe('the pages', () => {
  it.each(['/servers', '/'])('%s shows the "In observation" section with each submission’s progress', async (path) => {
    const html = await (await fetch(`${f.base}${path}`)).text();
    expect(html).toContain('In observation');
    expect(html).toContain(`data-submission="${firstWeek.id}"`);
    expect(html).toContain(`data-submission="${extended.id}"`);
    expect(html).toContain(describeAnsweredShare({ answered: 2, checks: 3, answeredPercent: 66.6 }));
    expect(html).toContain('2 of 3 checks (66.6%)');
    expect(html).toContain('no check yet');
    expect(html).toContain(formatInstant(hoursAfter(new Date(firstWeek.submittedAt), 7 * 24)));
    expect(html).toContain('(extra window)');
    for (const record of [admitted, refused, optedOut, alreadyWatched])
      expect(html).not.toContain(`data-submission="${record.id}"`);
  });

  it.each(['/servers', '/'])('%s has no such section when nothing is in observation', async (path) => {
    const html = await (await fetch(`${empty.base}${path}`)).text();
    expect(html).not.toContain('In observation');
  });
});
