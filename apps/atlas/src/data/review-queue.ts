// The review queue: what a person must look at before anything is decided, kept under state/review/ (rolling
// state, outside the signed days, never served). Three kinds of item: a review-only pattern match in a tool
// description, failures reported by agents or sensors that nothing confirmed, and a shown incident. A person
// closes an item with a note; closing an incident also records a closure the incident rule honours.
//
// One file per item, so the schedule adding items and a person closing one from the CLI (two processes) never
// rewrite each other's work; every write goes through the storage's atomic put.
import { createHash } from 'node:crypto';
import { findReviewOnlyPatternsInTools, REVIEW_ONLY_CHECK_IDS } from '@mcp-atlas/findings';
import { decideIncidentReview } from '@mcp-atlas/operations';
import { REVIEW_QUEUE_RULES } from '@mcp-atlas/operations/rules';
import { checkClosureNote, type IncidentDecision } from '@mcp-atlas/reliability';
import { z } from 'zod';
import { getJson, getJsonOrNull, putJson, type Storage } from '../storage/storage.js';
import { INCIDENT_CLOSURES_PATH, REVIEW_ITEMS_PREFIX, reviewItemPath, SERVER_ID_PATTERN } from './paths.js';
import { type Catalog, DAY } from './schemas.js';

/** The kinds of item a person reviews. */
export const REVIEW_ITEM_KINDS = ['pattern-match', 'unconfirmed-failure', 'incident', 'injection-match'] as const;
export type ReviewItemKind = (typeof REVIEW_ITEM_KINDS)[number];

const ID_PREFIX: Readonly<Record<ReviewItemKind, string>> = {
  'pattern-match': 'pattern',
  'unconfirmed-failure': 'unconfirmed',
  incident: 'incident',
  'injection-match': 'injection',
};

/** A review item's id: its kind, the server, and 12 hex digits of a hash of what makes it that item. */
export const REVIEW_ITEM_ID_PATTERN = /^(pattern|unconfirmed|incident|injection)-[a-z0-9][a-z0-9-]{0,80}-[0-9a-f]{12}$/;

const ServerIdSchema = z.string().regex(SERVER_ID_PATTERN);
const InstantSchema = z.iso.datetime({ offset: true });

/** What a person wrote when closing an item, and when. */
export const ReviewClosureSchema = z.object({
  at: InstantSchema,
  note: z.string().min(1),
  /**
   * Only on an `injection-match` item: the person confirmed the match as an injection attempt (the quality
   * score's PROMPT_INJECTION flag then applies while the server still serves that text). Absent: dismissed.
   */
  confirmed: z.boolean().optional(),
});
export type ReviewClosure = z.infer<typeof ReviewClosureSchema>;

const itemFields = {
  id: z.string().regex(REVIEW_ITEM_ID_PATTERN),
  server: ServerIdSchema,
  /** When the item joined the queue. */
  queuedAt: InstantSchema,
  /** Null while open. */
  closed: ReviewClosureSchema.nullable(),
};

/** A review-only pattern check fired on a tool's description (never published). */
export const PatternMatchItemSchema = z.object({
  ...itemFields,
  kind: z.literal('pattern-match'),
  /** The day of the catalog the description was read from. */
  day: DAY,
  tool: z.string(),
  check: z.enum(REVIEW_ONLY_CHECK_IDS),
  matched: z.array(z.string()),
  excerpt: z.string(),
});

/**
 * A match of the quality score's description-injection scan (@mcp-atlas/score) in a tool's description. Never
 * published and never a flag by itself: only a person's confirmation on closing raises PROMPT_INJECTION.
 */
export const InjectionMatchItemSchema = z.object({
  ...itemFields,
  kind: z.literal('injection-match'),
  /** The day of the catalog the description was read from. */
  day: DAY,
  tool: z.string(),
  /** The scan pattern's id (INJECTION_PATTERNS of @mcp-atlas/score). */
  pattern: z.string().max(100),
  /** The matched text with the scan's context on each side. */
  snippet: z.string().max(1000),
});

/** Failures that count but that neither our own check nor a paying reporter confirmed. */
export const UnconfirmedFailureItemSchema = z.object({
  ...itemFields,
  kind: z.literal('unconfirmed-failure'),
  /** When the failures were seen. */
  at: InstantSchema,
  /** Distinct failing agents plus failing sensors. */
  reporters: z.number().int().min(1),
});

