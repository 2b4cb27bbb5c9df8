// The operator's side of `serve`, in process: every setting from the environment (the flag winning, a bad value
// naming its variable), the README's table of every setting, --help and --version, the signing key (a file kept
// by the operator, a key made once with a warning, `keys export-public`), /readyz refusing while the store
// fails, the metrics token, the pretty log format, and the backoff of a failing scheduled task.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { privateKeyFromPem, publicKeyFor, publicKeyPem } from '@mcp-atlas/history';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSigningKeyFile, publicKeyFingerprint, resolveSigningKeys } from '../src/commands/keys.js';
import { botUserAgentFor, readServeSettings } from '../src/commands/serve.js';
import { dataFolderOf, UsageError } from '../src/commands/shared.js';
import { EXIT_OK, runCommand } from '../src/commands.js';
import { createAtlasMetrics } from '../src/http/metrics.js';
import { createLogger, formatPrettyLine } from '../src/log.js';
import { APP_VERSION, METHODOLOGY_VERSION } from '../src/methodology.js';
import { Scheduler } from '../src/serve/scheduler.js';
import { serveAtlas } from '../src/serve/serve-atlas.js';
import { mergeEnvironment, SETTINGS } from '../src/serve/settings.js';
import { backoffDelayMs, TASK_BACKOFF_FIRST_MS, TASK_BACKOFF_MAX_MS } from '../src/serve/task-backoff.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import type { Storage } from '../src/storage/storage.js';
import { ed25519Pem } from './fixtures/signing-key-file.js';

const folders: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'atlas-operate-'));
  folders.push(folder);
  return folder;
}

/** A logger whose lines are kept as parsed objects. */
function capturingLogger(level = 'debug') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level }, stream), lines };
}

/** Runs a command line with stdout captured. */
async function runCaptured(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  });
  const code = await runCommand(argv, createLogger('silent'));
  vi.restoreAllMocks();
  return { code, out };
}

