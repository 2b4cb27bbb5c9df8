// What the read model takes from a server's own words. Everything a server says about itself (its registry
// title, its name and version, its tool names, titles and descriptions, and the messages and tool names our
// checks repeat) goes to agents (find_tool, route, the API) and to pages; here it passes through the one
// control-character filter (@mcp-atlas/base) on its way into the read model, so no terminal escape, NUL, bell,
// backspace or bidi override reaches a reader. Stored files keep the server's bytes as they came: the signed
// days are the record of what was seen.
//
// A description that the description-injection scan (@mcp-atlas/score) matches is held back from every
// answer and page until a person closes its review item as harmless: such text may be written to steer the
// agent that reads it, and the scan alone cannot tell (most matches are harmless, which is why a person
// decides). The description still counts for search ranking, so a harmless match costs the tool only its text.
import { stripControlCharacters } from '@mcp-atlas/base';
import { scanToolDescriptions } from '@mcp-atlas/score';
import { reviewItemPath } from '../data/paths.js';
import { injectionItemId, ReviewItemSchema } from '../data/review-queue.js';
import type { Catalog, Change, ServerDayResult } from '../data/schemas.js';
import { getJsonOrNull, type Storage } from '../storage/storage.js';

/** Why a description is held back: the description-injection scan matched it and no person has cleared it. */
export const WITHHELD_DESCRIPTION_REASON = 'possible-prompt-injection';

// Only these fields of a tool are ever shown or searched; the rest (schemas, annotations) is read by rules.
const SHOWN_TOOL_FIELDS = ['name', 'title', 'description'] as const;

function cleanTool(tool: unknown): unknown {
  if (tool === null || typeof tool !== 'object' || Array.isArray(tool)) return tool;
  const entry = tool as Record<string, unknown>;
  let cleaned: Record<string, unknown> | null = null;
  for (const field of SHOWN_TOOL_FIELDS) {
    const value = entry[field];
    if (typeof value !== 'string') continue;
    const text = stripControlCharacters(value);
    // An ordinary tool is kept as the very same object: nothing to copy.
    if (text === value) continue;
    cleaned ??= { ...entry };
    cleaned[field] = text;
  }
  return cleaned ?? tool;
}

/**
 * A catalog as the read model holds it: tool names, titles and descriptions, and the verdicts' names and
 * reasons, without control characters. Hashes and every other field stay as stored.
 */
export function cleanCatalog(catalog: Catalog): Catalog {
  return {
    ...catalog,
    serverVersion: cleanNullable(catalog.serverVersion),
    tools: catalog.tools.map(cleanTool),
    verdicts: catalog.verdicts.map((verdict) => ({
      ...verdict,
      name: stripControlCharacters(verdict.name),
      reason: stripControlCharacters(verdict.reason),
    })),
  };
}

function cleanNullable(text: string | null): string | null {
  return text === null ? null : stripControlCharacters(text);
}

/**
 * A daily check's result as the read model holds it: the server's name and version, the check's message
 * (which may quote the server) and the findings' messages and tool names, without control characters.
 */
export function cleanDayResult(result: ServerDayResult): ServerDayResult {
  return {
    ...result,
    message: stripControlCharacters(result.message),
    serverName: cleanNullable(result.serverName),
    serverVersion: cleanNullable(result.serverVersion),
    findings: result.findings.map((finding) => ({
      ...finding,
      message: stripControlCharacters(finding.message),
      ...(finding.tools !== undefined ? { tools: finding.tools.map(stripControlCharacters) } : {}),
    })),
  };
}

/** A recorded change as pages and answers show it: its detail and the tool names of its diff, cleaned. */
export function cleanChange<T extends Pick<Change, 'detail' | 'diff'>>(change: T): T {
  const { diff } = change;
  return {
    ...change,
    detail: stripControlCharacters(change.detail),
    ...(diff !== undefined
      ? {
          diff: {
            ...diff,
            added: diff.added.map(stripControlCharacters),
            removed: diff.removed.map(stripControlCharacters),
            changed: diff.changed.map(stripControlCharacters),
            rewritten: diff.rewritten.map(stripControlCharacters),
            riskRises: diff.riskRises.map((rise) => ({ ...rise, name: stripControlCharacters(rise.name) })),
            renamed: diff.renamed.map((pair) => ({
              from: stripControlCharacters(pair.from),
              to: stripControlCharacters(pair.to),
            })),
          },
        }
      : {}),
  };
}

/** A title (a registry's or a submitter's) as pages and answers show it, or null. */
export function cleanTitle(title: string | null): string | null {
  return cleanNullable(title);
}

/**
 * The tools of a server (as stored, before cleaning) whose description is held back: the description-injection
 * scan matched it, and the match's review item is open, confirmed as an injection attempt, or not queued yet.
 * Only a person closing every match of that text as harmless releases it; a confirmed attempt is never served.
 * The names come back cleaned, as answers name the tools.
 */
export async function readWithheldDescriptions(
  storage: Storage,
  serverId: string,
  tools: readonly unknown[],
): Promise<ReadonlySet<string>> {
  const held = new Set<string>();
  for (const match of scanToolDescriptions(tools).matches) {
    const name = stripControlCharacters(match.tool);
    if (held.has(name)) continue;
    const item = ReviewItemSchema.safeParse(
      await getJsonOrNull(storage, reviewItemPath(injectionItemId(serverId, match))),
    );
    const dismissed =
      item.success && item.data.kind === 'injection-match' && item.data.closed !== null && !item.data.closed.confirmed;
    if (!dismissed) held.add(name);
  }
  return held;
}
