// Pure module: the inverted index over every tool of every server. Built once per catalog, then searched
// many times; its internals sit behind a WeakMap so callers hold an opaque, read-only handle.
import { daysSince } from '@mcp-atlas/base';
import { classifyTools, type RiskLevel } from '@mcp-atlas/risk';
import { BM25_B, BM25_K1, DESCRIPTION_REST_WEIGHT, NAME_FIELD_WEIGHT, SERVER_FIELD_WEIGHT } from './constants.js';
import { RouteInputError } from './errors.js';
import { type LearnedSynonym, learnSynonyms } from './learned-synonyms.js';
import { nameVerbsOf } from './search-rerank.js';
import { splitLeadSentence, tokenizeWith } from './text.js';
import type { IndexServer } from './types.js';

/** Risk levels as small numbers, in order of what a tool can do. */
export const LEVEL_RANK: Readonly<Record<RiskLevel, number>> = { 'read-only': 0, 'changes-data': 1, 'high-risk': 2 };
/** Risk levels by their rank. */
export const LEVELS_BY_RANK: readonly RiskLevel[] = ['read-only', 'changes-data', 'high-risk'];

/** A validated server with what route needs about it. */
export interface ServerEntry {
  readonly server: IndexServer;
  /** Milliseconds since the epoch of `submittedAt`, or null. */
  readonly submittedAtMs: number | null;
  /** Searchable tools (entries with a non-empty string name). */
  readonly toolCount: number;
  readonly highRiskCount: number;
}

/** The index's internals: documents (one per searchable tool) and postings (one per term). */
export interface IndexState {
  readonly servers: readonly ServerEntry[];
  readonly docServer: Int32Array;
  readonly docName: readonly string[];
  readonly docDescription: readonly string[];
  /** Which entry of `nameVerbSets` holds the action words of each tool's name. */
  readonly docNameVerbs: Int32Array;
  /** Every distinct set of stemmed action words a tool name has; entry 0 is the empty set. */
  readonly nameVerbSets: readonly (readonly string[])[];
  readonly docLevel: Uint8Array;
  /** 0 when the tool's server is known not to be answering, else 1. */
  readonly docAnswering: Uint8Array;
  readonly termIds: ReadonlyMap<string, number>;
  readonly postingDocs: readonly Int32Array[];
  /** How often the term is in the tool name (read for the verb bonus). */
  readonly postingName: readonly Uint16Array[];
  /**
   * The saturated BM25F frequency of the term in the tool, f x (k1 + 1) / (f + k1), where f merges the
   * fields: name count x 2 + description count / (1 - b + b x length / average length) + server count x 0.5.
   * It depends only on the tool and the term, so it is worked out once here; a query multiplies it by idf.
   */
  readonly postingSaturation: readonly Float64Array[];
  readonly anySubmittedAt: boolean;
  /** Synonyms learned from this catalog's tools (see learned-synonyms.ts), by stemmed term. */
  readonly learnedSynonyms: ReadonlyMap<string, readonly LearnedSynonym[]>;
  /** Scratch space reused by every query (queries are synchronous, so they never overlap). */
  readonly scratchScore: Float64Array;
  readonly scratchMask: Int32Array;
  /** Per tool, the query words it matched through a learned synonym only (bits, like scratchMask). */
  readonly scratchLearnedMask: Int32Array;
  readonly scratchTouched: Int32Array;
}

/**
 * A built tool index: pass it to {@link searchTools} and {@link routeTask}. Its fields are counts for
 * display; the postings are internal. Build a new index when the catalog changes ({@link withLiveFields} when
 * only servers' live fields do); an index is never edited.
 */
export interface ToolIndex {
  readonly serverCount: number;
  readonly toolCount: number;
  readonly termCount: number;
}

const states = new WeakMap<ToolIndex, IndexState>();

/** The internals of an index, or a clear error when the value did not come from createToolIndex. */
export function stateOf(index: ToolIndex): IndexState {
  const state = typeof index === 'object' && index !== null ? states.get(index) : undefined;
  if (!state) throw new RouteInputError('invalid-index', 'Expected a ToolIndex returned by createToolIndex().');
  return state;
}

