// `mcp-atlas incidents close <server> --note TEXT`: a person closes a server's incident after review. The
// closure (server, time, note) is kept under state/; the incident rule then counts only failures after it.
import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { SERVER_ID_PATTERN } from '../data/paths.js';
import { closeIncident } from '../data/review-queue.js';
import { readWatchedServers } from '../data/watched-servers.js';
import { announceOperatorChange } from '../storage/change-log.js';
import { expectWords, noteFlag, openExistingDataFolder, parseOperatorArgs } from './operator-args.js';
import { EXIT_OK, UsageError } from './shared.js';

export const INCIDENTS_USAGE = `  incidents close <server> --note TEXT [--data DIR | --store URL]
          close a server's incident after review: only failures after now count towards a new one`;

/** Runs `incidents close`; `now` is the time of the closure. */
export async function commandIncidents(args: readonly string[], now: Date = new Date()): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'close')
    throw new UsageError(sub === undefined ? 'incidents needs "close"' : `unknown incidents command "${sub}"`);
  const { flags, words } = parseOperatorArgs(rest, {
    data: { type: 'string' },
    store: { type: 'string' },
    note: { type: 'string' },
  });
  const [server] = expectWords(words, 1, 'one server id: incidents close <server> --note TEXT') as [string];
  if (!SERVER_ID_PATTERN.test(server))
    throw new UsageError(`"${server}" is not a server id (lower-case letters, digits and dashes)`);
  const note = noteFlag(flags);
  const storage = await openExistingDataFolder(flags);
  let closed;
  try {
    closed = await closeIncident(storage, server, note, now);
  } catch (error) {
    if (error instanceof ReliabilityInputError) throw new UsageError(`--note: ${error.message.replace(/^note: /, '')}`);
    throw error;
  }
  await announceOperatorChange(storage, 'incidents close', now);
  const watched = (await readWatchedServers(storage)).some((s) => s.id === server);
  process.stdout.write(
    `closed the incident of ${server} at ${closed.closure.at}` +
      (closed.closedItems.length > 0
        ? ` (review items closed: ${closed.closedItems.map((i) => i.id).join(', ')})`
        : '') +
      '\n' +
      (watched ? '' : `note: ${server} is not among the watched servers\n`),
  );
  return EXIT_OK;
}
