#!/usr/bin/env node
// Pinned rule tables: a rule list edited by mistake (a verb added to risk's HIGH_RISK_VERBS, another dropped)
// changes verdicts without failing a single test, so every value a published package exports is pinned here.
// For every package that is not private, each subpath of its `exports` is imported from the built dist/ and
// every exported value that is not a function or a class (frozen rule groups, lists, Sets, Maps, numbers,
// strings) is put in one canonical JSON form and hashed (SHA-256), name by name and as a whole per package.
// scripts/rules-pins.json keeps those digests and the rules version each package was pinned at: the package's
// own `*_RULES_VERSION` export when it has one, else the methodology version (apps/atlas/src/methodology.ts).
//
//   node scripts/rules-pin.mjs            checks the build against the pins (the root `test` script runs it
//                                         through scripts/rules-pin.test.mjs, after the build)
//   node scripts/rules-pin.mjs --update   pins what the build exports now
//
// A changed digest fails, naming the package and the exported names that changed, unless the package's rules
// version has moved past the pinned one and the methodology changelog mentions the new version: a rule change
// made on purpose is versioned and written up. Then the check passes and asks for `--update`.
//
// Run `pnpm build` first: the pins are over what would be published, not over the sources.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(import.meta.dirname, '..');

/** The pin file, beside this script. */
export const PINS_FILE = 'scripts/rules-pins.json';

/** Where the methodology version lives when a package has no rules version of its own. */
const METHODOLOGY_SOURCE = 'apps/atlas/src/methodology.ts';

/** The command that pins the build as it is now. */
export const UPDATE_COMMAND = 'node scripts/rules-pin.mjs --update';

/** The ESM file a subpath of `exports` points at, or null for a non-code entry (package.json). */
function findEsmTarget(entry) {
  if (typeof entry === 'string') return entry.endsWith('.js') ? entry : null;
  const importEntry = entry.import ?? entry.default;
  if (typeof importEntry === 'string') return importEntry;
  if (importEntry && typeof importEntry.default === 'string') return importEntry.default;
  return null;
}

/** Each published workspace package under `repo` (not private, with `exports`): folder and manifest, by name. */
export function listPublishedPackages(repo = REPO) {
  const found = [];
  for (const parent of ['packages', 'apps']) {
    const folder = join(repo, parent);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)) {
      const file = join(folder, name, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      if (manifest.private !== true && manifest.exports !== undefined)
        found.push({ dir: join(folder, name), manifest });
    }
  }
  return found.sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/**
 * A JSON-ready form of `value` that is the same for equal contents however they were built: object keys
 * sorted, a Set's members and a Map's entries sorted (their order decides no verdict), a RegExp as its source
 * and flags, and what JSON cannot hold (NaN, -0, undefined, bigints, bytes, nested functions) tagged.
 */
export function canonicalize(value, seen = new Set()) {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (Number.isNaN(value) || !Number.isFinite(value) || Object.is(value, -0)) return { $number: String(value) };
    return value;
  }
  if (value === undefined) return { $undefined: true };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (typeof value === 'symbol') return { $symbol: value.description ?? '' };
  // A function inside a rule group: its code is not a table; its presence and name are.
  if (typeof value === 'function') return { $function: value.name };
  if (seen.has(value)) return { $cycle: true };
  seen.add(value);
  try {
    if (value instanceof RegExp) return { $regexp: { source: value.source, flags: value.flags } };
    if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString() };
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
      const bytes =
        value instanceof ArrayBuffer
          ? new Uint8Array(value)
          : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      return { $bytes: Buffer.from(bytes).toString('hex') };
    }
    if (value instanceof Set) return { $set: sortByText([...value].map((member) => canonicalize(member, seen))) };
    if (value instanceof Map) {
      const entries = [...value].map(([key, entry]) => [canonicalize(key, seen), canonicalize(entry, seen)]);
      return { $map: entries.sort((a, b) => compareText(JSON.stringify(a[0]), JSON.stringify(b[0]))) };
    }
    if (Array.isArray(value)) return value.map((item) => canonicalize(item, seen));
    const out = {};
    for (const key of Object.keys(value).sort(compareText)) out[key] = canonicalize(value[key], seen);
    return out;
  } finally {
    seen.delete(value);
  }
}

