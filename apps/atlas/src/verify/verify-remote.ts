// `mcp-atlas verify --url BASE`: fetch the public key and the daily roots from a running service and check
// the chain with the history package, as any outsider could. The service is the thing being checked, so
// nothing it sends is trusted: every request has a time limit, every body a byte cap, the whole run an
// overall limit, each root must be for the day asked, and a key pinned with --key replaces the served one.
// The history must be whole: its first root chains to nothing, its last is the latest day the well-known
// document names, and it covers the days the caller asks for, so days cut off either end are caught.
import { isDay, shiftDay } from '@mcp-atlas/base';
import {
  type ChainEnds,
  checkChainEnds,
  type DayRoot,
  dayFromTime,
  HistoryError,
  parseDayRoot,
  publicKeyFromPem,
  verifyChain,
} from '@mcp-atlas/history';
import { SEAL_RULES } from '@mcp-atlas/history/rules';
import { z } from 'zod';
import { describeEndsFailure } from './history-ends.js';

const WellKnownSchema = z.object({
  integrity: z.object({ public_key_pem: z.string(), latest_day: z.string().nullable().optional() }),
});

/** How far back to look for the newest root when the newest days have none. */
export const VERIFY_LOOKBACK_DAYS = 400;

/**
 * Most days walked back in all: ten years of history. The walk ends on its own at the first gap longer than
 * the chain window; this bound only stops a service that serves roots without end.
 */
export const VERIFY_MAX_HISTORY_DAYS = 3660;

/** Longest wait for one request, from sending it to the last byte of its body (a slow drip is cut here). */
export const VERIFY_REQUEST_TIMEOUT_MS = 10_000;

/** Longest a whole remote verification may take, every request included (up to 400 days of roots). */
export const VERIFY_TOTAL_TIMEOUT_MS = 300_000;

/** Most bytes read from the well-known document; it holds one PEM key and a few fields. */
export const VERIFY_MAX_WELL_KNOWN_BYTES = 64 * 1024;

/**
 * Most bytes read from one day's root record. A line is about 90 bytes, so this leaves room for some
 * 90,000 files in a day, far above what a day of the largest registry writes.
 */
export const VERIFY_MAX_ROOT_BYTES = 8 * 1024 * 1024;

/** The limits of one remote verification; tests shrink them, the CLI uses the defaults. */
export interface RemoteLimits {
  requestTimeoutMs: number;
  totalTimeoutMs: number;
  maxWellKnownBytes: number;
  maxRootBytes: number;
}

/** The limits the CLI uses. */
export const DEFAULT_REMOTE_LIMITS: Readonly<RemoteLimits> = Object.freeze({
  requestTimeoutMs: VERIFY_REQUEST_TIMEOUT_MS,
  totalTimeoutMs: VERIFY_TOTAL_TIMEOUT_MS,
  maxWellKnownBytes: VERIFY_MAX_WELL_KNOWN_BYTES,
  maxRootBytes: VERIFY_MAX_ROOT_BYTES,
});

/** Options of `verifyRemote`. */
export interface VerifyRemoteOptions {
  /** The moment "today" is taken from; the default is the clock. */
  now?: Date;
  /** A 32-byte Ed25519 public key to trust instead of the one the service serves (from `--key FILE`). */
  pinnedKey?: Uint8Array;
  /**
   * The days the history must cover (`since`, `through`) and whether no sealed day at all passes
   * (`allowEmpty`); the latest day always comes from the service's well-known document.
   */
  ends?: Omit<ChainEnds, 'latest'>;
  limits?: Partial<RemoteLimits>;
}

/**
 * The verdict of a remote verification: every root checked, with the first and last day (null when the service
 * has sealed none and that is allowed), or the first broken day (`-` for the service itself).
 */
export type RemoteVerdict =
  | { ok: true; days: number; firstDay: string | null; lastDay: string | null }
  | { ok: false; day: string; reason: string };

/** A request that could not be completed within its limits: the reason becomes the verdict, never a crash. */
export class RemoteFetchError extends Error {
  constructor(
    message: string,
    /** The day the failure belongs to, or `-` when it is the service's. */
    readonly day = '-',
  ) {
    super(message);
  }
}

