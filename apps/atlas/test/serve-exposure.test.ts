// `serve` is safe to put on a network: the real command's settings (`readServeSettings`, then `startServe`,
// the code `mcp-atlas serve` runs) over a fixture data folder on disk, spoken to over loopback with raw HTTP so
// that any Host, X-Forwarded-Host and Origin can be sent. It checks that the demo's public license keys are not
// trusted, that a key file's keys are and never show up in logs or files, that no URL is built from a Host
// header, that foreign Hosts and Origins are refused, and that --trust-proxy and --allow-private take effect.

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SERVE_HOST, readServeSettings, type StartedServe, startServe } from '../src/commands/serve.js';
import { UsageError } from '../src/commands/shared.js';
import { EXIT_USAGE, runCommand } from '../src/commands.js';
import { FOREIGN_ORIGIN_STATUS, MISDIRECTED_STATUS } from '../src/http/host-guard.js';
import { createLicenseKeyStore, LicenseKeyFileError, parseLicenseKeyList } from '../src/http/license-keys.js';
import { createSiteAddress, SiteAddressError } from '../src/http/site-address.js';
import { createLogger } from '../src/log.js';
import { DEMO_LICENSE_KEYS } from '../src/serve/serve-atlas.js';
import { createFsStorage } from '../src/storage/fs-storage.js';
import { writeFixture } from './fixtures/http-atlas.js';

const PUBLIC_URL = 'https://atlas.example.org';
const EVIL = 'evil.example';
const LISTED_KEY = 'lic-serve-7Qm2xV9pK4';
const OTHER_LISTED_KEY = 'lic-serve-3Jd8wN1cR6';
const UNLISTED_KEY = 'lic-serve-not-on-the-list';
const REPORT = { server: 'notes-hub', tool: 'list_notes', ok: true };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One raw HTTP/1.1 request to 127.0.0.1:port with exactly these headers (fetch would not let Host be set). */
function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers: {
          host: `127.0.0.1:${port}`,
          ...(body !== undefined
            ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Every file under `dir` with its text. */
async function filesUnder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(path, await readFile(path, 'latin1'));
  }
  return files;
}

/** A pino logger (the app's logger type) whose JSON lines land in `lines`. */
function capturingLogger(lines: string[]): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return pino({ level: 'debug', base: { service: 'mcp-atlas' } }, sink);
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'exposure-test', version: '1.0.0' } },
};

const temps: string[] = [];
const started: StartedServe[] = [];

/** A fresh fixture data folder on disk (three sealed days, six servers). */
async function fixtureFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'atlas-exposure-'));
  temps.push(dir);
  await writeFixture(createFsStorage(dir));
  return dir;
}

/** Runs `serve` with these arguments (plus --data, --port 0, --no-schedule) the way the CLI does. */
async function serve(dir: string, args: string[], env: NodeJS.ProcessEnv, log: Logger): Promise<StartedServe> {
  const settings = readServeSettings(['--data', dir, '--port', '0', '--no-schedule', ...args], env);
  const one = await startServe(settings, log, { handleSignals: false });
  started.push(one);
  return one;
}

