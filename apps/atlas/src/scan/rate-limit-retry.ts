// The daily check's answer to a server that limits our rate: wait what it asked and ask again, as the probe
// package's decideRateLimitRetry allows (how often, how long, and only within the check's UTC day). The hourly and
// five-minute checks never ask again: their n simply counts neither up nor down.
import { setTimeout as delay } from 'node:timers/promises';
import { decideRateLimitRetry, type ProbeResult } from '@mcp-atlas/probe';

/** The last try's result, and each wait taken before a try again (ms), oldest first. */
export interface RateLimitedProbe {
  result: ProbeResult;
  waitsMs: number[];
}

/** Waits `ms`; false when `signal` aborted first (the service is stopping), so no further try is made. */
async function waitUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted === true) return false;
  try {
    await delay(ms, undefined, signal === undefined ? {} : { signal });
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `probeOnce`, and while its result is rate-limited (letter n) and the rule allows another try, waits the
 * time the server asked and runs it again. `now` dates each decision against the end of `day`.
 */
export async function probeRespectingRateLimit(
  probeOnce: () => Promise<ProbeResult>,
  day: string,
  now: () => Date,
  signal?: AbortSignal,
): Promise<RateLimitedProbe> {
  const waitsMs: number[] = [];
  let result = await probeOnce();
  while (result.letter === 'n') {
    const decision = decideRateLimitRetry({
      retryAfterMs: result.retryAfterMs ?? null,
      retriesDone: waitsMs.length,
      day,
      now: now(),
    });
    if (!decision.retry || !(await waitUnlessAborted(decision.waitMs, signal))) break;
    waitsMs.push(decision.waitMs);
    result = await probeOnce();
  }
  return { result, waitsMs };
}
