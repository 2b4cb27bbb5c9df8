// The root lint must catch the four edits named in issue 21: a badly formatted line in a package, two app files
// that import each other, a package that imports from apps/atlas, and an exported app function nothing uses; and
// a rule Biome only warns about, since the root lint fails on warnings.
// Each case edits a temporary copy of the working tree (never the tree itself), checks first that the tool the root
// `lint` runs for that rule passes on the copy, then makes the edit and expects the same tool to fail, naming the
// problem. The copy shares the real node_modules through pnpm's relative links, so the tools run as they do here.
// Run: node --test scripts/lint-catches.test.mjs (the root `test` script runs it after the build).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
const BIN = join(REPO, 'node_modules', '.bin');

/** Folders never copied: history, caches, build and test outputs. Workspace node_modules are copied (links only). */
const SKIPPED_NAMES = new Set(['.git', '.turbo', '.cache', 'coverage', 'test-artifacts', 'atlas-data']);

let copy = '';
/** The app file the knip case edits, as it was copied. */
let logSource = '';

/** Copies the working tree to a temporary folder; the root node_modules (the pnpm store) is linked, not copied. */
function copyTree() {
  const target = mkdtempSync(join(tmpdir(), 'mcp-atlas-lint-'));
  cpSync(REPO, target, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => {
      const path = relative(REPO, source);
      if (path === 'node_modules') return false;
      return !SKIPPED_NAMES.has(basename(source));
    },
  });
  symlinkSync(join(REPO, 'node_modules'), join(target, 'node_modules'), 'dir');
  return target;
}

/** Runs one of the root lint's tools in the copy and returns its exit code and everything it printed. */
function run(tool, args) {
  const result = spawnSync(join(BIN, tool), args, {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    timeout: 240_000,
  });
  if (result.error) throw result.error;
  return { code: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/** Applies `edit` to the copy, runs `check`, and undoes the edit whatever happens, so each case starts clean. */
function withEdit(files, edit, check) {
  const saved = files.map((file) => {
    const path = join(copy, file);
    try {
      return { path, text: readFileSync(path, 'utf8') };
    } catch {
      return { path, text: null };
    }
  });
  try {
    edit();
    return check();
  } finally {
    for (const { path, text } of saved) {
      if (text === null) rmSync(path, { force: true });
      else writeFileSync(path, text);
    }
  }
}

// The same commands the root `lint` script runs (package.json), narrowed to what each case touches.
const biomeOn = (file) => run('biome', ['check', '--error-on-warnings', '--vcs-enabled=false', file]);
const dependencyCruise = () => run('depcruise', ['packages', 'apps', '--config', '.dependency-cruiser.cjs']);
const knip = () => run('knip', ['--no-config-hints', '--no-progress', '--workspace', 'apps/atlas']);

describe('the root lint catches the house rules it promises', () => {
  before(() => {
    copy = copyTree();
    logSource = readFileSync(join(copy, 'apps/atlas/src/log.ts'), 'utf8');
  });
  after(() => {
    if (copy !== '') rmSync(copy, { recursive: true, force: true });
  });

  test('a badly formatted line in a package fails biome', () => {
    const file = 'packages/risk/src/index.ts';
    const clean = biomeOn(file);
    assert.equal(clean.code, 0, `biome should pass before the edit:\n${clean.output}`);
    const broken = withEdit(
      [file],
      () => appendFileSync(join(copy, file), 'export const   badlyFormatted = {a:1,b:2}\n'),
      () => biomeOn(file),
    );
    assert.notEqual(broken.code, 0, broken.output);
    assert.match(broken.output, /index\.ts/);
    assert.match(broken.output, /format/i);
  });

  test('a rule that only warns (a non-null assertion) still fails biome, as the root lint runs it', () => {
    const file = 'packages/risk/src/index.ts';
    const script = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')).scripts.lint;
    assert.match(script, /biome check --error-on-warnings \./, 'the root lint must fail on warnings');
    const broken = withEdit(
      [file],
      () =>
        appendFileSync(
          join(copy, file),
          'export function firstForLint(items: readonly string[]): string {\n  return items[0]!;\n}\n',
        ),
      () => biomeOn(file),
    );
    assert.notEqual(broken.code, 0, broken.output);
    assert.match(broken.output, /noNonNullAssertion/);
  });

  test('two app files that import each other fail dependency-cruiser (no-circular)', () => {
    const clean = dependencyCruise();
    assert.equal(clean.code, 0, `dependency-cruiser should pass before the edit:\n${clean.output}`);
    const first = 'apps/atlas/src/data/lint-cycle-first.ts';
    const second = 'apps/atlas/src/data/lint-cycle-second.ts';
    const broken = withEdit(
      [first, second],
      () => {
        writeFileSync(
          join(copy, first),
          "import { second } from './lint-cycle-second.js';\nexport const first = (): number => second() + 1;\n",
        );
        writeFileSync(
          join(copy, second),
          "import { first } from './lint-cycle-first.js';\nexport const second = (): number => first() - 1;\n",
        );
      },
      dependencyCruise,
    );
    assert.notEqual(broken.code, 0, broken.output);
    assert.match(broken.output, /no-circular/);
    assert.match(broken.output, /lint-cycle-first\.ts/);
  });

  test('a package that imports from apps/atlas fails dependency-cruiser (packages-never-import-an-app)', () => {
    const file = 'packages/risk/src/lint-reaches-app.ts';
    const broken = withEdit(
      [file],
      () =>
        writeFileSync(
          join(copy, file),
          "import { createLogger } from '../../../apps/atlas/src/log.js';\nexport const logger = createLogger;\n",
        ),
      dependencyCruise,
    );
    assert.notEqual(broken.code, 0, broken.output);
    assert.match(broken.output, /packages-never-import-an-app/);
    assert.match(broken.output, /lint-reaches-app\.ts/);
  });

  test('an exported app function that nothing uses fails knip', () => {
    const clean = knip();
    assert.equal(clean.code, 0, `knip should pass before the edit:\n${clean.output}`);
    const file = 'apps/atlas/src/log.ts';
    const broken = withEdit(
      [file],
      () =>
        appendFileSync(
          join(copy, file),
          '\n/** Used by nothing: the lint must report it. */\nexport function describeNothingForLint(): string {\n  return "";\n}\n',
        ),
      knip,
    );
    assert.notEqual(broken.code, 0, broken.output);
    assert.match(broken.output, /Unused exports/);
    assert.match(broken.output, /describeNothingForLint/);
  });

  test('the copy is left as it was after each case', () => {
    assert.equal(readFileSync(join(copy, 'apps/atlas/src/log.ts'), 'utf8'), logSource);
    assert.throws(() => readFileSync(join(copy, 'packages/risk/src/lint-reaches-app.ts')));
  });
});