afterAll(async () => {
  for (const one of started) await one.running.close();
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

describe('serve --trust-proxy 1 --public-url https://atlas.example.org --license-keys FILE', () => {
  const logs: string[] = [];
  let dir: string;
  let port: number;

  beforeAll(async () => {
    dir = await fixtureFolder();
    const keyDir = await mkdtemp(join(tmpdir(), 'atlas-exposure-keys-'));
    temps.push(keyDir);
    const keyFile = join(keyDir, 'licenses.txt');
    await writeFile(
      keyFile,
      `# paying reporters\n\n  ${LISTED_KEY}  \r\n${OTHER_LISTED_KEY}\n# ${UNLISTED_KEY} was revoked\n`,
    );
    const one = await serve(
      dir,
      ['--trust-proxy', '1', '--public-url', PUBLIC_URL, '--license-keys', keyFile],
      {},
      capturingLogger(logs),
    );
    port = one.running.port;
    expect(one.running.origin).toBe(PUBLIC_URL);
  });

  const reportAs = (key: string | null, network: string, host = PUBLIC_URL.slice('https://'.length)) =>
    send(port, '/api/reports', {
      body: REPORT,
      headers: { host, 'x-forwarded-for': network, ...(key === null ? {} : { 'x-mcp-atlas-license': key }) },
    });

  it('answers paid: false for the demo’s license keys', async () => {
    for (const key of DEMO_LICENSE_KEYS) {
      const answer = await reportAs(key, '198.51.100.7');
      expect(answer.status).toBe(201);
      expect(JSON.parse(answer.text)).toMatchObject({ accepted: true, paid: false });
    }
  });

  it('answers paid: true for a key in the file and paid: false for one that is not', async () => {
    for (const key of [LISTED_KEY, OTHER_LISTED_KEY]) {
      const answer = await reportAs(key, '203.0.113.9');
      expect(answer.status, key).toBe(201);
      expect(JSON.parse(answer.text), key).toMatchObject({ paid: true });
    }
    const unlisted = await reportAs(UNLISTED_KEY, '203.0.113.9');
    expect(JSON.parse(unlisted.text)).toMatchObject({ paid: false });
    // The loopback name works too, and the same key counts the same way.
    const local = await reportAs(LISTED_KEY, '203.0.113.9', `localhost:${port}`);
    expect(local.status).toBe(201);
    expect(JSON.parse(local.text)).toMatchObject({ paid: true });
  });

  it('never writes a plain license key to the log or to any stored file', async () => {
    await reportAs(LISTED_KEY, '192.0.2.44');
    const logText = logs.join('');
    expect(logText).toContain('"license_keys":2');
    const files = await filesUnder(dir);
    expect([...files.keys()].some((path) => path.endsWith('reports.jsonl'))).toBe(true);
    for (const key of [LISTED_KEY, OTHER_LISTED_KEY, UNLISTED_KEY, ...DEMO_LICENSE_KEYS]) {
      expect(logText, key).not.toContain(key);
      for (const [path, text] of files) expect(text.includes(key), `${key} in ${path}`).toBe(false);
    }
  });

  it('refuses a foreign Host with 421 on /mcp, the API, the pages, the badge and the well-known document', async () => {
    const paths = [
      '/',
      '/servers',
      '/servers/notes-hub',
      '/badge/notes-hub.svg',
      '/widget/notes-hub',
      '/.well-known/mcp-atlas.json',
      '/api/servers',
      '/api/openapi.json',
      '/search?q=notes',
    ];
    for (const host of [
      EVIL,
      `${EVIL}:443`,
      `atlas.example.org.${EVIL}`,
      `atlas.example.org:8443`,
      `localhost:${port + 1}`,
      `127.0.0.2:${port}`,
    ]) {
      for (const path of paths) {
        const answer = await send(port, path, { headers: { host } });
        expect(answer.status, `${host} ${path}`).toBe(MISDIRECTED_STATUS);
        expect(answer.text, `${host} ${path}`).not.toContain(EVIL);
        expect(JSON.parse(answer.text).error.code).toBe('misdirected_request');
      }
      const mcp = await send(port, '/mcp', { body: INITIALIZE, headers: { host } });
      expect(mcp.status, `${host} /mcp`).toBe(MISDIRECTED_STATUS);
      const post = await send(port, '/api/reports', {
        body: REPORT,
        headers: { host, 'x-forwarded-for': '198.51.100.8' },
      });
      expect(post.status, `${host} POST /api/reports`).toBe(MISDIRECTED_STATUS);
    }
  });

  it('names the service by its public URL everywhere and never by X-Forwarded-Host', async () => {
    const headers = {
      host: 'atlas.example.org',
      'x-forwarded-host': EVIL,
      'x-forwarded-proto': 'http',
      forwarded: `host=${EVIL}`,
    };
    const paths = [
      '/',
      '/servers',
      '/servers/notes-hub',
      '/reliable',
      '/badge/notes-hub.svg',
      '/widget/notes-hub',
      '/.well-known/mcp-atlas.json',
      '/api/servers',
      '/api/servers/notes-hub',
      '/api/openapi.json',
      '/api/toolsearch?q=notes',
      '/search?q=notes',
      '/methodology',
    ];
    for (const host of [
      'atlas.example.org',
      'atlas.example.org:443',
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
    ]) {
      for (const path of paths) {
        const answer = await send(port, path, { headers: { ...headers, host } });
        expect(answer.status, `${host} ${path}`).toBe(200);
        expect(answer.text, `${host} ${path}`).not.toContain(EVIL);
        expect(JSON.stringify(answer.headers), `${host} ${path}`).not.toContain(EVIL);
      }
      const state = await send(port, '/', { headers: { ...headers, host } });
      expect(state.text).toContain(`mcp-atlas verify --url ${PUBLIC_URL}`);
      expect(state.text).toContain(`const BASE = &quot;${PUBLIC_URL}&quot;;`);
      const server = await send(port, '/servers/notes-hub', { headers: { ...headers, host } });
      expect(server.text).toContain(`(${PUBLIC_URL}/badge/notes-hub.svg)](${PUBLIC_URL}/servers/notes-hub)`);
      expect(server.text).toContain(`&lt;iframe src=&quot;${PUBLIC_URL}/widget/notes-hub&quot;`);
      // Pages are still cacheable: nothing in them depends on the request any more.
      expect(server.headers['cache-control']).toBe('public, max-age=60');
      const mcp = await send(port, '/mcp', { body: INITIALIZE, headers: { ...headers, host } });
      expect(mcp.status, `${host} /mcp`).toBe(200);
      expect(mcp.text).not.toContain(EVIL);
    }
  });

  it('refuses a foreign Origin with 403 on /mcp and on writes, and lets any page read', async () => {
    for (const origin of [
      `https://${EVIL}`,
      'null',
      `http://atlas.example.org`,
      `https://atlas.example.org:8443`,
      `http://localhost:${port + 1}`,
    ]) {
      const mcp = await send(port, '/mcp', { body: INITIALIZE, headers: { host: 'atlas.example.org', origin } });
      expect(mcp.status, `${origin} /mcp`).toBe(FOREIGN_ORIGIN_STATUS);
      expect(JSON.parse(mcp.text).error.code).toBe('foreign_origin');
      const post = await send(port, '/api/reports', {
        body: REPORT,
        headers: { host: 'atlas.example.org', origin, 'x-forwarded-for': '198.51.100.9' },
      });
      expect(post.status, `${origin} POST`).toBe(FOREIGN_ORIGIN_STATUS);
      const preflight = await send(port, '/mcp', {
        method: 'OPTIONS',
        headers: { host: 'atlas.example.org', origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status, `${origin} OPTIONS /mcp`).toBe(FOREIGN_ORIGIN_STATUS);
      const read = await send(port, '/api/servers', { headers: { host: 'atlas.example.org', origin } });
      expect(read.status, `${origin} GET`).toBe(200);
    }
    let network = 0;
    for (const origin of [
      PUBLIC_URL,
      'https://atlas.example.org:443',
      `http://localhost:${port}`,
      `http://127.0.0.1:${port}`,
    ]) {
      const mcp = await send(port, '/mcp', { body: INITIALIZE, headers: { host: 'atlas.example.org', origin } });
      expect(mcp.status, `${origin} /mcp`).toBe(200);
      network += 1;
      const post = await send(port, '/api/reports', {
        body: REPORT,
        headers: { host: 'atlas.example.org', origin, 'x-forwarded-for': `192.0.${network}.10` },
      });
      expect(post.status, `${origin} POST`).toBe(201);
    }
  });

  it('documents 421 on every operation and 403 on /mcp and every write in the OpenAPI document', async () => {
    const doc = JSON.parse(
      (await send(port, '/api/openapi.json', { headers: { host: 'atlas.example.org' } })).text,
    ) as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        operations += 1;
        expect(operation.responses['421'], `${method} ${path}`).toBeDefined();
        if (method !== 'get' || path === '/mcp')
          expect(operation.responses['403']?.description, `${method} ${path}`).toContain('foreign_origin');
      }
    }
    expect(operations).toBeGreaterThan(10);
  });

  it('tells clients behind the proxy apart by X-Forwarded-For', async () => {
    await reportAs(null, '198.18.7.1');
    await reportAs(null, '198.19.7.1');
    const reports = [...(await filesUnder(dir))].find(([path]) => path.endsWith('reports.jsonl'))![1];
    const reporters = new Set(
      reports
        .split('\n')
        .filter((line) => line.includes('"paid":false'))
        .map((line) => JSON.parse(line).reporter),
    );
    // Four anonymous networks so far (198.51.100.x, 203.0.113.x, 198.18.7.x, 198.19.7.x) and the test's own posts.
    expect(reporters.size).toBeGreaterThanOrEqual(4);
  });
});

describe('serve with no flags: loopback only, no paid keys, the socket address', () => {
  let dir: string;
  let port: number;

  beforeAll(async () => {
    dir = await fixtureFolder();
    const one = await serve(dir, [], {}, createLogger('silent'));
    port = one.running.port;
    expect(one.running.origin).toBe(`http://${DEFAULT_SERVE_HOST}:${port}`);
  });

  it('counts no key as paid, the demo’s included', async () => {
    for (const key of [...DEMO_LICENSE_KEYS, LISTED_KEY]) {
      const answer = await send(port, '/api/reports', { body: REPORT, headers: { 'x-mcp-atlas-license': key } });
      expect(answer.status, answer.text).toBe(201);
      expect(JSON.parse(answer.text)).toMatchObject({ paid: false });
    }
  });

  it('accepts the loopback names on its own port and names itself by the bound address', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      const answer = await send(port, '/', { headers: { host } });
      expect(answer.status, host).toBe(200);
      expect(answer.text).toContain(`mcp-atlas verify --url http://127.0.0.1:${port}`);
      expect(answer.text).not.toContain('localhost');
    }
    for (const host of [EVIL, `atlas.example.org`, `localhost`, `localhost:${port + 1}`]) {
      expect((await send(port, '/api/servers', { headers: { host } })).status, host).toBe(MISDIRECTED_STATUS);
    }
    // A Host that is not even a host name is refused by the HTTP layer before the app sees it.
    expect((await send(port, '/api/servers', { headers: { host: `user@localhost:${port}` } })).status).toBe(400);
  });

  it('ignores X-Forwarded-For without --trust-proxy: every client is its socket', async () => {
    await send(port, '/api/reports', { body: REPORT, headers: { 'x-forwarded-for': '198.18.7.1' } });
    await send(port, '/api/reports', { body: REPORT, headers: { 'x-forwarded-for': '198.19.7.1' } });
    const reports = [...(await filesUnder(dir))].find(([path]) => path.endsWith('reports.jsonl'))![1];
    const reporters = new Set(
      reports
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line).reporter),
    );
    expect(reporters.size).toBe(1);
  });

  it('refuses submissions of private, http and IP-literal servers (--allow-private is off)', async () => {
    const answer = await send(port, '/api/submissions', { body: { url: 'http://10.20.30.40:8080/mcp' } });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).error.code).toBe('url_refused');
  });
});

