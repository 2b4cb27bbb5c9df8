// Pure module: the eight risk rules, applied in order, then the description raise. No I/O, no clock.

import { splitWords } from '@mcp-atlas/base';
import { BUILT_IN_LISTS, BUILT_IN_NEGATION_WORDS, type WordLists } from './builtin-lists.js';
import { RiskOptionsError } from './errors.js';
import type { ClassifyContext, RiskLevel, RiskRule, RiskVerdict, ToolLike } from './types.js';
import { NEGATION_WINDOW_WORDS, RAISE_PHRASES, type RaisePhrase, type VerbClass } from './vocabulary.js';
import { findNameVerb } from './words.js';

type Annotations = Record<string, unknown>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function annotationsOf(tool: unknown): Annotations | null {
  if (!isPlainObject(tool)) return null;
  const annotations = tool.annotations;
  return isPlainObject(annotations) ? annotations : null;
}

function sensitiveNounIn(words: readonly string[], lists: WordLists): string | null {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (lists.sensitiveNouns.has(word)) return word;
    const seconds = lists.nounPairs.get(word);
    const next = words[i + 1];
    if (seconds !== undefined && next !== undefined && seconds.has(next)) return `${word} ${next}`;
  }
  return null;
}

/** The sensitive noun in a name's words (built-in lists), if any (rule 4). */
export function findSensitiveNoun(words: readonly string[]): string | null {
  return sensitiveNounIn(words, BUILT_IN_LISTS);
}

/** Characters that end the clause a negation may reach across. */
const CLAUSE_ENDS = '.,;:!?\n(';