interface RequestContext {
  limits: RemoteLimits;
  overall: AbortSignal;
}

// Reads the body chunk by chunk and stops at the cap, so a huge or endless body costs at most `cap` bytes.
async function readCapped(response: Response, cap: number, what: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > cap) {
    await response.body?.cancel().catch(() => undefined);
    throw new RemoteFetchError(`${what} is over ${cap} bytes (content-length ${declared})`);
  }
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => undefined);
      throw new RemoteFetchError(`${what} is over ${cap} bytes; stopped reading`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function describeFailure(error: unknown, what: string, context: RequestContext): string {
  if (error instanceof RemoteFetchError) return error.message;
  if (context.overall.aborted)
    return `${what}: the whole verification passed its limit of ${context.limits.totalTimeoutMs} ms`;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return `${what} took longer than ${context.limits.requestTimeoutMs} ms`;
  const cause = (error as { cause?: { message?: unknown } } | null)?.cause?.message;
  return `${what} failed: ${typeof cause === 'string' ? cause : (error as Error).message}`;
}

/** GETs a JSON document under both time limits and a byte cap; any failure is a RemoteFetchError with a reason. */
async function fetchJson(
  url: string,
  cap: number,
  context: RequestContext,
): Promise<{ status: number; body: unknown }> {
  const what = `GET ${new URL(url).pathname}${new URL(url).search}`;
  const signal = AbortSignal.any([AbortSignal.timeout(context.limits.requestTimeoutMs), context.overall]);
  try {
    const response = await fetch(url, { headers: { accept: 'application/json' }, signal, redirect: 'error' });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      return { status: response.status, body: null };
    }
    const bytes = await readCapped(response, cap, what);
    try {
      return { status: 200, body: JSON.parse(new TextDecoder().decode(bytes)) as unknown };
    } catch {
      throw new RemoteFetchError(`${what} did not answer JSON`);
    }
  } catch (error) {
    throw new RemoteFetchError(describeFailure(error, what, context));
  }
}

function readRecord(body: unknown, day: string): DayRoot {
  let record: DayRoot;
  try {
    record = parseDayRoot(body);
  } catch (error) {
    if (error instanceof HistoryError)
      throw new RemoteFetchError(`the root served for ${day} is ${error.message}`, day);
    throw error;
  }
  // The signature does not cover the label, so a root served under another day's address is refused here.
  if (record.day !== day)
    throw new RemoteFetchError(`the root served for ${day} says it is the root of ${record.day}`, day);
  return record;
}

/**
 * Reads every root reachable from `start` going back: a day's previous root is never more than the chain
 * window (14 days) before it, so a longer gap than that after the oldest root found ends the history. The
 * newest root is looked for up to VERIFY_LOOKBACK_DAYS back; once found, the walk goes on to the first root.
 */
