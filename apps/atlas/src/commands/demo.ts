// `mcp-atlas demo`: a local fleet, a simulated month of checks, sealed, then served.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { resolveCosts } from '../costs/cost-settings.js';
import { type DemoHighlights, runDemo } from '../demo/run-demo.js';
import type { Logger } from '../log.js';
import { demoLicenseValidator, serveAtlas } from '../serve/serve-atlas.js';
import { eraseWholeStore, type OpenedStore, openStore, StoreUrlError } from '../storage/open-store.js';
import { EXIT_FAILED, EXIT_OK, type Flags, intFlag, parseSettings, UsageError } from './shared.js';

export const DEMO_USAGE = `  demo    [--days 30] [--data ./atlas-data | --store URL] [--port 8787] [--once]
          start a local fleet of MCP servers, simulate N days of checks, seal them, then serve the observatory`;

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

/**
 * The demo's --store: it too starts from a clean store, erasing one a demo filled before as a whole (the
 * sealed-day rule refuses deleting a sealed day's files one by one) and refusing one holding anything else.
 */
async function openDemoStore(url: string): Promise<OpenedStore> {
  let store: OpenedStore;
  try {
    store = await openStore(url);
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(`--store: ${error.message}`);
    throw error;
  }
  const paths = await store.list('');
  if (paths.length === 0) return store;
  if (!paths.includes(DEMO_MARKER)) {
    await store.close();
    throw new UsageError('the store holds data that the demo did not make; give an empty store with --store');
  }
  await eraseWholeStore(store);
  return store;
}

/** The demo's store: --store URL, or the --data folder (default ./atlas-data), cleared for a fresh month. */
async function openDemoStorage(flags: Flags): Promise<OpenedStore> {
  if (typeof flags.store === 'string') {
    if (flags.data !== undefined) throw new UsageError('give --data DIR or --store URL, not both');
    return openDemoStore(flags.store);
  }
  const dir = resolve(String(flags.data ?? './atlas-data'));
  await prepareDemoFolder(dir);
  return openStore(`file:${dir}`);
}

/**
 * The instant the demo runs and serves at: the real clock, or the one MCP_ATLAS_DEMO_NOW names (an ISO time, such
 * as 2026-11-30T12:00:00.000Z), so that two runs can be compared byte for byte (scripts/demo-snapshot.mjs).
 */
function demoClockOf(env: NodeJS.ProcessEnv): Date | null {
  const text = env.MCP_ATLAS_DEMO_NOW;
  if (text === undefined || text === '') return null;
  const fixed = new Date(text);
  if (Number.isNaN(fixed.getTime())) throw new UsageError('MCP_ATLAS_DEMO_NOW must be an ISO time');
  return fixed;
}

/** The spend gauges' budgets: the default caps, which the demo's simulated checks run under. */
function demoBudgets(): { daily: number; fiveMinute: number } {
  const costs = resolveCosts();
  return { daily: costs.dailyBudgetMicroUsd, fiveMinute: costs.fiveMinuteBudgetMicroUsd };
}

/** Runs `demo`; resolves to the exit code. */
export async function commandDemo(args: readonly string[], log: Logger): Promise<number> {
  const flags = parseSettings(args, {
    days: { type: 'string' },
    data: { type: 'string' },
    store: { type: 'string' },
    port: { type: 'string' },
    once: { type: 'boolean' },
  });
  const days = intFlag(flags, 'days', 30, 1, 30);
  const port = intFlag(flags, 'port', 8787, 0, 65_535);
  const fixedNow = demoClockOf(process.env);
  const storage = await openDemoStorage(flags);
  await storage.put(DEMO_MARKER, new TextEncoder().encode('{"made_by":"mcp-atlas demo"}\n'));
  // A PostgreSQL store never holds the private key: the demo's key then lives only as long as the demo.
  const keyInMemory = storage.dir === null;
  const outcome = await runDemo({ days, storage, now: fixedNow ?? new Date(), log, progress: true, keyInMemory });
  printDemoTable(
    outcome.letters,
    outcome.fleet.members.filter((m) => m.watched).map((m) => ({ id: m.id, kind: m.kind })),
  );
  printDemoHighlights(outcome.highlights);
  process.stdout.write(
    `chain: ${outcome.chain.ok ? 'verified' : `broken at ${outcome.chain.day}: ${outcome.chain.reason}`}\n`,
  );
  if (flags.once === true) {
    await outcome.fleet.close();
    await storage.close();
    return outcome.chain.ok ? EXIT_OK : EXIT_FAILED;
  }
  // The demo's license keys are public, so only the demo installs them; `serve` takes keys from --license-keys.
  const running = await serveAtlas({
    storage,
    port,
    log,
    keys: outcome.keys,
    validateLicense: demoLicenseValidator,
    // /healthz, /readyz and /metrics as `serve` has them, so a newcomer can try them on the demo; it is bound to
    // loopback, so /metrics needs no token.
    operator: { metricsToken: null, budgetsMicroUsd: demoBudgets() },
    ...(fixedNow !== null ? { now: () => fixedNow } : {}),
    onClose: async () => {
      await outcome.fleet.close();
      await storage.close();
    },
  });
  process.stdout.write(`mcp-atlas demo is serving at ${running.url}\n`);
  await running.closed;
  return EXIT_OK;
}

function printDemoTable(letters: Map<string, string>, members: { id: string; kind: string }[]): void {
  const width = Math.max(...members.map((m) => m.id.length));
  const kindWidth = Math.max(8, ...members.map((m) => m.kind.length));
  process.stdout.write(`${'server'.padEnd(width)}  ${'kind'.padEnd(kindWidth)}  daily letters, oldest first\n`);
  for (const member of members) {
    process.stdout.write(
      `${member.id.padEnd(width)}  ${member.kind.padEnd(kindWidth)}  ${letters.get(member.id) ?? ''}\n`,
    );
  }
}

/** One line each for what the demo shows beyond the letters, as the served read model has it. */
export function describeDemoHighlights(h: DemoHighlights): string[] {
  const list = (items: string[]) => (items.length === 0 ? 'none' : items.join(', '));
  const marked = (kind: 'gateway' | 'directory') => list(h.marks.filter((m) => m.kind === kind).map((m) => m.server));
  return [
    `left out:        ${list(h.leftOut.map((s) => `${s.id} (${s.reason})`))}`,
    `live incident:   ${list(h.incidents.map((s) => `${s.id} (confirmed by ${s.confirmedBy.join(' and ')}, ${s.failingReporters} failing reporters)`))}`,
    `agents' ratings: ${list(h.rated.map((s) => `${s.id} ${s.stars.toFixed(1)} stars from ${s.reporters} reporters`))}`,
    `owner-verified:  ${list(h.owners.map((s) => `${s.id}${s.note !== null ? ' (note' : ' ('}${s.fiveMinuteChecks ? `${s.note !== null ? ', ' : ''}five-minute checks)` : ')'}`))}`,
    `route marks:     gateway ${marked('gateway')}; directory ${marked('directory')}`,
    `submitted:       ${list(h.submitted.map((s) => `${s.member} (${s.status === 'observing' ? 'in its observation week' : s.status}, ${s.checks} checks so far)`))}`,
  ];
}

function printDemoHighlights(highlights: DemoHighlights): void {
  for (const line of describeDemoHighlights(highlights)) process.stdout.write(`${line}\n`);
}