/** An incident the rule shows, waiting for a person to look at it and close it. */
export const IncidentItemSchema = z.object({
  ...itemFields,
  kind: z.literal('incident'),
  /** The earliest failure that counts for it. */
  openedAt: InstantSchema,
});

/** One item of the review queue. */
export const ReviewItemSchema = z.discriminatedUnion('kind', [
  PatternMatchItemSchema,
  UnconfirmedFailureItemSchema,
  IncidentItemSchema,
  InjectionMatchItemSchema,
]);
export type ReviewItem = z.infer<typeof ReviewItemSchema>;

/** An item about to join the queue: everything but the queue's own fields. */
export type NewReviewItem = WithoutQueueFields<ReviewItem>;
// Distributes over the union, so each kind keeps its own fields.
type WithoutQueueFields<T> = T extends unknown ? Omit<T, 'queuedAt' | 'closed'> : never;

/** The incident closures file. */
export const IncidentClosuresFileSchema = z.object({
  closures: z.array(z.object({ server: ServerIdSchema, at: InstantSchema, note: z.string().min(1) })),
});
export type IncidentClosuresFile = z.infer<typeof IncidentClosuresFileSchema>;

function itemId(kind: ReviewItemKind, server: string, parts: readonly string[]): string {
  // NUL cannot occur in any part, so two different part lists never hash the same text.
  const digest = createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 12);
  return `${ID_PREFIX[kind]}-${server}-${digest}`;
}

/** Longest tool name kept in an item: names come from servers, and a person only needs to recognize the tool. */
export const REVIEW_TOOL_NAME_MAX_CHARS = 200;

function clipToolName(name: string): string {
  return name.length > REVIEW_TOOL_NAME_MAX_CHARS ? `${name.slice(0, REVIEW_TOOL_NAME_MAX_CHARS)}…` : name;
}

/**
 * The review items of one day's catalog: one per review-only pattern check that fired on a tool's
 * description. The id hashes the tool, the check and the excerpt, so the same text on later days is the same
 * item (queued once, and not again once a person closed it), while new wording is a new item.
 * Where to call it: after each daily check, on every catalog the day wrote (see {@link queueCatalogReviews}).
 */
export function reviewItemsOfCatalog(catalog: Catalog): NewReviewItem[] {
  return findReviewOnlyPatternsInTools(catalog.tools).map((match) => ({
    id: itemId('pattern-match', catalog.id, [match.tool, match.check, match.excerpt]),
    kind: 'pattern-match' as const,
    server: catalog.id,
    day: catalog.day,
    tool: clipToolName(match.tool),
    check: match.check,
    matched: match.matched,
    excerpt: match.excerpt,
  }));
}

/** A match of the description-injection scan in one tool's description, as @mcp-atlas/score reports it. */
export interface InjectionScanMatch {
  tool: string;
  patternId: string;
  snippet: string;
}

/** Longest snippet kept in an item (the scan's snippets are short; a hostile tool name or text stays bounded). */
const INJECTION_SNIPPET_MAX_CHARS = 1000;

/**
 * The id of a server's injection-match item: the same tool, pattern and snippet on later days is the same
 * item (queued once; a person's confirmation keeps applying while the server serves that text), new text a new one.
 */
export function injectionItemId(serverId: string, match: InjectionScanMatch): string {
  return itemId('injection-match', serverId, [match.tool, match.patternId, match.snippet]);
}

/**
 * The review items of one server's injection-scan matches in the catalog of `day`. Where to call it: after the
 * daily check, with the matches of every catalog the day wrote (the day's scoring does), then {@link addReviewItems}.
 */
export function reviewItemsOfInjectionMatches(
  serverId: string,
  day: string,
  matches: readonly InjectionScanMatch[],
): NewReviewItem[] {
  return matches.map((match) => ({
    id: injectionItemId(serverId, match),
    kind: 'injection-match' as const,
    server: serverId,
    day,
    tool: clipToolName(match.tool),
    pattern: match.patternId.slice(0, 100),
    snippet: match.snippet.slice(0, INJECTION_SNIPPET_MAX_CHARS),
  }));
}

/**
 * The ids of injection-match items a person closed as confirmed. An item file that does not parse counts as
 * not confirmed: a flag with a score cap needs a readable confirmation.
 */