describe('serve --allow-private (from MCP_ATLAS_ALLOW_PRIVATE)', () => {
  let port: number;

  beforeAll(async () => {
    const one = await serve(await fixtureFolder(), [], { MCP_ATLAS_ALLOW_PRIVATE: 'true' }, createLogger('silent'));
    port = one.running.port;
  });

  it('takes a server on a private address over http', async () => {
    const answer = await send(port, '/api/submissions', { body: { url: 'http://10.20.30.40:8080/mcp' } });
    expect(answer.status, answer.text).toBe(201);
  });

  it('still refuses templates and user info in the URL', async () => {
    for (const url of ['http://10.20.30.41:8080/{tenant}/mcp', 'http://admin:secret@10.20.30.42:8080/mcp']) {
      const answer = await send(port, '/api/submissions', { body: { url } });
      expect(answer.status, url).toBe(400);
    }
  });
});

describe('serve settings: flags and environment variables', () => {
  it('reads each new setting from its environment variable, and the flag wins', () => {
    const env = {
      MCP_ATLAS_HOST: '0.0.0.0',
      MCP_ATLAS_PUBLIC_URL: PUBLIC_URL,
      MCP_ATLAS_TRUST_PROXY: '2',
      MCP_ATLAS_LICENSE_KEYS: '/etc/mcp-atlas/licenses.txt',
      MCP_ATLAS_ALLOW_PRIVATE: '1',
    };
    expect(readServeSettings([], env)).toMatchObject({
      host: '0.0.0.0',
      publicUrl: PUBLIC_URL,
      trustedProxyHops: 2,
      licenseKeysFile: '/etc/mcp-atlas/licenses.txt',
      allowPrivate: true,
    });
    const flags = [
      '--host',
      '127.0.0.1',
      '--public-url',
      'https://other.example.org',
      '--trust-proxy',
      '0',
      '--license-keys',
      '/tmp/k.txt',
    ];
    expect(readServeSettings(flags, env)).toMatchObject({
      host: '127.0.0.1',
      publicUrl: 'https://other.example.org',
      trustedProxyHops: 0,
      licenseKeysFile: '/tmp/k.txt',
    });
    expect(readServeSettings([], {})).toMatchObject({
      host: '127.0.0.1',
      publicUrl: null,
      trustedProxyHops: 0,
      licenseKeysFile: null,
      allowPrivate: false,
    });
  });

  it('refuses settings that cannot be served safely, before anything starts', () => {
    const refused: [string[], NodeJS.ProcessEnv, string][] = [
      [['--host', '0.0.0.0'], {}, 'not a loopback address'],
      [[], { MCP_ATLAS_HOST: '192.0.2.5' }, 'give --public-url'],
      [['--public-url', 'https://atlas.example.org/atlas'], {}, 'origin only'],
      [['--public-url', 'ftp://atlas.example.org'], {}, 'https:// or http://'],
      [['--public-url', 'https://user@atlas.example.org'], {}, 'user name'],
      [['--public-url', 'atlas.example.org'], {}, 'absolute URL'],
      [['--trust-proxy', 'one'], {}, '--trust-proxy must be an integer from 0 to 16'],
      [['--trust-proxy', '17'], {}, '--trust-proxy must be an integer from 0 to 16'],
      [[], { MCP_ATLAS_TRUST_PROXY: '-1' }, '--trust-proxy must be an integer'],
      [[], { MCP_ATLAS_ALLOW_PRIVATE: 'maybe' }, 'MCP_ATLAS_ALLOW_PRIVATE must be'],
    ];
    for (const [args, env, message] of refused) {
      expect(() => readServeSettings(args, env), args.join(' ') || JSON.stringify(env)).toThrow(UsageError);
      expect(() => readServeSettings(args, env)).toThrow(message);
    }
  });

  it('exits with the usage code for a public bind without --public-url and for an unreadable key file', async () => {
    const dir = await fixtureFolder();
    expect(
      await runCommand(['serve', '--data', dir, '--no-schedule', '--host', '0.0.0.0'], createLogger('silent')),
    ).toBe(EXIT_USAGE);
    expect(
      await runCommand(
        ['serve', '--data', dir, '--no-schedule', '--port', '0', '--license-keys', join(dir, 'no-such-file.txt')],
        createLogger('silent'),
      ),
    ).toBe(EXIT_USAGE);
  });
});

