// Pure module: where the verb of a tool name is read from. The name is cut into words by splitWords from
// @mcp-atlas/base, the one word splitter of the project.
import { splitWords } from '@mcp-atlas/base';
import { BUILT_IN_LISTS } from './builtin-lists.js';
import type { VerbClass } from './vocabulary.js';

/**
 * @internal Which word of a name its verb was read from. The seed reads only the first and the last word;
 * `second` is our fallback, and the classifier must know it, because such a verb may not excuse a sensitive
 * noun under rule 4.
 */
export type VerbPlace = 'first' | 'last' | 'second';

/** @internal A name's verb and the word it was read from. */
export interface NameVerb {
  readonly word: string;
  readonly place: VerbPlace;
}

/**
 * @internal The verb among already split words: the first word when it is a known verb, else the last one when
 * it is. Beyond the seed: when neither is, the second word of a name of three or more words, because many
 * servers put their product first (`zpa_delete_app_connector`). That fallback may decide rules 2, 5, 6 and 7,
 * but it does not excuse a sensitive noun: for the seed such a name has no verb, so a sensitive noun in it
 * makes the tool high-risk (rule 4), and the fallback must not lower it (`vault_read_secret`).
 * `verbClasses` is the verb lookup to use (the built-in lists unless a custom classifier passes its own).
 */
export function findNameVerb(
  words: readonly string[],
  verbClasses: ReadonlyMap<string, VerbClass> = BUILT_IN_LISTS.verbClasses,
): NameVerb | null {
  const first = words[0];
  if (first === undefined) return null;
  if (verbClasses.has(first)) return { word: first, place: 'first' };
  const last = words[words.length - 1] as string;
  if (verbClasses.has(last)) return { word: last, place: 'last' };
  const second = words[1];
  return words.length >= 3 && second !== undefined && verbClasses.has(second)
    ? { word: second, place: 'second' }
    : null;
}

/**
 * The verb of a tool name: its first word when that is a known verb, otherwise its last word when that is one
 * (`delete_page` and `pages_create` both have a verb), otherwise the second word of a longer prefixed name
 * (`zpa_delete_app_connector`), otherwise null. A second-word reading verb does not excuse a sensitive noun
 * (rule 4): `vault_read_secret` has the verb `read` and is still high-risk.
 *
 * @example toolVerb('pages_create') // 'create'
 */
export function toolVerb(name: string): string | null {
  return findNameVerb(splitWords(name))?.word ?? null;
}
