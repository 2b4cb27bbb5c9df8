import { describe, expect, it } from 'vitest';
import { dayChangesPath } from '../src/data/paths.js';
import { createHttpApp } from '../src/http/app.js';
import { type HttpDeps, resolveHttpDeps } from '../src/http/deps.js';
import { displayStatusOf, presentServerSummary } from '../src/http/present-server.js';
import { answerRoute, answerToolSearch } from '../src/http/read-answers.js';
import { createChangeReader } from '../src/http/server-changes.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { createSerialQueue } from '../src/storage/serial-queue.js';
import { putJson } from '../src/storage/storage.js';
import type { ServerView } from '../src/view/build-view.js';
import { buildView, shownStatusFromRecords } from '../src/view/build-view.js';
import { FIXTURE_NOW, writeFixture } from './fixtures/http-atlas.js';
import { waitForQueuedSteps } from './setup/wait-for.js';

function captureLogger() {
  const lines: { level: string; fields: object; message?: string }[] = [];
  return {
    lines,
    logger: {
      info: (fields: object, message?: string) =>
        lines.push({ level: 'info', fields, ...(message !== undefined ? { message } : {}) }),
      warn: (fields: object, message?: string) =>
        lines.push({ level: 'warn', fields, ...(message !== undefined ? { message } : {}) }),
    },
  };
}

async function baseDeps(overrides: Partial<HttpDeps> = {}): Promise<HttpDeps> {
  const { storage, keys } = await writeFixture();
  const view = await buildView(storage, FIXTURE_NOW);
  return {
    getView: () => view,
    storage,
    publicKey: keys.publicKey,
    now: () => FIXTURE_NOW,
    methodologyVersion: '1.0.0',
    botUserAgent: 'bot/1',
    validateLicense: async (key) => key === 'good-key',
    reporterSecret: new Uint8Array(32).fill(1),
    trustedProxyHops: 1,
    ...overrides,
  };
}

describe('resolveHttpDeps', () => {
  it('refuses a reporter secret shorter than 32 bytes and a proxy hop count that is not a whole number', async () => {
    const deps = await baseDeps();
    expect(() => resolveHttpDeps({ ...deps, reporterSecret: new Uint8Array(31) })).toThrow(
      /reporterSecret must be at least 32 bytes/,
    );
    expect(() => resolveHttpDeps({ ...deps, reporterSecret: new Uint8Array(32) })).not.toThrow();
    expect(() => resolveHttpDeps({ ...deps, trustedProxyHops: -1 })).toThrow(/trustedProxyHops/);
    expect(() => resolveHttpDeps({ ...deps, trustedProxyHops: 1.5 })).toThrow(/trustedProxyHops/);
  });

  it('draws a random secret when none is given, and says so in the log', async () => {
    const { logger, lines } = captureLogger();
    const { reporterSecret: _unused, ...deps } = await baseDeps({ logger });
    const resolved = resolveHttpDeps(deps);
    expect(resolved.reporterSecret).toHaveLength(32);
    expect(resolved.appVersion).toBe('unversioned');
    expect(resolved.trustedProxyHops).toBe(1);
    expect(lines.some((line) => line.level === 'warn' && /reporterSecret/.test(line.message ?? ''))).toBe(true);
  });
});

describe('the log lines', () => {
  it('carry no address, user agent, license key or body text', async () => {
    const { logger, lines } = captureLogger();
    const app = createHttpApp(await baseDeps({ logger }));
    const post = (body: unknown, headers: Record<string, string>) =>
      app.request('/api/reports', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const headers = {
      'x-forwarded-for': '198.51.100.66',
      'user-agent': 'Logged/1.0 marker',
      'x-mcp-atlas-license': 'good-key',
    };
    expect((await post({ server: 'notes-hub', tool: 'list_notes', ok: true }, headers)).status).toBe(201);
    expect(
      (await post({ server: 'notes-hub', tool: 'list_notes', ok: true, words: 'free text here' }, headers)).status,
    ).toBe(400);
    const sensor = await app.request('/api/sensors', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        sensor: 'gw-log',
        outcomes: [{ server: 'notes-hub', ok: true, at: '2026-12-01T09:00:00Z' }],
      }),
    });
    expect(sensor.status).toBe(201);
    const text = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of ['198.51.100', 'Logged/1.0', 'good-key', 'free text'])
      expect(text.includes(secret), secret).toBe(false);
  });
});

describe('app.request without a socket', () => {
  it('refuses a report it cannot place on a network when no proxy is trusted', async () => {
    const app = createHttpApp(await baseDeps({ trustedProxyHops: 0 }));
    const response = await app.request('/api/reports', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ server: 'notes-hub', tool: 'list_notes', ok: true }),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('no_client_address');
  });

  it('answers an unexpected failure with a 500 JSON body that names no internals', async () => {
    const { logger, lines } = captureLogger();
    const deps = await baseDeps({ logger });
    const app = createHttpApp({
      ...deps,
      getView: () => {
        throw new Error('disk on fire at /secret/path');
      },
    });
    const response = await app.request('/api/servers');
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body.error.code).toBe('internal');
    expect(JSON.stringify(body)).not.toContain('/secret/path');
    expect(lines.some((line) => line.level === 'warn')).toBe(true);
  });
});

