// A day whose list was fixed empty is not final. A day's server list is fixed once, by its index, so that a
// resumed scan and every worker agree on it; but a list fixed from an empty watched list (a registry that answered
// nothing, or was never read) holds no check to keep, and keeping it would turn the whole day into a day of
// nothing. Until the day has a summary, such an index and its shard files (which hold no result) are removed, so
// the next scan or `scan --enqueue` fixes the list again.
import { dayFolder, dayIndexPath, daySummaryPath, rootPath } from '../data/paths.js';
import { DayIndexSchema } from '../data/schemas.js';
import { getJson, type Storage } from '../storage/storage.js';

/** True when `day` has an index that lists no server, and neither a summary nor a root. */
export async function isEmptyOpenDay(storage: Storage, day: string): Promise<boolean> {
  if ((await storage.get(daySummaryPath(day))) !== null || (await storage.get(rootPath(day))) !== null) return false;
  const raw = await getJson(storage, dayIndexPath(day));
  return raw !== null && DayIndexSchema.parse(raw).servers.length === 0;
}

/**
 * Removes the index and shard files of a day whose list was fixed empty and that is not finished, so its list can
 * be fixed again; resolves to true when it removed them. The index goes last, so a crash half-way leaves a day
 * this removes again. Nothing else of the day (its agents' reports, say) is touched.
 */
export async function reopenEmptyDay(storage: Storage, day: string): Promise<boolean> {
  if (!(await isEmptyOpenDay(storage, day))) return false;
  for (const path of await storage.list(`${dayFolder(day)}results/`)) await storage.delete(path);
  await storage.delete(dayIndexPath(day));
  return true;
}
