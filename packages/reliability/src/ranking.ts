/**
 * Most reliable servers by category. Pure module.
 *
 * The order uses our own checks only: plans, owner verification and agents' ratings never move a
 * server, and no place can be bought.
 */

import { RANKING_MIN_OBSERVED_DAYS, TOP_PLACES_DIVISOR, TOP_PLACES_MIN_RANKED } from './constants.js';
import { describeValue, ReliabilityInputError } from './errors.js';
import { countLetters, tallyLetters } from './letters.js';
import { roundedPercent } from './uptime.js';
import { assertBoolean, assertCount, assertNonNegative, assertText } from './validate.js';

/** What {@link rankMostReliable} needs to know about one server. */
export interface RankableServer {
  id: string;
  /** The server's address; the last tie-breaker, so equal servers keep a stable order. */
  url: string;
  /** The category read from its tools, or null when none could be read. */
  category: string | null;
  /** Answering with tools right now (the hourly check when newer, else the daily check). */
  answeringNow: boolean;
  /** Daily letters, oldest first, at most 30. */
  letters: string;
  /** Wall time of the newest handshake in milliseconds. */
  handshakeMs: number;
}

/** One listed server and its place. */
export interface RankedServer {
  id: string;
  url: string;
  /** 1 for the most reliable server of the category. */
  rank: number;
  /** Within the first tenth (rounded up) of a category with at least 10 ranked servers. */
  topTenth: boolean;
  /** Daily uptime in percent with one decimal (the first ordering key, rounded for display). */
  uptime: number;
  daysObserved: number;
  handshakeMs: number;
}

/** The ranked servers of one category. */
export interface CategoryRanking {
  category: string;
  ranked: RankedServer[];
}

/** Why a server is not listed: not answering now, no category, or fewer than 14 observed days. */
export type ListingGap = 'not_answering' | 'no_category' | 'too_few_days';

interface Candidate {
  server: RankableServer;
  answering: number;
  observed: number;
}

/**
 * The reasons a server is left out of the category lists; an empty array means it is listed.
 * Listed servers answer with tools now, have a category, and have at least 14 observed days.
 *
 * @example
 * findListingGaps({ id: 'x', url: 'https://x.example/mcp', category: null, answeringNow: true,
 *               letters: 'o'.repeat(10), handshakeMs: 300 }); // ['no_category', 'too_few_days']
 */
export function findListingGaps(server: RankableServer): ListingGap[] {
  return gapsOf(server, countLetters(server.letters).observed, 'server');
}

function gapsOf(server: RankableServer, observed: number, field: string): ListingGap[] {
  const gaps: ListingGap[] = [];
  if (!assertBoolean(server.answeringNow, `${field}.answeringNow`, 'invalid-server')) gaps.push('not_answering');
  if (server.category === null || server.category === undefined || server.category === '') gaps.push('no_category');
  if (observed < RANKING_MIN_OBSERVED_DAYS) gaps.push('too_few_days');
  return gaps;
}

/**
 * How many places of a category count as top 10%: the first tenth of its ranked servers, rounded
 * up, and none when the category has fewer than 10 ranked servers.
 *
 * @example
 * countTopPlaces(9);  // 0
 * countTopPlaces(10); // 1
 * countTopPlaces(11); // 2
 */
export function countTopPlaces(rankedCount: number): number {
  assertCount(rankedCount, 'rankedCount');
  return rankedCount < TOP_PLACES_MIN_RANKED ? 0 : Math.ceil(rankedCount / TOP_PLACES_DIVISOR);
}

// Share of observed days that answered, highest first; compared by cross-multiplying the whole
// numbers so that 14/15 and 28/30 tie exactly instead of by floating-point accident.
function compareCandidates(a: Candidate, b: Candidate): number {
  const byShare = b.answering * a.observed - a.answering * b.observed;
  if (byShare !== 0) return byShare;
  const byHandshake = a.server.handshakeMs - b.server.handshakeMs;
  if (byHandshake !== 0) return byHandshake;
  const byDays = b.observed - a.observed;
  if (byDays !== 0) return byDays;
  if (a.server.url !== b.server.url) return a.server.url < b.server.url ? -1 : 1;
  // Two entries with one address only happen with mirrored ids; the id keeps the order total.
  return a.server.id < b.server.id ? -1 : a.server.id > b.server.id ? 1 : 0;
}

function toCandidate(server: RankableServer, index: number): Candidate | null {
  if (server === null || typeof server !== 'object') {
    throw new ReliabilityInputError(
      'invalid-server',
      `servers[${index}]`,
      `expected a server object, received ${describeValue(server)}`,
    );
  }
  assertText(server.id, `servers[${index}].id`, 'invalid-server');
  assertText(server.url, `servers[${index}].url`, 'invalid-server');
  if (server.category !== null && typeof server.category !== 'string') {
    throw new ReliabilityInputError(
      'invalid-server',
      `servers[${index}].category`,
      `expected a string or null, received ${describeValue(server.category)}`,
    );
  }
  const counts = tallyLetters(server.letters, `servers[${index}].letters`);
  if (gapsOf(server, counts.observed, `servers[${index}]`).length > 0) return null;
  assertNonNegative(server.handshakeMs, `servers[${index}].handshakeMs`, 'invalid-server');
  return { server, answering: counts.answering, observed: counts.observed };
}

/**
 * Ranks the listed servers of each category. Order: share of observed days not `d` (highest
 * first), then newest handshake time (lowest first), then more observed days, then the address.
 * Categories come out sorted by name; servers that are not listed (see {@link findListingGaps}) are
 * left out. Throws {@link ReliabilityInputError} on malformed servers or a repeated id.
 *
 * @example
 * rankMostReliable(servers)[0];
 * // { category: 'search', ranked: [{ id: 'a', rank: 1, topTenth: true, uptime: 100, ... }, ...] }
 */
export function rankMostReliable(servers: readonly RankableServer[]): CategoryRanking[] {
  if (!Array.isArray(servers)) {
    throw new ReliabilityInputError(
      'invalid-server',
      'servers',
      `expected an array, received ${describeValue(servers)}`,
    );
  }
  const seen = new Set<string>();
  const byCategory = new Map<string, Candidate[]>();
  servers.forEach((server, index) => {
    const candidate = toCandidate(server, index);
    if (seen.has(server.id)) {
      throw new ReliabilityInputError(
        'duplicate-server',
        `servers[${index}].id`,
        `the id ${describeValue(server.id)} appears more than once`,
      );
    }
    seen.add(server.id);
    if (candidate === null) return;
    const category = server.category as string;
    const list = byCategory.get(category);
    if (list === undefined) byCategory.set(category, [candidate]);
    else list.push(candidate);
  });
  const categories = [...byCategory.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return categories.map((category) => {
    const candidates = (byCategory.get(category) as Candidate[]).sort(compareCandidates);
    const top = countTopPlaces(candidates.length);
    return {
      category,
      ranked: candidates.map((c, index) => ({
        id: c.server.id,
        url: c.server.url,
        rank: index + 1,
        topTenth: index < top,
        uptime: roundedPercent(c.answering, c.observed),
        daysObserved: c.observed,
        handshakeMs: c.server.handshakeMs,
      })),
    };
  });
}
