// `mcp-atlas scan`: one day's check of every watched server, run or resumed.
import { dayFromTime } from '@mcp-atlas/history';
import { nodeNetwork } from '@mcp-atlas/probe/node';
import type { Logger } from '../log.js';
import { loadOrCreateSigningKeys } from '../seal/keys.js';
import { Scheduler } from '../serve/scheduler.js';
import { COST_FLAG_OPTIONS } from '../costs/cost-settings.js';
import { costFlags, dayFlag, EXIT_OK, openDataFolder, parse } from './shared.js';

export const SCAN_USAGE = `  scan    [--data DIR] [--day YYYY-MM-DD] [--registry URL]
          run (or resume) one day's check of every watched server (reading the registry first when given)
          serve and scan also take the compute caps, in US dollars: [--daily-budget-usd 0.10]
          [--five-minute-budget-usd 0.25] (serve) [--check-cost-usd 0.00001] [--check-cost-per-second-usd 0.00001]`;

/** Runs `scan`; resolves to the exit code. */
export async function commandScan(args: readonly string[], log: Logger): Promise<number> {
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
