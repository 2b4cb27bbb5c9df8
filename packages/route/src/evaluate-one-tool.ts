// Pure module: the one-right-tool evaluation. Each prompt names the one tool (server and tool name) that does
// its job, plus any other tools doing the very same job; a result is right or wrong, with no judge to tune.
import { EVAL_MRR_DEPTH, EVAL_TOP_K, ROUTE_RULES_VERSION } from './constants.js';
import { RouteInputError } from './errors.js';
import type { SearchHit } from './types.js';

/** A tool named by its server's id and its tool name, as a one-tool prompt's target or accepted answer. */
export interface OneToolPair {
  server: string;
  tool: string;
}

/**
 * One prompt of a one-right-tool set: a plain-language job and the tool that does it. `accept` lists other
 * tools doing the very same job (a second copy of one server, say); a hit on any of them counts as right.
 */
export interface OneToolPrompt extends OneToolPair {
  id: string;
  query: string;
  accept?: OneToolPair[];
}

/** A one-right-tool set file: its header and its prompts, checked by {@link parseOneToolSet}. */
export interface OneToolSet {
  version: string;
  name?: string;
  /** When the set was written (ISO 8601), before any search ran on it. */
  written?: string;
  note?: string;
  prompts: OneToolPrompt[];
}

/** Options of {@link evaluateOneTool}. */
export interface EvaluateOneToolOptions {
  /** The set's version and SHA-256, copied into the report so a changed set shows. */
  set?: { version: string; sha256: string };
}

/** One prompt's outcome: where the first right hit ranked and what the search put first. */
export interface OneToolPromptResult {
  id: string;
  query: string;
  /** The prompt's target as `server/tool`. */
  target: string;
  /** 1-based rank of the first right hit within the top 10, or null when none of the top 10 is right. */
  rank: number | null;
  /** The top 5 results as `serverId/tool`. */
  top: string[];
}

/** The result of {@link evaluateOneTool}: means over prompts, each 0 to 1, and every prompt's outcome. */
export interface OneToolReport {
  rulesVersion: string;
  /** The set's version and SHA-256, when the caller gave them. */
  set: { version: string; sha256: string } | null;
  count: number;
  /** Share of prompts whose first result is right. */
  p1: number;
  /** Mean of 1 / rank of the first right hit within the top 10 (0 when there is none). */
  mrr: number;
  /** Share of prompts with a right hit in the top 5. */
  hit5: number;
  /** Share of prompts with a right hit in the top 10. */
  hit10: number;
  prompts: OneToolPromptResult[];
}

