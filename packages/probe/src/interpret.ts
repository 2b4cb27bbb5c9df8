// Pure module: turns JSON-RPC results into what a check records, the same way for HTTP and stdio. The
// SDK's schemas decide what is standard; a result that misses them in a way we can still read is kept,
// with a warning, because the findings package reports exactly those gaps (a tool with no input schema).
import { InitializeResultSchema, ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { MAX_ECHOED_HEADER_LENGTH, MAX_TOOLS_KEPT } from './constants.js';
import { locateToolsArray, type Span } from './json-span.js';
import type { ServerInfo } from './schemas.js';

/** What an initialize result told us, or why it is not one. */
export type InitializeReading =
  | {
      ok: true;
      protocolVersion: string;
      serverInfo: ServerInfo | null;
      capabilities: unknown;
      toolsDeclared: boolean;
      warning: string | null;
    }
  | { ok: false; detail: string };

function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

/**
 * Reads an initialize result. It must at least name a protocol version (a string); `serverInfo` and
 * `capabilities` that miss the SDK's schema are tolerated and reported in `warning`.
 */
export function interpretInitializeResult(result: Record<string, unknown>): InitializeReading {
  const strict = InitializeResultSchema.safeParse(result);
  const protocolVersion = result.protocolVersion;
  if (typeof protocolVersion !== 'string' || protocolVersion === '') {
    return { ok: false, detail: 'the initialize result names no protocol version' };
  }
  const info = result.serverInfo;
  let serverInfo: ServerInfo | null = null;
  if (info !== null && typeof info === 'object' && typeof (info as { name?: unknown }).name === 'string') {
    const version = (info as { version?: unknown }).version;
    serverInfo = { name: (info as { name: string }).name, version: typeof version === 'string' ? version : '' };
  }
  const capabilities = result.capabilities ?? null;
  const toolsDeclared =
    capabilities !== null && typeof capabilities === 'object' && (capabilities as { tools?: unknown }).tools != null;
  return {
    ok: true,
    protocolVersion,
    serverInfo,
    capabilities,
    toolsDeclared,
    warning: strict.success
      ? null
      : `the initialize result does not match the MCP schema (${firstIssue(strict.error)})`,
  };
}

/** What one tools/list page told us, or why it is not one. */
export type ToolsPageReading =
  | { ok: true; tools: unknown[]; nextCursor: string | null; cursorInvalid: boolean; warning: string | null }
  | { ok: false; detail: string };

/**
 * Reads a tools/list result: `tools` must be an array; tools that miss the SDK's Tool schema (no input
 * schema, say) are kept and noted in `warning`. A `nextCursor` that is not a non-empty string ends paging.
 */
export function interpretToolsPage(result: Record<string, unknown>): ToolsPageReading {
  const tools = result.tools;
  if (!Array.isArray(tools)) return { ok: false, detail: 'the tools/list result has no tools array' };
  const strict = ListToolsResultSchema.safeParse(result);
  const cursor = result.nextCursor;
  const nextCursor = typeof cursor === 'string' && cursor !== '' ? cursor : null;
  return {
    ok: true,
    tools,
    nextCursor,
    cursorInvalid: cursor !== undefined && cursor !== null && nextCursor === null,
    warning: strict.success
      ? null
      : `the tools/list result does not match the MCP schema (${firstIssue(strict.error)})`,
  };
}

/** The protocol versions a server listed when it rejected ours (`error.data.supported`), or null. */
export function supportedVersionsFrom(errorData: unknown): string[] | null {
  if (errorData === null || typeof errorData !== 'object') return null;
  const supported = (errorData as { supported?: unknown }).supported;
  if (!Array.isArray(supported)) return null;
  const versions = supported.filter((v): v is string => typeof v === 'string').slice(0, 20);
  return versions.length > 0 ? versions : null;
}

/** True when a server-chosen string can be sent back as a header value. */
export function isEchoableHeader(value: string): boolean {
  return value.length > 0 && value.length <= MAX_ECHOED_HEADER_LENGTH && /^[\x21-\x7e]+$/.test(value);
}

/**
 * True for a tools/list element an agent could call: an object with a non-empty string `name`. An element
 * without one (`{}`, `1`, `null`) is counted as listed but names no tool.
 *
 * @example
 * isNamedTool({ name: 'search' }) // true
 * isNamedTool({ name: '' })       // false
 */
export function isNamedTool(tool: unknown): boolean {
  if (tool === null || typeof tool !== 'object' || Array.isArray(tool)) return false;
  const name = (tool as { name?: unknown }).name;
  return typeof name === 'string' && name !== '';
}

/** The note a result carries when some tools text had to be re-serialized (never expected: the text parsed). */
export const RESERIALIZED_WARNING = 'the raw text of a tools array could not be located; that page is re-serialized';

interface ListedPage {
  readonly text: string | null;
  readonly batchIndex: number | null;
  /** Every element of the page as parsed, kept or not: re-serialized only when its text cannot be located. */
  readonly listed: readonly unknown[];
  /** How many of `listed`, from the start, are kept under the tool limit. */
  readonly kept: number;
}

type LocatedArray = { array: Span; elements: Span[] };

/**
 * Gathers tools over the pages: keeps at most 500, counts all, and builds two texts from the raw text:
 * `toolsJson()`, the kept tools (what `capToolText` and the catalog cut from), and `listedJson()`, every
 * element of every page (what the token estimate and heavy-tool-list measure: the cap limits what is kept,
 * never what the server sent). One page taken whole hands over its array text unchanged; otherwise the
 * elements' raw texts are joined with `,` inside `[` `]` (each element exactly as received, only the glue
 * between them new). The texts are located only when asked for, after the last page, and each page's
 * elements once for both texts.
 */
export class ToolCollector {
  readonly tools: unknown[] = [];
  count = 0;
  /** Elements over all pages that name a tool (`isNamedTool`), kept or not. */
  named = 0;
  truncated = false;
  /** Set by `toolsJson()` or `listedJson()` when a page's raw text could not be located and was re-serialized. */
  reserialized = false;
  private readonly pages: ListedPage[] = [];
  private readonly located = new Map<ListedPage, LocatedArray | null>();
  private readonly limit: number;
  private keptText: string | null | undefined;

  constructor(limit: number = MAX_TOOLS_KEPT) {
    this.limit = limit;
  }

  /** Adds one page; `text` is the JSON text that held the result (null when there is none). */
  add(tools: readonly unknown[], text: string | null, batchIndex: number | null): void {
    this.count += tools.length;
    for (const tool of tools) if (isNamedTool(tool)) this.named++;
    const room = Math.max(0, this.limit - this.tools.length);
    const kept = tools.slice(0, room);
    if (kept.length < tools.length) this.truncated = true;
    this.tools.push(...kept);
    this.pages.push({ text, batchIndex, listed: tools, kept: kept.length });
    this.keptText = undefined;
  }

  get pageCount(): number {
    return this.pages.length;
  }

  private locate(page: ListedPage): LocatedArray | null {
    if (page.text === null) return null;
    const known = this.located.get(page);
    if (known !== undefined) return known;
    const found = locateToolsArray(page.text, page.batchIndex);
    const located = found !== null && found.elements.length === page.listed.length ? found : null;
    this.located.set(page, located);
    return located;
  }

  /** The kept tools' JSON text (at most the limit), or null when no page was read. */
  toolsJson(): string | null {
    if (this.keptText === undefined) this.keptText = this.joinPages(false);
    return this.keptText;
  }

  /**
   * The JSON text of every element of every page read, as listed: what `toolsJson()` would be without the
   * tool limit, and the same string when nothing was cut. Null when no page was read.
   */
  listedJson(): string | null {
    return this.truncated ? this.joinPages(true) : this.toolsJson();
  }

  private joinPages(whole: boolean): string | null {
    if (this.pages.length === 0) return null;
    const only = this.pages[0] as ListedPage;
    if (this.pages.length === 1 && (whole || !this.truncated) && only.text !== null) {
      // The array JSON.parse read as `tools` is the text to hand over; its elements need no cutting.
      const located = locateToolsArray(only.text, only.batchIndex, false);
      if (located !== null) return only.text.slice(located.array.start, located.array.end);
    }
    const pieces: string[] = [];
    for (const page of this.pages) {
      const count = whole ? page.listed.length : page.kept;
      const located = this.locate(page);
      if (located !== null && page.text !== null) {
        for (const span of located.elements.slice(0, count)) pieces.push(page.text.slice(span.start, span.end));
      } else {
        if (page.text !== null) this.reserialized = true;
        for (const tool of page.listed.slice(0, count)) pieces.push(JSON.stringify(tool));
      }
    }
    return `[${pieces.join(',')}]`;
  }
}

/** What to do after a tools/list page: ask for the next cursor, or stop (with a note, when there is one). */
export type PagingDecision = { next: string } | { stop: string | null };

/**
 * Decides whether to read another tools/list page: only with a fresh, valid cursor and while under the
 * page limit. A repeated cursor stops paging early (a server looping on one cursor), as does the limit.
 * `seen` collects the cursors already followed.
 */
export function decideNextPage(
  reading: { nextCursor: string | null; cursorInvalid: boolean },
  page: number,
  maxPages: number,
  seen: Set<string>,
): PagingDecision {
  if (reading.cursorInvalid)
    return { stop: `tools/list page ${page} has a nextCursor that is not a non-empty string; paging stopped` };
  if (reading.nextCursor === null) return { stop: null };
  if (seen.has(reading.nextCursor))
    return { stop: `tools/list page ${page} repeats an earlier cursor; paging stopped` };
  if (page >= maxPages)
    return { stop: `the server has more than ${maxPages} tools/list pages; the rest were not read` };
  seen.add(reading.nextCursor);
  return { next: reading.nextCursor };
}
