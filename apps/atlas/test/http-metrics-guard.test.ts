// /metrics sits behind the Host guard: a page on another site whose name is made to resolve to this machine (DNS
// rebinding) gets 421 from /metrics, as from every other route, so its visitor's browser cannot read the figures
// for it. A scraper that calls the service by its pod or container address still gets in with the metrics token,
// which such a page cannot know. And the service says once, at start, when /metrics is reachable from outside
// without a token. The running service (serveAtlas with its operator endpoints) over the HTTP fixture in memory,
// spoken to on 127.0.0.1 with raw HTTP so that any Host can be sent.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MISDIRECTED_STATUS } from '../src/http/host-guard.js';
import { createLogger } from '../src/log.js';
import { type RunningAtlas, serveAtlas } from '../src/serve/serve-atlas.js';
import { writeFixture } from './fixtures/http-atlas.js';

const TOKEN = 'metrics-token-5tQx8Lw2Zr';
const PUBLIC_URL = 'https://atlas.example.org';
const NOW = new Date('2026-12-01T10:00:00.000Z');

const running: RunningAtlas[] = [];

afterEach(async () => {
  while (running.length > 0) await running.pop()!.close();
});

/** Starts the service on 127.0.0.1 with the operator endpoints; returns it and every line it logged. */
async function start(options: { metricsToken: string | null; publicUrl?: string }) {
  const { storage, keys } = await writeFixture();
  const lines: string[] = [];
  const atlas = await serveAtlas({
    storage,
    port: 0,
    log: createLogger('debug', { destination: { write: (line) => void lines.push(line) } }),
    keys,
    now: () => NOW,
    handleSignals: false,
    ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl } : {}),
    operator: { metricsToken: options.metricsToken, budgetsMicroUsd: { daily: 100_000, fiveMinute: 250_000 } },
  });
  running.push(atlas);
  return { atlas, lines };
}

/** One GET to 127.0.0.1:port with exactly these headers (fetch would not let Host be set). */
function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The log lines that warn about /metrics without a token. */
const openMetricsWarnings = (lines: readonly string[]) =>
  lines.map((line) => JSON.parse(line)).filter((entry) => entry.event === 'metrics_without_token');

describe('/metrics and the Host header', () => {
  it('refuses a foreign Host with 421 and answers the service’s own name, without a token', async () => {
    const { atlas } = await start({ metricsToken: null });
    const rebound = await get(atlas.port, '/metrics', { host: 'evil.example' });
    expect(rebound.status).toBe(MISDIRECTED_STATUS);
    expect(rebound.text).not.toContain('mcp_atlas_');
    const own = await get(atlas.port, '/metrics', { host: `127.0.0.1:${atlas.port}` });
    expect(own.status).toBe(200);
    expect(own.text).toContain('mcp_atlas_http_requests_total');
  });

  it('refuses a foreign Host without the token, and answers a scraper that sends the token by any Host', async () => {
    const { atlas } = await start({ metricsToken: TOKEN });
    expect((await get(atlas.port, '/metrics', { host: 'evil.example' })).status).toBe(MISDIRECTED_STATUS);
    expect(
      (await get(atlas.port, '/metrics', { host: 'evil.example', authorization: 'Bearer wrong-token-000000' })).status,
    ).toBe(MISDIRECTED_STATUS);
    // A scraper calling the pod by its address: the Host is not the service's name, the token is right.
    const scraped = await get(atlas.port, '/metrics', { host: '10.1.2.3:8787', authorization: `Bearer ${TOKEN}` });
    expect(scraped.status).toBe(200);
    expect(scraped.text).toContain('mcp_atlas_http_requests_total');
    // The service's own name without the token: still asked for it.
    expect((await get(atlas.port, '/metrics', { host: `127.0.0.1:${atlas.port}` })).status).toBe(401);
  });

  it('leaves /healthz and /readyz open to any Host, as probes need', async () => {
    const { atlas } = await start({ metricsToken: null });
    expect((await get(atlas.port, '/healthz', { host: '10.1.2.3:8787' })).status).toBe(200);
    expect((await get(atlas.port, '/readyz', { host: '10.1.2.3:8787' })).status).toBe(200);
  });
});

describe('the start-up warning about /metrics without a token', () => {
  it('is logged once when the service is reached from outside (a public URL) and has no token', async () => {
    const { lines } = await start({ metricsToken: null, publicUrl: PUBLIC_URL });
    const warnings = openMetricsWarnings(lines);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toContain('--metrics-token');
  });

  it('is not logged with a token, nor for a service reached on loopback only', async () => {
    expect(openMetricsWarnings((await start({ metricsToken: TOKEN, publicUrl: PUBLIC_URL })).lines)).toEqual([]);
    expect(openMetricsWarnings((await start({ metricsToken: null })).lines)).toEqual([]);
  });
});
