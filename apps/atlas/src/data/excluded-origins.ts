// The origins whose robots.txt shuts our bot out, as the newest robots read wrote them (state/origins.json,
// written by scan/read-origins.ts). The read model names them as the reason a server left the map.
import { z } from 'zod';
import { getJson, type Storage } from '../storage/storage.js';
import { ORIGINS_PATH } from './paths.js';

// Only the two fields the read model needs; the file holds more (each origin's reads), which is left alone.
const ExcludedOriginsSchema = z.object({ day: z.string(), excluded: z.array(z.string()) });

/** The origins the newest robots read excluded, and its day; none (day null) before any read or when the file is torn. */
export async function readExcludedOrigins(storage: Storage): Promise<{ day: string | null; origins: Set<string> }> {
  const parsed = ExcludedOriginsSchema.safeParse(await getJson(storage, ORIGINS_PATH));
  return parsed.success
    ? { day: parsed.data.day, origins: new Set(parsed.data.excluded) }
    : { day: null, origins: new Set() };
}