async function fetchRemoteRoots(base: string, start: string, context: RequestContext): Promise<DayRoot[]> {
  const records: DayRoot[] = [];
  let misses = 0;
  for (let back = 0; records.length > 0 || back < VERIFY_LOOKBACK_DAYS; back++) {
    if (back >= VERIFY_MAX_HISTORY_DAYS) {
      throw new RemoteFetchError(
        `the service serves roots more than ${VERIFY_MAX_HISTORY_DAYS} days back from ${start}, more than verify reads`,
      );
    }
    const day = shiftDay(start, -back);
    const { status, body } = await fetchJson(
      new URL(`/api/maps?a=root&day=${day}`, base).href,
      context.limits.maxRootBytes,
      context,
    );
    if (status === 200) {
      records.push(readRecord(body, day));
      misses = 0;
    } else if (status === 404) {
      misses++;
      if (records.length > 0 && misses > SEAL_RULES.previousRootWindowDays) break;
    } else {
      throw new RemoteFetchError(`GET /api/maps for ${day} answered HTTP ${status}`);
    }
  }
  return records.reverse();
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** What the well-known document says about the history: its key and its latest sealed day (null: none). */
interface ServedIntegrity {
  pem: string;
  latestDay: string | null;
}

/** Reads the well-known document's integrity block; a missing key or latest day is the service's failure. */
async function fetchIntegrity(base: string, context: RequestContext): Promise<ServedIntegrity> {
  const wellKnown = await fetchJson(
    new URL('/.well-known/mcp-atlas.json', base).href,
    context.limits.maxWellKnownBytes,
    context,
  );
  if (wellKnown.status !== 200)
    throw new RemoteFetchError(`/.well-known/mcp-atlas.json answered HTTP ${wellKnown.status}`);
  const parsed = WellKnownSchema.safeParse(wellKnown.body);
  if (!parsed.success) throw new RemoteFetchError('/.well-known/mcp-atlas.json has no integrity.public_key_pem');
  const latest = parsed.data.integrity.latest_day;
  // Without the latest day, days cut off the end of the served history could not be told from its end.
  if (latest === undefined)
    throw new RemoteFetchError(
      '/.well-known/mcp-atlas.json does not name its latest sealed day (integrity.latest_day)',
    );
  if (latest !== null && !isDay(latest))
    throw new RemoteFetchError(
      `/.well-known/mcp-atlas.json: integrity.latest_day ${JSON.stringify(latest).slice(0, 40)} is not a day`,
    );
  return { pem: parsed.data.integrity.public_key_pem, latestDay: latest };
}

/** The key to verify with: the served one, or the pinned one, which the served one must equal. */
function chooseKey(pem: string, pinnedKey: Uint8Array | undefined): Uint8Array {
  let served: Uint8Array;
  try {
    served = publicKeyFromPem(pem);
  } catch (error) {
    if (error instanceof HistoryError) throw new RemoteFetchError(`/.well-known/mcp-atlas.json: ${error.message}`);
    throw error;
  }
  if (pinnedKey === undefined) return served;
  if (!sameBytes(served, pinnedKey)) {
    throw new RemoteFetchError(
      'the service publishes a different public key than the one pinned with --key; its history is not trusted',
    );
  }
  return pinnedKey;
}

/**
 * Verifies a remote service's chain; the verdict names the first broken day, or `-` when the service
 * itself failed (a slow or oversized answer, an error status, a key that differs from the pinned one).
 */
export async function verifyRemote(base: string, options: VerifyRemoteOptions = {}): Promise<RemoteVerdict> {
  const limits: RemoteLimits = { ...DEFAULT_REMOTE_LIMITS, ...options.limits };
  const context: RequestContext = { limits, overall: AbortSignal.timeout(limits.totalTimeoutMs) };
  try {
    const integrity = await fetchIntegrity(base, context);
    const publicKey = chooseKey(integrity.pem, options.pinnedKey);
    const today = dayFromTime(options.now ?? new Date());
    // From today, or from the latest day when the service's clock is ahead of ours, so that day is walked too.
    const start = integrity.latestDay !== null && integrity.latestDay > today ? integrity.latestDay : today;
    const records = await fetchRemoteRoots(base, start, context);
    // A whole history: its first root must chain to nothing, or days before it were cut off.
    const verdict = await verifyChain(records, publicKey, { anchorRoot: null });
    if (!verdict.ok) return { ok: false, day: verdict.day, reason: verdict.reason };
    const first = records[0];
    const last = records.at(-1);
    const span = first === undefined || last === undefined ? null : { first: first.day, last: last.day };
    let latest = integrity.latestDay;
    // A day sealed between the well-known read and the walk moves the latest day on: read it once more.
    if (span !== null && latest !== span.last) latest = (await fetchIntegrity(base, context)).latestDay;
    const ends = checkChainEnds(span, { ...options.ends, latest });
    if (!ends.ok) return { ok: false, ...describeEndsFailure(ends) };
    return { ok: true, days: verdict.days, firstDay: span?.first ?? null, lastDay: span?.last ?? null };
  } catch (error) {
    if (error instanceof RemoteFetchError) return { ok: false, day: error.day, reason: error.message };
    throw error;
  }
}
