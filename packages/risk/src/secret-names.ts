// Pure module: which names (an environment variable, a command-line flag, a query parameter, a header) look like
// they hold a secret, so a tool that records a command line or a URL can write their values as `***`. No I/O, no
// clock, no dependency. These words change no risk verdict, so they are not part of RISK_RULES_VERSION.

import { splitWords } from '@mcp-atlas/base';
import { BUILT_IN_LISTS } from './builtin-lists.js';
import { FrozenSet } from './frozen.js';

/**
 * The words that make a name look secret on top of the sensitive nouns of rule 4 (`SENSITIVE_NOUN_RULES.nouns`).
 * Read-only (a `FrozenSet`). `looksSecretName` matches them as whole words of a name and also inside a
 * run-together name (`ACCESSTOKEN`, `privatekey`, and `author`, which contains `auth`): hiding a harmless value
 * costs a reader little, showing a secret costs its owner a rotation.
 *
 * @example SECRET_NAME_WORDS.has('token'); // true
 */
export const SECRET_NAME_WORDS: ReadonlySet<string> = new FrozenSet(['token', 'key', 'secret', 'password', 'auth']);

// Private copies, made when the package loads: a caller who mutates the exported set through
// `Set.prototype.add.call` changes that set, never an answer of looksSecretName.
const SECRET_WORDS: ReadonlySet<string> = new Set(SECRET_NAME_WORDS);
const SECRET_WORD_LIST: readonly string[] = [...SECRET_WORDS];

/**
 * True when a name looks like it holds a secret: one of its words (cut as `splitWords` cuts a tool name) is a
 * sensitive noun of rule 4 or one of `SECRET_NAME_WORDS`, or its lower-case form contains one of
 * `SECRET_NAME_WORDS` anywhere. Deliberately generous: `author` counts, since it contains `auth`.
 *
 * @example looksSecretName('GITHUB_TOKEN'); // true
 * @example looksSecretName('OPENAI_APIKEY'); // true (contains "key")
 * @example looksSecretName('API_URL'); // false
 */
export function looksSecretName(name: string): boolean {
  const words = splitWords(name);
  if (words.some((word) => BUILT_IN_LISTS.sensitiveNouns.has(word) || SECRET_WORDS.has(word))) return true;
  const lower = name.toLowerCase();
  return SECRET_WORD_LIST.some((word) => lower.includes(word));
}
