// Pure module: what changed between two tool lists of the same server, tool by tool.
// Tools are compared by the canonical JSON their hash covers, which is exact and skips the SHA-256 work;
// two tools compare equal here exactly when hashTool gives them the same hash.
import { classifyTools, type RiskLevel } from '@mcp-atlas/risk';
import { canonicalContentJson, canonicalToolJson } from './canonical-json.js';
import { RISK_RANK } from './constants.js';
import { assertInputObject, assertToolsArray } from './errors.js';
import { hasDescription, labelTool, readToolName } from './tool-facts.js';

/**
 * One side of a diff: a tools array and, when the server reported one, its `serverInfo.version`.
 * Without a version on both sides a change is never called silent.
 */
export interface ToolListSnapshot {
  tools: readonly unknown[];
  serverVersion?: string | null;
}

/** A tool whose risk level went up; `from` is null for a tool that was not there before. */
export interface RiskRise {
  name: string;
  from: RiskLevel | null;
  to: RiskLevel;
}

/** A tool that kept its description and input schema under a new name. */
export interface ToolRename {
  from: string;
  to: string;
}

/**
 * The difference between two tool lists. Every array is sorted by name (UTF-16 code-unit order). A tool
 * without a string name is named `tools[i]`, its position in its own list (`before` for `removed`, `after`
 * for `added`).
 * - `added` / `removed`: names present on one side only, renames excepted.
 * - `changed`: names on both sides whose hashed fields (name, description, inputSchema, annotations)
 *   differ; a name used by several tools is changed when that group of tools differs.
 * - `rewritten`: the changed tools that can change things (changes-data or high-risk) and kept their level.
 * - `riskRises`: tools added as high-risk, and tools on both sides (or renamed) whose level went up.
 *   Levels are read with each whole list as context, as `classifyTools` does, so a tool is checked for a
 *   rise even when its own definition did not change.
 * - `renamed`: a removed and an added tool with the same non-blank description and the same input schema.
 * - `silent`: the list changed while both sides report the same server version.
 * - `unchanged`: nothing was added, removed, changed or renamed; then `hashToolList` is equal on both sides.
 */
export interface ToolListDiff {
  added: string[];
  removed: string[];
  changed: string[];
  rewritten: string[];
  riskRises: RiskRise[];
  renamed: ToolRename[];
  silent: boolean;
  unchanged: boolean;
}

interface Entry {
  index: number;
  tool: unknown;
  text: string;
  level: RiskLevel;
}

interface IndexedList {
  named: Map<string, Entry[]>;
  unnamed: Entry[];
}

function indexList(tools: readonly unknown[]): IndexedList {
  // One classification of the whole list: a tool's level depends on whether any tool has annotations.
  const verdicts = classifyTools(tools);
  const named = new Map<string, Entry[]>();
  const unnamed: Entry[] = [];
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index];
    const entry: Entry = {
      index,
      tool,
      text: canonicalToolJson(tool),
      level: verdicts[index]?.level ?? 'changes-data',
    };
    const name = readToolName(tool);
    if (name === null) {
      unnamed.push(entry);
      continue;
    }
    const group = named.get(name);
    if (group === undefined) named.set(name, [entry]);
    else group.push(entry);
  }
  return { named, unnamed };
}

function rank(level: RiskLevel): number {
  return RISK_RANK[level];
}

// The level of a name used by several tools is the highest among them.
function groupLevel(group: readonly Entry[]): RiskLevel {
  let level = (group[0] as Entry).level;
  for (const entry of group) if (rank(entry.level) > rank(level)) level = entry.level;
  return level;
}

function sameTools(before: readonly Entry[], after: readonly Entry[]): boolean {
  if (before.length !== after.length) return false;
  if (before.length === 1) return (before[0] as Entry).text === (after[0] as Entry).text;
  const a = before.map((entry) => entry.text).sort();
  const b = after.map((entry) => entry.text).sort();
  return a.every((text, i) => text === b[i]);
}

// Unnamed entries have no name to pair them by: they are matched by content, and the rest are added or removed.
function diffUnnamed(before: readonly Entry[], after: readonly Entry[]): { added: Entry[]; removed: Entry[] } {
  const waiting = new Map<string, Entry[]>();
  for (const entry of before) {
    const same = waiting.get(entry.text);
    if (same === undefined) waiting.set(entry.text, [entry]);
    else same.push(entry);
  }
  const added: Entry[] = [];
  for (const entry of after) {
    const same = waiting.get(entry.text);
    if (same !== undefined && same.length > 0) same.shift();
    else added.push(entry);
  }
  const removed = [...waiting.values()].flat();
  return { added, removed };
}

// A rename needs one tool under each name and a description to recognise it by.
function renameKey(group: readonly Entry[]): string | null {
  if (group.length !== 1) return null;
  const tool = (group[0] as Entry).tool;
  if (!hasDescription(tool)) return null;
  return canonicalContentJson(tool as Record<string, unknown>);
}

