// Pure module: the category of a server, read from its tools. It feeds "most reliable by category".
import {
  CATEGORY_MIN_SCORE,
  CATEGORY_MIN_SHARE,
  CATEGORY_NAME_SCORE,
  CATEGORY_TRUSTS_SERVER_NAME,
  CATEGORY_WORDS,
} from './constants.js';
import { tokenize } from './text.js';

const CATEGORY_STEMS: readonly (readonly [string, ReadonlySet<string>])[] = CATEGORY_WORDS.map(
  ([category, words]) => [category, new Set(words.flatMap((word) => tokenize(word)))] as const,
);

/** Every category id, in priority order. */
export const CATEGORIES: readonly string[] = CATEGORY_WORDS.map(([category]) => category);

function hasAny(terms: readonly string[], stems: ReadonlySet<string>): boolean {
  return terms.some((term) => stems.has(term));
}

/**
 * Points each category earns from a tools array: per tool, CATEGORY_NAME_SCORE (2) when its name holds one
 * of the category's words, else 1 when its description does, else 0. Entries that are not tools with a
 * string name earn nothing. Returned in priority order.
 */
export function scoreCategories(tools: readonly unknown[]): { category: string; score: number }[] {
  const scores = CATEGORY_STEMS.map(([category]) => ({ category, score: 0 }));
  if (!Array.isArray(tools)) return scores;
  for (const tool of tools) {
    if (typeof tool !== 'object' || tool === null) continue;
    const { name, description } = tool as { name?: unknown; description?: unknown };
    if (typeof name !== 'string') continue;
    const nameTerms = tokenize(name);
    const descriptionTerms = typeof description === 'string' ? tokenize(description) : [];
    CATEGORY_STEMS.forEach(([, stems], at) => {
      const points = hasAny(nameTerms, stems) ? CATEGORY_NAME_SCORE : hasAny(descriptionTerms, stems) ? 1 : 0;
      (scores[at] as { score: number }).score += points;
    });
  }
  return scores;
}

function countNamedTools(tools: readonly unknown[]): number {
  if (!Array.isArray(tools)) return 0;
  return tools.filter(
    (tool) => typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string',
  ).length;
}

function categoryOfServerName(serverName: string | undefined): string | null {
  if (!CATEGORY_TRUSTS_SERVER_NAME || typeof serverName !== 'string') return null;
  const terms = tokenize(serverName);
  const found = CATEGORY_STEMS.find(([, stems]) => hasAny(terms, stems));
  return found ? found[0] : null;
}

/**
 * The category of a server, read from its tools (email, calendar, databases, code, ...; see CATEGORIES), or
 * null when no category is clear. When `serverName` is given and holds a category word, that category wins.
 * Otherwise the category with the most points ({@link scoreCategories}) wins, the earlier one on a tie, and
 * it must reach 2 points and a fifth of the best possible (every tool naming it). Tool lists are untrusted:
 * any JSON value is accepted and never throws.
 *
 * @example categorize([{ name: 'send_email' }, { name: 'list_inbox' }]) // 'email'
 * @example categorize([{ name: 'query' }], { serverName: 'PostgreSQL' }) // 'databases'
 */
export function categorize(tools: readonly unknown[], options?: { serverName?: string }): string | null {
  const fromName = categoryOfServerName(options?.serverName);
  if (fromName !== null) return fromName;
  const named = countNamedTools(tools);
  if (named === 0) return null;
  let best: { category: string; score: number } | null = null;
  for (const entry of scoreCategories(tools)) if (best === null || entry.score > best.score) best = entry;
  if (best === null || best.score < CATEGORY_MIN_SCORE) return null;
  return best.score / (CATEGORY_NAME_SCORE * named) >= CATEGORY_MIN_SHARE ? best.category : null;
}
