// `mcp-atlas serve`: the running service (HTTP, and the schedule unless --no-schedule).
import { nodeNetwork } from '@mcp-atlas/probe/node';
import type { Logger } from '../log.js';
import { loadOrCreateSigningKeys } from '../seal/keys.js';
import { Scheduler } from '../serve/scheduler.js';
import { serveAtlas } from '../serve/serve-atlas.js';
import { COST_FLAG_OPTIONS } from '../costs/cost-settings.js';
import { OUTSIDE_FLAG_OPTIONS } from '../outside/outside-config.js';
import { costFlags, EXIT_OK, intFlag, openDataFolder, outsideFlags, parse, UsageError } from './shared.js';

export const SERVE_USAGE = `  serve   [--data DIR] [--port P] [--registry URL] [--no-schedule]
          run the service: daily/hourly checks, sealing at 01:05 UTC, retention, HTTP
          outside services: [--rdap https://rdap.org] [--npm-registry https://registry.npmjs.org]
          [--pypi https://pypi.org] [--osv https://api.osv.dev]`;

/** The official MCP registry, read by `serve` unless --registry names another. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** Runs `serve`; resolves to the exit code once the service has shut down. */
export async function commandServe(args: readonly string[], log: Logger): Promise<number> {
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