function lastWordsBefore(text: string, end: number, count: number): string[] {
  // Only the current clause counts: a full stop, semicolon, comma or similar ends a negation's reach. The comma
  // matters: in "No undo, permanently deletes the project." the "no" belongs to its own phrase, and the
  // description still plainly says it deletes permanently.
  let clauseStart = end;
  while (clauseStart > 0 && !CLAUSE_ENDS.includes(text[clauseStart - 1] as string)) clauseStart--;
  const words = text
    .slice(clauseStart, end)
    .toLowerCase()
    .split(/[^\w']+/)
    .filter(Boolean);
  return words.slice(-count);
}

function isNegated(text: string, matchIndex: number): boolean {
  return lastWordsBefore(text, matchIndex, NEGATION_WINDOW_WORDS).some((word) => BUILT_IN_NEGATION_WORDS.has(word));
}

function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Builds a pattern matching any of the words, factored by shared first letters (`r(?:emov|un)`), which
// lets the regex engine reject most positions after one character.
function alternationOf(words: readonly string[]): string {
  const byFirst = new Map<string, string[]>();
  for (const word of words) {
    const rests = byFirst.get(word[0] as string) ?? [];
    rests.push(escapeForPattern(word.slice(1)));
    byFirst.set(word[0] as string, rests);
  }
  const branches = [...byFirst].map(([first, rests]) =>
    rests.length === 1 ? `${escapeForPattern(first)}${rests[0]}` : `${escapeForPattern(first)}(?:${rests.join('|')})`,
  );
  return `(?:${branches.join('|')})`;
}

type StickyPhrase = readonly [RaisePhrase, RegExp];

// Every raise pattern starts at a word beginning from its `stems`. One case-insensitive scan finds those
// beginnings, and only the phrases owning the stem found are tried there, anchored (sticky) at that spot.
const STEM_SCAN = new RegExp(
  String.raw`\b${alternationOf([...new Set(RAISE_PHRASES.flatMap((phrase) => phrase.stems))])}`,
  'gi',
);

const PHRASES_BY_STEM: ReadonlyMap<string, readonly StickyPhrase[]> = (() => {
  const byStem = new Map<string, StickyPhrase[]>();
  for (const phrase of RAISE_PHRASES) {
    const sticky: StickyPhrase = [phrase, new RegExp(phrase.pattern.source, 'iy')];
    for (const stem of phrase.stems) {
      const list = byStem.get(stem) ?? [];
      list.push(sticky);
      byStem.set(stem, list);
    }
  }
  return byStem;
})();

function phraseAt(description: string, index: number, stem: string): RaisePhrase | null {
  const candidates = PHRASES_BY_STEM.get(stem.toLowerCase());
  if (candidates === undefined) return null;
  for (const [phrase, sticky] of candidates) {
    sticky.lastIndex = index;
    if (sticky.test(description)) return phrase;
  }
  return null;
}

/**
 * The first raise wording a description plainly says, ignoring negated ones ("does not delete ..."),
 * or null. Exposed so gateways can show why a tool was raised.
 *
 * @example findRaisePhrase('Permanently deletes the page.')?.id // 'deletes-permanently'
 */
export function findRaisePhrase(description: string): RaisePhrase | null {
  STEM_SCAN.lastIndex = 0;
  for (let match = STEM_SCAN.exec(description); match !== null; match = STEM_SCAN.exec(description)) {
    const phrase = phraseAt(description, match.index, match[0]);
    if (phrase !== null && !isNegated(description, match.index)) {
      STEM_SCAN.lastIndex = 0;
      return phrase;
    }
  }
  return null;
}

// Reasons that name a verb or noun come from bounded word lists, so each sentence is built once per word and
// reused; one table per sentence avoids building a lookup key on every call.
type ReasonTable = { readonly cache: Map<string, string>; readonly build: (word: string) => string };

function reasonTable(build: (word: string) => string): ReasonTable {
  return { cache: new Map(), build };
}

function reasonFor(table: ReasonTable, word: string): string {
  let reason = table.cache.get(word);
  if (reason === undefined) {
    reason = table.build(word);
    table.cache.set(word, reason);
  }
  return reason;
}

const HIGH_RISK_VERB_REASONS = reasonTable((verb) => `Its verb "${verb}" deletes, pays, grants, deploys or runs code.`);
const SENSITIVE_NOUN_REASONS = reasonTable((noun) => `Its name mentions "${noun}" and its verb is not a reading verb.`);
// Rare (a sensitive noun behind a second-word reading verb), so built on demand rather than cached.
function secondWordNounReason(noun: string, verb: string): string {
  return `Its name mentions "${noun}", and its reading verb "${verb}" is only the second word, which does not excuse it.`;
}
const CHANGING_VERB_REASONS = reasonTable((verb) => `Its verb "${verb}" changes data.`);
const ANNOTATED_READ_REASONS = reasonTable(
  (verb) => `Its verb "${verb}" reads, and its annotations do not deny read-only.`,
);
const UNANNOTATED_SERVER_REASONS = reasonTable(
  (verb) => `Its verb "${verb}" reads, but the server publishes no annotations, so it needs a check.`,
);
const UNTRUSTED_READ_REASONS = reasonTable(
  (verb) => `Its verb "${verb}" reads, but the server's annotations are not trusted here, so it needs a check.`,
);
const UNANNOTATED_TOOL_REASONS = reasonTable(
  (verb) => `Its verb "${verb}" reads, but this tool has no annotations while others on the server do.`,
);

const REASON_DESTRUCTIVE = 'The tool declares destructiveHint: true.';
const REASON_READ_ONLY = 'The tool declares readOnlyHint: true.';
const REASON_NOT_READ_ONLY = 'The tool declares readOnlyHint: false.';

function verdict(level: RiskLevel, rule: RiskRule, verb: string | null, reason: string): RiskVerdict {
  return { level, rule, raised: false, verb, reason };
}

// The eight rules in order; the first that applies wins. Returns a fresh verdict the caller may still raise.
function applyRules(
  name: string,
  annotations: Annotations | null,
  context: Readonly<InternalContext>,
  words: readonly string[],
): RiskVerdict {
  const lists = context.lists;
  const found = findNameVerb(words, lists.verbClasses);
  let verb = found?.word ?? null;
  let verbClass: VerbClass | undefined = verb === null ? undefined : lists.verbClasses.get(verb);
  // Only a verb the seed itself reads (first or last word) may excuse a sensitive noun under rule 4. For the
  // seed a name whose verb is only its second word has no verb, and a sensitive noun then makes it high-risk;
  // our fallback must not lower that (`vault_read_secret`).
  const secondWordReader = found?.place === 'second' && verbClass === 'reading' ? found.word : null;
  let excusesNoun = verbClass === 'reading' && secondWordReader === null;
  // A caller's extra reading verbs are tried only when the main lookup finds no verb, and such a verb does
  // not excuse a sensitive noun (rule 4), so extra words never lower a tool the built-in lists call high-risk.
  if (verb === null && lists.gapReadVerbs !== null) {
    verb = findNameVerb(words, lists.gapReadVerbs)?.word ?? null;
    if (verb !== null) {
      verbClass = 'reading';
      excusesNoun = false;
    }
  }
  const readOnlyHint = annotations === null ? undefined : annotations.readOnlyHint;
  if (annotations !== null && annotations.destructiveHint === true && readOnlyHint !== true) {
    return verdict('high-risk', 1, verb, REASON_DESTRUCTIVE);
  }
  if (verb !== null && verbClass === 'high-risk') {
    return verdict('high-risk', 2, verb, reasonFor(HIGH_RISK_VERB_REASONS, verb));
  }
  if (readOnlyHint === true) return verdict('read-only', 3, verb, REASON_READ_ONLY);
  if (!excusesNoun) {
    const noun = sensitiveNounIn(words, lists);
    if (noun !== null) {
      const reason =
        secondWordReader === null
          ? reasonFor(SENSITIVE_NOUN_REASONS, noun)
          : secondWordNounReason(noun, secondWordReader);
      return verdict('high-risk', 4, verb, reason);
    }
  }
  if (verb !== null && verbClass === 'changing') {
    return verdict('changes-data', 5, verb, reasonFor(CHANGING_VERB_REASONS, verb));
  }
  if (verb !== null && verbClass === 'reading') {
    if (annotations !== null && readOnlyHint !== false) {
      return verdict('read-only', 6, verb, reasonFor(ANNOTATED_READ_REASONS, verb));
    }
    if (!context.trustAnnotations) return verdict('changes-data', 7, verb, reasonFor(UNTRUSTED_READ_REASONS, verb));
    if (!context.serverHasAnnotations) {
      return verdict('changes-data', 7, verb, reasonFor(UNANNOTATED_SERVER_REASONS, verb));
    }
  }
  return verdict('changes-data', 8, verb, ruleEightReason(name, verb, readOnlyHint === false, annotations));
}

function ruleEightReason(
  name: string,
  verb: string | null,
  notReadOnly: boolean,
  annotations: Annotations | null,
): string {
  if (notReadOnly) return REASON_NOT_READ_ONLY;
  if (verb !== null && annotations === null) {
    return reasonFor(UNANNOTATED_TOOL_REASONS, verb);
  }
  return `Nothing in "${name}" says clearly what it does, so it is treated as changing data.`;
}

function describeMalformed(tool: unknown): string {
  if (!isPlainObject(tool)) return 'The entry is not a tool object, so it is treated as changing data.';
  if (tool.name === undefined) return 'The tool has no name, so it is treated as changing data.';
  return 'The tool name is not a string, so it is treated as changing data.';
}

/**
 * @internal What one classification reads besides the tool: the server's annotation flag, the word lists,
 * and whether the server's annotations are trusted. Untrusted annotations may only make a tool riskier:
 * `destructiveHint: true` still counts, every other hint is ignored and the server counts as publishing none.
 */
export interface InternalContext {
  serverHasAnnotations: boolean;
  lists: WordLists;
  trustAnnotations: boolean;
}

// Keeps only what an untrusted server may say: that its own tool is destructive.
const UNTRUSTED_DESTRUCTIVE: Annotations = Object.freeze({ destructiveHint: true });

function annotationsToRead(raw: unknown, trustAnnotations: boolean): Annotations | null {
  if (!isPlainObject(raw)) return null;
  if (trustAnnotations) return raw;
  return raw.destructiveHint === true ? UNTRUSTED_DESTRUCTIVE : null;
}

/**
 * @internal Classifies one tool with the given lists and trust; `classifyTool` is this with the built-in
 * lists and trusted annotations.
 */
export function classifyWith(tool: ToolLike, context: Readonly<InternalContext>): RiskVerdict {
  if (!isPlainObject(tool) || typeof tool.name !== 'string')
    return verdict('changes-data', 8, null, describeMalformed(tool));
  const raw = tool as unknown as Record<string, unknown>;
  const annotations = annotationsToRead(raw.annotations, context.trustAnnotations);
  const result = applyRules(tool.name, annotations, context, splitWords(tool.name));
  if (result.level === 'high-risk' || (annotations !== null && annotations.readOnlyHint === true)) return result;
  const description = raw.description;
  if (typeof description !== 'string' || description.length === 0) return result;
  const phrase = findRaisePhrase(description);
  if (phrase === null) return result;
  result.level = 'high-risk';
  result.raised = true;
  result.reason = `${result.reason} Raised to high risk: its description says it ${phrase.says}.`;
  return result;
}

/**
 * Classifies one tool with the eight rules (the first that applies wins), then raises it to high risk when
 * its description plainly says so, unless the tool declares readOnlyHint: true. Never throws: a value that is
 * not a tool with a string name gets rule 8 (changes data) and a reason saying why.
 *
 * @example classifyTool({ name: 'delete_page' }, { serverHasAnnotations: false }).level // 'high-risk'
 */
export function classifyTool(tool: ToolLike, context: ClassifyContext): RiskVerdict {
  return classifyWith(tool, {
    serverHasAnnotations: context.serverHasAnnotations,
    lists: BUILT_IN_LISTS,
    trustAnnotations: true,
  });
}

/** True when at least one entry of a tools array carries an annotations object. */
export function serverHasAnnotations(tools: readonly unknown[]): boolean {
  return tools.some((tool) => annotationsOf(tool) !== null);
}

/**
 * Classifies every entry of a tools array, in order. The server counts as publishing annotations when any
 * tool carries an annotations object. Entries may be any JSON value; none makes it throw.
 *
 * @example classifyTools(result.tools).filter((v) => v.level !== 'read-only')
 */
export function classifyTools(tools: readonly unknown[]): RiskVerdict[] {
  if (!Array.isArray(tools)) throw new RiskOptionsError('tools-not-array', 'classifyTools expects an array of tools');
  return classifyAllWith(tools, {
    serverHasAnnotations: serverHasAnnotations(tools),
    lists: BUILT_IN_LISTS,
    trustAnnotations: true,
  });
}

/** @internal Classifies every entry of a tools array with one context. */
export function classifyAllWith(tools: readonly unknown[], context: Readonly<InternalContext>): RiskVerdict[] {
  const verdicts = new Array<RiskVerdict>(tools.length);
  for (let i = 0; i < tools.length; i++) verdicts[i] = classifyWith(tools[i] as ToolLike, context);
  return verdicts;
}