describe('an app before the first scan', () => {
  it('answers with empty lists, no root and no latest day', async () => {
    const storage = createMemoryStorage();
    const emptyView = await buildView(storage, FIXTURE_NOW);
    const app = createHttpApp({ ...(await baseDeps()), storage, getView: () => emptyView });
    expect(await (await app.request('/api/servers')).json()).toEqual({ day: null, servers: [], observing: [] });
    expect(await (await app.request('/api/toolsearch?q=notes')).json()).toEqual({ results: [] });
    expect((await (await app.request('/api/route?task=send%20mail')).json()).picks).toEqual([]);
    expect((await app.request('/api/maps?a=root&day=2026-11-30')).status).toBe(404);
    expect((await (await app.request('/.well-known/mcp-atlas.json')).json()).integrity.latest_day).toBeNull();
  });
});

describe('answerToolSearch and answerRoute', () => {
  it('turn the route package’s input errors into 400 refusals with its code', async () => {
    const view = (await baseDeps()).getView();
    const search = answerToolSearch(view, 'notes', { limit: 0 });
    expect(search).toMatchObject({ ok: false, refusal: { status: 400, code: 'invalid-option' } });
    const route = answerRoute(view, 'send mail', { now: FIXTURE_NOW, limit: 101 });
    expect(route).toMatchObject({ ok: false, refusal: { status: 400, code: 'invalid-option' } });
    expect(answerRoute(view, 'send mail', { now: FIXTURE_NOW }).ok).toBe(true);
  });
});

describe('createSerialQueue', () => {
  it('runs tasks one at a time, in order, and keeps going after a failure', async () => {
    const queue = createSerialQueue();
    const events: string[] = [];
    let releaseA!: () => void;
    const aHeld = new Promise<void>((resolve) => {
      releaseA = resolve;
    });
    const task = (name: string, until: Promise<void>) => async () => {
      events.push(`start ${name}`);
      await until;
      events.push(`end ${name}`);
      return name;
    };
    const failing = queue.run(async () => {
      events.push('start bad');
      throw new Error('bad');
    });
    const settled = Promise.allSettled([queue.run(task('a', aHeld)), failing, queue.run(task('b', Promise.resolve()))]);
    // While a is held, b does not start: everything that could run without a has run by now.
    await waitForQueuedSteps();
    expect(events).toEqual(['start bad', 'start a']);
    releaseA();
    const results = await settled;
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(events).toEqual(['start bad', 'start a', 'end a', 'start b', 'end b']);
  });
});

describe('createChangeReader', () => {
  it('skips a change file that does not parse, logs it, and still reads the others', async () => {
    const storage = createMemoryStorage();
    const { logger, lines } = captureLogger();
    await putJson(storage, dayChangesPath('2026-11-30'), {
      day: '2026-11-30',
      changes: [{ serverId: 's1', kind: 'redirect', detail: 'Moved.' }],
    });
    await storage.put(dayChangesPath('2026-11-29'), new TextEncoder().encode('{"day": "2026-11-29", "changes": [tor'));
    await putJson(storage, dayChangesPath('2026-11-28'), { day: '2026-11-28', nonsense: true });
    const reader = createChangeReader(storage, logger);
    expect(await reader.changesOf('s1', '2026-11-30')).toEqual([
      { day: '2026-11-30', kind: 'redirect', detail: 'Moved.' },
    ]);
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(2);
    expect(await reader.changesOf('s1', null)).toEqual([]);
  });

  it('picks up a change file for the newest day that appears after a first read', async () => {
    const storage = createMemoryStorage();
    const reader = createChangeReader(storage);
    expect(await reader.changesOf('s1', '2026-11-30')).toEqual([]);
    await putJson(storage, dayChangesPath('2026-11-30'), {
      day: '2026-11-30',
      changes: [{ serverId: 's1', kind: 'sign-in', detail: 'Now asks for sign-in.' }],
    });
    expect(await reader.changesOf('s1', '2026-11-30')).toHaveLength(1);
  });
});

describe('presentServerSummary', () => {
  it('gives a server missing from the newest day no letter, and its state’s last status', async () => {
    const deps = await baseDeps();
    const view = deps.getView();
    const notes = view.byId.get('notes-hub')!;
    const stale: ServerView = { ...notes, latest: null };
    const summary = presentServerSummary(view, stale);
    expect(summary.letter).toBeNull();
    expect(summary.toolCount).toBeNull();
    expect(summary.findings).toEqual([]);
    expect(summary.status).toEqual({ state: 'answering', label: 'answering with tools' });
  });

  it('says "not checked yet" for a server with no check at all', async () => {
    const deps = await baseDeps();
    const notes = deps.getView().byId.get('notes-hub')!;
    const unchecked = { ...notes, latest: null, letter: null, shown: shownStatusFromRecords(null, null, undefined) };
    expect(displayStatusOf(unchecked)).toEqual({ state: null, label: 'not checked yet' });
  });

  it('shows a plain d (no HTTP answer that is MCP-like) as not answering', async () => {
    const deps = await baseDeps();
    const odd = deps.getView().byId.get('odd-endpoint')!;
    const latest = { ...odd.latest!, notStandardMcp: false };
    const plain = { ...odd, latest, shown: shownStatusFromRecords(latest, null, undefined) };
    expect(displayStatusOf(plain)).toEqual({ state: 'down', label: 'not answering' });
  });
});
