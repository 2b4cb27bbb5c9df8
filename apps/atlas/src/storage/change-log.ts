// The operators' change log: an operator's command run as another process (mark, incidents close, review close)
// writes it after its change, and every running `serve` rebuilds its read model: on PostgreSQL the write is
// announced on the store's channel (isReadModelLandmark), and a folder store's `serve` polls the file.
import { unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { putJson, type Storage } from './storage.js';

/**
 * The small change log an operator's command writes after it changes the store: on PostgreSQL its write is
 * announced like a new day, and a folder store's `serve` polls it (FOLDER_CHANGE_POLL_MS).
 */
export const OPERATOR_CHANGES_PATH = 'state/operator-changes.json';

/**
 * How often a folder store's `serve` looks at the change log: once a second, so an operator's change shows within
 * a second or two plus one rebuild, well inside the five seconds the service promises. A stat a second is cheap.
 */
export const FOLDER_CHANGE_POLL_MS = 1_000;

/**
 * Records that an operator's command changed the store (`what`: the command, e.g. `mark`), so every running
 * `serve` rebuilds its read model. Written after the change itself, so a rebuild it wakes sees the change.
 */
export async function announceOperatorChange(storage: Storage, what: string, now: Date): Promise<void> {
  await putJson(storage, OPERATOR_CHANGES_PATH, { what, at: now.toISOString() });
}

/**
 * A folder store's watcher of the change log: calls `listener` when the file's modification time or size moves.
 * The poll never keeps the process alive on its own.
 */
export function watchFolderChanges(
  dir: string,
  listener: (path: string) => void,
  intervalMs = FOLDER_CHANGE_POLL_MS,
): Promise<() => Promise<void>> {
  const file = join(dir, OPERATOR_CHANGES_PATH);
  const onChange = (current: { mtimeMs: number; size: number }, previous: { mtimeMs: number; size: number }) => {
    if (current.mtimeMs !== previous.mtimeMs || current.size !== previous.size) listener(OPERATOR_CHANGES_PATH);
  };
  watchFile(file, { interval: intervalMs, persistent: false }, onChange);
  return Promise.resolve(async () => unwatchFile(file, onChange));
}
