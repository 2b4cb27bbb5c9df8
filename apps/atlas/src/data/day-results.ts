// Reads one day's daily-check results back from its shard files.

import { getJson, type Storage } from '../storage/storage.js';
import { dayIndexPath, dayShardPath } from './paths.js';
import { DayIndexSchema, type ServerDayResult, ShardFileSchema } from './schemas.js';

/** The results of one day's daily check, by server id (none before the day's index exists). */
export async function readDayResults(storage: Storage, day: string): Promise<Map<string, ServerDayResult>> {
  const results = new Map<string, ServerDayResult>();
  const index = await getJson(storage, dayIndexPath(day));
  if (index === null) return results;
  const { shards } = DayIndexSchema.parse(index);
  for (let shard = 0; shard < shards; shard++) {
    const data = await getJson(storage, dayShardPath(day, shard));
    if (data === null) continue;
    for (const result of ShardFileSchema.parse(data).results) results.set(result.id, result);
  }
  return results;
}