describe('the license key file and store', () => {
  it('takes one key a line, trimmed, skipping blank lines and # comments', () => {
    expect(
      parseLicenseKeyList('# paying reporters\n\n  key-one  \r\nkey-two\n   # indented comment\nkey-one\n'),
    ).toEqual(['key-one', 'key-two', 'key-one']);
    expect(parseLicenseKeyList('')).toEqual([]);
  });

  it('refuses a line with inner whitespace or over 512 characters, naming the line but not its text', () => {
    expect(() => parseLicenseKeyList('ok\nsecret part two\n')).toThrow(
      new LicenseKeyFileError('line 2 of the license key file holds whitespace inside a key'),
    );
    expect(() => parseLicenseKeyList('a'.repeat(512))).not.toThrow();
    expect(() => parseLicenseKeyList(`\n\n${'a'.repeat(513)}`)).toThrow(
      'line 3 of the license key file is longer than 512 characters',
    );
  });

  it('answers membership exactly, counts distinct keys, and keeps no key in plain text', () => {
    const store = createLicenseKeyStore(['key-one', 'key-two', 'key-one'], new Uint8Array(32).fill(1));
    expect(store.size).toBe(2);
    expect(store.has('key-one')).toBe(true);
    expect(store.has('key-two')).toBe(true);
    for (const near of ['key-on', 'key-one ', 'KEY-ONE', '', 'key-three']) expect(store.has(near), near).toBe(false);
    expect(createLicenseKeyStore([]).has('')).toBe(false);
  });
});

