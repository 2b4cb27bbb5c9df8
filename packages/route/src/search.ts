// Pure module: tool search, the ranking behind find_tool and /api/toolsearch.
import type { RiskLevel } from '@mcp-atlas/risk';
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_RESULT_LIMIT,
  RERANK_DEPTH,
  SEARCH_LEVEL_PREFERENCE,
  VERB_AGREEMENT_FACTOR,
} from './constants.js';
import { RouteInputError } from './errors.js';
import { feedbackRerank, feedbackTermsOf } from './search-feedback.js';
import { diversifyByServer, queryActionOf, verbAgreementFactor } from './search-rerank.js';
import { readTaskIntent } from './task.js';
import { matchText } from './text-match.js';
import { type IndexState, LEVEL_RANK, LEVELS_BY_RANK, levelOfDoc, stateOf, type ToolIndex } from './tool-index.js';
import type { RiskAllowance, SearchHit, SearchOptions } from './types.js';

/** Highest level rank each allowance accepts. */
const ALLOWED_RANK: Readonly<Record<RiskAllowance, number>> = { read: 0, change: 1, any: 2 };

/** True when a tool of `level` is within what `allow` accepts (read: read-only; change: not high risk). */
export function isLevelAllowed(level: RiskLevel, allow: RiskAllowance): boolean {
  return LEVEL_RANK[level] <= ALLOWED_RANK[allow];
}

/** Checks a result limit: a whole number from 1 to MAX_RESULT_LIMIT. */
export function checkLimit(limit: unknown, fallback: number, where: string): number {
  if (limit === undefined) return fallback;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_RESULT_LIMIT) {
    throw new RouteInputError(
      'invalid-option',
      `${where}: limit must be a whole number from 1 to ${MAX_RESULT_LIMIT}, got ${String(limit)}.`,
    );
  }
  return limit;
}

/** Checks that a query or task is a string. */
export function checkText(text: unknown, what: string): string {
  if (typeof text !== 'string')
    throw new RouteInputError('invalid-query', `${what} must be a string, got ${typeof text}.`);
  return text;
}

function checkSearchOptions(options: SearchOptions | undefined): Required<SearchOptions> {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new RouteInputError('invalid-option', 'searchTools: options must be an object.');
  }
  const risk = options?.risk ?? 'any';
  if (!(risk in ALLOWED_RANK)) {
    throw new RouteInputError(
      'invalid-option',
      `searchTools: risk must be 'read', 'change' or 'any', got ${String(risk)}.`,
    );
  }
  const answeringOnly = options?.answeringOnly ?? true;
  if (typeof answeringOnly !== 'boolean')
    throw new RouteInputError('invalid-option', 'searchTools: answeringOnly must be a boolean.');
  return { risk, answeringOnly, limit: checkLimit(options?.limit, DEFAULT_SEARCH_LIMIT, 'searchTools') };
}

/** Orders two ranked entries: higher score first, then server id, tool name and index order, so ties are stable. */
export function compareRanked(
  state: IndexState,
  a: { doc: number; score: number },
  b: { doc: number; score: number },
): number {
  if (a.score !== b.score) return b.score - a.score;
  const serverA = state.servers[state.docServer[a.doc] as number]?.server.id ?? '';
  const serverB = state.servers[state.docServer[b.doc] as number]?.server.id ?? '';
  if (serverA !== serverB) return serverA < serverB ? -1 : 1;
  const toolA = state.docName[a.doc] as string;
  const toolB = state.docName[b.doc] as string;
  if (toolA !== toolB) return toolA < toolB ? -1 : 1;
  return a.doc - b.doc;
}

/**
 * Keeps the best `limit` entries seen so far, in order. Most candidates fall below the last kept score and
 * cost one comparison, so a query over many thousands of tools stays cheap.
 */
export class TopList {
  readonly entries: { doc: number; score: number }[] = [];

  constructor(
    private readonly state: IndexState,
    private readonly limit: number,
  ) {}

  /** False when a candidate with this score (or any lower one) could not enter the full list. */
  mayTake(score: number): boolean {
    const last = this.entries[this.entries.length - 1];
    return this.entries.length < this.limit || last === undefined || score >= last.score;
  }

