// The Dockerfile, compose.yaml and the systemd unit cannot be run here (no base images, no systemd), so this
// checks what can go stale in them: every file they copy exists, every workspace package they build is real,
// the command they start is one the CLI has, with flags it accepts, and every variable they set is a setting.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readServeSettings } from '../src/commands/serve.js';
import { EXIT_OK, runCommand } from '../src/commands.js';
import { createAtlasMetrics, QUIET_PATHS } from '../src/http/metrics.js';
import { createSiteAddress } from '../src/http/site-address.js';
import { createLogger } from '../src/log.js';
import { SETTINGS } from '../src/serve/settings.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';

// js-yaml ships no types; its one function is typed here, as the action test does.
const { load } = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

const ROOT = join(import.meta.dirname, '..', '..', '..');
const APP = join(ROOT, 'apps', 'atlas');
const SETTING_VARIABLES = new Set(SETTINGS.flatMap((setting) => setting.env));
/** Variables that are not settings of the app but of its runtime. */
const RUNTIME_VARIABLES = new Set(['NODE_ENV']);

afterEach(() => vi.restoreAllMocks());

async function text(path: string): Promise<string> {
  return readFile(join(ROOT, path), 'utf8');
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(dockerfile: string): { name: string; args: string }[] {
  return dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const space = line.indexOf(' ');
      return { name: line.slice(0, space).toUpperCase(), args: line.slice(space + 1).trim() };
    });
}

/** Whether the CLI knows `command` (its --help answers 0). */
async function isCommand(command: string): Promise<boolean> {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const code = await runCommand([command, '--help'], createLogger('silent'));
  vi.restoreAllMocks();
  return code === EXIT_OK;
}

async function appPackage(): Promise<{ name: string; bin: Record<string, string> }> {
  return JSON.parse(await readFile(join(APP, 'package.json'), 'utf8'));
}

describe('the Dockerfile', () => {
  it('copies only files that exist and builds the app’s own workspace package', async () => {
    const steps = instructions(await text('Dockerfile'));
    const copies = steps.filter((step) => step.name === 'COPY' && !step.args.startsWith('--from'));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const parts = copy.args.split(/\s+/);
      for (const source of parts.slice(0, -1)) expect(existsSync(join(ROOT, source)), source).toBe(true);
    }
    const { name } = await appPackage();
    const runs = steps.filter((step) => step.name === 'RUN').map((step) => step.args);
    const filters = [...runs.join('\n').matchAll(/--filter[= ](@?[\w/.-]+?)(\.\.\.)?(\s|$)/g)].map((m) => m[1]);
    // The build and the deploy step both name the app's package.
    expect(filters).toEqual([name, name]);
    // pnpm through npx, never Corepack.
    for (const run of runs) if (run.includes('pnpm')) expect(run).toMatch(/npx --yes pnpm@10 /);
    expect(runs.join('\n')).not.toContain('corepack');
    expect(steps.filter((step) => step.name === 'FROM').map((step) => step.args.split(' ')[0])).toEqual([
      'node:20-slim',
      'node:20-slim',
    ]);
  });

  it('starts a command the CLI has, as a user without privileges, with only real settings', async () => {
    const steps = instructions(await text('Dockerfile'));
    const entrypoint = JSON.parse(steps.find((step) => step.name === 'ENTRYPOINT')!.args) as string[];
    const cmd = JSON.parse(steps.find((step) => step.name === 'CMD')!.args) as string[];
    // The entry point is the bin the build makes, inside the deployed folder (/app).
    const { bin } = await appPackage();
    expect(entrypoint).toEqual(['node', `/app/${Object.values(bin)[0]!.replace(/^\.\//, '')}`]);
    expect(await isCommand(cmd[0]!)).toBe(true);
    expect(steps.find((step) => step.name === 'USER')?.args).toBe('node');
    expect(steps.some((step) => step.name === 'VOLUME' && step.args.includes('/data'))).toBe(true);
    const env = await imageEnv();
    for (const name of Object.keys(env))
      expect(SETTING_VARIABLES.has(name) || RUNTIME_VARIABLES.has(name), name).toBe(true);
    // With the public URL an operator must add, the image's settings start serve.
    expect(() =>
      readServeSettings(cmd.slice(1), { ...env, MCP_ATLAS_PUBLIC_URL: 'https://atlas.example.org' }),
    ).not.toThrow();
    const health = steps.find((step) => step.name === 'HEALTHCHECK')!.args;
    const path = /\/(readyz|healthz)/.exec(health)?.[0];
    expect(path).toBe('/readyz');
    expect(QUIET_PATHS.has(path!)).toBe(true);
  });
});

