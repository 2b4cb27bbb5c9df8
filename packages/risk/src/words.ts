// Pure module: where the verb of a tool name is read from. The name is cut into words by text.ts's splitWords,
// the one word splitter of the project.
import { BUILT_IN_LISTS } from './builtin-lists.js';
import { splitWords } from './text.js';
import type { VerbClass } from './vocabulary.js';

/**
 * The verb among already split words: the first word when it is a known verb, else the last one when it is.
 * Beyond the seed: when neither is, the second word of a name of three or more words, because many servers
 * put their product first (`zpa_delete_app_connector`). This only fills a gap the seed leaves empty.
 * `verbClasses` is the verb lookup to use (the built-in lists unless a custom classifier passes its own).
 */
export function verbOfWords(
  words: readonly string[],
  verbClasses: ReadonlyMap<string, VerbClass> = BUILT_IN_LISTS.verbClasses,
): string | null {
  const first = words[0];
  if (first === undefined) return null;
  if (verbClasses.has(first)) return first;
  const last = words[words.length - 1] as string;
  if (verbClasses.has(last)) return last;
  const second = words[1];
  return words.length >= 3 && second !== undefined && verbClasses.has(second) ? second : null;
}

/**
 * The verb of a tool name: its first word when that is a known verb, otherwise its last word when that is one
 * (`delete_page` and `pages_create` both have a verb), otherwise the second word of a longer prefixed name
 * (`zpa_delete_app_connector`), otherwise null.
 *
 * @example toolVerb('pages_create') // 'create'
 */
export function toolVerb(name: string): string | null {
  return verbOfWords(splitWords(name));
}
