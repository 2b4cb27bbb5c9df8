// What changed in a tool that kept its name: the description (old and new, shortened), the input schema (the JSON
// paths added, removed or changed), and the annotation hints. "changed delete_todo" tells an author nothing;
// these lines tell them which part of the definition to look at. Values are compared through the findings
// package's canonical JSON, so key order and number spelling never show up as a change.
import { canonicalJson, isJsonObject } from '@mcp-atlas/findings';
import { CHANGE_EXCERPT_CHARS, CHANGE_MAX_PATHS } from './constants.js';
import type { ToolChangeDetail } from './report-schema.js';

/** Shortens a text to CHANGE_EXCERPT_CHARS characters, marking a cut with an ellipsis. */
export function shortenText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= CHANGE_EXCERPT_CHARS ? flat : `${flat.slice(0, CHANGE_EXCERPT_CHARS - 1)}…`;
}

// JSON Pointer escaping (RFC 6901), so a property named `a/b` cannot be read as two levels.
const pointerPart = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** The JSON paths (JSON Pointer form) where two JSON values differ: added, removed and changed leaves. */
export function diffJsonPaths(
  before: unknown,
  after: unknown,
  path = '',
): { added: string[]; removed: string[]; changed: string[] } {
  const out = { added: [] as string[], removed: [] as string[], changed: [] as string[] };
  walk(before, after, path, out);
  return out;
}

function walk(
  before: unknown,
  after: unknown,
  path: string,
  out: { added: string[]; removed: string[]; changed: string[] },
): void {
  if (canonicalJson(before) === canonicalJson(after)) return;
  const bothObjects = isJsonObject(before) && isJsonObject(after);
  const bothArrays = Array.isArray(before) && Array.isArray(after);
  if (!bothObjects && !bothArrays) {
    out.changed.push(path === '' ? '/' : path);
    return;
  }
  const left = before as Record<string, unknown>;
  const right = after as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of [...keys].sort()) {
    const child = `${path}/${pointerPart(key)}`;
    if (!Object.hasOwn(left, key)) out.added.push(child);
    else if (!Object.hasOwn(right, key)) out.removed.push(child);
    else walk(left[key], right[key], child, out);
  }
}

const cap = (paths: string[]): string[] =>
  paths.length <= CHANGE_MAX_PATHS
    ? paths
    : [...paths.slice(0, CHANGE_MAX_PATHS), `… ${paths.length - CHANGE_MAX_PATHS} more`];

function field(tool: unknown, name: string): unknown {
  return isJsonObject(tool) ? tool[name] : undefined;
}

function describeHint(value: unknown): string {
  return value === undefined ? 'absent' : canonicalJson(value);
}

/** The annotation keys whose values differ, each as `name: old -> new`. */
export function diffAnnotations(before: unknown, after: unknown): string[] {
  const left = isJsonObject(before) ? before : {};
  const right = isJsonObject(after) ? after : {};
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  return keys
    .filter(
      (key) =>
        Object.hasOwn(left, key) !== Object.hasOwn(right, key) ||
        canonicalJson(left[key]) !== canonicalJson(right[key]),
    )
    .map((key) => `${key}: ${describeHint(left[key])} -> ${describeHint(right[key])}`);
}

/** What changed between two definitions of one tool. */
export function describeToolChange(name: string, before: unknown, after: unknown): ToolChangeDetail {
  const oldDescription = field(before, 'description');
  const newDescription = field(after, 'description');
  const descriptionChanged = canonicalJson(oldDescription ?? null) !== canonicalJson(newDescription ?? null);
  const schema = diffJsonPaths(field(before, 'inputSchema') ?? null, field(after, 'inputSchema') ?? null);
  return {
    name,
    description: descriptionChanged
      ? {
          from: typeof oldDescription === 'string' ? shortenText(oldDescription) : null,
          to: typeof newDescription === 'string' ? shortenText(newDescription) : null,
        }
      : null,
    inputSchema:
      schema.added.length + schema.removed.length + schema.changed.length === 0
        ? null
        : { added: cap(schema.added), removed: cap(schema.removed), changed: cap(schema.changed) },
    annotations: diffAnnotations(field(before, 'annotations'), field(after, 'annotations')),
  };
}

/** One line per changed part of a tool, for the text report, SARIF and the change gate. */
export function changeDetailLines(detail: ToolChangeDetail): string[] {
  const lines: string[] = [];
  if (detail.description !== null)
    lines.push(`description: "${detail.description.from ?? '(none)'}" -> "${detail.description.to ?? '(none)'}"`);
  const schema = detail.inputSchema;
  if (schema !== null) {
    const parts = [
      schema.added.length > 0 ? `added ${schema.added.join(', ')}` : '',
      schema.removed.length > 0 ? `removed ${schema.removed.join(', ')}` : '',
      schema.changed.length > 0 ? `changed ${schema.changed.join(', ')}` : '',
    ].filter((part) => part !== '');
    lines.push(`input schema: ${parts.join('; ')}`);
  }
  if (detail.annotations.length > 0) lines.push(`annotations: ${detail.annotations.join(', ')}`);
  return lines;
}
