// A client that hangs up in the middle of its request body is the client's failure, not the service's. Found by
// the load-and-fuzz run: a POST whose Content-Length promised more bytes than were sent, on a socket then closed,
// was counted as a 500 in /metrics and the access log and logged as a failed request, so any visitor could raise
// the service's server-error rate (and page whoever watches it) at will. The running service (serveAtlas with
// its operator endpoints) over the HTTP fixture, spoken to with raw bytes on 127.0.0.1.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { FIXTURE_NOW, writeFixture } from './fixtures/http-atlas.js';

let atlas: RunningAtlas;
let host: string;
const entries: Record<string, unknown>[] = [];
const waiters: { match: (entry: Record<string, unknown>) => boolean; resolve: (e: Record<string, unknown>) => void }[] =
  [];

/** Resolves with the first log entry (already written or still to come) that `match` accepts. */
function logEntry(match: (entry: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const found = entries.find(match);
  if (found !== undefined) return Promise.resolve(found);
  return new Promise((resolve) => waiters.push({ match, resolve }));
}

function onLogLine(line: string): void {
  const entry = JSON.parse(line) as Record<string, unknown>;
  entries.push(entry);
  for (const waiter of waiters.filter((w) => w.match(entry))) {
    waiters.splice(waiters.indexOf(waiter), 1);
    waiter.resolve(entry);
  }
}

beforeAll(async () => {
  const { storage, keys } = await writeFixture();
  atlas = await serveAtlas({
    storage,
    port: 0,
    log: createLogger('debug', { destination: { write: onLogLine } }),
    keys,
    now: () => FIXTURE_NOW,
    operator: { metricsToken: null, budgetsMicroUsd: { daily: 100_000, fiveMinute: 250_000 } },
  });
  host = new URL(atlas.url).host;
});

afterAll(async () => {
  await atlas?.close();
});

/** Sends the head and part of a body that promises `declared` bytes, then closes the socket. */
function hangUpMidBody(path: string, declared: number, partial: string): Promise<void> {
  const url = new URL(atlas.url);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.end(
        `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n${partial}`,
      );
    });
    socket.on('close', () => resolve());
    socket.on('error', () => undefined);
    socket.resume();
  });
}

describe('a request body cut short by the client', () => {
  for (const path of ['/mcp', '/api/reports', '/api/submissions']) {
    it(`is a 4xx on POST ${path} in the access log, and no failed request is logged`, async () => {
      await hangUpMidBody(path, 100, '{"a":');
      const access = await logEntry((entry) => entry.event === 'access' && entry.route === path);
      expect(access.status).toBeGreaterThanOrEqual(400);
      expect(access.status).toBeLessThan(500);
      expect(entries.filter((entry) => entry.event === 'http_error')).toEqual([]);
    });
  }

  it('leaves no 5xx in /metrics', async () => {
    const response = await fetch(`${atlas.url}/metrics`);
    const text = await response.text();
    const serverErrors = text
      .split('\n')
      .filter((line) => line.startsWith('mcp_atlas_http_requests_total{') && /status="5\d\d"/.test(line));
    expect(serverErrors).toEqual([]);
  });
});