describe('the site address', () => {
  const site = createSiteAddress({ publicUrl: PUBLIC_URL, bindHost: '127.0.0.1', port: 8787 });

  it('accepts the public host (default port written or not) and loopback names on the bound port only', () => {
    for (const host of [
      'atlas.example.org',
      'ATLAS.example.org',
      'atlas.example.org:443',
      'localhost:8787',
      '127.0.0.1:8787',
      '[::1]:8787',
    ])
      expect(site.acceptsHost(host), host).toBe(true);
    for (const host of [
      '',
      EVIL,
      'atlas.example.org:8443',
      'atlas.example.org.',
      'x.atlas.example.org',
      'localhost',
      'localhost:8788',
      '127.0.0.2:8787',
      'user@atlas.example.org',
      'atlas.example.org/x',
      '0.0.0.0:8787',
    ]) {
      expect(site.acceptsHost(host), host).toBe(false);
    }
  });

  it('accepts only the public origin and loopback origins on the bound port', () => {
    for (const origin of [PUBLIC_URL, 'https://atlas.example.org:443', 'http://localhost:8787', 'http://[::1]:8787'])
      expect(site.acceptsOrigin(origin), origin).toBe(true);
    for (const origin of [
      'null',
      '',
      'http://atlas.example.org',
      'https://atlas.example.org/',
      `https://${EVIL}`,
      'https://localhost:8787',
      'http://localhost:8788',
      'file://',
    ]) {
      expect(site.acceptsOrigin(origin), origin).toBe(false);
    }
  });

  it('names a loopback service by its bound address, and a public bind without a public URL not at all', () => {
    expect(createSiteAddress({ bindHost: '127.0.0.1', port: 8787 }).origin).toBe('http://127.0.0.1:8787');
    expect(createSiteAddress({ bindHost: '::1', port: 9 }).origin).toBe('http://[::1]:9');
    expect(createSiteAddress({ bindHost: '0.0.0.0', port: 80, publicUrl: 'http://atlas.internal:8080' }).origin).toBe(
      'http://atlas.internal:8080',
    );
    const publicOnly = createSiteAddress({ bindHost: '0.0.0.0', port: 8080, publicUrl: PUBLIC_URL });
    expect(publicOnly.acceptsHost('localhost:8080')).toBe(false);
    for (const bindHost of ['0.0.0.0', '::', '192.0.2.5'])
      expect(() => createSiteAddress({ bindHost, port: 8787 }), bindHost).toThrow(SiteAddressError);
  });

  it('in a container published on localhost, accepts every loopback name at the public URL’s port', () => {
    // compose's default: bound to 0.0.0.0 inside on 8787, published as http://localhost:8787 on the machine.
    const local = createSiteAddress({ bindHost: '0.0.0.0', port: 8787, publicUrl: 'http://localhost:8787' });
    for (const host of ['localhost:8787', '127.0.0.1:8787', '[::1]:8787'])
      expect(local.acceptsHost(host), host).toBe(true);
    for (const host of ['localhost:8788', '127.0.0.1', EVIL, '0.0.0.0:8787', '172.17.0.2:8787'])
      expect(local.acceptsHost(host), host).toBe(false);
    expect(local.acceptsOrigin('http://127.0.0.1:8787')).toBe(true);
    expect(local.acceptsOrigin('https://127.0.0.1:8787')).toBe(false);
    // An https public URL on a loopback name is a proxy's: the plain loopback names stay refused on a public bind.
    const proxied = createSiteAddress({ bindHost: '0.0.0.0', port: 8787, publicUrl: 'https://localhost:8443' });
    expect(proxied.acceptsHost('127.0.0.1:8443')).toBe(false);
  });
});