export async function readConfirmedInjectionIds(storage: Storage): Promise<Set<string>> {
  const confirmed = new Set<string>();
  for (const item of await listReviewItems(storage, 'closed'))
    if (item.kind === 'injection-match' && item.closed?.confirmed === true) confirmed.add(item.id);
  return confirmed;
}

/**
 * The review items of one server's incident decision at `now`: an `incident` item when the incident is shown
 * (its id hashes the earliest counted failure, so a new incident after a closure is a new item), or an
 * `unconfirmed-failure` item when failures count but nothing confirmed them (its id hashes the last call seen
 * working, so one run of failures is one item). Nothing otherwise. Which decision calls for which item is the
 * review queue's rule, `decideIncidentReview` of @mcp-atlas/operations; this makes the item. Where to call it:
 * wherever the read model's incident decisions are fresh (the schedule's hourly task, after buildView), then
 * {@link addReviewItems}.
 */
export function reviewItemsOfIncident(serverId: string, decision: IncidentDecision, now: Date): NewReviewItem[] {
  const review = decideIncidentReview(decision);
  if (review === null) return [];
  if (review.kind === 'incident')
    return [
      {
        id: itemId('incident', serverId, [review.openedAt]),
        kind: 'incident',
        server: serverId,
        openedAt: review.openedAt,
      },
    ];
  return [
    {
      id: itemId('unconfirmed-failure', serverId, [review.lastWorkedAt ?? 'never seen working']),
      kind: 'unconfirmed-failure',
      server: serverId,
      at: now.toISOString(),
      reporters: review.reporters,
    },
  ];
}

/** Which items to list. */
export type ReviewStatus = 'open' | 'closed' | 'all';

/**
 * The items of the queue, oldest first (then by id). A file that is not a valid item (edited by hand, say)
 * is left out rather than stopping the list.
 */
export async function listReviewItems(storage: Storage, status: ReviewStatus = 'open'): Promise<ReviewItem[]> {
  const items: ReviewItem[] = [];
  for (const path of await storage.list(REVIEW_ITEMS_PREFIX)) {
    if (!path.endsWith('.json')) continue;
    const parsed = ReviewItemSchema.safeParse(await getJsonOrNull(storage, path));
    if (!parsed.success) continue;
    const open = parsed.data.closed === null;
    if (status === 'all' || (status === 'open') === open) items.push(parsed.data);
  }
  return items.sort((a, b) => a.queuedAt.localeCompare(b.queuedAt) || a.id.localeCompare(b.id));
}

// Failures and incidents are episodes that go on for hours: while a person has one open for a server, later
// readings of the same episode (an earliest failure that slid out of the window) add nothing new to review.
const ONE_OPEN_PER_SERVER: ReadonlySet<ReviewItemKind> = new Set(REVIEW_QUEUE_RULES.oneOpenPerServerKinds);

/**
 * Adds items to the queue and returns those added. An item whose id is already there (open or closed) is
 * not added again, and neither is an `unconfirmed-failure` or `incident` item for a server that already has
 * an open item of that kind. Each new item is one atomic write.
 */
export async function addReviewItems(
  storage: Storage,
  items: readonly NewReviewItem[],
  now: Date,
): Promise<ReviewItem[]> {
  if (items.length === 0) return [];
  const open = await listReviewItems(storage, 'open');
  const openEpisodes = new Set(
    open.filter((item) => ONE_OPEN_PER_SERVER.has(item.kind)).map((item) => `${item.kind} ${item.server}`),
  );
  const added: ReviewItem[] = [];
  const seen = new Set<string>();
  for (const candidate of items) {
    const item = ReviewItemSchema.parse({ ...candidate, queuedAt: now.toISOString(), closed: null });
    const episode = `${item.kind} ${item.server}`;
    if (seen.has(item.id) || (ONE_OPEN_PER_SERVER.has(item.kind) && openEpisodes.has(episode))) continue;
    seen.add(item.id);
    if ((await storage.get(reviewItemPath(item.id))) !== null) continue;
    await putJson(storage, reviewItemPath(item.id), item);
    if (ONE_OPEN_PER_SERVER.has(item.kind)) openEpisodes.add(episode);
    added.push(item);
  }
  return added;
}

/**
 * The review items of every catalog a day's check wrote, added to the queue. Call it once the daily check
 * of `day` is done (the schedule's runDaily, after foldDay); returns the items added.
 */
