// The list of watched servers (state/servers.json): written by the registry read and the demo, read by
// the schedule and the read model. Submitted servers that passed their observation live in a file of their
// own, so a registry read (which replaces state/servers.json whole) never drops them.

import { createSerialQueue, type SerialQueue } from '../storage/serial-queue.js';
import { getJson, putJson, type Storage } from '../storage/storage.js';
import { SERVERS_PATH, SUBMITTED_SERVERS_PATH } from './paths.js';
import { type WatchedServer, WatchedServersSchema } from './schemas.js';

// Adding is read-modify-write of one file, and submissions are decided several at a time: one queue per
// storage runs the adds one after another, so two servers admitted at the same tick are both kept.
const submittedWrites = new WeakMap<Storage, SerialQueue>();

function submittedQueueOf(storage: Storage): SerialQueue {
  let queue = submittedWrites.get(storage);
  if (queue === undefined) {
    queue = createSerialQueue();
    submittedWrites.set(storage, queue);
  }
  return queue;
}

/**
 * The watched servers: the registry's (or the demo's) list, then the submitted servers that passed their
 * observation. A submitted server whose URL or id the list already holds is left out: the list's entry wins.
 */
export async function readWatchedServers(storage: Storage): Promise<WatchedServer[]> {
  const data = await getJson(storage, SERVERS_PATH);
  const listed = data === null ? [] : WatchedServersSchema.parse(data).servers;
  const submitted = await readSubmittedServers(storage);
  if (submitted.length === 0) return listed;
  const ids = new Set(listed.map((s) => s.id));
  const urls = new Set(listed.map((s) => s.url));
  return [...listed, ...submitted.filter((s) => !ids.has(s.id) && !urls.has(s.url))];
}

/** The submitted servers that joined the map (state/submitted-servers.json), or none. */
export async function readSubmittedServers(storage: Storage): Promise<WatchedServer[]> {
  const data = await getJson(storage, SUBMITTED_SERVERS_PATH);
  return data === null ? [] : WatchedServersSchema.parse(data).servers;
}

/** Adds a submitted server that passed its observation; a server already there (same id) is replaced. */
export function addSubmittedServer(storage: Storage, server: WatchedServer): Promise<void> {
  return submittedQueueOf(storage).run(async () => {
    const servers = (await readSubmittedServers(storage)).filter((s) => s.id !== server.id);
    servers.push(server);
    servers.sort((a, b) => a.id.localeCompare(b.id));
    await putJson(storage, SUBMITTED_SERVERS_PATH, { servers });
  });
}

/** Replaces the watched list. */
export async function writeWatchedServers(storage: Storage, servers: readonly WatchedServer[]): Promise<void> {
  await putJson(storage, SERVERS_PATH, { servers });
}
