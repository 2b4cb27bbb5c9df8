// `mcp-atlas review list | close`: what a person reviews before anything is decided (review-only pattern
// matches, unconfirmed failures, incidents), and closing an item with a note. The queue is never served.
import { REVIEW_ONLY_CHECK_TITLES } from '@mcp-atlas/findings';
import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { escapeJsonControls } from '../check/terminal-text.js';
import { closeReviewItem, listReviewItems, type ReviewItem } from '../data/review-queue.js';
import { announceOperatorChange } from '../storage/change-log.js';
import { expectWords, noteFlag, openExistingDataFolder, parseOperatorArgs } from './operator-args.js';
import { EXIT_FAILED, EXIT_OK, UsageError } from './shared.js';

export const REVIEW_USAGE = `  review  list [--data DIR | --store URL] [--json] [--all]   the open review items (--all: closed ones too)
  review  close <id> --note TEXT [--data DIR | --store URL]  close an item after review (an incident item also closes the incident)
          [--confirm]                          on an injection match: confirm it (raises PROMPT_INJECTION on the score)`;

/**
 * `text` JSON-quoted with every control character escaped: JSON.stringify escapes the C0 controls but writes
 * DEL, the C1 controls (the 8-bit CSI among them) and the bidi controls as they are, and a terminal acts on those.
 */
const quoted = (text: string): string => escapeJsonControls(JSON.stringify(text));

/** What an item is about, on one line. Text from servers is quoted so no control character reaches the terminal. */
export function describeReviewItem(item: ReviewItem): string {
  switch (item.kind) {
    case 'pattern-match':
      return `${REVIEW_ONLY_CHECK_TITLES[item.check]} in tool ${quoted(item.tool)} (${item.day}): ${quoted(item.excerpt)}`;
    case 'unconfirmed-failure':
      return `${item.reporters} reporter(s) saw failures at ${item.at} that nothing confirmed`;
    case 'incident':
      return `incident shown since ${item.openedAt}`;
    case 'injection-match':
      return `possible prompt injection (${item.pattern}) in tool ${quoted(item.tool)} (${item.day}): ${quoted(item.snippet)}`;
  }
}

function formatItem(item: ReviewItem): string {
  const closed = item.closed === null ? '' : `\n    closed ${item.closed.at}: ${quoted(item.closed.note)}`;
  return `${item.id}  ${item.kind}  ${item.server}  queued ${item.queuedAt}\n    ${describeReviewItem(item)}${closed}\n`;
}

async function listCommand(args: readonly string[]): Promise<number> {
  const { flags, words } = parseOperatorArgs(args, {
    data: { type: 'string' },
    store: { type: 'string' },
    json: { type: 'boolean' },
    all: { type: 'boolean' },
  });
  expectWords(words, 0, 'no words after "review list"');
  const items = await listReviewItems(await openExistingDataFolder(flags), flags.all === true ? 'all' : 'open');
  if (flags.json === true) process.stdout.write(`${escapeJsonControls(JSON.stringify(items, null, 2))}\n`);
  else if (items.length === 0)
    process.stdout.write(flags.all === true ? 'no review items\n' : 'no open review items\n');
  else process.stdout.write(items.map(formatItem).join(''));
  return EXIT_OK;
}

async function closeCommand(args: readonly string[], now: Date): Promise<number> {
  const { flags, words } = parseOperatorArgs(args, {
    data: { type: 'string' },
    store: { type: 'string' },
    note: { type: 'string' },
    confirm: { type: 'boolean' },
  });
  const [id] = expectWords(words, 1, 'one item id: review close <id> --note TEXT') as [string];
  const note = noteFlag(flags);
  const storage = await openExistingDataFolder(flags);
  let result;
  try {
    result = await closeReviewItem(storage, id, note, now, { confirm: flags.confirm === true });
  } catch (error) {
    if (error instanceof ReliabilityInputError) throw new UsageError(`--note: ${error.message.replace(/^note: /, '')}`);
    throw error;
  }
  if (!result.ok) {
    const why =
      result.reason === 'not-found'
        ? `no review item "${id}"`
        : `review item "${id}" was already closed at ${result.item?.closed?.at}`;
    process.stderr.write(`mcp-atlas: ${why}\n`);
    return EXIT_FAILED;
  }
  await announceOperatorChange(storage, 'review close', now);
  process.stdout.write(
    `closed ${id}${result.item.kind === 'incident' ? ` (and the incident of ${result.item.server})` : ''}\n`,
  );
  return EXIT_OK;
}

/** Runs `review list` or `review close`; `now` is when a closure is recorded. */
export async function commandReview(args: readonly string[], now: Date = new Date()): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'list') return listCommand(rest);
  if (sub === 'close') return closeCommand(rest, now);
  throw new UsageError(sub === undefined ? 'review needs "list" or "close"' : `unknown review command "${sub}"`);
}
