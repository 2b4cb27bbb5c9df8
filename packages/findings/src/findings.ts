// Pure module: the findings shown for one server's tool list. No I/O, no clock: the caller passes the
// check's elapsed time, and the tool list exactly as the server sent it.

import {
  CHARS_PER_TOKEN,
  HEAVY_TOOL_LIST_CHARS,
  OLDER_PROTOCOL_BEFORE,
  SLOW_CHECK_MS,
  VERY_LONG_DESCRIPTION_CHARS,
} from './constants.js';
import { assertInputObject, assertToolsArray } from './errors.js';
import { isOlderProtocol } from './protocol.js';
import { assertToolsJson, estimateTokens } from './tokens.js';
import {
  hasAnnotations,
  hasInputSchema,
  isNonBlank,
  labelTool,
  readToolDescription,
  readToolName,
} from './tool-facts.js';

/** The kinds of finding, one per check. */
export type FindingId =
  | 'heavy-tool-list'
  | 'very-long-description'
  | 'missing-descriptions'
  | 'no-annotations'
  | 'missing-schema'
  | 'duplicate-names'
  | 'older-protocol'
  | 'slow'
  | 'tool-list-cut';

/**
 * Every finding id, in the order findings are reported (the methodology's order).
 *
 * @example FINDING_IDS.includes('slow') // true
 */
export const FINDING_IDS: readonly FindingId[] = [
  'heavy-tool-list',
  'very-long-description',
  'missing-descriptions',
  'no-annotations',
  'missing-schema',
  'duplicate-names',
  'older-protocol',
  'slow',
  'tool-list-cut',
];

/**
 * A short title per finding, for pages and badges.
 *
 * @example FINDING_TITLES['older-protocol'] // 'Older protocol'
 */
export const FINDING_TITLES: Readonly<Record<FindingId, string>> = {
  'heavy-tool-list': 'Heavy tool list',
  'very-long-description': 'Very long description',
  'missing-descriptions': 'Missing descriptions',
  'no-annotations': 'No annotations',
  'missing-schema': 'Missing schema',
  'duplicate-names': 'Duplicate names',
  'older-protocol': 'Older protocol',
  slow: 'Slow',
  'tool-list-cut': 'Tool list cut',
};

/**
 * One finding about a server. `message` is one sentence for people. `tools` lists the tools concerned
 * (by name, or `tools[i]` for an entry without a string name), in list order. `value` is the number the
 * check measured: characters of the list (heavy-tool-list), characters of the longest description
 * (very-long-description), how many tools lack a description or a schema, how many tools there are
 * (no-annotations), how many names repeat (duplicate-names), the elapsed milliseconds (slow), or the
 * UTF-8 bytes of the whole list before it was cut (tool-list-cut). older-protocol has no value; its
 * message names the version.
 */
export interface Finding {
  id: FindingId;
  message: string;
  tools?: string[];
  value?: number;
}

/**
 * What {@link analyzeToolList} reads. `tools` is the tools array (all pages); `toolsJson` is the JSON
 * text of that array exactly as the server sent it, never a re-serialization (the probe hands it over
 * as `ProbeResult.toolsJson`); `protocolVersion` is the version the server answered with; `elapsedMs` is
 * the wall time of the whole check. Null or absent optional fields skip their check.
 */
export interface ToolListInput {
  tools: readonly unknown[];
  toolsJson: string;
  protocolVersion?: string | null;
  elapsedMs?: number | null;
  /** How the caller cut the list to the text it keeps, when it did (see {@link ToolListCut}). */
  cut?: ToolListCut | null;
}

/**
 * How a caller cut a tool list to a cap on the text it keeps (the probe's `capToolText` describes its cut
 * this way): tools listed and kept, UTF-8 bytes of the whole list's JSON text, and the cap in bytes. A
 * `tool-list-cut` finding is reported when `listedBytes` is over `capBytes` and every field is a finite,
 * non-negative number; anything else is ignored.
 */
export interface ToolListCut {
  listedTools: number;
  keptTools: number;
  listedBytes: number;
  capBytes: number;
}