  offer(doc: number, score: number): void {
    const entries = this.entries;
    const last = entries[entries.length - 1];
    // Most candidates lose on score alone; only a tie needs the full comparison.
    if (entries.length >= this.limit && last !== undefined && score < last.score) return;
    const candidate = { doc, score };
    if (
      entries.length >= this.limit &&
      compareRanked(this.state, candidate, last as { doc: number; score: number }) >= 0
    )
      return;
    // Binary search for the first entry the candidate ranks before (the list is kept in compareRanked order).
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareRanked(this.state, candidate, entries[mid] as { doc: number; score: number }) < 0) high = mid;
      else low = mid + 1;
    }
    entries.splice(low, 0, candidate);
    if (entries.length > this.limit) entries.pop();
  }
}

/**
 * Finds the tools that best fit a plain-language query. Score = text match (BM25F over tool name, counted
 * double, description, length-normalized, and server name, each term weighted by its rarity) times a soft
 * preference for the least privilege the query's verb needs (a reading query ranks read-only tools first)
 * times verb agreement of the tool's name (divided by VERB_AGREEMENT_FACTOR, so scores stay at most 1); then
 * the best RERANK_DEPTH are re-ranked by likeness to the best two (feedback, the first keeps its place) and by
 * server diversity. Defaults: any risk level, 10 results, answering servers only. A query with no searchable
 * word returns [].
 *
 * @example searchTools(index, 'list my calendar events', { risk: 'read', limit: 5 })
 */
export function searchTools(index: ToolIndex, query: string, options?: SearchOptions): SearchHit[] {
  const state = stateOf(index);
  const text = checkText(query, 'searchTools: query');
  const { risk, limit, answeringOnly } = checkSearchOptions(options);
  const intent = readTaskIntent(text);
  // Per level rank (read-only, changes-data, high-risk): 0 when the allowance excludes it, else the preference.
  const factorByRank = LEVELS_BY_RANK.map((level) =>
    isLevelAllowed(level, risk) ? (intent.verb === null ? 1 : SEARCH_LEVEL_PREFERENCE[intent.risk][level]) : 0,
  );
  const answering = state.docAnswering;
  const levels = state.docLevel;
  const action = queryActionOf(text, intent.verb);
  // Verb factors are divided by the agreement factor when the query has an action, so scores stay at most 1
  // (the order within a query does not change: every tool of it is divided alike).
  const verbScale = action === null ? 1 : 1 / VERB_AGREEMENT_FACTOR;
  // The verb factor of each distinct verb set of the index, worked out the first time a tool with it is met.
  const verbFactors = new Float64Array(state.nameVerbSets.length).fill(-1);
  const verbFactorOf = (doc: number): number => {
    const set = state.docNameVerbs[doc] as number;
    let value = verbFactors[set] as number;
    if (value < 0) {
      value = verbAgreementFactor(state.nameVerbSets[set] ?? [], action) * verbScale;
      verbFactors[set] = value;
    }
    return value;
  };
  // First stage: the best RERANK_DEPTH by text, level preference and verb agreement; second: likeness to the
  // best candidates (feedback), then server diversity.
  const top = new TopList(state, Math.max(limit, RERANK_DEPTH));
  matchText(state, text, (doc, textMatch) => {
    if (textMatch <= 0 || (answeringOnly && answering[doc] === 0)) return;
    const factor = factorByRank[levels[doc] as number] as number;
    // The scaled verb factor is at most 1: a tool that cannot enter the list without it is not looked at further.
    if (factor > 0 && top.mayTake(textMatch * factor)) top.offer(doc, textMatch * factor * verbFactorOf(doc));
  });
  const likeTheBest = feedbackRerank(top.entries, (entry) =>
    feedbackTermsOf(state.docName[entry.doc] as string, state.docDescription[entry.doc] as string),
  );
  const ranked = diversifyByServer(likeTheBest, (entry) => state.docServer[entry.doc] as number).slice(0, limit);
  return ranked.map(({ doc, score }) => ({
    serverId: state.servers[state.docServer[doc] as number]?.server.id ?? '',
    tool: state.docName[doc] as string,
    description: state.docDescription[doc] as string,
    level: levelOfDoc(state, doc),
    score,
  }));
}