/** compose.yaml's services, as the file declares them. */
interface ComposeService {
  build?: string;
  image: string;
  command?: string[];
  profiles?: string[];
  environment: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
}

/**
 * Compose's interpolation of one value: ${NAME:-default} and ${NAME} from `env` (an unset or empty variable
 * takes the default, or the empty string).
 */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_]+)(?::-([^}]*))?\}/g, (_, name: string, fallback?: string) =>
    env[name] !== undefined && env[name] !== '' ? env[name] : (fallback ?? ''),
  );
}

/** An env file's NAME=value lines, comments and blank lines skipped. */
function envFileOf(source: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of source.split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match !== null) values[match[1]!] = match[2]!;
  }
  return values;
}

/** A service's environment after interpolation, over the Dockerfile's own ENV lines. */
function containerEnv(service: ComposeService, env: Record<string, string>, image: Record<string, string>) {
  const values: Record<string, string> = { ...image };
  for (const [name, value] of Object.entries(service.environment)) values[name] = interpolate(value, env);
  return values;
}

/** The Dockerfile's ENV settings. */
async function imageEnv(): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const step of instructions(await text('Dockerfile')).filter((s) => s.name === 'ENV'))
    for (const pair of step.args.matchAll(/([A-Z_]+)=(\S+)/g)) env[pair[1]!] = pair[2]!;
  return env;
}

