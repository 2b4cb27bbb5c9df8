// The hosts whose owners opted out (state/opted-out.json): written by the opt-out form, read by every kind
// of check (they are never contacted again) and by the read model (they are off the published map).

import { getJson, putJson, type Storage } from '../storage/storage.js';
import { OPTED_OUT_PATH } from './paths.js';
import { OptedOutSchema } from './schemas.js';

/** The opted-out host names (a name covers its subdomains), or none. */
export async function readOptedOutHosts(storage: Storage): Promise<string[]> {
  const data = await getJson(storage, OPTED_OUT_PATH);
  return data === null ? [] : OptedOutSchema.parse(data).hosts;
}

/** Adds a host to the list (kept sorted); callers run it through one queue, as it reads and rewrites the file. */
export async function addOptedOutHost(storage: Storage, host: string): Promise<void> {
  const hosts = await readOptedOutHosts(storage);
  if (!hosts.includes(host)) await putJson(storage, OPTED_OUT_PATH, { hosts: [...hosts, host].sort() });
}
