// Demand counts: how often a task was routed to each server, per UTC day. The only thing recorded is the
// server id of the top pick and the day: never the task text, an agent id, an address or a user agent.
//
// Route answers are a hot path, so a count never waits for the disk: it goes into memory, and one write at a
// time puts the process's whole count of the day into demand/<day>/<writer>.json (a write in flight collects
// the counts that arrive meanwhile into the next one). Each process writes its own file (`writer` is drawn at
// random per recorder), so several processes, or one restarted, never overwrite each other; the daily
// aggregate adds them up once the day is over.
import { randomBytes } from 'node:crypto';
import { dayFromTime } from '@mcp-atlas/history';
import { z } from 'zod';
import { askMarkersPath, dailyCallMarkersPath, demandRecordPath } from '../data/paths.js';
import { putJson, type Storage } from '../storage/storage.js';
import { createDayCounter } from './day-counts.js';

/** One process's demand counts of one day, as written to demand/<day>/<writer>.json. */
export const DemandRecordFileSchema = z.strictObject({
  day: z.string(),
  writer: z.string(),
  servers: z.record(z.string(), z.int().nonnegative()),
});
export type DemandRecordFile = z.infer<typeof DemandRecordFileSchema>;

/** Counts routed tasks. */
export interface DemandRecorder {
  /** Counts one task routed to `serverId` on today's UTC day. Never throws and never waits for the disk. */
  record(serverId: string): void;
  /**
   * Marks that a find_tool or route answer named these servers (a per-server ask marker: a count per server
   * and day, nothing about who asked). Batched: written at most once a minute and on flush.
   */
  recordAsk(serverIds: readonly string[]): void;
  /**
   * Marks one MCP tool call by an agent (a daily-call marker: calls per keyed agent id and day, kept for the
   * current month at most and never published). Batched like ask markers.
   */
  recordCall(agentId: string): void;
  /** Resolves once every count and marker recorded so far is on disk. */
  flush(): Promise<void>;
}

/** What the recorder needs. */
export interface DemandRecorderDeps {
  storage: Storage;
  now(): Date;
  logger?: { warn(fields: object, message?: string): void };
  /** This process's file name in each day folder; random by default. */
  writer?: string;
  /** Milliseconds the batched markers wait before they are written (default: a minute). */
  markerFlushIntervalMs?: number;
}

/** The top pick of a route answer, the server a task was routed to; null when nothing was picked. */
export function routedServerOf(answer: { picks: readonly { serverId: string }[] }): string | null {
  return answer.picks[0]?.serverId ?? null;
}

/** Creates a recorder; one per process. */
export function createDemandRecorder(deps: DemandRecorderDeps): DemandRecorder {
  const writer = deps.writer ?? `w-${randomBytes(6).toString('hex')}`;
  const days = new Map<string, Map<string, number>>();
  const dirty = new Set<string>();
  let active = false;
  let current: Promise<void> = Promise.resolve();
  const markerDeps = {
    storage: deps.storage,
    now: deps.now,
    writer,
    ...(deps.logger !== undefined ? { logger: deps.logger } : {}),
    ...(deps.markerFlushIntervalMs !== undefined ? { flushIntervalMs: deps.markerFlushIntervalMs } : {}),
  };
  const asks = createDayCounter({ ...markerDeps, pathOf: askMarkersPath });
  const calls = createDayCounter({ ...markerDeps, pathOf: dailyCallMarkersPath });

  // Runs until nothing is dirty, so counts that arrive during a write go out with the next turn of the loop.
  // `active` is cleared in the same synchronous step as the last look at `dirty`, so a count can never slip
  // in between and be left waiting. After a failed write the loop stops; the next count or flush tries again.
  async function writeDirtyDays(): Promise<void> {
    while (dirty.size > 0) {
      const day = dirty.values().next().value as string;
      dirty.delete(day);
      const counts = days.get(day) ?? new Map<string, number>();
      try {
        await putJson(deps.storage, demandRecordPath(day, writer), {
          day,
          writer,
          servers: Object.fromEntries([...counts].sort()),
        });
      } catch (error) {
        dirty.add(day);
        active = false;
        deps.logger?.warn(
          { event: 'demand_write_failed', day, error: error instanceof Error ? error.message : String(error) },
          'demand counts not written',
        );
        return;
      }
    }
    active = false;
  }

  function startWriting(): Promise<void> {
    if (!active) {
      active = true;
      current = writeDirtyDays();
    }
    return current;
  }

  return {
    record(serverId) {
      const day = dayFromTime(deps.now());
      // A past day gets no more counts: once its file is written, its counts can go.
      for (const known of days.keys()) if (known !== day && !dirty.has(known)) days.delete(known);
      const counts = days.get(day) ?? new Map<string, number>();
      counts.set(serverId, (counts.get(serverId) ?? 0) + 1);
      days.set(day, counts);
      dirty.add(day);
      void startWriting();
    },
    recordAsk(serverIds) {
      // One marker per server per answer, however many of its tools the answer lists.
      for (const id of new Set(serverIds)) asks.add(id);
    },
    recordCall(agentId) {
      calls.add(agentId);
    },
    async flush() {
      await current;
      if (dirty.size > 0) await startWriting();
      await asks.flush();
      await calls.flush();
    },
  };
}
