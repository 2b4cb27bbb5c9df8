// Pure module: the tool search's second look at its candidates. Two rules, each found in the failures of the
// development set (eval/toolsearch-dev-v1.json): a tool whose name says it does something else than the
// query's action ("update_event" for "create a calendar event") ranks lower, and the best fifty are re-ranked
// so that one server's near-identical tools do not fill the whole top five.
import { VERB_RULES } from '@mcp-atlas/risk/rules';
import {
  SERVER_FREE_REPEATS,
  SERVER_REPEAT_FACTOR,
  VERB_AGREEMENT_FACTOR,
  VERB_CONFLICT_FACTOR,
  VERB_FAMILIES,
} from './constants.js';
import { splitText, stemWord, tokenize } from './text.js';

const ACTION_WORDS: ReadonlySet<string> = new Set([
  ...VERB_RULES.readingVerbs,
  ...VERB_RULES.changingVerbs,
  ...VERB_RULES.highRiskVerbs,
  ...VERB_FAMILIES.flat(),
]);

const FAMILIES_BY_STEM: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const table = new Map<string, Set<string>>();
  for (const family of VERB_FAMILIES) {
    const stems = family.map(stemWord);
    for (const stem of stems) {
      const set = table.get(stem) ?? new Set<string>();
      for (const other of stems) set.add(other);
      table.set(stem, set);
    }
  }
  return table;
})();

/** The stems of the action words in a tool name, each once ("create_calendar_event" gives ['creat']). */
export function nameVerbsOf(name: string): string[] {
  const verbs: string[] = [];
  for (const word of splitText(name)) {
    if (!ACTION_WORDS.has(word)) continue;
    const stem = stemWord(word);
    if (!verbs.includes(stem)) verbs.push(stem);
  }
  return verbs;
}

/** What a query's action agrees with: the stems of its verb's families, and every stem the query uses. */
export interface QueryAction {
  agreeing: ReadonlySet<string>;
  mentioned: ReadonlySet<string>;
}

/** The action of a query from its verb (as readTaskIntent found it), or null when it has none. */
export function queryActionOf(query: string, verb: string | null): QueryAction | null {
  if (verb === null) return null;
  const stem = stemWord(verb);
  const agreeing = new Set<string>(FAMILIES_BY_STEM.get(stem) ?? []);
  agreeing.add(stem);
  return { agreeing, mentioned: new Set(tokenize(query)) };
}

/**
 * The verb factor of one tool: VERB_AGREEMENT_FACTOR when an action word of its name is in the query verb's
 * families; else 1 when one appears elsewhere in the query, or when there is no query verb or no action
 * word in the name; else VERB_CONFLICT_FACTOR (the name says the tool does something else).
 */
export function verbAgreementFactor(nameVerbs: readonly string[], action: QueryAction | null): number {
  if (action === null || nameVerbs.length === 0) return 1;
  for (const verb of nameVerbs) if (action.agreeing.has(verb)) return VERB_AGREEMENT_FACTOR;
  for (const verb of nameVerbs) if (action.mentioned.has(verb)) return 1;
  return VERB_CONFLICT_FACTOR;
}

/**
 * Re-ranks candidates (best first) so one server does not crowd the top: each candidate's score is multiplied
 * by SERVER_REPEAT_FACTOR once for every candidate of its server placed above it, picking greedily the best
 * adjusted score at each place. Ties keep the incoming order. Returns new entries with adjusted scores.
 */
export function diversifyByServer<T extends { score: number }>(
  ranked: readonly T[],
  serverOf: (entry: T) => number,
  factor: number = SERVER_REPEAT_FACTOR,
  freeRepeats: number = SERVER_FREE_REPEATS,
): T[] {
  const left = [...ranked];
  const placed = new Map<number, number>();
  const out: T[] = [];
  while (left.length > 0) {
    let bestAt = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < left.length; i++) {
      const entry = left[i] as T;
      const adjusted = entry.score * factor ** Math.max(0, (placed.get(serverOf(entry)) ?? 0) - freeRepeats + 1);
      if (adjusted > bestScore) {
        bestScore = adjusted;
        bestAt = i;
      }
    }
    const [chosen] = left.splice(bestAt, 1) as [T];
    const server = serverOf(chosen);
    placed.set(server, (placed.get(server) ?? 0) + 1);
    out.push({ ...chosen, score: bestScore });
  }
  return out;
}