describe('settings from the environment', () => {
  it('reads every serve setting from its variable, and the flag wins', () => {
    const env = {
      MCP_ATLAS_DATA: '/var/lib/mcp-atlas',
      PORT: '9000',
      MCP_ATLAS_REGISTRY: 'https://registry.example.org',
      MCP_ATLAS_NO_SCHEDULE: 'yes',
      MCP_ATLAS_SIGNING_KEY: '/etc/mcp-atlas/key.pem',
      MCP_ATLAS_BOT_CONTACT: 'mailto:ops@example.org',
      MCP_ATLAS_METRICS_TOKEN: 'a-long-metrics-token-1234',
      MCP_ATLAS_LOG_FORMAT: 'pretty',
      MCP_ATLAS_LOG_LEVEL: 'warn',
      MCP_ATLAS_DAILY_BUDGET_USD: '0.50',
      MCP_ATLAS_RDAP_URL: 'https://rdap.example.org',
      MCP_ATLAS_CHECKS_PER_HOST: '4',
    };
    expect(readServeSettings([], env)).toMatchObject({
      flags: { data: '/var/lib/mcp-atlas' },
      port: 9000,
      registryUrl: 'https://registry.example.org',
      schedule: false,
      signingKeyFile: '/etc/mcp-atlas/key.pem',
      botUserAgent: 'mcp-atlas-bot/0.1.0 (+mailto:ops@example.org)',
      metricsToken: 'a-long-metrics-token-1234',
      logFormat: 'pretty',
      logLevel: 'warn',
      costs: { dailyBudgetUsd: 0.5 },
      outside: { rdapUrl: 'https://rdap.example.org' },
      checksPerHost: 4,
    });
    expect(readServeSettings([], {}).checksPerHost).toBe(1);
    expect(readServeSettings(['--checks-per-host', '64'], env).checksPerHost).toBe(64);
    // MCP_ATLAS_PORT before PORT, and a flag before both.
    expect(readServeSettings([], { PORT: '9000', MCP_ATLAS_PORT: '9100' }).port).toBe(9100);
    expect(readServeSettings(['--port', '9200', '--log-format', 'json'], env)).toMatchObject({
      port: 9200,
      logFormat: 'json',
    });
    // An empty variable counts as unset.
    expect(readServeSettings([], { PORT: '' }).port).toBe(8787);
  });

  it('stops on a bad value with a message that names the setting and its variable', () => {
    const refused: [NodeJS.ProcessEnv, string][] = [
      [{ PORT: 'eighty' }, '--port must be an integer from 0 to 65535 (set by PORT)'],
      [{ MCP_ATLAS_PORT: '70000' }, '(set by MCP_ATLAS_PORT)'],
      [{ MCP_ATLAS_NO_SCHEDULE: 'perhaps' }, 'MCP_ATLAS_NO_SCHEDULE must be 1, true, yes, 0, false or no'],
      [{ MCP_ATLAS_LOG_FORMAT: 'xml' }, '--log-format must be one of json, pretty (set by MCP_ATLAS_LOG_FORMAT)'],
      [{ MCP_ATLAS_LOG_LEVEL: 'loud' }, '--log-level must be one of'],
      [{ MCP_ATLAS_METRICS_TOKEN: 'short' }, '--metrics-token must be at least 16'],
      [{ MCP_ATLAS_BOT_CONTACT: 'ops@example.org' }, '--bot-contact must be an https:, http: or mailto: URL'],
      [{ MCP_ATLAS_BOT_CONTACT: 'https://x.example/(a)' }, 'without spaces or parentheses'],
      [{ MCP_ATLAS_DAILY_BUDGET_USD: 'lots' }, '--daily-budget-usd must be an amount'],
      [{ MCP_ATLAS_CHECKS_PER_HOST: '0' }, '--checks-per-host must be an integer from 1 to 64'],
      [{ MCP_ATLAS_CHECKS_PER_HOST: '65' }, '(set by MCP_ATLAS_CHECKS_PER_HOST)'],
    ];
    for (const [env, message] of refused) {
      expect(() => readServeSettings([], env), JSON.stringify(env)).toThrow(UsageError);
      expect(() => readServeSettings([], env), JSON.stringify(env)).toThrow(message);
    }
  });

  it('names every flag of serve in the settings table, and the README lists every setting and variable', async () => {
    const readme = await readFile(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    for (const setting of SETTINGS) {
      expect(readme, setting.flag).toContain(`\`--${setting.flag}\``);
      for (const name of setting.env) expect(readme, name).toContain(`\`${name}\``);
    }
    // Every flag serve parses has an environment variable: none is left out of the table.
    const usage = (await runCaptured(['serve', '--help'])).out;
    for (const flag of usage.matchAll(/\[--([a-z-]+)/g))
      expect(
        SETTINGS.map((s) => s.flag),
        flag[1],
      ).toContain(flag[1]);
    expect(mergeEnvironment({}, { MCP_ATLAS_ALLOW_PRIVATE: '0' }).flags['allow-private']).toBeUndefined();
  });
});

describe('--help and --version', () => {
  it('prints each command’s usage with exit 0, and the version', async () => {
    for (const command of [
      'demo',
      'serve',
      'scan',
      'seal',
      'verify',
      'check',
      'review',
      'incidents',
      'mark',
      'keys',
      'site',
    ]) {
      const { code, out } = await runCaptured([command, '--help']);
      expect(code, command).toBe(EXIT_OK);
      expect(out, command).toMatch(new RegExp(`^Usage: mcp-atlas ${command} `));
    }
    expect(await runCaptured(['--version'])).toEqual({ code: EXIT_OK, out: `mcp-atlas ${APP_VERSION}\n` });
    // After `--`, a stdio server's own --help is its own business.
    expect(await runCaptured(['check', '--help', '--', 'node', '--help'])).toMatchObject({ code: EXIT_OK });
  });
});

describe('the signing key', () => {
  const pem = ed25519Pem;

  it('reads a PEM file or the project’s JSON, and refuses anything else naming the setting', async () => {
    const dir = await tempFolder();
    const text = pem();
    const expected = publicKeyFor(privateKeyFromPem(text));
    await writeFile(join(dir, 'k.pem'), text, { mode: 0o600 });
    await writeFile(join(dir, 'k.json'), JSON.stringify({ private_key_pem: text, created: 'x' }), { mode: 0o600 });
    await writeFile(join(dir, 'bad.pem'), 'not a key', { mode: 0o600 });
    expect((await loadSigningKeyFile(join(dir, 'k.pem'))).publicKey).toEqual(expected);
    expect((await loadSigningKeyFile(join(dir, 'k.json'))).publicKey).toEqual(expected);
    await expect(loadSigningKeyFile(join(dir, 'bad.pem'))).rejects.toThrow('--signing-key: ');
    await expect(loadSigningKeyFile(join(dir, 'missing.pem'))).rejects.toThrow(/--signing-key: cannot read .*ENOENT/);
  });

  it('warns once, with fingerprint and path, when it makes its own key; never copies a given key', async () => {
    const dir = await tempFolder();
    const storage = createFsStorage(dir);
    const { log, lines } = capturingLogger();
    const made = await resolveSigningKeys({ signingKeyFile: null, storage, dataDir: dir, log });
    const warnings = lines.filter((line) => line.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      fingerprint: publicKeyFingerprint(made.publicKey),
      path: join(dir, 'keys', 'signing-key.json'),
    });
    expect(publicKeyFingerprint(made.publicKey)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const again = await resolveSigningKeys({ signingKeyFile: null, storage, dataDir: dir, log });
    expect(again.publicKey).toEqual(made.publicKey);
    expect(lines.filter((line) => line.level === 40)).toHaveLength(1);

    const other = await tempFolder();
    await writeFile(join(other, 'k.pem'), pem(), { mode: 0o600 });
    const data = join(other, 'data');
    await resolveSigningKeys({
      signingKeyFile: join(other, 'k.pem'),
      storage: createFsStorage(data),
      dataDir: data,
      log,
    });
    expect(await readdir(other)).toEqual(['k.pem']);
  });

  it('prints the public key PEM with `keys export-public`, from a key file or the data folder', async () => {
    const dir = await tempFolder();
    const text = pem();
    await writeFile(join(dir, 'k.pem'), text, { mode: 0o600 });
    const fromFile = await runCaptured(['keys', 'export-public', '--signing-key', join(dir, 'k.pem')]);
    expect(fromFile).toEqual({ code: EXIT_OK, out: publicKeyPem(publicKeyFor(privateKeyFromPem(text))) });
    const { log } = capturingLogger('silent');
    const made = await resolveSigningKeys({ signingKeyFile: null, storage: createFsStorage(dir), dataDir: dir, log });
    expect(await runCaptured(['keys', 'export-public', '--data', dir])).toEqual({
      code: EXIT_OK,
      out: publicKeyPem(made.publicKey),
    });
    expect((await runCaptured(['keys', 'export-public', '--data', join(dir, 'none')])).code).toBe(1);
  });

  it('puts the contact in the bot’s user agent', () => {
    expect(botUserAgentFor('https://ops.example.org')).toBe('mcp-atlas-bot/0.1.0 (+https://ops.example.org)');
    expect(botUserAgentFor(null)).toMatch(/^mcp-atlas-bot\/0\.1\.0 \(\+https:\/\/github\.com\//);
  });
});

describe('the operator endpoints', () => {
  /** A memory store that can be made to fail every read. */
  function breakableStorage(): { storage: Storage; broken: { value: boolean } } {
    const inner = createMemoryStorage();
    const broken = { value: false };
    const storage: Storage = {
      ...inner,
      get: (path) =>
        broken.value ? Promise.reject(Object.assign(new Error('disk gone'), { code: 'EIO' })) : inner.get(path),
    };
    return { storage, broken };
  }

  async function start(metricsToken: string | null) {
    const { storage, broken } = breakableStorage();
    const { log, lines } = capturingLogger();
    const keys = generateKeys();
    const running = await serveAtlas({
      storage,
      port: 0,
      log,
      keys,
      handleSignals: false,
      operator: { metricsToken, budgetsMicroUsd: { daily: 100_000, fiveMinute: 250_000 } },
    });
    closers.push(() => running.close());
    return { running, broken, lines };
  }

  function generateKeys() {
    const text = ed25519Pem();
    const privateKey = privateKeyFromPem(text);
    return { privateKey, publicKey: publicKeyFor(privateKey) };
  }

  it('answers /readyz 503 with the reason while the store fails, and 200 again once it answers', async () => {
    const { running, broken } = await start(null);
    expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
    broken.value = true;
    const refused = await fetch(`${running.url}/readyz`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ status: 'not_ready', reason: 'the store failed a read (EIO)' });
    // Alive all the same: liveness does not depend on the store.
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    broken.value = false;
    expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
  });

  it('asks for the metrics token when one is set, and shows spend against each cap', async () => {
    const { running } = await start('token-of-sixteen-chars');
    expect((await fetch(`${running.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${running.url}/metrics`, {
      headers: { authorization: 'Bearer token-of-sixteen-charx' },
    });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${running.url}/metrics`, {
      headers: { authorization: 'Bearer token-of-sixteen-chars' },
    });
    expect(right.status).toBe(200);
    const text = await right.text();
    expect(text).toContain('mcp_atlas_budget_usd{cap="daily"} 0.1');
    expect(text).toContain('mcp_atlas_spend_usd{cap="five-minute"} 0');
    expect(text).toContain('# TYPE mcp_atlas_checks_total counter');
  });

  it('counts search cache hits and intake outcomes', async () => {
    const { running } = await start(null);
    for (let i = 0; i < 3; i++) await fetch(`${running.url}/api/toolsearch?q=notes`);
    await fetch(`${running.url}/api/reports`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
    const text = await (await fetch(`${running.url}/metrics`)).text();
    expect(text).toContain('mcp_atlas_search_cache_lookups_total{result="hit"} 2');
    expect(text).toContain('mcp_atlas_search_cache_lookups_total{result="miss"} 1');
    expect(text).toContain('mcp_atlas_intake_total{intake="reports",outcome="refused"} 1');
  });

  it('stops answering ready once shutting down', async () => {
    const { running } = await start(null);
    const closing = running.close();
    await closing;
    await expect(fetch(`${running.url}/readyz`)).rejects.toThrow();
  });
});

describe('logs', () => {
  it('prints a pino line as short text for people, and passes anything else through', () => {
    const line = JSON.stringify({ level: 40, time: Date.UTC(2026, 0, 2, 3, 4, 5), msg: 'hello', task: 'daily', n: 2 });
    expect(formatPrettyLine(line)).toBe('03:04:05 WARN  hello task=daily n=2\n');
    expect(formatPrettyLine('not json')).toBe('not json\n');
  });
});

describe('backoff of a failing scheduled task', () => {
  it('doubles the pause from one tick up to half an hour', () => {
    expect(backoffDelayMs(0)).toBe(0);
    expect(backoffDelayMs(1)).toBe(TASK_BACKOFF_FIRST_MS);
    expect(backoffDelayMs(2)).toBe(60_000);
    expect(backoffDelayMs(6)).toBe(960_000);
    expect(backoffDelayMs(7)).toBe(TASK_BACKOFF_MAX_MS);
    expect(backoffDelayMs(1000)).toBe(TASK_BACKOFF_MAX_MS);
  });

  it('logs a task failing on every tick once per backoff step, and says when it recovers', async () => {
    const inner = createMemoryStorage();
    const broken = { value: true };
    // Every read fails, as a lost disk or network would make every task fail.
    const storage: Storage = {
      ...inner,
      get: (path) => (broken.value ? Promise.reject(new Error('store down')) : inner.get(path)),
    };
    let now = Date.parse('2026-03-04T12:00:00Z');
    const { log, lines } = capturingLogger();
    const failures: string[] = [];
    const scheduler = new Scheduler({
      storage,
      log,
      keys: (() => {
        const text = ed25519Pem();
        const privateKey = privateKeyFromPem(text);
        return { privateKey, publicKey: publicKeyFor(privateKey) };
      })(),
      registryUrl: null,
      network: { allowPrivate: true },
      clock: { now: () => new Date(now), setTimeout: () => null, clearTimeout: () => undefined },
      metrics: {
        recordCheck: () => undefined,
        setScanProgress: () => undefined,
        recordTaskFailure: (task) => failures.push(task),
      },
    });
    // 20 minutes of 30-second ticks: pauses of 0.5, 1, 2, 4, 8 minutes fit, so 5 tries (at 0, 0.5, 1.5, 3.5, 7.5
    // and 15.5 minutes: 6) of the daily task fail, each logged once, instead of 40.
    for (let tick = 0; tick < 40; tick++) {
      await scheduler.tick();
      now += 30_000;
    }
    const daily = lines.filter((line) => line.task === 'daily' && line.level === 50);
    expect(daily.map((line) => line.failures)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(daily.map((line) => line.retry_in_s)).toEqual([30, 60, 120, 240, 480, 960]);
    expect(failures.filter((task) => task === 'daily')).toHaveLength(6);
    broken.value = false;
    now += 960_000;
    await scheduler.tick();
    expect(lines.some((line) => line.task === 'daily' && line.msg === 'scheduled task recovered')).toBe(true);
  });
});

describe('the data folder of every command', () => {
  it('is --data, else MCP_ATLAS_DATA, else ./atlas-data', () => {
    expect(dataFolderOf({ data: '/a' }, { MCP_ATLAS_DATA: '/b' })).toBe('/a');
    expect(dataFolderOf({}, { MCP_ATLAS_DATA: '/b' })).toBe('/b');
    expect(dataFolderOf({}, { MCP_ATLAS_DATA: '' })).toBe(join(process.cwd(), 'atlas-data'));
  });
});

describe('the age of the last sealed day', () => {
  it('counts from the start of the day the service started until the first seal, then from the newest sealed day', async () => {
    const roots = new Map<string, unknown>();
    let now = new Date('2026-03-05T01:05:00Z');
    const metrics = createAtlasMetrics({
      getView: () => ({ roots }) as never,
      storage: createMemoryStorage(),
      now: () => now,
      budgetsMicroUsd: { daily: 1, fiveMinute: 1 },
    });
    const age = async () =>
      /^mcp_atlas_last_sealed_day_age_seconds (\S+)$/m.exec(await metrics.registry.metrics())?.[1];
    // Started on 2026-03-05, nothing sealed: 65 minutes since that day began.
    expect(await age()).toBe('3900');
    // A day and about three hours later, still nothing sealed: past the documented 100,000 alert threshold.
    now = new Date('2026-03-06T03:47:00Z');
    // 24 h + 3 h 47 min since 2026-03-05T00:00Z.
    expect(await age()).toBe(String(86_400 + 3 * 3600 + 47 * 60));
    roots.set('2026-03-03', {});
    roots.set('2026-03-05', {});
    // 2026-03-05 ended at 2026-03-06T00:00Z, 3 h 47 min before now; one series, no day label.
    expect(await age()).toBe(String(3 * 3600 + 47 * 60));
    expect(await metrics.registry.metrics()).not.toMatch(/last_sealed_day_age_seconds\{/);
  });

  it('names the running build in build_info', async () => {
    const metrics = createAtlasMetrics({
      getView: () => ({ roots: new Map() }) as never,
      storage: createMemoryStorage(),
      now: () => new Date('2026-03-05T01:05:00Z'),
      budgetsMicroUsd: { daily: 1, fiveMinute: 1 },
    });
    expect(await metrics.registry.metrics()).toContain(
      `mcp_atlas_build_info{version="${APP_VERSION}",methodology="${METHODOLOGY_VERSION}",node="${process.versions.node}"} 1`,
    );
  });
});
