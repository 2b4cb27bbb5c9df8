// The pinned rule tables (scripts/rules-pin.mjs): the built packages match scripts/rules-pins.json, and the check
// fails on the edits it is there for. scripts/lint-catches.test.mjs proves the same end to end: it edits risk's
// HIGH_RISK_VERBS in a copy of the tree, builds, and expects the check to fail naming it.
// Run: node --test scripts/rules-pin.test.mjs (the root `test` script runs it after the build).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  canonicalize,
  checkPins,
  comparePins,
  hashPackage,
  hashValue,
  isVersionPast,
  listChangedNames,
  mentionsVersion,
  UPDATE_COMMAND,
} from './rules-pin.mjs';

/** A pin of one package from `subpath:name` to value, as readCurrentPins makes it. */
function makePin(values, version, versionFrom = 'RISK_RULES_VERSION') {
  const names = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, hashValue(value)]));
  return { versionFrom, version, digest: hashPackage(names), names };
}

const VERBS = ['delete', 'drop', 'wipe', 'erase'];
const PINNED = { '@mcp-atlas/risk': makePin({ './rules:HIGH_RISK_VERBS': new Set(VERBS), '.:LIMIT': 3 }, '1.1.0') };
/** The same package with one verb added and one dropped, at `version`. */
const editVerbs = (version) => ({
  '@mcp-atlas/risk': makePin(
    { './rules:HIGH_RISK_VERBS': new Set([...VERBS.filter((verb) => verb !== 'wipe'), 'shred']), '.:LIMIT': 3 },
    version,
  ),
});

describe('the built packages', () => {
  test('publish exactly the pinned values, or values whose change is versioned and in the changelog', async () => {
    const { failures, notices } = await checkPins();
    for (const notice of notices) process.stdout.write(`# ${notice}\n`);
    assert.deepEqual(failures, [], `run \`${UPDATE_COMMAND}\` only for a change made on purpose`);
  });
});

describe('the canonical form', () => {
  test('does not depend on the order of a Set, a Map or an object’s keys', () => {
    assert.equal(hashValue(new Set(['a', 'b'])), hashValue(new Set(['b', 'a'])));
    assert.equal(
      hashValue(
        new Map([
          ['x', 1],
          ['y', 2],
        ]),
      ),
      hashValue(
        new Map([
          ['y', 2],
          ['x', 1],
        ]),
      ),
    );
    assert.equal(hashValue({ a: 1, b: { c: [1, 2] } }), hashValue({ b: { c: [1, 2] }, a: 1 }));
  });

  test('tells apart what differs: an array’s order, a member, a RegExp’s flags, a Set from a list', () => {
    assert.notEqual(hashValue([1, 2]), hashValue([2, 1]));
    assert.notEqual(hashValue(new Set(['wipe'])), hashValue(new Set(['shred'])));
    assert.notEqual(hashValue(/delete/i), hashValue(/delete/));
    assert.notEqual(hashValue(new Set(['a'])), hashValue(['a']));
    assert.notEqual(hashValue(0), hashValue(-0));
    assert.deepEqual(canonicalize(/a+b/gu), { $regexp: { source: 'a+b', flags: 'gu' } });
    assert.deepEqual(canonicalize({ at: Number.NaN, none: undefined }), {
      at: { $number: 'NaN' },
      none: { $undefined: true },
    });
  });
});

describe('comparing with the pins', () => {
  test('an editVerbs list fails, naming the package and the list, while its version stays', () => {
    const { failures, notices } = comparePins(PINNED, editVerbs('1.1.0'), '- **1.1.0**: risk rules 1.1.0');
    assert.equal(notices.length, 0);
    assert.equal(failures.length, 1);
    assert.match(failures[0], /^@mcp-atlas\/risk: exported values changed \(changed \.\/rules:HIGH_RISK_VERBS\)/);
    assert.match(failures[0], /still 1\.1\.0 \(RISK_RULES_VERSION\)/);
  });

  test('a raised version the changelog does not mention still fails', () => {
    const { failures } = comparePins(PINNED, editVerbs('1.2.0'), '- **1.1.0**: risk rules 1.1.0');
    assert.equal(failures.length, 1);
    assert.match(failures[0], /changelog does not mention its new rules version 1\.2\.0/);
  });

  test('a raised version the changelog mentions passes, and asks for --update', () => {
    const { failures, notices } = comparePins(PINNED, editVerbs('1.2.0'), '- **1.5.0**: risk rules 1.2.0: shred.');
    assert.deepEqual(failures, []);
    assert.equal(notices.length, 1);
    assert.match(notices[0], /1\.1\.0 -> 1\.2\.0/);
    assert.ok(notices[0].includes(UPDATE_COMMAND));
  });

  test('a lower version does not count as raised', () => {
    const { failures } = comparePins(PINNED, editVerbs('1.0.9'), 'risk rules 1.0.9');
    assert.match(failures[0], /1\.0\.9 \(RISK_RULES_VERSION\) is not past the pinned 1\.1\.0/);
  });

  test('an unchanged package passes; a new one and a gone one fail until pinned', () => {
    assert.deepEqual(comparePins(PINNED, PINNED, ''), { failures: [], notices: [] });
    const added = { ...PINNED, '@mcp-atlas/new': makePin({ '.:X': 1 }, '1.4.0', 'METHODOLOGY_VERSION') };
    assert.match(comparePins(PINNED, added, '').failures[0], /^@mcp-atlas\/new: not pinned yet/);
    assert.match(comparePins(added, PINNED, '').failures[0], /^@mcp-atlas\/new: pinned but no longer published/);
  });

  test('lists added, removed and changed names apart', () => {
    assert.deepEqual(listChangedNames({ a: '1', b: '2', c: '3' }, { a: '1', b: '9', d: '4' }), {
      added: ['d'],
      removed: ['c'],
      changed: ['b'],
    });
  });

  test('compares versions number by number, and finds a version only as a whole', () => {
    assert.equal(isVersionPast('1.10.0', '1.9.0'), true);
    assert.equal(isVersionPast('1.4.0', '1.4.0'), false);
    assert.equal(isVersionPast('2.0.0', '10.0.0'), false);
    assert.equal(mentionsVersion('- **1.2.0** (2026-12-03): ...', '1.2.0'), true);
    assert.equal(mentionsVersion('route rules 1.2.0.', '1.2.0'), true);
    assert.equal(mentionsVersion('version 11.2.0', '1.2.0'), false);
    assert.equal(mentionsVersion('version 1.2.0.1', '1.2.0'), false);
  });
});
