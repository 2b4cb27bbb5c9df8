// Where the frozen evaluation set lives, and the SHA-256 it had when it was frozen (2026-12-02, before any
// search ran on it). A change to the file is published only as a new version with a new hash.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const EVAL_SET_PATH = fileURLToPath(new URL('../../eval/toolsearch-v1.json', import.meta.url));
export const EVAL_SET_V1_SHA256 = '88df2efe99204ca14996e98034a20b7cd42d2df486ad9b65f6c5d06a23cfbc40';

/** The raw text of the set file and the SHA-256 of its bytes. */
export function readEvalSet(): { text: string; sha256: string } {
  const bytes = readFileSync(EVAL_SET_PATH);
  return { text: bytes.toString('utf8'), sha256: createHash('sha256').update(bytes).digest('hex') };
}