/** The risk level stored for a document. */
export function levelOfDoc(state: IndexState, doc: number): RiskLevel {
  return LEVELS_BY_RANK[state.docLevel[doc] as number] as RiskLevel;
}

function fail(index: number, id: unknown, message: string): never {
  const who = typeof id === 'string' && id !== '' ? `server "${id}"` : `server at index ${index}`;
  throw new RouteInputError('invalid-server', `${who}: ${message}`);
}

function checkOptionalBoolean(value: unknown, field: string, index: number, id: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') fail(index, id, `${field} must be a boolean.`);
}

function checkOptionalNumber(value: unknown, field: string, index: number, id: unknown, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
    const range = max === Number.MAX_VALUE ? 'a finite number of at least 0' : `a number from 0 to ${max}`;
    fail(index, id, `${field} must be ${range}, got ${String(value)}.`);
  }
}

function parseSubmittedAt(value: unknown, index: number, id: unknown): number | null {
  if (value === undefined) return null;
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) fail(index, id, `submittedAt must be an ISO 8601 date string, got ${String(value)}.`);
  return ms;
}

function validateServer(value: unknown, index: number): IndexServer {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(index, undefined, 'must be an object.');
  const server = value as Record<string, unknown>;
  const id = server.id;
  if (typeof id !== 'string' || id === '') fail(index, id, 'id must be a non-empty string.');
  if (!Array.isArray(server.tools)) fail(index, id, 'tools must be an array (the tools of tools/list).');
  if (server.name !== undefined && typeof server.name !== 'string') fail(index, id, 'name must be a string.');
  if (server.url !== undefined && typeof server.url !== 'string') fail(index, id, 'url must be a string.');
  for (const field of [
    'answering',
    'directoryListed',
    'gateway',
    'changedToday',
    'liveIncident',
    'crossDomainRedirect',
  ]) {
    checkOptionalBoolean(server[field], field, index, id);
  }
  checkOptionalNumber(server.successChance, 'successChance', index, id, 1);
  checkOptionalNumber(server.stability, 'stability', index, id, 1);
  checkOptionalNumber(server.domainAgeDays, 'domainAgeDays', index, id, Number.MAX_VALUE);
  checkOptionalNumber(server.riskRiseDays, 'riskRiseDays', index, id, Number.MAX_VALUE);
  if (server.agentsReliability !== null)
    checkOptionalNumber(server.agentsReliability, 'agentsReliability', index, id, 1);
  return value as IndexServer;
}

/** Whether the server counts as answering: only an explicit `answering: false` says it does not. */
function isAnswering(server: IndexServer): boolean {
  return server.answering !== false;
}

function toolName(tool: unknown): string | null {
  if (typeof tool !== 'object' || tool === null) return null;
  const name = (tool as { name?: unknown }).name;
  return typeof name === 'string' && name.trim() !== '' ? name : null;
}

function toolDescription(tool: object): string {
  const { description } = tool as { description?: unknown };
  return typeof description === 'string' ? description : '';
}

// A title is a short human name of the tool; it is searched as part of the description.
function toolTitle(tool: object): string {
  const { title } = tool as { title?: unknown };
  return typeof title === 'string' ? title : '';
}

function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** Posting lists under construction: plain arrays, turned into typed arrays once the build is done. */
interface PostingBuilder {
  docs: number[];
  /**
   * name + lead x 2^12 + rest x 2^24 + server x 2^36 (lead: the title and the description's first sentence;
   * rest: the rest of the description), each count capped at 2^12 - 1, far past where BM25 saturates.
   */
  counts: number[];
}

const COUNT_CAP = 4_095;
const SHIFT = 4_096;

function capCount(count: number): number {
  return Math.min(count, COUNT_CAP);
}

/**
 * A term's weighted count in a description: each use in the lead (the title and the first sentence, which
 * say what the tool does) counts 1, each use in the rest (parameters, examples, caveats) DESCRIPTION_REST_WEIGHT.
 */
export function descriptionCount(leadCount: number, restCount: number): number {
  return leadCount + DESCRIPTION_REST_WEIGHT * restCount;
}

