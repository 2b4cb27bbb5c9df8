/**
 * Internal helpers for reading outside data the way the engine reads it. Pure module: no I/O.
 *
 * `registryMetadata` and `staticAnalysis.details` come from outside, so any key may hold anything.
 * The engine tests Python truthiness (`if checks.get("has_readme"):`) and reads nested dicts with
 * defaults (`details.get("x", {}).get("checks", {})`); these helpers give the same answers and never
 * throw on odd shapes. The one home of these helpers in the package; not exported from the root.
 */

/** A plain object (not an array, not null), read as the engine reads a dict. */
export type PlainRecord = Record<string, unknown>;

/** True for a plain object: the only shape the engine treats as a dict. */
export function isRecord(value: unknown): value is PlainRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as a record, or an empty record when it is anything else (the engine's `.get(k, {})`). */
export function recordOf(value: unknown): PlainRecord {
  return isRecord(value) ? value : {};
}

/** `record[key]` read as a record (empty when missing or not an object). */
export function childRecord(record: PlainRecord, key: string): PlainRecord {
  return recordOf(record[key]);
}

/**
 * Python truthiness of a JSON value: null, undefined, false, 0, '' and empty arrays or objects are
 * false; everything else is true (NaN included, as `bool(float('nan'))` is True).
 */
export function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** The value when it is a finite number, else null. */
export function finiteOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
