// `mcp-atlas verify --url BASE`: fetch the public key and the daily roots from a running service and check
// the chain with the history package, as any outsider could.
import { dayFromTime, parseDayRoot, PREVIOUS_ROOT_WINDOW_DAYS, publicKeyFromPem, shiftDay, verifyChain, type DayRoot } from '@mcp-atlas/history';
import { z } from 'zod';

const WellKnownSchema = z.object({ integrity: z.object({ public_key_pem: z.string() }) });

/** How far back to look for the first root when the newest days have none. */
export const VERIFY_LOOKBACK_DAYS = 400;

async function fetchJson(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  const body = response.status === 200 ? ((await response.json()) as unknown) : null;
  return { status: response.status, body };
}

/**
 * Reads every root reachable from today going back: a day's previous root is never more than the chain
 * window (14 days) before it, so a longer gap than that after the oldest root found ends the history.
 */
export async function fetchRemoteRoots(base: string, today: string): Promise<DayRoot[]> {
  const records: DayRoot[] = [];
  let misses = 0;
  for (let back = 0; back < VERIFY_LOOKBACK_DAYS; back++) {
    const day = shiftDay(today, -back);
    const { status, body } = await fetchJson(new URL(`/api/maps?a=root&day=${day}`, base).href);
    if (status === 200) {
      records.push(parseDayRoot(body));
      misses = 0;
    } else if (status === 404) {
      misses++;
      if (records.length > 0 && misses > PREVIOUS_ROOT_WINDOW_DAYS) break;
    } else {
      throw new Error(`GET /api/maps for ${day} answered HTTP ${status}`);
    }
  }
  return records.reverse();
}

/** Verifies a remote service's chain; the verdict names the first broken day. */
export async function verifyRemote(base: string, now: Date = new Date()): Promise<{ ok: true } | { ok: false; day: string; reason: string }> {
  const wellKnown = await fetchJson(new URL('/.well-known/mcp-atlas.json', base).href);
  if (wellKnown.status !== 200) return { ok: false, day: '-', reason: `/.well-known/mcp-atlas.json answered HTTP ${wellKnown.status}` };
  const publicKey = publicKeyFromPem(WellKnownSchema.parse(wellKnown.body).integrity.public_key_pem);
  const records = await fetchRemoteRoots(base, dayFromTime(now));
  if (records.length === 0) return { ok: false, day: '-', reason: 'the service published no roots' };
  return verifyChain(records, publicKey);
}
