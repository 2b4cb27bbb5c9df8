#!/usr/bin/env node
// `pnpm api:report`: what each published package offers its users. For every package that is not private it
// imports each subpath of its `exports` from the built `dist/` and prints the runtime names, with their count.
// With --check it also fails when a root entry exports more than ROOT_NAME_LIMIT runtime names: a root holds
// what users call, and rule constants or helpers go under a subpath or stay internal.
//
// Run `pnpm build` first: the report reads what would be published, not the sources.
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The most runtime names a published package's root entry may export. */
export const ROOT_NAME_LIMIT = 40;

const root = resolve(import.meta.dirname, '..');

/** The ESM file a subpath of `exports` points at, or null for a non-code entry (package.json). */
function esmTarget(entry) {
  if (typeof entry === 'string') return entry.endsWith('.js') ? entry : null;
  const importEntry = entry.import ?? entry.default;
  if (typeof importEntry === 'string') return importEntry;
  if (importEntry && typeof importEntry.default === 'string') return importEntry.default;
  return null;
}

/** Each published workspace package's folder and manifest, in name order. */
async function publishedPackages() {
  const folders = [];
  for (const parent of ['packages', 'apps']) {
    for (const name of await readdir(join(root, parent))) {
      const dir = join(root, parent, name);
      let manifest;
      try {
        manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
      } catch {
        continue;
      }
      if (manifest.private !== true && manifest.exports !== undefined) folders.push({ dir, manifest });
    }
  }
  return folders.sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/** Every code subpath of a package with its sorted runtime names. */
async function subpathsOf({ dir, manifest }) {
  const out = [];
  for (const [subpath, entry] of Object.entries(manifest.exports)) {
    const target = esmTarget(entry);
    if (target === null) continue;
    const module = await import(pathToFileURL(join(dir, target)).href);
    out.push({ subpath, names: Object.keys(module).sort() });
  }
  return out;
}

async function main() {
  const check = process.argv.includes('--check');
  const problems = [];
  for (const pkg of await publishedPackages()) {
    const subpaths = await subpathsOf(pkg);
    process.stdout.write(`${pkg.manifest.name}\n`);
    for (const { subpath, names } of subpaths) {
      process.stdout.write(`  ${subpath.padEnd(12)} ${String(names.length).padStart(3)}  ${names.join(', ')}\n`);
      if (subpath === '.' && names.length > ROOT_NAME_LIMIT) {
        problems.push(`${pkg.manifest.name}: root exports ${names.length} runtime names, over ${ROOT_NAME_LIMIT}`);
      }
    }
  }
  if (check && problems.length > 0) {
    for (const problem of problems) process.stderr.write(`api:report: ${problem}\n`);
    process.exitCode = 1;
  }
}

await main();
