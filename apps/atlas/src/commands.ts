// Argument parsing and dispatch for `mcp-atlas`. Exit codes scripts can rely on: 0 done, 1 failed
// (a broken chain, a failed scan), 2 usage error.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dayFromTime, isDay, verifyChain } from '@mcp-atlas/history';
import { runDemo } from './demo/run-demo.js';
import { createLogger, type Logger } from './log.js';
import { readRoots, sealDueDays, sealStoredDay } from './seal/seal-day.js';
import { loadOrCreateSigningKeys, loadSigningKeys } from './seal/keys.js';
import { createFsStorage, removeStaleTempFiles } from './storage/fs-storage.js';
import { nodeNetwork } from '@mcp-atlas/probe/node';
import { Scheduler } from './serve/scheduler.js';
import { serveAtlas } from './serve/serve-atlas.js';
import { verifyRemote } from './verify/verify-remote.js';
import { CHECK_USAGE, runCheckCommand } from './check/command.js';
import { COST_FLAG_OPTIONS, CostFlagError, readCostFlags, type CostSettings } from './costs/cost-settings.js';
import { OUTSIDE_FLAG_OPTIONS, OutsideUrlError, readOutsideFlags, type OutsideServiceUrls } from './outside/outside-config.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

const USAGE = `Usage: mcp-atlas <command> [options]

Commands:
  demo    [--days 30] [--data ./atlas-data] [--port 8787] [--once]
          start a local fleet of MCP servers, simulate N days of checks, seal them, then serve the observatory
  serve   [--data DIR] [--port P] [--registry URL] [--no-schedule]
          run the service: daily/hourly checks, sealing at 01:05 UTC, retention, HTTP
          outside services: [--rdap https://rdap.org] [--npm-registry https://registry.npmjs.org]
          [--pypi https://pypi.org] [--osv https://api.osv.dev]
  scan    [--data DIR] [--day YYYY-MM-DD] [--registry URL]
          run (or resume) one day's check of every watched server (reading the registry first when given)
          serve and scan also take the compute caps, in US dollars: [--daily-budget-usd 0.10]
          [--five-minute-budget-usd 0.25] (serve) [--check-cost-usd 0.00001] [--check-cost-per-second-usd 0.00001]
  seal    [--data DIR] [--day YYYY-MM-DD]       seal one day, or every due day (catch-up) when --day is absent
  verify  (--data DIR | --url BASE)             check the signed chain; prints "verified" or the first broken day
${CHECK_USAGE}

Exit codes: 0 done, 1 failed (for verify: the chain is broken), 2 usage error.
`;

class UsageError extends Error {}

type Flags = Record<string, string | boolean | undefined>;

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

function parse(args: readonly string[], options: OptionSpec): Flags {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: false, strict: true }).values as Flags;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function intFlag(flags: Flags, name: string, fallback: number, min: number, max: number): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return value;
}

function costFlags(flags: Flags): CostSettings {
  try {
    return readCostFlags(flags);
  } catch (error) {
    if (error instanceof CostFlagError) throw new UsageError(error.message);
    throw error;
  }
}

function outsideFlags(flags: Flags): OutsideServiceUrls {
  try {
    return readOutsideFlags(flags);
  } catch (error) {
    if (error instanceof OutsideUrlError) throw new UsageError(error.message);
    throw error;
  }
}

function dayFlag(flags: Flags): string | null {
  const raw = flags.day;
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !isDay(raw)) throw new UsageError('--day must be a date written YYYY-MM-DD');
  return raw;
}

const DEMO_MARKER = 'demo.json';

// The demo starts from a clean folder: it clears one it made before, and refuses one holding other data.
async function prepareDemoFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const entries = await readdir(dir);
  if (entries.length === 0) return;
  if (!entries.includes(DEMO_MARKER)) {
    throw new UsageError(`${dir} holds data that the demo did not make; give an empty or new folder with --data`);
  }
  for (const entry of entries) await rm(resolve(dir, entry), { recursive: true, force: true });
}

async function commandDemo(args: readonly string[], log: Logger): Promise<number> {
  const flags = parse(args, { days: { type: 'string' }, data: { type: 'string' }, port: { type: 'string' }, once: { type: 'boolean' } });
  const days = intFlag(flags, 'days', 30, 1, 30);
  const port = intFlag(flags, 'port', 8787, 0, 65_535);
  const dir = resolve(String(flags.data ?? './atlas-data'));
  await prepareDemoFolder(dir);
  const storage = createFsStorage(dir);
  await storage.put(DEMO_MARKER, new TextEncoder().encode('{"made_by":"mcp-atlas demo"}\n'));
  const outcome = await runDemo({ days, storage, now: new Date(), log, progress: true });
  printDemoTable(outcome.letters, outcome.fleet.members.map((m) => ({ id: m.id, kind: m.kind })));
  process.stdout.write(`chain: ${outcome.chain.ok ? 'verified' : `broken at ${outcome.chain.day}: ${outcome.chain.reason}`}\n`);
  if (flags.once === true) {
    await outcome.fleet.close();
    return outcome.chain.ok ? EXIT_OK : EXIT_FAILED;
  }
  const running = await serveAtlas({ storage, port, log, keys: outcome.keys, onClose: () => outcome.fleet.close() });
  process.stdout.write(`mcp-atlas demo is serving at ${running.url}\n`);
  await running.closed;
  return EXIT_OK;
}

function printDemoTable(letters: Map<string, string>, members: { id: string; kind: string }[]): void {
  const width = Math.max(...members.map((m) => m.id.length));
  process.stdout.write(`${'server'.padEnd(width)}  ${'kind'.padEnd(8)}  daily letters, oldest first\n`);
  for (const member of members) {
    process.stdout.write(`${member.id.padEnd(width)}  ${member.kind.padEnd(8)}  ${letters.get(member.id) ?? ''}\n`);
  }
}