/** Compares two strings by code unit, the same on every machine and locale. */
function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts canonical values by their JSON text. */
function sortByText(values) {
  return values
    .map((value) => [JSON.stringify(value), value])
    .sort((a, b) => compareText(a[0], b[0]))
    .map(([, value]) => value);
}

/** The SHA-256 (hex) of a value's canonical JSON. */
export function hashValue(value) {
  return createHash('sha256')
    .update(JSON.stringify(canonicalize(value)))
    .digest('hex');
}

/** A package's whole digest: over its sorted `name digest` lines, so it changes when any name's does. */
export function hashPackage(names) {
  const lines = Object.keys(names)
    .sort(compareText)
    .map((name) => `${name} ${names[name]}\n`);
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/**
 * Every pinned value a package exports: `subpath:name` to its digest, for each value that is not a function or
 * class; and the package's own rules version (a `*_RULES_VERSION` string export) when it has one.
 */
export async function readPackageValues({ dir, manifest }) {
  const names = {};
  const versions = new Map();
  for (const [subpath, entry] of Object.entries(manifest.exports)) {
    const target = findEsmTarget(entry);
    if (target === null) continue;
    const module = await import(pathToFileURL(join(dir, target)).href);
    for (const name of Object.keys(module).sort(compareText)) {
      const value = module[name];
      if (typeof value === 'function') continue;
      names[`${subpath}:${name}`] = hashValue(value);
      if (/_RULES_VERSION$/.test(name) && typeof value === 'string') versions.set(name, value);
    }
  }
  const [ownVersion] = [...versions].sort((a, b) => compareText(a[0], b[0]));
  return { names, ownVersion: ownVersion === undefined ? null : { name: ownVersion[0], value: ownVersion[1] } };
}

/** The methodology version, read from the app's source (a label the app records; see that file). */
export function readMethodologyVersion(repo = REPO) {
  const source = readFileSync(join(repo, METHODOLOGY_SOURCE), 'utf8');
  const match = /export const METHODOLOGY_VERSION\s*=\s*['"]([^'"]+)['"]/.exec(source);
  if (match === null) throw new Error(`${METHODOLOGY_SOURCE} has no METHODOLOGY_VERSION string`);
  return match[1];
}

/**
 * The methodology changelog's text: docs/methodology/changelog.md (and any other changelog file in that
 * folder) when the methodology is a folder, else the single docs/methodology.md. Empty when neither exists.
 */
export function readMethodologyChangelog(repo = REPO) {
  const folder = join(repo, 'docs', 'methodology');
  const texts = [];
  if (existsSync(folder)) {
    for (const name of readdirSync(folder).sort(compareText))
      if (/changelog/i.test(name) && name.endsWith('.md')) texts.push(readFileSync(join(folder, name), 'utf8'));
  }
  const single = join(repo, 'docs', 'methodology.md');
  if (existsSync(single)) texts.push(readFileSync(single, 'utf8'));
  return texts.join('\n');
}

/** Whether `text` names `version` on its own (1.2.0 is not found in 11.2.0 nor in 1.2.0.1). */
export function mentionsVersion(text, version) {
  const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.])${escaped}(?![\\w]|\\.\\d)`).test(text);
}

/** Whether version `next` is past `pinned`: dotted numbers compared number by number, else as text. */
export function isVersionPast(next, pinned) {
  const numbers = (version) =>
    version
      .split(/[^0-9]+/)
      .filter(Boolean)
      .map(Number);
  const [a, b] = [numbers(next), numbers(pinned)];
  if (a.length > 0 && b.length > 0) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const difference = (a[i] ?? 0) - (b[i] ?? 0);
      if (difference !== 0) return difference > 0;
    }
    return false;
  }
  return compareText(next, pinned) > 0;
}

/** What the build exports now, per published package: digests and the rules version it answers to. */
export async function readCurrentPins(repo = REPO) {
  const methodologyVersion = readMethodologyVersion(repo);
  const pins = {};
  for (const pkg of listPublishedPackages(repo)) {
    const { names, ownVersion } = await readPackageValues(pkg);
    pins[pkg.manifest.name] = {
      versionFrom: ownVersion === null ? 'METHODOLOGY_VERSION' : ownVersion.name,
      version: ownVersion === null ? methodologyVersion : ownVersion.value,
      digest: hashPackage(names),
      names,
    };
  }
  return pins;
}

/** The names whose digests differ between two pins of one package: added, removed and changed, each sorted. */
export function listChangedNames(pinnedNames, currentNames) {
  const added = Object.keys(currentNames).filter((name) => !(name in pinnedNames));
  const removed = Object.keys(pinnedNames).filter((name) => !(name in currentNames));
  const changed = Object.keys(currentNames).filter(
    (name) => name in pinnedNames && pinnedNames[name] !== currentNames[name],
  );
  return { added: added.sort(compareText), removed: removed.sort(compareText), changed: changed.sort(compareText) };
}

/** One line naming the changed names of a package, e.g. `changed ./rules:HIGH_RISK_VERBS; added .:X`. */
function describeChanges({ added, removed, changed }) {
  const parts = [];
  if (changed.length > 0) parts.push(`changed ${changed.join(', ')}`);
  if (added.length > 0) parts.push(`added ${added.join(', ')}`);
  if (removed.length > 0) parts.push(`removed ${removed.join(', ')}`);
  return parts.join('; ');
}

/**
 * Compares the current pins with the pinned ones. `failures` are changes no version and changelog account for;
 * `notices` are changes that are versioned and written up, which only need `--update`.
 */
export function comparePins(pinned, current, changelog) {
  const failures = [];
  const notices = [];
  for (const [name, now] of Object.entries(current)) {
    const before = pinned[name];
    if (before === undefined) {
      failures.push(`${name}: not pinned yet; run \`${UPDATE_COMMAND}\` and commit ${PINS_FILE}`);
      continue;
    }
    if (before.digest === now.digest) continue;
    const changes = describeChanges(listChangedNames(before.names ?? {}, now.names));
    const versioned = isVersionPast(now.version, before.version) && mentionsVersion(changelog, now.version);
    if (versioned) {
      notices.push(
        `${name}: rules version ${before.version} -> ${now.version} (${now.versionFrom}), in the methodology ` +
          `changelog; ${changes}. Run \`${UPDATE_COMMAND}\` and commit ${PINS_FILE}.`,
      );
      continue;
    }
    const version =
      now.version === before.version
        ? `its rules version is still ${now.version} (${now.versionFrom})`
        : !isVersionPast(now.version, before.version)
          ? `its rules version ${now.version} (${now.versionFrom}) is not past the pinned ${before.version}`
          : `the methodology changelog does not mention its new rules version ${now.version}`;
    failures.push(
      `${name}: exported values changed (${changes}), but ${version}. A rule change on purpose raises ` +
        `${now.versionFrom}, gets a line in the methodology changelog, then \`${UPDATE_COMMAND}\`; ` +
        'otherwise undo the change.',
    );
  }
  for (const name of Object.keys(pinned)) {
    if (!(name in current))
      failures.push(`${name}: pinned but no longer published; run \`${UPDATE_COMMAND}\` if that is meant`);
  }
  return { failures, notices };
}