/** The length of a description for BM25's length normalization, weighted as {@link descriptionCount}. */
export function descriptionLength(leadLength: number, restLength: number): number {
  return leadLength + DESCRIPTION_REST_WEIGHT * restLength;
}

/** The saturated BM25F frequency of one posting (see IndexState.postingSaturation). */
export function saturatedFrequency(
  nameCount: number,
  descriptionCount: number,
  descriptionNorm: number,
  serverCount: number,
): number {
  const frequency =
    NAME_FIELD_WEIGHT * nameCount + descriptionCount / descriptionNorm + SERVER_FIELD_WEIGHT * serverCount;
  return (frequency * (BM25_K1 + 1)) / (frequency + BM25_K1);
}

/**
 * Builds the search index over every tool of every server. Each server's tools are classified with
 * @mcp-atlas/risk (tool lists are untrusted: entries of any shape are accepted, those without a string name
 * are counted by the classifier but not searchable). Throws {@link RouteInputError} for a server the caller
 * described wrongly: a missing or repeated id, tools that are not an array, a number out of range.
 *
 * @example
 * const index = createToolIndex([{ id: 'files.example', tools: [{ name: 'read_file', description: 'Reads a file.' }] }]);
 * searchTools(index, 'read a file')[0]?.tool; // 'read_file'
 */
