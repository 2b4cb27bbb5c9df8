// The root lint must catch what the house rules forbid: a badly formatted line in a package, two app files that
// import each other, a package that imports from apps/atlas, and an exported app function nothing uses; and a rule
// Biome only warns about, since the root lint fails on warnings. The root test must also catch a rule list edited
// without a version: a verb added to risk's HIGH_RISK_VERBS and another dropped fail the rule pins
// (scripts/rules-pin.mjs).
// Each case edits a temporary copy of the working tree (never the tree itself), checks first that the tool the root
// `lint` runs for that rule passes on the copy, then makes the edit and expects the same tool to fail, naming the
// problem. The copy shares the real node_modules through pnpm's relative links, so the tools run as they do here.
// Run: node --test scripts/lint-catches.test.mjs (the root `test` script runs it after the build).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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

/**
 * Runs a program in the copy (or in `folder` of it) and returns its exit code and everything it printed. The
 * limit only ends a program that hangs: far beyond what any of them takes on a loaded machine.
 */
function runProgram(program, args, folder = '.') {
  const result = spawnSync(program, args, {
    cwd: join(copy, folder),
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    timeout: 900_000,
  });
  if (result.error) throw result.error;
  return { code: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/** Runs one of the root lint's tools in the copy and returns its exit code and everything it printed. */
function run(tool, args) {
  return runProgram(join(BIN, tool), args);
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
// The rule pins as the root `test` script checks them, and the build of the package the pin case edits.
const runRulesPin = (...args) => runProgram(process.execPath, ['scripts/rules-pin.mjs', ...args]);
const buildRisk = () => runProgram(join(BIN, 'tsup'), [], 'packages/risk');

/** The risk source file that declares HIGH_RISK_VERBS, and that declaration's text (up to its closing `]);`). */
function findHighRiskVerbs() {
  const folder = 'packages/risk/src';
  for (const name of readdirSync(join(copy, folder)).filter((file) => file.endsWith('.ts'))) {
    const file = `${folder}/${name}`;
    const text = readFileSync(join(copy, file), 'utf8');
    const start = text.search(/export const HIGH_RISK_VERBS\b/);
    if (start === -1) continue;
    const end = text.indexOf(']);', start);
    return { file, text, declaration: text.slice(start, end) };
  }
  throw new Error('no packages/risk/src file declares HIGH_RISK_VERBS: update this case to where the list lives');
}

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

  test('adding a verb to HIGH_RISK_VERBS and dropping another fails the rule pins, naming the list', () => {
    // Pinned as the copy is built now, so the case holds whatever the committed pins say.
    const pinned = runRulesPin('--update');
    assert.equal(pinned.code, 0, `pinning the copy should work:\n${pinned.output}`);
    const clean = runRulesPin();
    assert.equal(clean.code, 0, `the rule pins should pass before the edit:\n${clean.output}`);
    const { file, text, declaration } = findHighRiskVerbs();
    assert.match(declaration, /'wipe',/, 'the case drops `wipe` from the list: update it if the list lost it');
    let broken;
    try {
      broken = withEdit(
        [file],
        () => writeFileSync(join(copy, file), text.replace(declaration, declaration.replace("'wipe',", "'shred',"))),
        () => {
          const built = buildRisk();
          assert.equal(built.code, 0, `the edited risk package should build:\n${built.output}`);
          return runRulesPin();
        },
      );
    } finally {
      // The copy's build back to its source, so every later case sees the package as it was.
      assert.equal(buildRisk().code, 0);
    }
    assert.notEqual(broken.code, 0, broken.output);
    assert.match(broken.output, /@mcp-atlas\/risk: exported values changed \(changed /);
    assert.match(broken.output, /HIGH_RISK_VERBS|VERB_RULES/);
    assert.match(broken.output, /still \d+\.\d+\.\d+ \(RISK_RULES_VERSION\)/);
    assert.equal(runRulesPin().code, 0, 'the rule pins pass again once the edit is undone');
  });

  test('the copy is left as it was after each case', () => {
    assert.equal(readFileSync(join(copy, 'apps/atlas/src/log.ts'), 'utf8'), logSource);
    assert.throws(() => readFileSync(join(copy, 'packages/risk/src/lint-reaches-app.ts')));
  });
});
