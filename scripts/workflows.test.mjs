// The GitHub workflows and root scripts do what the README promises: CI runs exactly the README's test command
// on every push and pull request, on Node 20; the release workflow runs that same command before it can publish;
// every third-party action in any workflow is pinned by a full commit SHA (a tag can be moved to other code), the
// same commit wherever an action is used; and turbo runs with its telemetry and update check off. The command is
// read from README.md, so the two cannot drift apart.
// Run: node --test scripts/workflows.test.mjs (the root `test` script runs it).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
const WORKFLOWS = join(REPO, '.github', 'workflows');

/**
 * The README's test command: the one command line of its shell code blocks whose last word is `test` (comments
 * and blank lines left out).
 */
function readReadmeTestCommand() {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const lines = [...readme.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1].split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const commands = lines.filter((line) => /(^|\s)test$/.test(line));
  assert.equal(commands.length, 1, `README.md should have one test command in its code blocks, found: ${commands}`);
  return commands[0];
}

/** A workflow file, parsed. */
function readWorkflow(name) {
  return parse(readFileSync(join(WORKFLOWS, name), 'utf8'));
}

/** Every step of every job of a workflow, in order, with its job's name. */
function listSteps(workflow) {
  return Object.entries(workflow.jobs ?? {}).flatMap(([job, spec]) =>
    (spec.steps ?? []).map((step, index) => ({ job, index, step })),
  );
}

/** What a step runs, as one trimmed command (null for an action step). */
const readRun = (step) => (typeof step.run === 'string' ? step.run.trim() : null);

/** The events a workflow runs on, whatever form `on` takes (a name, a list, or a map). */
function listEvents(workflow) {
  const on = workflow.on;
  if (typeof on === 'string') return [on];
  if (Array.isArray(on)) return on;
  return Object.keys(on ?? {});
}

/** Every `uses:` of a workflow: each step's and each job's (a called workflow). */
function listUses(workflow) {
  const jobUses = Object.values(workflow.jobs ?? {})
    .map((spec) => spec.uses)
    .filter((uses) => typeof uses === 'string');
  const stepUses = listSteps(workflow)
    .map(({ step }) => step.uses)
    .filter((uses) => typeof uses === 'string');
  return [...jobUses, ...stepUses];
}

const command = readReadmeTestCommand();

describe('the README’s test command', () => {
  test('is the install and the test, through pnpm 10 from npx', () => {
    assert.equal(command, 'npx --yes pnpm@10 install && npx --yes pnpm@10 test');
  });
});

describe('ci.yml', () => {
  const ci = readWorkflow('ci.yml');

  test('runs on every push and every pull request', () => {
    const events = listEvents(ci);
    assert.ok(events.includes('push'), `events: ${events}`);
    assert.ok(events.includes('pull_request'), `events: ${events}`);
    for (const event of ['push', 'pull_request']) {
      const filter = typeof ci.on === 'object' && !Array.isArray(ci.on) ? ci.on[event] : null;
      assert.ok(filter === null || filter === undefined, `${event} should not be narrowed to some branches or paths`);
    }
  });

  test('runs exactly the README’s test command, and nothing else, on Node 20', () => {
    const runs = listSteps(ci)
      .map(({ step }) => readRun(step))
      .filter((run) => run !== null);
    assert.deepEqual(runs, [command]);
    // Node 20 from Debian's Node image: the test command's own scripts install Chromium and PostgreSQL with apt.
    const images = Object.values(ci.jobs).map((job) =>
      typeof job.container === 'object' ? job.container.image : job.container,
    );
    assert.deepEqual(images, ['node:20-bookworm']);
  });
});

describe('release.yml', () => {
  const release = readWorkflow('release.yml');

  test('runs the README’s test command in a step before the publish step', () => {
    const steps = listSteps(release);
    const publish = steps.filter(
      ({ step }) => typeof step.uses === 'string' && step.uses.startsWith('changesets/action@'),
    );
    assert.equal(publish.length, 1, 'one step publishes (changesets/action)');
    const tests = steps.filter(({ job, step }) => job === publish[0].job && readRun(step) === command);
    assert.equal(tests.length, 1, `the publishing job should run \`${command}\` once`);
    assert.ok(tests[0].index < publish[0].index, 'the tests run before the publish step');
  });
});

describe('every workflow', () => {
  const files = readdirSync(WORKFLOWS).filter((name) => /\.ya?ml$/.test(name));

  test('ci.yml and release.yml are there', () => {
    assert.ok(files.includes('ci.yml'));
    assert.ok(files.includes('release.yml'));
  });

  test('pins every third-party action by a 40-hex commit SHA, the same commit wherever it is used', () => {
    const commitOf = new Map();
    for (const file of files) {
      for (const uses of listUses(readWorkflow(file))) {
        // A local action or workflow (./...) is this repository's own code, at this commit.
        if (uses.startsWith('./')) continue;
        const match = /^([^@\s]+)@([0-9a-f]{40})$/.exec(uses);
        assert.ok(match, `${file}: ${uses} is not pinned by a full commit SHA`);
        const [, action, sha] = match;
        const earlier = commitOf.get(action);
        assert.ok(
          earlier === undefined || earlier.sha === sha,
          `${action} is pinned to two commits (${file}, ${earlier?.file})`,
        );
        commitOf.set(action, { sha, file });
      }
    }
    assert.ok(commitOf.size > 0);
  });
});

describe('the root scripts', () => {
  test('start turbo only with its telemetry and update check off, so nothing leaves the machine but installs', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    const withTurbo = Object.entries(scripts).filter(([, command]) => /(^|\s)turbo\s/.test(command));
    assert.ok(withTurbo.length >= 5, 'the build, demo and test scripts run turbo');
    for (const [name, command] of withTurbo) {
      for (const run of command.split('&&').filter((part) => /(^|\s)turbo\s/.test(part))) {
        assert.match(run.trim(), /^TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1 turbo /, `${name}: ${run}`);
      }
    }
  });

  test('the demo shows its first build going (a line per package), then runs the bin', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    assert.match(scripts.demo, /--output-logs=hash-only /);
    assert.match(scripts.demo, /&& node apps\/atlas\/bin\/mcp-atlas\.js demo$/);
  });
});
