// `scan`'s cost flags from the environment, through the built CLI: `scan --help` names the variables (serve's
// names for the same settings), a variable's value takes effect (a zero daily budget checks nobody), a flag wins
// over its variable, and a bad value exits 2 with a message naming both the flag and the variable.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_COST_SETTINGS } from '../src/commands/scan.js';

const APP_FOLDER = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST_CLI = join(APP_FOLDER, 'dist', 'cli.js');
const DAY = '2026-12-20';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

beforeAll(() => {
  expect(existsSync(DIST_CLI), 'build the app first (turbo runs build before test)').toBe(true);
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with only PATH and `env` in its environment, and waits for it to exit. */
function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [DIST_CLI, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A data folder watching two servers that a zero budget never lets anyone contact. */
async function dataFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'atlas-scan-env-'));
  folders.push(folder);
  await mkdir(join(folder, 'state'), { recursive: true });
  const servers = ['notes', 'weather'].map((id) => ({
    id,
    url: `https://${id}.example.test/mcp`,
    title: id,
    source: 'registry',
  }));
  await writeFile(join(folder, 'state', 'servers.json'), JSON.stringify({ servers }));
  return folder;
}

const readJson = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));

describe('scan cost flags from the environment', () => {
  it('reuses serve’s variable names for the same settings, and leaves out the five-minute budget', () => {
    expect(SCAN_COST_SETTINGS.map((s) => [s.flag, s.env])).toEqual([
      ['daily-budget-usd', ['MCP_ATLAS_DAILY_BUDGET_USD']],
      ['check-cost-usd', ['MCP_ATLAS_CHECK_COST_USD']],
      ['check-cost-per-second-usd', ['MCP_ATLAS_CHECK_COST_PER_SECOND_USD']],
    ]);
  });

  it('scan --help lists each variable with its flag', async () => {
    const run = await runCli(['scan', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('MCP_ATLAS_DAILY_BUDGET_USD (--daily-budget-usd)');
    expect(run.stdout).toContain('MCP_ATLAS_CHECK_COST_USD (--check-cost-usd)');
    expect(run.stdout).toContain('MCP_ATLAS_CHECK_COST_PER_SECOND_USD (--check-cost-per-second-usd)');
    expect(run.stdout).not.toContain('MCP_ATLAS_FIVE_MINUTE_BUDGET_USD');
  });

  it('a zero daily budget from the environment checks nobody, as the flag would', async () => {
    const folder = await dataFolder();
    const run = await runCli(['scan', '--data', folder, '--day', DAY], {
      MCP_ATLAS_DAILY_BUDGET_USD: '0',
      MCP_ATLAS_CHECK_COST_USD: '0.002',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(await readJson(join(folder, 'days', DAY, 'summary.json'))).toMatchObject({ servers: 0, skippedByCap: 2 });
    // The estimate that stopped the first part uses the variable's per-check cost: one server never timed, 2,000
    // micro-dollars plus the default 10 per second over the 8 seconds such a check is assumed to take.
    expect(await readJson(join(folder, 'state', 'costs', 'daily', `${DAY}.json`))).toMatchObject({
      budgetMicroUsd: 0,
      spentMicroUsd: 0,
      stopped: { part: '0', estimateMicroUsd: 2_000 + 8 * 10 },
    });
  });

  it('a flag wins over its variable, even over a variable that would be refused', async () => {
    const folder = await dataFolder();
    const run = await runCli(['scan', '--data', folder, '--day', DAY, '--daily-budget-usd', '0'], {
      MCP_ATLAS_DAILY_BUDGET_USD: 'lots',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(await readJson(join(folder, 'state', 'costs', 'daily', `${DAY}.json`))).toMatchObject({
      budgetMicroUsd: 0,
    });
  });

  it('a bad value from the environment exits 2 naming the flag and the variable, before touching the data', async () => {
    const folder = join(await dataFolder(), 'never-made');
    for (const [name, value, flag] of [
      ['MCP_ATLAS_DAILY_BUDGET_USD', 'lots', '--daily-budget-usd'],
      ['MCP_ATLAS_CHECK_COST_USD', '1e-5', '--check-cost-usd'],
      ['MCP_ATLAS_CHECK_COST_PER_SECOND_USD', '-1', '--check-cost-per-second-usd'],
    ] as const) {
      const run = await runCli(['scan', '--data', folder, '--day', DAY], { [name]: value });
      expect(run.code, name).toBe(2);
      expect(run.stderr).toContain(`${flag} must be an amount in US dollars from 0 to 1000`);
      expect(run.stderr).toContain(`(set by ${name})`);
    }
    expect(existsSync(folder)).toBe(false);
  });
});