describe('compose.yaml', () => {
  async function services(): Promise<Record<string, ComposeService>> {
    return (load(await text('compose.yaml')) as { services: Record<string, ComposeService> }).services;
  }

  it('builds this Dockerfile for every app service, sets only real settings, and keeps the cluster in a profile', async () => {
    const compose = await services();
    expect(Object.keys(compose)).toEqual(['atlas', 'worker', 'postgres']);
    const { atlas, worker, postgres } = compose;
    // Both app services build the image, so `up --profile postgres` never tries to pull an image that is local.
    for (const service of [atlas!, worker!]) {
      expect(existsSync(join(ROOT, service.build!, 'Dockerfile'))).toBe(true);
      for (const name of Object.keys(service.environment)) expect(SETTING_VARIABLES.has(name), name).toBe(true);
    }
    expect(worker!.image).toBe(atlas!.image);
    expect(atlas!.profiles).toBeUndefined();
    expect(worker!.profiles).toEqual(['postgres']);
    expect(postgres!.profiles).toEqual(['postgres']);
    expect(await isCommand(worker!.command![0]!)).toBe(true);
    // The worker starts once the database answers.
    expect(worker!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(postgres!.healthcheck?.test).toContain('pg_isready');
    // No required variable: compose reads the whole file, so one would stop `docker compose up` without the profile.
    expect(await text('compose.yaml')).not.toMatch(/\$\{[A-Z_]+:\?/);
  });

  it('with no variables set, serves a data folder that 127.0.0.1 and localhost both reach', async () => {
    const { atlas } = await services();
    const env = containerEnv(atlas!, {}, await imageEnv());
    const settings = readServeSettings([], env);
    expect(settings.storeUrl).toBe('file:/data');
    expect(settings.queueDaily).toBe(false);
    const site = createSiteAddress({ publicUrl: settings.publicUrl, bindHost: settings.host, port: settings.port });
    // The port compose publishes on the machine.
    for (const host of ['127.0.0.1:8787', 'localhost:8787', '[::1]:8787'])
      expect(site.acceptsHost(host), host).toBe(true);
  });

  it('with deploy/postgres.env, points the app and the workers at the postgres service and queues each day', async () => {
    const { atlas, worker, postgres } = await services();
    const envFile = envFileOf(await text('deploy/postgres.env'));
    for (const name of Object.keys(envFile)) expect(SETTING_VARIABLES.has(name), name).toBe(true);
    const shell = { POSTGRES_PASSWORD: 'secret1' };
    const variables = Object.fromEntries(
      Object.entries(envFile).map(([name, value]) => [name, interpolate(value, shell)]),
    );
    const app = containerEnv(atlas!, { ...shell, ...variables }, await imageEnv());
    const settings = readServeSettings([], app);
    expect(settings.queueDaily).toBe(true);
    const store = new URL(settings.storeUrl);
    const database = postgres!.environment;
    expect([store.protocol, store.hostname, store.port, store.username, store.pathname]).toEqual([
      'postgres:',
      'postgres',
      '5432',
      database.POSTGRES_USER,
      `/${database.POSTGRES_DB}`,
    ]);
    expect(store.password).toBe(interpolate(database.POSTGRES_PASSWORD!, shell));
    // The workers read the same store, so the days the app queues are the ones they take.
    expect(containerEnv(worker!, { ...shell, ...variables }, {}).MCP_ATLAS_STORE).toBe(settings.storeUrl);
    // The password itself is never written in either file.
    expect(await text('deploy/postgres.env')).not.toContain('secret1');
  });
});

describe('the systemd unit', () => {
  it('runs a command the CLI has with flags it accepts, sets only real settings, and is hardened', async () => {
    const unit = await text('deploy/mcp-atlas.service');
    const execStart = /^ExecStart=(.+)$/m.exec(unit)![1]!.split(/\s+/);
    // Through the bin, whose Node version check runs first: Debian 12's own node is older than the engines field.
    const cli = execStart.findIndex((word) => word.endsWith('/bin/mcp-atlas.js'));
    expect(cli).toBeGreaterThan(0);
    expect(unit).toMatch(/Node 20\.19 or newer/);
    const [command, ...flags] = execStart.slice(cli + 1);
    expect(await isCommand(command!)).toBe(true);
    const env: Record<string, string> = {};
    for (const line of unit.matchAll(/^#?Environment=([A-Z_]+)=(\S*)$/gm)) env[line[1]!] = line[2]!;
    expect(Object.keys(env)).toContain('MCP_ATLAS_DATA');
    for (const name of Object.keys(env)) expect(SETTING_VARIABLES.has(name), name).toBe(true);
    expect(() => readServeSettings(flags, env)).not.toThrow();
    for (const option of ['NoNewPrivileges=yes', 'ProtectSystem=strict', 'PrivateTmp=yes', 'SystemCallFilter=']) {
      expect(unit, option).toContain(option);
    }
    expect(/^StateDirectory=(.+)$/m.exec(unit)?.[1]).toBe(env.MCP_ATLAS_DATA!.split('/').at(-1));
  });

  it('is named in the deployment guide with the other two files', async () => {
    const readme = await readFile(join(APP, 'README.md'), 'utf8');
    for (const file of ['`Dockerfile`', '`compose.yaml`', '`deploy/mcp-atlas.service`']) expect(readme).toContain(file);
  });
});

describe('the alerting rules', () => {
  /** The names every series of a running service's scrape carries, after one event of each kind. */
  async function scrapedSeriesNames(): Promise<Set<string>> {
    const metrics = createAtlasMetrics({
      getView: () => ({ roots: new Map() }) as never,
      storage: createMemoryStorage(),
      now: () => new Date('2026-03-05T01:05:00Z'),
      budgetsMicroUsd: { daily: 1, fiveMinute: 1 },
    });
    metrics.observeRequest('GET', '/api/servers', 500, 0.2);
    metrics.recordTaskFailure('daily');
    metrics.setScanProgress('2026-03-05', 1, 2);
    const text = await metrics.registry.metrics();
    return new Set([...text.matchAll(/^([a-z0-9_]+)[{ ]/gm)].map((match) => match[1]!));
  }

  it('name only series the service exports, and each says what fired', async () => {
    const file = load(await text('deploy/alerts.yaml')) as {
      groups: {
        name: string;
        rules: { alert: string; expr: string; for: string; annotations: { summary: string } }[];
      }[];
    };
    const names = await scrapedSeriesNames();
    const rules = file.groups.flatMap((group) => group.rules);
    expect(rules.map((rule) => rule.alert)).toContain('McpAtlasDayNotSealed');
    for (const rule of rules) {
      expect(rule.for, rule.alert).toMatch(/^\d+[mh]$/);
      expect(rule.annotations.summary.length, rule.alert).toBeGreaterThan(0);
      const used = [...rule.expr.matchAll(/\b((?:mcp_atlas|nodejs|process)_[a-z0-9_]+)/g)].map((match) => match[1]!);
      expect(used.length, rule.alert).toBeGreaterThan(0);
      for (const name of used) expect(names.has(name), `${rule.alert}: ${name}`).toBe(true);
    }
  });

  it('are named in the operating guide', async () => {
    expect(await text('docs/operating.md')).toContain('deploy/alerts.yaml');
  });
});