function matchRenames(
  removedNames: readonly string[],
  addedNames: readonly string[],
  before: IndexedList,
  after: IndexedList,
): ToolRename[] {
  const addedByKey = new Map<string, string[]>();
  for (const name of addedNames) {
    const key = renameKey(after.named.get(name) as Entry[]);
    if (key === null) continue;
    const names = addedByKey.get(key);
    if (names === undefined) addedByKey.set(key, [name]);
    else names.push(name);
  }
  const renamed: ToolRename[] = [];
  for (const name of removedNames) {
    const key = renameKey(before.named.get(name) as Entry[]);
    const candidates = key === null ? undefined : addedByKey.get(key);
    const to = candidates?.shift();
    if (to !== undefined) renamed.push({ from: name, to });
  }
  return renamed;
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function validateSnapshot(snapshot: unknown, where: string): asserts snapshot is ToolListSnapshot {
  assertInputObject(snapshot, where);
  assertToolsArray(snapshot.tools, `${where}.tools`);
}

/** Whether a server version was reported: a non-empty string. */
function isVersion(version: string | null | undefined): version is string {
  return typeof version === 'string' && version !== '';
}

/**
 * Compares a server's previous tool list with its current one, tool by tool (see {@link ToolListDiff}
 * for each field). Risk levels come from @mcp-atlas/risk, each list classified as a whole. Any JSON value
 * may sit in either list; only a side that is not an object with a `tools` array throws
 * {@link FindingsInputError}.
 *
 * @example
 * const diff = diffToolLists({ tools: yesterday, serverVersion: '1.2.0' }, { tools: today, serverVersion: '1.2.0' });
 * if (diff.silent) console.log('changed without a version bump:', diff.changed);
 */
export function diffToolLists(before: ToolListSnapshot, after: ToolListSnapshot): ToolListDiff {
  validateSnapshot(before, 'diffToolLists: before');
  validateSnapshot(after, 'diffToolLists: after');
  const old = indexList(before.tools);
  const now = indexList(after.tools);

  const removedNames = [...old.named.keys()].filter((name) => !now.named.has(name)).sort(byName);
  const addedNames = [...now.named.keys()].filter((name) => !old.named.has(name)).sort(byName);
  const renamed = matchRenames(removedNames, addedNames, old, now);
  const renamedFrom = new Set(renamed.map((pair) => pair.from));
  const renamedTo = new Set(renamed.map((pair) => pair.to));
  const unnamed = diffUnnamed(old.unnamed, now.unnamed);

  const changed: string[] = [];
  const rewritten: string[] = [];
  const riskRises: RiskRise[] = [];
  for (const [name, afterGroup] of now.named) {
    const beforeGroup = old.named.get(name);
    if (beforeGroup === undefined) continue;
    const from = groupLevel(beforeGroup);
    const to = groupLevel(afterGroup);
    if (rank(to) > rank(from)) riskRises.push({ name, from, to });
    if (sameTools(beforeGroup, afterGroup)) continue;
    changed.push(name);
    if (to === from && rank(to) > rank('read-only')) rewritten.push(name);
  }
  for (const pair of renamed) {
    const from = groupLevel(old.named.get(pair.from) as Entry[]);
    const to = groupLevel(now.named.get(pair.to) as Entry[]);
    if (rank(to) > rank(from)) riskRises.push({ name: pair.to, from, to });
  }

  const added = addedNames.filter((name) => !renamedTo.has(name));
  for (const name of added) {
    const level = groupLevel(now.named.get(name) as Entry[]);
    if (level === 'high-risk') riskRises.push({ name, from: null, to: level });
  }
  for (const entry of unnamed.added) {
    if (entry.level === 'high-risk')
      riskRises.push({ name: labelTool(entry.tool, entry.index), from: null, to: entry.level });
  }

  const addedAll = [...added, ...unnamed.added.map((entry) => labelTool(entry.tool, entry.index))].sort(byName);
  const removedAll = [
    ...removedNames.filter((name) => !renamedFrom.has(name)),
    ...unnamed.removed.map((entry) => labelTool(entry.tool, entry.index)),
  ].sort(byName);
  const unchanged = addedAll.length === 0 && removedAll.length === 0 && changed.length === 0 && renamed.length === 0;
  // Silent needs a version on both sides: an empty one (a server that sends none, read as '') is no version.
  const silent = !unchanged && isVersion(before.serverVersion) && before.serverVersion === after.serverVersion;

  return {
    added: addedAll,
    removed: removedAll,
    changed: changed.sort(byName),
    rewritten: rewritten.sort(byName),
    riskRises: riskRises.sort((a, b) => byName(a.name, b.name)),
    renamed: renamed.sort((a, b) => byName(a.from, b.from)),
    silent,
    unchanged,
  };
}
