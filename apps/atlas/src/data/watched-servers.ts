// The list of watched servers (state/servers.json): written by the registry read and the demo, read by
// the schedule and the read model.
import { SERVERS_PATH } from './paths.js';
import { WatchedServersSchema, type WatchedServer } from './schemas.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';

/** The watched servers, or none before the first registry read. */
export async function readWatchedServers(storage: Storage): Promise<WatchedServer[]> {
  const data = await getJson(storage, SERVERS_PATH);
  return data === null ? [] : WatchedServersSchema.parse(data).servers;
}

/** Replaces the watched list. */
export async function writeWatchedServers(storage: Storage, servers: readonly WatchedServer[]): Promise<void> {
  await putJson(storage, SERVERS_PATH, { servers });
}
