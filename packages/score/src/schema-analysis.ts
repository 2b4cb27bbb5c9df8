// Schema completeness and description quality computed from the tool list a server gives at runtime (tools/list):
// the Scoreboard's "runtime override". Pure and synchronous.
//
// Engine 0.9.0 computes both sub-scores from source code and the README, and its page says a runtime score
// replaces the static completeness whenever it is higher; the function that scores runtime schemas is not in the
// open engine. So the rules here are ours, built from the engine's own numbers:
// - completeness: the engine's formula (40 points once tools exist, up to 60 more for the share of its six schema
//   markers present, capped at 60 with no input schema and at 70 with no description), where a marker is a
//   structure in the real schemas instead of a word in source files;
// - description quality: per tool, the engine's description checks (20 points at 20 characters, 10 more at 50, 10
//   for an action word), plus 60 points for the share of parameters that carry a description, the part an agent
//   reads where the engine reads the README; the server's score is the mean over its tools.
// Applying the override (the higher completeness wins) is categories.ts' applyRuntimeSchemaOverride.

import { codePointLength, stripPython } from './python-text.js';
import { isRecord } from './values.js';

/** The engine's six schema markers, in its order. */
export const SCHEMA_MARKERS = Object.freeze([
  'inputSchema',
  'parameters',
  'properties',
  'description',
  'type',
  'required',
] as const);

/** A schema marker. */
export type SchemaMarker = (typeof SCHEMA_MARKERS)[number];

/** Completeness once at least one tool exists, and the engine's score when none is found (40). */
export const SCHEMA_COMPLETENESS_BASE = 40;
/** Points shared out by the fraction of markers present (60: all six give 100). */
export const SCHEMA_COMPLETENESS_MARKER_POINTS = 60;
/** Completeness cap when no tool has an input schema or declares a parameter (engine: 60). */
export const SCHEMA_COMPLETENESS_CAP_WITHOUT_INPUT_SCHEMA = 60;
/** Completeness cap when no tool or parameter has a description (engine: 70). */
export const SCHEMA_COMPLETENESS_CAP_WITHOUT_DESCRIPTIONS = 70;

/** A tool description of at least this many code points earns DESCRIPTION_POINTS_PRESENT (engine: 20). */
export const DESCRIPTION_MIN_CHARS = 20;
/** A tool description of at least this many code points also earns DESCRIPTION_POINTS_DETAILED (engine: 50). */
export const DESCRIPTION_DETAILED_CHARS = 50;
/** Points for a description of DESCRIPTION_MIN_CHARS (engine: 20). */
export const DESCRIPTION_POINTS_PRESENT = 20;
/** Points for a description of DESCRIPTION_DETAILED_CHARS (engine: 10). */
export const DESCRIPTION_POINTS_DETAILED = 10;
/** Points for a description with an action word (engine: 10). */
export const DESCRIPTION_POINTS_ACTIONABLE = 10;
/** Points for the share of a tool's parameters that are described; a tool without parameters earns all (ours). */
export const DESCRIPTION_POINTS_PARAMETERS = 60;

/** Verbs that say what a tool does (the engine's list), found anywhere in the lower-cased description. */
export const DESCRIPTION_ACTION_WORDS: readonly string[] = Object.freeze([
  'connect',
  'query',
  'search',
  'manage',
  'monitor',
  'generate',
  'analyze',
  'create',
  'retrieve',
  'access',
]);

/** The result of analysing a runtime tool list. `details` uses the engine's snake_case style of key names. */
export interface RuntimeSchemaAnalysis {
  /** 0-100. */
  schemaCompleteness: number;
  /** 0-100. */
  descriptionQuality: number;
  details: {
    schema_completeness: { tool_count: number; schema_markers_found: SchemaMarker[]; issues: string[] };
    description_quality: {
      tool_count: number;
      tools_described: number;
      tools_detailed: number;
      tools_actionable: number;
      parameters_declared: number;
      parameters_described: number;
    };
    /** Entries of the list that are not a tool object with a string name, left out of both scores. */
    skipped_entries: number;
  };
}

interface RuntimeTool {
  description: string;
  inputSchema: Record<string, unknown> | null;
  parameters: Array<[string, unknown]>;
}

function hasText(value: unknown): boolean {
  return typeof value === 'string' && stripPython(value) !== '';
}

function readTool(entry: unknown): RuntimeTool | null {
  if (!isRecord(entry) || typeof entry.name !== 'string') return null;
  const inputSchema = isRecord(entry.inputSchema) ? entry.inputSchema : null;
  const properties = inputSchema && isRecord(inputSchema.properties) ? inputSchema.properties : {};
  return {
    description: typeof entry.description === 'string' ? entry.description : '',
    inputSchema,
    parameters: Object.entries(properties),
  };
}

function parameterDescribed([, schema]: [string, unknown]): boolean {
  return isRecord(schema) && hasText(schema.description);
}