// What one pass over the tools array gathers for the per-tool findings.
interface ToolSurvey {
  longDescriptions: string[];
  longestDescription: number;
  missingDescriptions: string[];
  missingSchemas: string[];
  annotated: number;
  duplicateNames: string[];
}

function surveyTools(tools: readonly unknown[]): ToolSurvey {
  const survey: ToolSurvey = {
    longDescriptions: [],
    longestDescription: 0,
    missingDescriptions: [],
    missingSchemas: [],
    annotated: 0,
    duplicateNames: [],
  };
  const seen = new Map<string, number>();
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    // Each field is read once; the label (name or tools[i]) is only built for a tool a finding names.
    const name = readToolName(tool);
    const description = readToolDescription(tool);
    if (description !== null && description.length > VERY_LONG_DESCRIPTION_CHARS) {
      survey.longDescriptions.push(name ?? labelTool(tool, i));
      survey.longestDescription = Math.max(survey.longestDescription, description.length);
    }
    if (!isNonBlank(description)) survey.missingDescriptions.push(name ?? labelTool(tool, i));
    if (!hasInputSchema(tool)) survey.missingSchemas.push(name ?? labelTool(tool, i));
    if (hasAnnotations(tool)) survey.annotated++;
    if (name !== null) countName(seen, name, survey.duplicateNames);
  }
  return survey;
}

// Records a name; the second time a name is seen it joins the duplicates, once, in list order.
function countName(seen: Map<string, number>, name: string, duplicates: string[]): void {
  const count = seen.get(name);
  if (count === undefined) {
    seen.set(name, 1);
  } else if (count === 1) {
    seen.set(name, 2);
    duplicates.push(name);
  }
}

/**
 * Writes a number for a message with thousands separators, e.g. 40001 as "40,001". Done by hand so the
 * text is the same in every runtime, whatever its locale data.
 */
function formatNumber(value: number): string {
  const [whole = '', fraction] = String(value).split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = sign ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return sign + grouped + (fraction === undefined ? '' : `.${fraction}`);
}

