// `mcp-atlas mark gateway|directory <server> [--off]`: the operator's lists of gateways and of servers listed
// in the Claude or ChatGPT directory, which the route reads (0.7 guard and high-risk set-aside; 1.15 factor).
import { SERVER_ID_PATTERN } from '../data/paths.js';
import { ROUTE_MARK_KINDS, RouteMarkFileError, type RouteMarkKind, setRouteMark } from '../data/route-marks.js';
import { readWatchedServers } from '../data/watched-servers.js';
import { announceOperatorChange } from '../storage/change-log.js';
import { expectWords, openExistingDataFolder, parseOperatorArgs } from './operator-args.js';
import { EXIT_FAILED, EXIT_OK, UsageError } from './shared.js';

export const MARK_USAGE = `  mark    gateway|directory <server> [--off] [--data DIR | --store URL]
          mark a server as a gateway, or as listed in the Claude or ChatGPT directory (--off removes the mark)`;

const LIST_NAME: Readonly<Record<RouteMarkKind, string>> = {
  gateway: 'gateways',
  directory: 'directory-listed servers',
};

function isMarkKind(word: string | undefined): word is RouteMarkKind {
  return (ROUTE_MARK_KINDS as readonly (string | undefined)[]).includes(word);
}

/** Runs `mark`. */
export async function commandMark(args: readonly string[]): Promise<number> {
  const { flags, words } = parseOperatorArgs(args, {
    data: { type: 'string' },
    store: { type: 'string' },
    off: { type: 'boolean' },
  });
  const [kind, server] = expectWords(words, 2, 'mark gateway|directory <server>');
  if (!isMarkKind(kind)) throw new UsageError(`mark takes "gateway" or "directory", not "${kind}"`);
  if (!SERVER_ID_PATTERN.test(server as string))
    throw new UsageError(`"${server}" is not a server id (lower-case letters, digits and dashes)`);
  const id = server as string;
  const on = flags.off !== true;
  const storage = await openExistingDataFolder(flags);
  let changed: boolean;
  try {
    changed = await setRouteMark(storage, kind, id, on);
  } catch (error) {
    if (error instanceof RouteMarkFileError) {
      process.stderr.write(`mcp-atlas: ${error.message}\n`);
      return EXIT_FAILED;
    }
    throw error;
  }
  // Every running serve rebuilds its view from the change log, so the route follows within seconds.
  if (changed) await announceOperatorChange(storage, 'mark', new Date());
  const verb = on ? (changed ? 'added to' : 'already among') : changed ? 'removed from' : 'not among';
  const watched = (await readWatchedServers(storage)).some((s) => s.id === id);
  process.stdout.write(
    `${id} ${verb} the ${LIST_NAME[kind]}\n${watched ? '' : `note: ${id} is not among the watched servers\n`}`,
  );
  return EXIT_OK;
}
