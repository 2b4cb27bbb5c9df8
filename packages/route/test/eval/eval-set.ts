// Where the frozen evaluation set lives, and the SHA-256 it had when it was frozen (2026-12-02, before any
// search ran on it). A change to the file is published only as a new version with a new hash.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const EVAL_SET_PATH = fileURLToPath(new URL('../../eval/toolsearch-v1.json', import.meta.url));
export const EVAL_SET_V1_SHA256 = '88df2efe99204ca14996e98034a20b7cd42d2df486ad9b65f6c5d06a23cfbc40';

/**
 * Version 2 of the frozen set (written 2026-12-03T00:10:20Z from the corpus, before any search ran on it): v1
 * had 39 jobs no tool of the corpus could fit, so v2 was written with every job checked to have a fit.
 */
export const EVAL_SET_V2_PATH = fileURLToPath(new URL('../../eval/toolsearch-v2.json', import.meta.url));
export const EVAL_SET_V2_SHA256 = '352888b56d0dcc1339413acd5430a7e0e7ef8db31e88241801f67a705e3415ff';

/** The raw text of a set file (v1 unless another path is given) and the SHA-256 of its bytes. */
export function readEvalSet(path: string = EVAL_SET_PATH): { text: string; sha256: string } {
  const bytes = readFileSync(path);
  return { text: bytes.toString('utf8'), sha256: createHash('sha256').update(bytes).digest('hex') };
}