function countOf(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : pluralForm}`;
}

function findHeavyList(toolsJson: string): Finding | null {
  const length = toolsJson.length;
  if (length <= HEAVY_TOOL_LIST_CHARS) return null;
  return {
    id: 'heavy-tool-list',
    message:
      `The tool list is ${countOf(length, 'character')} of JSON, about ${countOf(estimateTokens(toolsJson), 'token')} ` +
      `at ${CHARS_PER_TOKEN} characters a token; the limit is ${formatNumber(HEAVY_TOOL_LIST_CHARS)}.`,
    value: length,
  };
}

function findSurveyed(survey: ToolSurvey, toolCount: number): Finding[] {
  const found: Finding[] = [];
  if (survey.longDescriptions.length > 0) {
    found.push({
      id: 'very-long-description',
      message:
        `${countOf(survey.longDescriptions.length, 'tool')} ${survey.longDescriptions.length === 1 ? 'has' : 'have'} a description over ` +
        `${formatNumber(VERY_LONG_DESCRIPTION_CHARS)} characters; the longest has ${formatNumber(survey.longestDescription)}.`,
      tools: survey.longDescriptions,
      value: survey.longestDescription,
    });
  }
  if (survey.missingDescriptions.length > 0) {
    found.push({
      id: 'missing-descriptions',
      message: `${formatNumber(survey.missingDescriptions.length)} of ${countOf(toolCount, 'tool')} ${survey.missingDescriptions.length === 1 ? 'has' : 'have'} no description.`,
      tools: survey.missingDescriptions,
      value: survey.missingDescriptions.length,
    });
  }
  // An empty list has nothing to annotate; saying "no annotations" about it would be noise.
  if (toolCount > 0 && survey.annotated === 0) {
    found.push({
      id: 'no-annotations',
      message: `None of the ${countOf(toolCount, 'tool')} declares annotations, so agents get no hints such as readOnlyHint.`,
      value: toolCount,
    });
  }
  if (survey.missingSchemas.length > 0) {
    found.push({
      id: 'missing-schema',
      message: `${formatNumber(survey.missingSchemas.length)} of ${countOf(toolCount, 'tool')} ${survey.missingSchemas.length === 1 ? 'declares' : 'declare'} no usable input schema.`,
      tools: survey.missingSchemas,
      value: survey.missingSchemas.length,
    });
  }
  if (survey.duplicateNames.length > 0) {
    found.push({
      id: 'duplicate-names',
      message: `${countOf(survey.duplicateNames.length, 'tool name')} ${survey.duplicateNames.length === 1 ? 'is' : 'are'} used by more than one tool.`,
      tools: survey.duplicateNames,
      value: survey.duplicateNames.length,
    });
  }
  return found;
}

function findOlderProtocol(protocolVersion: unknown): Finding | null {
  if (!isOlderProtocol(protocolVersion)) return null;
  return {
    id: 'older-protocol',
    message: `The server answered with protocol version ${String(protocolVersion)}, older than ${OLDER_PROTOCOL_BEFORE}.`,
  };
}

function findSlow(elapsedMs: unknown): Finding | null {
  // Only a real duration can be slow: NaN, infinities, negatives and other types are left alone.
  if (typeof elapsedMs !== 'number' || !Number.isFinite(elapsedMs) || elapsedMs <= SLOW_CHECK_MS) return null;
  return {
    id: 'slow',
    message: `The whole check took ${formatNumber(elapsedMs)} ms, over ${formatNumber(SLOW_CHECK_MS)} ms.`,
    value: elapsedMs,
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function findCut(cut: unknown): Finding | null {
  if (cut === null || typeof cut !== 'object') return null;
  const { listedTools, keptTools, listedBytes, capBytes } = cut as Partial<Record<keyof ToolListCut, unknown>>;
  if (!isCount(listedTools) || !isCount(keptTools) || !isCount(listedBytes) || !isCount(capBytes)) return null;
  // Only a list whose text was over the cap was cut; a cut described otherwise is not one.
  if (listedBytes <= capBytes) return null;
  return {
    id: 'tool-list-cut',
    message:
      `The tool list is ${countOf(listedBytes, 'byte')} of JSON, over the ${formatNumber(capBytes)} kept per check; ` +
      `only the first ${formatNumber(keptTools)} of ${countOf(listedTools, 'tool')} ${keptTools === 1 ? 'was' : 'were'} kept.`,
    value: listedBytes,
  };
}

/**
 * Runs every check on one server's tool list and returns the findings, in FINDING_IDS order (an empty
 * array when there is nothing to say). Entries of `tools` may be any JSON value: an entry that is not an
 * object, or whose description is not a non-blank string, counts as missing a description; one whose
 * `inputSchema` is not an object within MAX_SCHEMA_DEPTH and MAX_SCHEMA_NODES counts as missing a schema.
 * When `cut` says the caller cut the list to a text cap, `tool-list-cut` says so; pass the whole list's
 * `toolsJson` (its size is what heavy-tool-list measures) and the kept `tools`. Only an input that is not
 * an object, a `tools` that is not an array or a `toolsJson` that is not a string throws
 * {@link FindingsInputError}.
 *
 * @example
 * const result = await probeServer(url);
 * if (result.toolsJson !== null) {
 *   analyzeToolList({ tools: result.tools, toolsJson: result.toolsJson, protocolVersion: result.protocolVersion, elapsedMs: result.elapsedMs });
 * }
 */
export function analyzeToolList(input: ToolListInput): Finding[] {
  assertInputObject(input, 'analyzeToolList: input');
  const { tools, toolsJson, protocolVersion, elapsedMs } = input;
  assertToolsArray(tools, 'analyzeToolList: input.tools');
  assertToolsJson(toolsJson, 'analyzeToolList: input.toolsJson');
  const found: Finding[] = [];
  const heavy = findHeavyList(toolsJson);
  if (heavy !== null) found.push(heavy);
  found.push(...findSurveyed(surveyTools(tools), tools.length));
  const older = findOlderProtocol(protocolVersion);
  if (older !== null) found.push(older);
  const slow = findSlow(elapsedMs);
  if (slow !== null) found.push(slow);
  const cut = findCut(input.cut);
  if (cut !== null) found.push(cut);
  return found;
}