export function createToolIndex(servers: readonly IndexServer[]): ToolIndex {
  if (!Array.isArray(servers))
    throw new RouteInputError('invalid-servers', 'createToolIndex expects an array of servers.');
  const seen = new Set<string>();
  const entries: ServerEntry[] = [];
  const docServer: number[] = [];
  const docName: string[] = [];
  const docDescription: string[] = [];
  const docNameVerbs: number[] = [];
  // Names repeat across servers and verb sets repeat across names: both are looked up once.
  const verbSetByName = new Map<string, number>();
  const verbSetByKey = new Map<string, number>([['', 0]]);
  const nameVerbSets: (readonly string[])[] = [[]];
  const docLevel: number[] = [];
  const docAnswering: number[] = [];
  const docDescriptionLength: number[] = [];
  const termIds = new Map<string, number>();
  const postings: PostingBuilder[] = [];
  // The last document each term was posted for, so a term in several fields is posted once per tool.
  const postedFor: number[] = [];
  const stems = new Map<string, string>();
  // What the synonym learner counts: each distinct tool text's name and first-sentence terms, once.
  const learningUnits: string[][] = [];
  const learnedTexts = new Set<string>();
  let anySubmittedAt = false;

  const post = (term: string, doc: number, packed: number): void => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = postings.length;
      termIds.set(term, id);
      postings.push({ docs: [], counts: [] });
      postedFor.push(-1);
    }
    if (postedFor[id] === doc) return;
    postedFor[id] = doc;
    const posting = postings[id] as PostingBuilder;
    posting.docs.push(doc);
    posting.counts.push(packed);
  };

  servers.forEach((value, serverIndex) => {
    const server = validateServer(value, serverIndex);
    if (seen.has(server.id)) {
      throw new RouteInputError('duplicate-server-id', `server "${server.id}" appears twice; ids must be unique.`);
    }
    seen.add(server.id);
    const submittedAtMs = parseSubmittedAt(server.submittedAt, serverIndex, server.id);
    if (submittedAtMs !== null) anySubmittedAt = true;
    const verdicts = classifyTools(server.tools);
    const serverTerms = countTerms(tokenizeWith(server.name ?? '', stems));
    let toolCount = 0;
    let highRiskCount = 0;
    server.tools.forEach((tool, toolIndex) => {
      const name = toolName(tool);
      if (name === null) return;
      const level = (verdicts[toolIndex]?.level ?? 'changes-data') as RiskLevel;
      toolCount += 1;
      if (level === 'high-risk') highRiskCount += 1;
      const doc = docName.length;
      const description = toolDescription(tool as object);
      const title = toolTitle(tool as object);
      const nameWords = tokenizeWith(name, stems);
      const nameTerms = countTerms(nameWords);
      const { lead, rest } = splitLeadSentence(description);
      const leadWords = tokenizeWith(title === '' ? lead : `${title}. ${lead}`, stems);
      const restWords = tokenizeWith(rest, stems);
      const learnedKey = `${name}\u0000${title}\u0000${lead}`;
      if (!learnedTexts.has(learnedKey)) {
        learnedTexts.add(learnedKey);
        learningUnits.push([...nameWords, ...leadWords]);
      }
      const leadCounts = countTerms(leadWords);
      const restCounts = countTerms(restWords);
      docServer.push(serverIndex);
      docName.push(name);
      docDescription.push(description);
      let verbSet = verbSetByName.get(name);
      if (verbSet === undefined) {
        const verbs = nameVerbsOf(name);
        const key = verbs.join(' ');
        verbSet = verbSetByKey.get(key);
        if (verbSet === undefined) {
          verbSet = nameVerbSets.length;
          nameVerbSets.push(verbs);
          verbSetByKey.set(key, verbSet);
        }
        verbSetByName.set(name, verbSet);
      }
      docNameVerbs.push(verbSet);
      docLevel.push(LEVEL_RANK[level]);
      docAnswering.push(isAnswering(server) ? 1 : 0);
      docDescriptionLength.push(descriptionLength(leadWords.length, restWords.length));
      const packedOf = (term: string): number =>
        capCount(nameTerms.get(term) ?? 0) +
        capCount(leadCounts.get(term) ?? 0) * SHIFT +
        capCount(restCounts.get(term) ?? 0) * SHIFT ** 2 +
        capCount(serverTerms.get(term) ?? 0) * SHIFT ** 3;
      for (const term of nameTerms.keys()) post(term, doc, packedOf(term));
      for (const term of leadCounts.keys()) post(term, doc, packedOf(term));
      for (const term of restCounts.keys()) post(term, doc, packedOf(term));
      for (const term of serverTerms.keys()) post(term, doc, packedOf(term));
    });
    entries.push({ server, submittedAtMs, toolCount, highRiskCount });
  });

  const docCount = docName.length;
  const totalLength = docDescriptionLength.reduce((sum, length) => sum + length, 0);
  const averageLength = docCount > 0 && totalLength > 0 ? totalLength / docCount : 1;
  const descriptionNorm = Float64Array.from(
    docDescriptionLength,
    (length) => 1 - BM25_B + (BM25_B * length) / averageLength,
  );
  const postingName: Uint16Array[] = [];
  const postingSaturation: Float64Array[] = [];
  for (const posting of postings) {
    const names = new Uint16Array(posting.docs.length);
    const saturation = new Float64Array(posting.docs.length);
    for (let i = 0; i < posting.docs.length; i++) {
      const packed = posting.counts[i] as number;
      const nameCount = packed % SHIFT;
      const leadCount = Math.floor(packed / SHIFT) % SHIFT;
      const restCount = Math.floor(packed / SHIFT ** 2) % SHIFT;
      const serverCount = Math.floor(packed / SHIFT ** 3);
      names[i] = nameCount;
      saturation[i] = saturatedFrequency(
        nameCount,
        descriptionCount(leadCount, restCount),
        descriptionNorm[posting.docs[i] as number] as number,
        serverCount,
      );
    }
    postingName.push(names);
    postingSaturation.push(saturation);
  }
  const state: IndexState = {
    servers: entries,
    docServer: Int32Array.from(docServer),
    docName,
    docDescription,
    docNameVerbs: Int32Array.from(docNameVerbs),
    nameVerbSets,
    docLevel: Uint8Array.from(docLevel),
    docAnswering: Uint8Array.from(docAnswering),
    termIds,
    postingDocs: postings.map((p) => Int32Array.from(p.docs)),
    postingName,
    postingSaturation,
    anySubmittedAt,
    learnedSynonyms: learnSynonyms(learningUnits),
    scratchScore: new Float64Array(docCount),
    scratchMask: new Int32Array(docCount),
    scratchLearnedMask: new Int32Array(docCount),
    scratchTouched: new Int32Array(docCount),
  };
  const index: ToolIndex = Object.freeze({ serverCount: entries.length, toolCount: docCount, termCount: termIds.size });
  states.set(index, state);
  return index;
}