function badPrompt(at: number, id: unknown, message: string): never {
  const who = typeof id === 'string' && id !== '' ? `prompt "${id}" (index ${at})` : `prompt at index ${at}`;
  throw new RouteInputError('invalid-jobs', `${who}: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function isPair(value: unknown): value is OneToolPair {
  return isObject(value) && isText(value.server) && isText(value.tool);
}

function parsePrompt(value: unknown, at: number): OneToolPrompt {
  if (!isObject(value)) badPrompt(at, undefined, 'must be an object.');
  const { id, query, server, tool, accept } = value;
  if (!isText(id)) badPrompt(at, id, 'id must be a non-empty string.');
  if (!isText(query)) badPrompt(at, id, 'query must be a non-empty string.');
  if (!isText(server)) badPrompt(at, id, 'server must be a non-empty string.');
  if (!isText(tool)) badPrompt(at, id, 'tool must be a non-empty string.');
  if (accept !== undefined && !(Array.isArray(accept) && accept.every(isPair))) {
    badPrompt(at, id, 'accept must be an array of { server, tool } with non-empty strings.');
  }
  const prompt: OneToolPrompt = { id, query, server, tool };
  if (accept !== undefined) prompt.accept = accept.map((pair) => ({ server: pair.server, tool: pair.tool }));
  return prompt;
}

function parsePrompts(list: readonly unknown[]): OneToolPrompt[] {
  const prompts = list.map(parsePrompt);
  const seen = new Set<string>();
  prompts.forEach((prompt, at) => {
    if (seen.has(prompt.id)) badPrompt(at, prompt.id, 'id appears twice; ids must be unique.');
    seen.add(prompt.id);
  });
  return prompts;
}

function checkOptionalText(set: Record<string, unknown>, key: 'name' | 'written' | 'note'): string | undefined {
  const value = set[key];
  if (value !== undefined && typeof value !== 'string') {
    throw new RouteInputError('invalid-jobs', `One-tool set: ${key} must be a string when present.`);
  }
  return value;
}

/**
 * Checks a one-right-tool set file (`{ name, version, written, note, prompts: [...] }`) and returns it. Each
 * prompt needs a non-empty `id` (unique in the set), `query`, `server` and `tool`; `accept`, when present, is
 * an array of `{ server, tool }`. Throws {@link RouteInputError} (code `invalid-jobs`) naming the first bad
 * prompt by index and id.
 *
 * @example parseOneToolSet(JSON.parse(readFileSync('eval/toolsearch-one-tool-dev-v1.json', 'utf8'))).prompts.length
 */
export function parseOneToolSet(value: unknown): OneToolSet {
  if (!isObject(value)) throw new RouteInputError('invalid-jobs', 'One-tool set: expected an object.');
  if (!isText(value.version))
    throw new RouteInputError('invalid-jobs', 'One-tool set: version must be a non-empty string.');
  if (!Array.isArray(value.prompts))
    throw new RouteInputError('invalid-jobs', 'One-tool set: prompts must be an array.');
  const set: OneToolSet = { version: value.version, prompts: parsePrompts(value.prompts) };
  const name = checkOptionalText(value, 'name');
  const written = checkOptionalText(value, 'written');
  const note = checkOptionalText(value, 'note');
  if (name !== undefined) set.name = name;
  if (written !== undefined) set.written = written;
  if (note !== undefined) set.note = note;
  return set;
}

function checkHits(hits: unknown, promptId: string): readonly SearchHit[] {
  const ok =
    Array.isArray(hits) &&
    hits.every((hit: unknown) => isObject(hit) && typeof hit.serverId === 'string' && typeof hit.tool === 'string');
  if (!ok) {
    throw new RouteInputError(
      'invalid-search-result',
      `prompt "${promptId}": search must return an array of hits with serverId and tool.`,
    );
  }
  return hits as readonly SearchHit[];
}

/** The right answers of a prompt as `server/tool` keys; a key never collides since both parts are kept whole. */
function rightKeys(prompt: OneToolPrompt): Set<string> {
  const pairs = [{ server: prompt.server, tool: prompt.tool }, ...(prompt.accept ?? [])];
  return new Set(pairs.map((pair) => JSON.stringify([pair.server, pair.tool])));
}

/**
 * The 1-based rank of the first hit whose server and tool name equal the target or an accepted pair, looking
 * at the first {@link EVAL_MRR_DEPTH} hits only; null when none of them is right. The same tool name on
 * another server is wrong: the prompt asks for one server's tool.
 *
 * @example rankOfRightTool(prompt, hits) // 3 when the third hit is the target
 */
function rankOfRightTool(prompt: OneToolPrompt, hits: readonly Pick<SearchHit, 'serverId' | 'tool'>[]): number | null {
  const right = rightKeys(prompt);
  const at = hits.slice(0, EVAL_MRR_DEPTH).findIndex((hit) => right.has(JSON.stringify([hit.serverId, hit.tool])));
  return at < 0 ? null : at + 1;
}

/**
 * Runs every prompt through `search` (one call per prompt, the query as written) and reports P@1, MRR (first
 * right hit within the top 10, 0 when none), hit@5 and hit@10 as means over prompts, with each prompt's rank
 * and top five. The prompts are checked first, as {@link parseOneToolSet} checks them.
 *
 * @example
 * const report = evaluateOneTool(set.prompts, (query) => searchTools(index, query));
 * report.p1; // share of prompts whose first result is the right tool
 */
export function evaluateOneTool(
  prompts: readonly OneToolPrompt[],
  search: (query: string) => readonly SearchHit[],
  options?: EvaluateOneToolOptions,
): OneToolReport {
  if (!Array.isArray(prompts)) throw new RouteInputError('invalid-jobs', 'evaluateOneTool: prompts must be an array.');
  const checked = parsePrompts(prompts);
  if (typeof search !== 'function')
    throw new RouteInputError('invalid-option', 'evaluateOneTool: search must be a function.');
  const results: OneToolPromptResult[] = checked.map((prompt) => {
    const hits = checkHits(search(prompt.query), prompt.id);
    return {
      id: prompt.id,
      query: prompt.query,
      target: `${prompt.server}/${prompt.tool}`,
      rank: rankOfRightTool(prompt, hits),
      top: hits.slice(0, EVAL_TOP_K).map((hit) => `${hit.serverId}/${hit.tool}`),
    };
  });
  const share = (test: (rank: number) => boolean) =>
    results.filter((result) => result.rank !== null && test(result.rank)).length / (results.length || 1);
  const reciprocal = results.reduce((sum, result) => sum + (result.rank === null ? 0 : 1 / result.rank), 0);
  return {
    rulesVersion: ROUTE_RULES_VERSION,
    set: options?.set ? { version: options.set.version, sha256: options.set.sha256 } : null,
    count: results.length,
    p1: share((rank) => rank === 1),
    mrr: reciprocal / (results.length || 1),
    hit5: share((rank) => rank <= EVAL_TOP_K),
    hit10: share((rank) => rank <= EVAL_MRR_DEPTH),
    prompts: results,
  };
}
