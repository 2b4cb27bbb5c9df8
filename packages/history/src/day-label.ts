/**
 * The day a sealed folder says it is, and whether a record's `day` label agrees with it.
 *
 * Pure module: bytes in, verdicts out. Why it exists: the published format signs the root only, and
 * the root covers `previous_root` and the file lines, not the `day` field. Moving every record and
 * folder back a year (new file names, new `day` fields, same signatures) would still verify as a
 * chain. What pins a day to its date is a covered file that names the date: the folder's index.
 */
import { isDay } from '@mcp-atlas/base';
import { DAY_INDEX_FIELD, DAY_INDEX_PATH } from './constants.js';
import { bytesToHex } from './encoding.js';
import { describeValue } from './errors.js';
import { type HashOptions, resolveSha256 } from './hash.js';
import { splitRecordLines } from './lines.js';
import type { DayRoot } from './seal.js';
import { parseDayRoot } from './verify.js';

/** The outcome of `checkDayLabel`: the label holds (and what bound it), or why it does not. */
export type DayLabelCheck =
  | {
      ok: true;
      /** The covered file that named the day (`DAY_INDEX_PATH`), or null when the day lists none. */
      boundBy: string | null;
    }
  | { ok: false; reason: string };

/** What `checkDayLabel` compares. */
export interface DayLabelInput {
  /** The day's signed record. */
  record: DayRoot;
  /** The day in the name of the file the record was read from (`roots/<day>.json`), when there is one. */
  recordFileDay?: string | null;
  /** The day in the name of the folder the day's files were read from, when there is one. */
  folderDay?: string | null;
  /** The bytes of the folder's `DAY_INDEX_PATH`, or null when the folder has no such file. */
  index: Uint8Array | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The day a sealed folder says it is: the `day` field of its index file (`DAY_INDEX_PATH`) when the
 * bytes are UTF-8 JSON of an object whose `day` is a real `YYYY-MM-DD` date; otherwise null. Never
 * throws, since the bytes come from a folder nobody vouched for yet.
 *
 * @example
 * readSealedDay(new TextEncoder().encode('{"day":"2026-11-03","shards":8}')) // '2026-11-03'
 * readSealedDay(new TextEncoder().encode('{"day":"2026-02-30"}'))            // null
 */
export function readSealedDay(indexBytes: Uint8Array): string | null {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(indexBytes));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const day = (value as Record<string, unknown>)[DAY_INDEX_FIELD];
  return isDay(day) ? day : null;
}

function nameProblem(
  record: DayRoot,
  recordFileDay: string | null | undefined,
  folderDay: string | null | undefined,
): string | null {
  if (recordFileDay !== undefined && recordFileDay !== null && recordFileDay !== record.day) {
    return `the record says it is ${record.day} but sits in the file of ${describeValue(recordFileDay)}`;
  }
  if (folderDay !== undefined && folderDay !== null && folderDay !== record.day) {
    return `the record is ${record.day} but its files sit in the folder of ${describeValue(folderDay)}`;
  }
  return null;
}

/**
 * Checks that a sealed day is the day its record says, through what the signature does cover:
 * the record's file name and folder name (when given) must equal `record.day`, and when the record
 * lists `DAY_INDEX_PATH`, the index's bytes must match their line and name `record.day`
 * (`readSealedDay`). A record that lists no index is not bound by its files: the result is ok with
 * `boundBy: null`, and the caller decides whether that is enough. Throws `invalid-record` for a
 * malformed record (check it with `checkDayRoot` first).
 *
 * @example
 * checkDayLabel({ record, index: indexBytesOfTheFolder })
 * // { ok: false, reason: 'index.json says the day is 2026-11-03, not 2025-11-03: the day was relabelled' }
 */
export function checkDayLabel(input: DayLabelInput, options?: HashOptions): DayLabelCheck {
  const record = parseDayRoot(input.record);
  const named = nameProblem(record, input.recordFileDay, input.folderDay);
  if (named !== null) return { ok: false, reason: named };
  const line = splitRecordLines(record.files).find(({ path }) => path === DAY_INDEX_PATH);
  if (line === undefined) return { ok: true, boundBy: null };
  if (input.index === null) return { ok: false, reason: `${DAY_INDEX_PATH} is listed in the record but missing` };
  if (bytesToHex(resolveSha256(options)(input.index)) !== line.hash) {
    return { ok: false, reason: `${DAY_INDEX_PATH} does not match its line` };
  }
  const sealedDay = readSealedDay(input.index);
  if (sealedDay === null) {
    return {
      ok: false,
      reason: `${DAY_INDEX_PATH} names no day (it needs a "${DAY_INDEX_FIELD}" field written YYYY-MM-DD)`,
    };
  }
  if (sealedDay !== record.day) {
    return {
      ok: false,
      reason: `${DAY_INDEX_PATH} says the day is ${sealedDay}, not ${record.day}: the day was relabelled`,
    };
  }
  return { ok: true, boundBy: DAY_INDEX_PATH };
}