/** Which of the six markers the real schemas show: a structure, not a word, for each. */
function markersIn(tools: readonly RuntimeTool[]): Set<SchemaMarker> {
  const found = new Set<SchemaMarker>();
  for (const tool of tools) {
    const schema = tool.inputSchema;
    if (schema) found.add('inputSchema');
    if (tool.parameters.length > 0) found.add('parameters');
    if (schema && isRecord(schema.properties)) found.add('properties');
    if (hasText(tool.description) || tool.parameters.some(parameterDescribed)) found.add('description');
    if ((schema && 'type' in schema) || tool.parameters.some(([, p]) => isRecord(p) && 'type' in p)) found.add('type');
    if (schema && Array.isArray(schema.required)) found.add('required');
  }
  return found;
}

function completenessFrom(toolCount: number, markers: ReadonlySet<SchemaMarker>, issues: string[]): number {
  if (toolCount === 0) {
    issues.push('no_tool_definitions_found');
    return SCHEMA_COMPLETENESS_BASE;
  }
  // Same arithmetic as the engine (ratio first, then truncation), so the same marker counts give the same points.
  let score = Math.trunc(
    SCHEMA_COMPLETENESS_BASE + (markers.size / SCHEMA_MARKERS.length) * SCHEMA_COMPLETENESS_MARKER_POINTS,
  );
  if (!markers.has('inputSchema') && !markers.has('parameters')) {
    issues.push('no_input_schema');
    score = Math.min(score, SCHEMA_COMPLETENESS_CAP_WITHOUT_INPUT_SCHEMA);
  }
  if (!markers.has('description')) {
    issues.push('no_descriptions');
    score = Math.min(score, SCHEMA_COMPLETENESS_CAP_WITHOUT_DESCRIPTIONS);
  }
  return Math.min(score, 100);
}

function scoreReadTool(tool: RuntimeTool): number {
  const text = stripPython(tool.description);
  const length = codePointLength(text);
  let score = 0;
  if (length >= DESCRIPTION_MIN_CHARS) score += DESCRIPTION_POINTS_PRESENT;
  if (length >= DESCRIPTION_DETAILED_CHARS) score += DESCRIPTION_POINTS_DETAILED;
  if (isActionable(text)) score += DESCRIPTION_POINTS_ACTIONABLE;
  const declared = tool.parameters.length;
  const described = tool.parameters.filter(parameterDescribed).length;
  score += declared === 0 ? DESCRIPTION_POINTS_PARAMETERS : (DESCRIPTION_POINTS_PARAMETERS * described) / declared;
  return score;
}

function isActionable(text: string): boolean {
  const lowered = text.toLowerCase();
  return DESCRIPTION_ACTION_WORDS.some((word) => lowered.includes(word));
}

/** Drops float noise (a sum of thirds landing on 99.99999999) before truncating, as exact arithmetic would. */
function truncateClean(value: number): number {
  return Math.trunc(Math.round(value * 1e9) / 1e9);
}

/**
 * Scores one tool's description: 20 points at 20 code points (trimmed), 10 more at 50, 10 for an action word,
 * and 60 times the share of its parameters with a description (60 when it has none). 0-100, not truncated;
 * 0 for an entry that is not a tool.
 */
export function scoreToolDescription(tool: unknown): number {
  const read = readTool(tool);
  return read ? scoreReadTool(read) : 0;
}

/**
 * Computes schema completeness and description quality from a server's runtime tool list (the `tools` array of a
 * tools/list answer). An empty list gives completeness 40 (the engine's score when no tool is found) and
 * description quality 0. Entries that are not tools are skipped and counted, never thrown on. Both scores are
 * whole numbers, truncated as the engine's `int()` does.
 *
 * @example
 * analyzeRuntimeSchemas([{ name: 'search_issues', description: 'Search issues by text, label and state in one repository.',
 *   inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'Text' } }, required: ['q'] } }]);
 * // { schemaCompleteness: 100, descriptionQuality: 100, details: { ... } }
 */
export function analyzeRuntimeSchemas(tools: readonly unknown[]): RuntimeSchemaAnalysis {
  const entries = Array.isArray(tools) ? tools : [];
  const read = entries.map(readTool).filter((tool): tool is RuntimeTool => tool !== null);
  const markers = markersIn(read);
  const issues: string[] = [];
  const schemaCompleteness = completenessFrom(read.length, markers, issues);

  let total = 0;
  let described = 0;
  let detailed = 0;
  let actionable = 0;
  let parametersDeclared = 0;
  let parametersDescribed = 0;
  for (const tool of read) {
    total += scoreReadTool(tool);
    const text = stripPython(tool.description);
    const length = codePointLength(text);
    if (length >= DESCRIPTION_MIN_CHARS) described += 1;
    if (length >= DESCRIPTION_DETAILED_CHARS) detailed += 1;
    if (isActionable(text)) actionable += 1;
    parametersDeclared += tool.parameters.length;
    parametersDescribed += tool.parameters.filter(parameterDescribed).length;
  }
  const descriptionQuality = read.length === 0 ? 0 : Math.min(100, truncateClean(total / read.length));

  return {
    schemaCompleteness,
    descriptionQuality,
    details: {
      schema_completeness: {
        tool_count: read.length,
        schema_markers_found: SCHEMA_MARKERS.filter((marker) => markers.has(marker)),
        issues,
      },
      description_quality: {
        tool_count: read.length,
        tools_described: described,
        tools_detailed: detailed,
        tools_actionable: actionable,
        parameters_declared: parametersDeclared,
        parameters_described: parametersDescribed,
      },
      skipped_entries: entries.length - read.length,
    },
  };
}