/** Reads the pin file under `repo`; an absent file pins nothing. */
export function readPinnedFile(repo = REPO) {
  const file = join(repo, PINS_FILE);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

/** Checks the build under `repo` against its pin file. */
export async function checkPins(repo = REPO) {
  return comparePins(readPinnedFile(repo), await readCurrentPins(repo), readMethodologyChangelog(repo));
}

/** Writes the pin file from what the build under `repo` exports now; returns the pins written. */
export async function updatePins(repo = REPO) {
  const pins = await readCurrentPins(repo);
  writeFileSync(join(repo, PINS_FILE), `${JSON.stringify(pins, null, 2)}\n`);
  return pins;
}

async function main() {
  if (process.argv.includes('--update')) {
    const pins = await updatePins();
    for (const [name, pin] of Object.entries(pins))
      process.stdout.write(`${name}: ${Object.keys(pin.names).length} values pinned at ${pin.version}\n`);
    process.stdout.write(`wrote ${PINS_FILE}\n`);
    return;
  }
  const { failures, notices } = await checkPins();
  for (const notice of notices) process.stdout.write(`rules-pin: ${notice}\n`);
  for (const failure of failures) process.stderr.write(`rules-pin: ${failure}\n`);
  if (failures.length > 0) process.exitCode = 1;
  else process.stdout.write('rules-pin: every published value matches its pin\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