export async function queueCatalogReviews(storage: Storage, day: string, now: Date): Promise<ReviewItem[]> {
  const items: NewReviewItem[] = [];
  for (const path of await storage.list(`days/${day}/catalogs/`)) {
    const parsed = z
      .object({ id: z.string(), day: DAY, tools: z.array(z.unknown()) })
      .safeParse(await getJsonOrNull(storage, path));
    if (parsed.success) items.push(...reviewItemsOfCatalog(parsed.data as Catalog));
  }
  return addReviewItems(storage, items, now);
}

/** Why an item could not be closed. */
export type CloseRefusal = 'not-found' | 'already-closed';

/** The result of closing an item: the closed item, or why not (with the item when it exists). */
export type CloseResult = { ok: true; item: ReviewItem } | { ok: false; reason: CloseRefusal; item: ReviewItem | null };

/**
 * Closes one open item with a person's note (trimmed; not blank, at most 1,000 characters, else the
 * reliability package's input error is thrown). Closing an `incident` item also records an incident closure
 * for its server at `now`, as `mcp-atlas incidents close` does. On an `injection-match` item, `confirm: true`
 * records that the person confirmed the injection attempt; without it the match is dismissed.
 */
export async function closeReviewItem(
  storage: Storage,
  id: string,
  note: string,
  now: Date,
  options: { confirm?: boolean } = {},
): Promise<CloseResult> {
  const text = checkClosureNote(note);
  if (!REVIEW_ITEM_ID_PATTERN.test(id)) return { ok: false, reason: 'not-found', item: null };
  const parsed = ReviewItemSchema.safeParse(await getJsonOrNull(storage, reviewItemPath(id)));
  if (!parsed.success) return { ok: false, reason: 'not-found', item: null };
  if (parsed.data.closed !== null) return { ok: false, reason: 'already-closed', item: parsed.data };
  // Only an injection match can be confirmed; on any other kind the closure is the note alone.
  const confirmed = parsed.data.kind === 'injection-match' ? { confirmed: options.confirm === true } : {};
  const closed: ReviewItem = { ...parsed.data, closed: { at: now.toISOString(), note: text, ...confirmed } };
  await putJson(storage, reviewItemPath(id), closed);
  if (closed.kind === 'incident')
    await appendIncidentClosure(storage, { server: closed.server, at: now.toISOString(), note: text });
  return { ok: true, item: closed };
}

/**
 * The incident closures recorded so far, oldest first: pass them to `decideClosedIncident` of
 * @mcp-atlas/reliability (they fit its `IncidentClosure`).
 * A missing file is no closure; a file that cannot be read as closures is an error, since ignoring it would
 * quietly reopen incidents a person closed.
 */
export async function readIncidentClosures(storage: Storage): Promise<IncidentClosuresFile['closures']> {
  const data = await getJson(storage, INCIDENT_CLOSURES_PATH);
  return data === null ? [] : IncidentClosuresFileSchema.parse(data).closures;
}

async function appendIncidentClosure(
  storage: Storage,
  closure: { server: string; at: string; note: string },
): Promise<void> {
  const closures = [...(await readIncidentClosures(storage)), closure];
  await putJson(storage, INCIDENT_CLOSURES_PATH, { closures });
}

/**
 * A person closes `server`'s incident after review: records the closure (server, `now`, note) and closes the
 * server's open `incident` items with the same note. Returns the closure and the items closed. The note is
 * checked as in {@link closeReviewItem}.
 */
export async function closeIncident(
  storage: Storage,
  server: string,
  note: string,
  now: Date,
): Promise<{ closure: IncidentClosuresFile['closures'][number]; closedItems: ReviewItem[] }> {
  const text = checkClosureNote(note);
  const closure = { server: ServerIdSchema.parse(server), at: now.toISOString(), note: text };
  await appendIncidentClosure(storage, closure);
  const closedItems: ReviewItem[] = [];
  for (const item of await listReviewItems(storage, 'open')) {
    if (item.kind !== 'incident' || item.server !== server) continue;
    const closed: ReviewItem = { ...item, closed: { at: closure.at, note: text } };
    await putJson(storage, reviewItemPath(item.id), closed);
    closedItems.push(closed);
  }
  return { closure, closedItems };
}
