// `--list-all`: the resources, resource templates and prompts a server offers, each with its own hash, so a lock
// file can pin them and a later check can say which were added, removed or changed, as it does for tools. The
// probe reads only tools, so this opens its own session; a list the server did not declare is not asked for.
import { canonicalJson, isJsonObject, sha256Hex } from '@mcp-atlas/findings';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { LIST_ALL_MAX_ENTRIES, LIST_ALL_MAX_PAGES } from './constants.js';
import type { BaselineEntry, EntryListDiff, ListAllReport, ListedKind, ListedTemplates } from './report-schema.js';
import { openSession, type SessionTarget } from './session.js';

/** What a `--list-all` read returns: the report part, and the definitions the lock file keeps. */
export interface ListAllOutcome {
  report: ListAllReport;
  resources: BaselineEntry[];
  /** Resource templates, keyed by their URI template. */
  resourceTemplates: BaselineEntry[];
  prompts: BaselineEntry[];
}

/** The hash of one resource or prompt: SHA-256 of its canonical JSON, as the findings package hashes tools. */
export function hashEntry(definition: unknown): string {
  return sha256Hex(canonicalJson(definition));
}

/** The field that names an entry of each list, and the list's name for an entry that lacks it. */
type KeyField = 'uri' | 'uriTemplate' | 'name';
const LIST_NAME_OF: Record<KeyField, string> = { uri: 'resources', uriTemplate: 'resourceTemplates', name: 'prompts' };

function keyOf(definition: unknown, field: KeyField, index: number): string {
  const value = isJsonObject(definition) ? definition[field] : undefined;
  return typeof value === 'string' ? value : `${LIST_NAME_OF[field]}[${index}]`;
}

function nameOf(definition: unknown, fallback: string): string {
  const value = isJsonObject(definition) ? definition.name : undefined;
  return typeof value === 'string' ? value : fallback;
}

type Page = { items: unknown[]; nextCursor?: string | undefined };

async function readPages(read: (cursor: string | undefined) => Promise<Page>): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < LIST_ALL_MAX_PAGES; page++) {
    const answer = await read(cursor);
    items.push(...answer.items);
    cursor = answer.nextCursor;
    if (cursor === undefined || items.length >= LIST_ALL_MAX_ENTRIES) break;
  }
  return items.slice(0, LIST_ALL_MAX_ENTRIES);
}

async function readKind(
  declared: boolean,
  field: KeyField,
  read: (cursor: string | undefined) => Promise<Page>,
): Promise<{ kind: ListedKind; entries: BaselineEntry[] }> {
  if (!declared) return { kind: { declared, entries: [], error: null }, entries: [] };
  try {
    const items = await readPages(read);
    const entries = items.map((definition, index) => ({
      key: keyOf(definition, field, index),
      hash: hashEntry(definition),
      definition,
    }));
    return {
      kind: {
        declared,
        entries: entries.map((entry) => ({
          key: entry.key,
          name: nameOf(entry.definition, entry.key),
          hash: entry.hash,
        })),
        error: null,
      },
      entries,
    };
  } catch (error) {
    return { kind: { declared, entries: [], error: (error as Error).message }, entries: [] };
  }
}

const empty = (): ListedKind => ({ declared: false, entries: [], error: null });
const emptyTemplates = (): ListedTemplates => ({ ...empty(), note: null });

/**
 * Reads resources/templates/list. Templates have no capability of their own: a server that declares resources
 * may still not implement this list, and the protocol's answer to that is "method not found". That is a note
 * on the report (the server offers no templates), not a failed read; any other error stays an error.
 */
async function readTemplates(
  declared: boolean,
  read: (cursor: string | undefined) => Promise<Page>,
): Promise<{ kind: ListedTemplates; entries: BaselineEntry[] }> {
  let unsupported: string | null = null;
  const outcome = await readKind(declared, 'uriTemplate', async (cursor) => {
    try {
      return await read(cursor);
    } catch (error) {
      // Only the first page can say the list does not exist; a later "method not found" is a broken list.
      const missing = cursor === undefined && error instanceof McpError && error.code === ErrorCode.MethodNotFound;
      if (!missing) throw error;
      unsupported = `the server does not implement resources/templates/list (${error.message})`;
      return { items: [] };
    }
  });
  return { kind: { ...outcome.kind, note: unsupported }, entries: outcome.entries };
}

const skippedOutcome = (skipped: string): ListAllOutcome => ({
  report: { resources: empty(), resourceTemplates: emptyTemplates(), prompts: empty(), skipped },
  resources: [],
  resourceTemplates: [],
  prompts: [],
});

/**
 * Reads resources, resource templates and prompts; a server that did not answer the handshake, or a failed
 * session, is `skipped`.
 */
export async function listAll(
  target: SessionTarget,
  letter: string,
  version: string,
  timeoutMs: number,
): Promise<ListAllOutcome> {
  if (letter !== 'o') return skippedOutcome(`the handshake did not pass (letter ${letter})`);
  let client: Client;
  try {
    client = await openSession(target, version, timeoutMs);
  } catch (error) {
    return skippedOutcome(`could not open a session: ${(error as Error).message}`);
  }
  try {
    const capabilities = client.getServerCapabilities() ?? {};
    const options = { timeout: timeoutMs };
    const resources = await readKind(capabilities.resources !== undefined, 'uri', async (cursor) => {
      const answer = await client.listResources(cursor === undefined ? {} : { cursor }, options);
      return { items: answer.resources, nextCursor: answer.nextCursor };
    });
    const resourceTemplates = await readTemplates(capabilities.resources !== undefined, async (cursor) => {
      const answer = await client.listResourceTemplates(cursor === undefined ? {} : { cursor }, options);
      return { items: answer.resourceTemplates, nextCursor: answer.nextCursor };
    });
    const prompts = await readKind(capabilities.prompts !== undefined, 'name', async (cursor) => {
      const answer = await client.listPrompts(cursor === undefined ? {} : { cursor }, options);
      return { items: answer.prompts, nextCursor: answer.nextCursor };
    });
    return {
      report: {
        resources: resources.kind,
        resourceTemplates: resourceTemplates.kind,
        prompts: prompts.kind,
        skipped: null,
      },
      resources: resources.entries,
      resourceTemplates: resourceTemplates.entries,
      prompts: prompts.entries,
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** Compares resources or prompts with the baseline's by key: added, removed and changed (another hash). */
export function diffEntries(before: readonly BaselineEntry[], after: readonly BaselineEntry[]): EntryListDiff {
  const old = new Map(before.map((entry) => [entry.key, entry.hash]));
  const now = new Map(after.map((entry) => [entry.key, entry.hash]));
  return {
    added: [...now.keys()].filter((key) => !old.has(key)),
    removed: [...old.keys()].filter((key) => !now.has(key)),
    changed: [...now.entries()].filter(([key, hash]) => old.has(key) && old.get(key) !== hash).map(([key]) => key),
  };
}
