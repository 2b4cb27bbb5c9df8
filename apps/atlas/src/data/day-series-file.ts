// A server's day series on disk (state/series/<id>.json): written by each day's fold, read by the server page.
// The rules of the series are @mcp-atlas/reliability's advanceDaySeries; this file only reads and writes it.
import type { SeriesDay } from '@mcp-atlas/reliability';
import { getJsonOrNull, putJson, type Storage } from '../storage/storage.js';
import { serverSeriesPath } from './paths.js';
import { DaySeriesFileSchema } from './schemas.js';

/**
 * The server's day series, or undefined when it has none yet or its file does not parse (a torn file): the next
 * fold then starts it again from the state's letters, and the page reads the letters.
 */
export async function readDaySeries(storage: Storage, serverId: string): Promise<SeriesDay[] | undefined> {
  const parsed = DaySeriesFileSchema.safeParse(await getJsonOrNull(storage, serverSeriesPath(serverId)));
  return parsed.success && parsed.data.id === serverId ? parsed.data.days : undefined;
}

/** Replaces the server's day series. */
export async function writeDaySeries(storage: Storage, serverId: string, days: readonly SeriesDay[]): Promise<void> {
  await putJson(storage, serverSeriesPath(serverId), { id: serverId, days });
}
