// The operator's verified-publisher list: the GitHub organisations and npm scopes whose servers the quality score
// counts as from a verified publisher. The score package holds the engine's built-in list, used when the operator
// gives none; `serve` takes one from --verified-publishers (names, comma-separated) or --verified-publishers-file
// (one name a line), or their MCP_ATLAS_* variables.
import { readFile } from 'node:fs/promises';

/** A list or a file that cannot be read as one; the message says where. */
export class VerifiedPublishersError extends Error {}

/**
 * A GitHub organisation or an npm scope without its '@': letters, digits, '-', '_' and '.', starting with a letter
 * or digit, at most 100 characters (GitHub's limit is 39, npm's 214 for a whole name).
 */
const PUBLISHER_NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/** One name as the score compares it: trimmed, without a leading '@', in lower case; null when it is not one. */
function publisherName(text: string): string | null {
  const name = text.trim().replace(/^@/, '').toLowerCase();
  return PUBLISHER_NAME.test(name) ? name : null;
}

/**
 * The names of a list: `entries` are the pieces (lines of a file or a comma-separated value); blank pieces and
 * `#` comments are skipped, and duplicates kept once. `source` names the piece in errors ("line 3 of x.txt").
 *
 * @example
 * parseVerifiedPublishers(['Stripe', ' @acme ', '# ours', ''], (i) => `item ${i + 1}`); // ['stripe', 'acme']
 */
export function parseVerifiedPublishers(entries: readonly string[], source: (index: number) => string): string[] {
  const names = new Set<string>();
  entries.forEach((entry, index) => {
    const text = entry.replace(/#.*$/, '').trim();
    if (text === '') return;
    const name = publisherName(text);
    if (name === null)
      throw new VerifiedPublishersError(
        `${source(index)}: "${text.slice(0, 60)}" is not a GitHub organisation or npm scope (letters, digits, '-', '_' and '.')`,
      );
    names.add(name);
  });
  if (names.size === 0) throw new VerifiedPublishersError('the list names no publisher');
  return [...names];
}

/**
 * The operator's list from the two settings, or null when neither is set (the score's built-in list applies).
 * Giving both is refused: one source of the list.
 */
export async function readVerifiedPublishers(settings: {
  list: string | null;
  file: string | null;
}): Promise<string[] | null> {
  if (settings.list !== null && settings.file !== null)
    throw new VerifiedPublishersError('give --verified-publishers or --verified-publishers-file, not both');
  if (settings.list !== null)
    return parseVerifiedPublishers(settings.list.split(','), (i) => `--verified-publishers item ${i + 1}`);
  if (settings.file === null) return null;
  let text: string;
  try {
    text = await readFile(settings.file, 'utf8');
  } catch (error) {
    throw new VerifiedPublishersError(
      `--verified-publishers-file: cannot read ${settings.file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return parseVerifiedPublishers(text.split(/\r?\n/), (i) => `line ${i + 1} of ${settings.file}`);
}
