// Ready to operate: the built CLI's `serve`, configured only through environment variables (data folder, port,
// public URL, signing key file, bot contact), answers its probes, exposes Prometheus metrics whose HTTP counter
// grows, publishes the key file's public key, writes only JSON on stdout with one access-log line per request,
// and ends with exit 0 after SIGTERM.
import { type ChildProcess, spawn } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IDENTITY_RULES } from '@mcp-atlas/probe/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ed25519Pem } from './fixtures/signing-key-file.js';

const APP_FOLDER = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST_CLI = join(APP_FOLDER, 'dist', 'cli.js');
const BOT_CONTACT = 'https://ops.example.org/atlas-bot';
const PUBLIC_URL = 'https://atlas.example.org';

/** One line of the Prometheus text format: a comment, a blank line, or `name{labels} value`. */
const PROMETHEUS_LINE =
  /^(#.*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*",?)*\})? -?([0-9.e+-]+|NaN|\+Inf|-Inf)( -?\d+)?)?$/;

/** The sum of a counter's samples over every label set, from Prometheus text. */
function counterSum(text: string, name: string): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

let folder: string;
let child: ChildProcess;
let base: string;
let stdout = '';
let keyPem: string;
const exit = { code: null as number | null, signal: null as NodeJS.Signals | null, at: 0 };
let exitResolve!: () => void;
const exited = new Promise<void>((resolve) => {
  exitResolve = resolve;
});

beforeAll(async () => {
  expect(existsSync(DIST_CLI), 'build the app first (turbo runs build before test)').toBe(true);
  folder = await mkdtemp(join(tmpdir(), 'atlas-operate-'));
  keyPem = ed25519Pem();
  await writeFile(join(folder, 'signing-key.pem'), keyPem, { mode: 0o600 });
  child = spawn(process.execPath, [DIST_CLI, 'serve'], {
    cwd: folder,
    // Nothing but the environment configures it: no flag follows `serve`.
    env: {
      PATH: process.env.PATH ?? '',
      MCP_ATLAS_DATA: join(folder, 'data'),
      PORT: '0',
      MCP_ATLAS_PUBLIC_URL: PUBLIC_URL,
      MCP_ATLAS_SIGNING_KEY: join(folder, 'signing-key.pem'),
      MCP_ATLAS_BOT_CONTACT: BOT_CONTACT,
      // No network here: the schedule would only fail to read the registry.
      MCP_ATLAS_NO_SCHEDULE: 'true',
      // Debug, so the probes' access lines (written at debug) show too.
      MCP_ATLAS_LOG_LEVEL: 'debug',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.once('exit', (code, signal) => {
    exit.code = code;
    exit.signal = signal;
    exit.at = Date.now();
    exitResolve();
  });
  base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)"/.exec(stdout);
      if (match !== null) resolve(match[1]!);
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    void exited.then(() => reject(new Error(`serve exited with ${exit.code} before serving: ${stdout}${stderr}`)));
  });
});

afterAll(async () => {
  if (child !== undefined && exit.at === 0) {
    child.kill('SIGKILL');
    await exited;
  }
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

describe('serve configured only through the environment', () => {
  const requests: { path: string; status: number }[] = [];
  const get = async (path: string): Promise<Response> => {
    const response = await fetch(`${base}${path}`);
    requests.push({ path, status: response.status });
    return response;
  };

  it('answers /healthz and /readyz with 200', async () => {
    expect((await get('/healthz')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('serves /metrics as Prometheus text, and its HTTP counter grows with requests', async () => {
    const first = await get('/metrics');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('text/plain');
    const before = await first.text();
    for (const line of before.split('\n')) expect(line, line).toMatch(PROMETHEUS_LINE);
    expect(before).toContain('# TYPE mcp_atlas_http_requests_total counter');
    expect(before).toContain('process_cpu_user_seconds_total');
    expect(before).toContain('mcp_atlas_http_request_duration_seconds_bucket');
    for (const path of ['/api/servers', '/api/servers', '/no-such-page']) await get(path);
    const after = await (await get('/metrics')).text();
    for (const line of after.split('\n')) expect(line, line).toMatch(PROMETHEUS_LINE);
    expect(counterSum(after, 'mcp_atlas_http_requests_total')).toBeGreaterThanOrEqual(
      counterSum(before, 'mcp_atlas_http_requests_total') + 4,
    );
    // Routes are labelled by pattern; a stray path never becomes a label of its own.
    expect(after).toContain('route="/api/servers",status="200"');
    expect(after).toContain('route="(unmatched)",status="404"');
    expect(after).not.toContain('no-such-page');
  });

  it('publishes the key file’s public key and the bot contact, and keeps no copy of the key', async () => {
    const wellKnown = (await (await get('/.well-known/mcp-atlas.json')).json()) as {
      user_agent: string;
      integrity: { public_key_pem: string };
    };
    const expected = createPublicKey(createPrivateKey(keyPem)).export({ type: 'spki', format: 'pem' }).toString();
    expect(wellKnown.integrity.public_key_pem.trim()).toBe(expected.trim());
    expect(wellKnown.user_agent).toBe(`mcp-atlas-bot/${IDENTITY_RULES.botVersion} (+${BOT_CONTACT})`);
    expect(await readdir(join(folder, 'data'))).not.toContain('keys');
  });

  it('ends with exit 0 after SIGTERM, having written only JSON lines with an access line per request', async () => {
    child.kill('SIGTERM');
    await exited;
    expect(exit.code).toBe(0);

    const lines = stdout.split('\n').filter((line) => line !== '');
    const records = lines.map((line) => {
      expect(() => JSON.parse(line), line).not.toThrow();
      return JSON.parse(line) as Record<string, unknown>;
    });
    const access = records.filter((record) => record.event === 'access');
    expect(access).toHaveLength(requests.length);
    for (const [index, request] of requests.entries()) {
      const line = access[index]!;
      expect(line).toMatchObject({ method: 'GET', status: request.status });
      expect(typeof line.durationMs).toBe('number');
      // The probes, the API and the well-known file name the client by a per-day network id; a stray path
      // (like a page) names none.
      if (request.path === '/no-such-page') expect(line).not.toHaveProperty('client');
      else expect(line.client).toMatch(/^[0-9a-f]{32}$/);
      // The probes and the scrape are written at debug level (20), the rest at info (30).
      const quiet = ['/healthz', '/readyz', '/metrics'].includes(request.path);
      expect(line.level, request.path).toBe(quiet ? 20 : 30);
    }
    // Never a raw address in an access line.
    for (const line of access) expect(JSON.stringify(line)).not.toContain('127.0.0.1');
    expect(records.some((record) => record.msg === 'signing with the key file given')).toBe(true);
    expect(records.at(-1)?.msg).toBe('stopped');
  });
});

describe('the methodology page of an installed app', () => {
  let installed: string;
  let served: ChildProcess | null = null;
  afterAll(async () => {
    if (served !== null && served.exitCode === null) {
      const gone = new Promise((resolve) => served!.once('exit', resolve));
      served.kill('SIGKILL');
      await gone;
    }
    if (installed !== undefined) await rm(installed, { recursive: true, force: true });
  });

  it('is served from the build alone, with no repository around it', async () => {
    // The built files in a folder outside the repository, with the app's dependencies next to them, as an
    // install leaves them: walking up from here finds no docs/methodology/.
    installed = await mkdtemp(join(tmpdir(), 'atlas-installed-'));
    await mkdir(join(installed, 'dist'));
    await copyFile(join(APP_FOLDER, 'dist', 'cli.js'), join(installed, 'dist', 'cli.js'));
    await cp(join(APP_FOLDER, 'dist', 'methodology'), join(installed, 'dist', 'methodology'), { recursive: true });
    await symlink(join(APP_FOLDER, 'node_modules'), join(installed, 'node_modules'), 'dir');
    served = spawn(process.execPath, [join(installed, 'dist', 'cli.js'), 'serve'], {
      cwd: installed,
      env: {
        PATH: process.env.PATH ?? '',
        MCP_ATLAS_DATA: join(installed, 'data'),
        PORT: '0',
        MCP_ATLAS_NO_SCHEDULE: '1',
        MCP_ATLAS_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      served!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /"url":"(http:\/\/[^"]+)"/.exec(out);
        if (match !== null) resolve(match[1]!);
      });
      served!.once('exit', (code) => reject(new Error(`the installed app exited with ${code}: ${out}`)));
    });
    const page = await fetch(`${url}/methodology`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<a href="/methodology/risk">Tool risk levels</a>');
    const area = await fetch(`${url}/methodology/risk`);
    expect(area.status).toBe(200);
    expect(await area.text()).toContain('<h1 id="tool-risk-levels">Tool risk levels</h1>');
  });
});
