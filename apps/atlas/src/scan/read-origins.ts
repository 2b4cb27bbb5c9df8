// Robots.txt and the well-known files, read once per origin and UTC day before any check of that day. An
// origin whose robots.txt shuts our bot out is left out of every check that day.
import { BOT_TOKEN, readRobots, readWellKnown, type NetworkOptions } from '@mcp-atlas/probe';
import { z } from 'zod';
import { ORIGINS_PATH } from '../data/paths.js';
import type { WatchedServer } from '../data/schemas.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { mapWithLimit } from './pool.js';


const SavedOriginsSchema = z.object({ day: z.string(), excluded: z.array(z.string()) });

/** What reading the origins needs. */
export interface OriginReadDeps {
  storage: Storage;
  network: NetworkOptions;
  concurrency: number;
}

/** Reads robots.txt and the well-known files once per origin and day; returns the origins that said no. */
export async function readOriginsOfDay(deps: OriginReadDeps, day: string, servers: readonly WatchedServer[]): Promise<Set<string>> {
  const saved = SavedOriginsSchema.safeParse(await getJson(deps.storage, ORIGINS_PATH));
  if (saved.success && saved.data.day === day) return new Set(saved.data.excluded);
  const origins = [...new Set(servers.map((s) => new URL(s.url).origin))];
  const reads = await mapWithLimit(origins, deps.concurrency, async (origin) => {
    const robots = await readRobots(origin, BOT_TOKEN, deps.network);
    const wellKnown = robots.excludesOrigin ? null : await readWellKnown(origin, deps.network);
    return { origin, robots, wellKnown };
  });
  const excluded = reads.filter((r) => r.robots.excludesOrigin).map((r) => r.origin);
  await putJson(deps.storage, ORIGINS_PATH, { day, excluded, origins: reads });
  return new Set(excluded);
}