/** The official MCP registry, read by `serve` unless --registry names another. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

async function openDataFolder(flags: Flags): Promise<{ dir: string; storage: ReturnType<typeof createFsStorage> }> {
  const dir = resolve(String(flags.data ?? './atlas-data'));
  await mkdir(dir, { recursive: true });
  // A write a crash cut short leaves only a temp file next to the last good copy; clear those first.
  await removeStaleTempFiles(dir);
  return { dir, storage: createFsStorage(dir) };
}

async function commandServe(args: readonly string[], log: Logger): Promise<number> {
  const flags = parse(args, {
    data: { type: 'string' },
    port: { type: 'string' },
    registry: { type: 'string' },
    'no-schedule': { type: 'boolean' },
    ...COST_FLAG_OPTIONS,
    ...OUTSIDE_FLAG_OPTIONS,
  });
  const port = intFlag(flags, 'port', 8787, 0, 65_535);
  const costs = costFlags(flags);
  const outside = outsideFlags(flags);
  const registryUrl = String(flags.registry ?? DEFAULT_REGISTRY_URL);
  try {
    new URL(registryUrl);
  } catch {
    throw new UsageError('--registry must be an absolute URL');
  }
  const { storage } = await openDataFolder(flags);
  const keys = await loadOrCreateSigningKeys(storage, new Date());
  let scheduler: Scheduler | null = null;
  const running = await serveAtlas({ storage, port, log, keys, onClose: async () => scheduler?.stop() });
  if (flags['no-schedule'] !== true) {
    scheduler = new Scheduler({ storage, log, keys, registryUrl, network: nodeNetwork, refresh: running.refresh, progress: true, costs, outside });
    scheduler.start();
  }
  process.stdout.write(`mcp-atlas is serving at ${running.url}\n`);
  await running.closed;
  return EXIT_OK;
}

async function commandScan(args: readonly string[], log: Logger): Promise<number> {
  const flags = parse(args, {
    data: { type: 'string' },
    day: { type: 'string' },
    registry: { type: 'string' },
    'daily-budget-usd': COST_FLAG_OPTIONS['daily-budget-usd'],
    'check-cost-usd': COST_FLAG_OPTIONS['check-cost-usd'],
    'check-cost-per-second-usd': COST_FLAG_OPTIONS['check-cost-per-second-usd'],
  });
  const costs = costFlags(flags);
  const { storage } = await openDataFolder(flags);
  const keys = await loadOrCreateSigningKeys(storage, new Date());
  const registryUrl = typeof flags.registry === 'string' ? flags.registry : null;
  const scheduler = new Scheduler({ storage, log, keys, registryUrl, network: nodeNetwork, progress: true, costs });
  const day = dayFlag(flags) ?? dayFromTime(new Date());
  const ran = await scheduler.runDaily(day);
  process.stdout.write(ran ? `scanned ${day}\n` : `${day} was already scanned\n`);
  return EXIT_OK;
}

async function commandSeal(args: readonly string[], log: Logger): Promise<number> {
  const flags = parse(args, { data: { type: 'string' }, day: { type: 'string' } });
  const { storage } = await openDataFolder(flags);
  const keys = await loadOrCreateSigningKeys(storage, new Date());
  const day = dayFlag(flags);
  const written = day !== null ? [await sealStoredDay(storage, day, keys)] : await sealDueDays(storage, dayFromTime(new Date()), keys);
  for (const record of written) process.stdout.write(`sealed ${record.day} ${record.root}\n`);
  if (written.length === 0) process.stdout.write('nothing to seal\n');
  log.info({ sealed: written.map((r) => r.day) }, 'seal done');
  return EXIT_OK;
}

async function commandVerify(args: readonly string[]): Promise<number> {
  const flags = parse(args, { data: { type: 'string' }, url: { type: 'string' } });
  if ((flags.data === undefined) === (flags.url === undefined)) throw new UsageError('verify needs exactly one of --data DIR or --url BASE');
  if (typeof flags.url === 'string') {
    const verdict = await verifyRemote(flags.url);
    process.stdout.write(verdict.ok ? 'verified\n' : `broken: ${verdict.day}: ${verdict.reason}\n`);
    return verdict.ok ? EXIT_OK : EXIT_FAILED;
  }
  const storage = createFsStorage(resolve(String(flags.data)));
  const keys = await loadSigningKeys(storage);
  if (keys === null) throw new UsageError(`${String(flags.data)} holds no signing key, so there is nothing to verify against`);
  const records = [...(await readRoots(storage)).values()].sort((a, b) => a.day.localeCompare(b.day));
  const verdict = await verifyChain(records, keys.publicKey);
  process.stdout.write(verdict.ok ? 'verified\n' : `broken: ${verdict.day}: ${verdict.reason}\n`);
  return verdict.ok ? EXIT_OK : EXIT_FAILED;
}

/** Runs one command line; resolves to the exit code. */
export async function runCommand(argv: readonly string[], log: Logger = createLogger()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'demo':
        return await commandDemo(rest, log);
      case 'seal':
        return await commandSeal(rest, log);
      case 'serve':
        return await commandServe(rest, log);
      case 'scan':
        return await commandScan(rest, log);
      case 'verify':
        return await commandVerify(rest);
      case 'check':
        return await runCheckCommand(rest);
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(USAGE);
        return command === undefined ? EXIT_USAGE : EXIT_OK;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`mcp-atlas: ${error.message}\n\n${USAGE}`);
      return EXIT_USAGE;
    }
    throw error;
  }
}