/** The fields of a server that change between daily checks, which {@link withLiveFields} can replace. */
export type LiveServerFields = Pick<IndexServer, 'answering' | 'liveIncident' | 'agentsReliability'>;

/** One server's new live fields: a field left out keeps its value; `undefined` is not a value here. */
export interface LiveServerUpdate extends LiveServerFields {
  id: string;
}

const LIVE_FIELDS = ['answering', 'liveIncident', 'agentsReliability'] as const;

function validateLiveUpdate(value: unknown, at: number): LiveServerUpdate {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(at, undefined, 'must be an object.');
  const update = value as Record<string, unknown>;
  const id = update.id;
  if (typeof id !== 'string' || id === '') fail(at, id, 'id must be a non-empty string.');
  for (const key of Object.keys(update)) {
    if (key !== 'id' && !(LIVE_FIELDS as readonly string[]).includes(key))
      fail(at, id, `${key} is not a live field (${LIVE_FIELDS.join(', ')}); build a new index for it.`);
  }
  checkOptionalBoolean(update.answering, 'answering', at, id);
  checkOptionalBoolean(update.liveIncident, 'liveIncident', at, id);
  if (update.agentsReliability !== null) checkOptionalNumber(update.agentsReliability, 'agentsReliability', at, id, 1);
  return update as unknown as LiveServerUpdate;
}

/** The new server with the update's fields; a field the update leaves out (or sets undefined) is kept. */
function applyLiveFields(server: IndexServer, update: LiveServerUpdate): IndexServer {
  return {
    ...server,
    ...(update.answering !== undefined ? { answering: update.answering } : {}),
    ...(update.liveIncident !== undefined ? { liveIncident: update.liveIncident } : {}),
    ...(update.agentsReliability !== undefined ? { agentsReliability: update.agentsReliability } : {}),
  };
}

/**
 * A new index like `index` but with some servers' live fields replaced (whether each answers, has a live
 * incident, and the agents' reliability), as createToolIndex over the changed servers would give. The tools,
 * their terms and the learned synonyms are shared with `index`, so this costs a copy of the server list and,
 * when a server's answering changes, of one byte per tool, instead of a rebuild. `index` is left as it was.
 * Throws RouteInputError for an update of an unknown id, an id given twice, or a field that is not live.
 *
 * @example
 * const next = withLiveFields(index, [{ id: 'files.example', answering: false, liveIncident: true }]);
 */
export function withLiveFields(index: ToolIndex, updates: readonly LiveServerUpdate[]): ToolIndex {
  const state = stateOf(index);
  if (!Array.isArray(updates))
    throw new RouteInputError('invalid-servers', 'withLiveFields expects an array of server updates.');
  const positions = new Map(state.servers.map((entry, at) => [entry.server.id, at]));
  const servers = [...state.servers];
  let answeringChanged = false;
  const seen = new Set<string>();
  updates.forEach((value, at) => {
    const update = validateLiveUpdate(value, at);
    const position = positions.get(update.id);
    if (position === undefined) fail(at, update.id, 'is not in the index.');
    if (seen.has(update.id))
      throw new RouteInputError('duplicate-server-id', `server "${update.id}" appears twice; ids must be unique.`);
    seen.add(update.id);
    const entry = servers[position] as ServerEntry;
    const server = applyLiveFields(entry.server, update);
    answeringChanged ||= isAnswering(server) !== isAnswering(entry.server);
    servers[position] = { ...entry, server };
  });
  // Each tool's answering flag is its server's: copied afresh only when some server's answering changed.
  const docAnswering = answeringChanged
    ? Uint8Array.from(state.docServer, (server) => (isAnswering((servers[server] as ServerEntry).server) ? 1 : 0))
    : state.docAnswering;
  const next: IndexState = { ...state, servers, docAnswering };
  const nextIndex: ToolIndex = Object.freeze({
    serverCount: index.serverCount,
    toolCount: index.toolCount,
    termCount: index.termCount,
  });
  states.set(nextIndex, next);
  return nextIndex;
}

/** How old, in days as a fraction, an instant `fromMs` is at `now` (negative when `fromMs` is in the future). */
export function countDaysSince(fromMs: number, now: Date): number {
  return daysSince(fromMs, now.getTime());
}
