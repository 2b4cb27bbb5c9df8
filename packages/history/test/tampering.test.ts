// Every kind of tampering is caught, and the verdict names the day or the file that broke.
import { shiftDay } from '@mcp-atlas/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signBytes } from '../src/ed25519.js';
import {
  checkDayRoot,
  computeRoot,
  type DayRoot,
  dayLines,
  fileLine,
  HistoryError,
  parseDayRoot,
  sealDaySync,
  verifyChain,
  verifyChainSync,
  verifyDayRoot,
  verifyFileHashes,
  verifyFiles,
} from '../src/index.js';
import {
  copy,
  dayFiles,
  hex,
  OTHER_PRIVATE_KEY,
  OTHER_PUBLIC_KEY,
  PRIVATE_KEY,
  PUBLIC_KEY,
  sealedChain,
  text,
} from './helpers.js';

const CHAIN = sealedChain('2026-09-29', 5); // 09-29, 09-30, 10-01, 10-02, 10-03
const ROOT_MISMATCH = 'root does not match the sha256 of previous_root and files';
const BAD_SIGNATURE = 'signature does not verify against the public key';

function at(index: number): DayRoot {
  const record = CHAIN[index];
  if (record === undefined) throw new Error(`no record ${index}`);
  return copy(record);
}

/** A record signed by the real key over whatever lines and previous root it is given. */
function signedByKeyHolder(day: string, files: string[], previousRoot: string | null): DayRoot {
  const root = computeRoot(previousRoot, files);
  const signature = Buffer.from(signBytes(hex(root), PRIVATE_KEY)).toString('base64');
  return { day, root, previous_root: previousRoot, files, signature };
}

function thrown(action: () => unknown): HistoryError {
  try {
    action();
  } catch (error) {
    if (error instanceof HistoryError) return error;
    throw error;
  }
  throw new Error('expected a HistoryError');
}

describe('an untouched chain verifies', () => {
  it('day by day and as a chain', async () => {
    for (const record of CHAIN) expect(await verifyDayRoot(record, PUBLIC_KEY)).toBe(true);
    expect(await verifyChain(CHAIN, PUBLIC_KEY)).toEqual({ ok: true, days: 5 });
  });

  it('with an empty list', async () => {
    expect(await verifyChain([], PUBLIC_KEY)).toEqual({ ok: true, days: 0 });
  });

  it('across a gap of up to 14 days, chaining to the newest earlier root', () => {
    const first = sealDaySync({
      day: '2026-10-01',
      files: dayFiles('2026-10-01'),
      previousRoot: null,
      privateKey: PRIVATE_KEY,
    });
    const afterGap = sealDaySync({
      day: '2026-10-15',
      files: dayFiles('2026-10-15'),
      previousRoot: first.root,
      privateKey: PRIVATE_KEY,
    });
    expect(verifyChainSync([first, afterGap], PUBLIC_KEY)).toEqual({ ok: true, days: 2 });
  });

  it('across a gap longer than 14 days, where the chain starts again from null', () => {
    const first = sealDaySync({
      day: '2026-10-01',
      files: dayFiles('2026-10-01'),
      previousRoot: null,
      privateKey: PRIVATE_KEY,
    });
    const afterGap = sealDaySync({
      day: '2026-10-16',
      files: dayFiles('2026-10-16'),
      previousRoot: null,
      privateKey: PRIVATE_KEY,
    });
    expect(verifyChainSync([first, afterGap], PUBLIC_KEY)).toEqual({ ok: true, days: 2 });
  });

  it('for a window of the chain, taking the first previous_root as given or checking it against an anchor', () => {
    const window = CHAIN.slice(2);
    expect(verifyChainSync(window, PUBLIC_KEY)).toEqual({ ok: true, days: 3 });
    expect(verifyChainSync(window, PUBLIC_KEY, { anchorRoot: at(1).root })).toEqual({ ok: true, days: 3 });
    expect(verifyChainSync(window, PUBLIC_KEY, { anchorRoot: at(0).root })).toEqual({
      ok: false,
      day: '2026-10-01',
      index: 0,
      reason: 'previous_root is not the anchor root the chain was asked to continue',
    });
    expect(verifyChainSync(CHAIN, PUBLIC_KEY, { anchorRoot: null })).toEqual({ ok: true, days: 5 });
  });
});

describe('a flipped byte in a file', () => {
  it('is named by verifyFiles as mismatched', () => {
    const files = dayFiles('2026-10-01');
    const target = files.find((file) => file.path === 'results/001.json');
    if (target === undefined) throw new Error('fixture changed');
    target.bytes = target.bytes.slice();
    target.bytes[3] = (target.bytes[3] ?? 0) ^ 0x01;
    expect(verifyFiles(at(2), files)).toEqual({ ok: false, mismatched: ['results/001.json'], missing: [], extra: [] });
  });

  it('leaves the untouched day verified', () => {
    expect(verifyFiles(at(2), dayFiles('2026-10-01'))).toEqual({ ok: true, mismatched: [], missing: [], extra: [] });
  });

  it('lists missing and extra files too, sorted by path', () => {
    const files = dayFiles('2026-10-01').filter((file) => file.path !== 'index.json' && file.path !== 'changes.json');
    files.push({ path: 'zz-notes.txt', bytes: text('x') }, { path: 'aa.json', bytes: text('y') });
    expect(verifyFiles(at(2), files)).toEqual({
      ok: false,
      mismatched: [],
      missing: ['changes.json', 'index.json'],
      extra: ['aa.json', 'zz-notes.txt'],
    });
  });

  it('is also found from precomputed hashes', () => {
    const hashes = dayLines(dayFiles('2026-10-01')).map((line) => ({ hash: line.slice(0, 64), path: line.slice(66) }));
    expect(verifyFileHashes(at(2), hashes).ok).toBe(true);
    const changed = hashes.map((entry) => (entry.path === 'summary.json' ? { ...entry, hash: '0'.repeat(64) } : entry));
    expect(verifyFileHashes(at(2), changed)).toEqual({
      ok: false,
      mismatched: ['summary.json'],
      missing: [],
      extra: [],
    });
  });
});

describe('a changed line', () => {
  it('breaks the root of that day', async () => {
    const record = at(2);
    record.files[1] = fileLine('changes.json', text('[{"forged":true}]'));
    expect(checkDayRoot(record, PUBLIC_KEY)).toEqual({ ok: false, reason: ROOT_MISMATCH });
    expect(await verifyDayRoot(record, PUBLIC_KEY)).toBe(false);
    const chain = copy(CHAIN);
    chain[2] = record;
    expect(await verifyChain(chain, PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-10-01',
      index: 2,
      reason: ROOT_MISMATCH,
    });
  });

  it('breaks the root when a line is removed or added', () => {
    const removed = at(3);
    removed.files.splice(0, 1);
    expect(checkDayRoot(removed, PUBLIC_KEY)).toEqual({ ok: false, reason: ROOT_MISMATCH });
    const added = at(3);
    added.files.push(fileLine('zz.json', text('x')));
    expect(checkDayRoot(added, PUBLIC_KEY)).toEqual({ ok: false, reason: ROOT_MISMATCH });
  });
});

describe('a changed root', () => {
  it('no longer matches its files', async () => {
    const chain = copy(CHAIN);
    const record = chain[3] as DayRoot;
    record.root = `${record.root.slice(0, 63)}${record.root.endsWith('0') ? '1' : '0'}`;
    expect(await verifyChain(chain, PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-10-02',
      index: 3,
      reason: ROOT_MISMATCH,
    });
  });

  it('is caught even when the forger also recomputes it from changed files, because the signature fails', () => {
    const record = at(3);
    record.files[0] = fileLine('catalogs/weather.json', text('{"tools":[]}'));
    record.root = computeRoot(record.previous_root, record.files);
    expect(checkDayRoot(record, PUBLIC_KEY)).toEqual({ ok: false, reason: BAD_SIGNATURE });
  });
});

describe('a changed signature', () => {
  it('taken from another day fails the check', async () => {
    const chain = copy(CHAIN);
    (chain[1] as DayRoot).signature = at(0).signature;
    expect(await verifyChain(chain, PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-09-30',
      index: 1,
      reason: BAD_SIGNATURE,
    });
  });

  it('with one bit flipped fails the check', () => {
    const record = at(1);
    const bytes = Buffer.from(record.signature, 'base64');
    bytes[10] = (bytes[10] ?? 0) ^ 0x80;
    record.signature = bytes.toString('base64');
    expect(checkDayRoot(record, PUBLIC_KEY)).toEqual({ ok: false, reason: BAD_SIGNATURE });
  });

  it.each([
    ['too short', 'AAAA'],
    ['URL-safe alphabet', at(1).signature.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '').concat('-')],
    ['missing padding', at(1).signature.replace(/=+$/, '')],
    ['with whitespace', ` ${at(1).signature}`],
  ])('that is not canonical base64 of 64 bytes (%s) fails the check', (_name, signature) => {
    expect(checkDayRoot({ ...at(1), signature }, PUBLIC_KEY)).toEqual({
      ok: false,
      reason: 'signature is not canonical base64 of 64 bytes',
    });
  });
});

describe('a reordered day', () => {
  it('is caught at the first day that chains to a day listed after it', async () => {
    const chain = [at(0), at(1), at(3), at(2), at(4)];
    expect(await verifyChain(chain, PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-10-02',
      index: 2,
      reason:
        'previous_root is the root of 2026-10-01, which comes later in the list (records must be oldest first); it should be the root of 2026-09-30, the newest earlier day in the 14 days before it',
    });
  });

  it('is caught by the day order when the links alone cannot show it', async () => {
    // Two days that each start a chain (previous_root null) and are listed newest first.
    const early = sealDaySync({ day: '2026-10-01', files: [], previousRoot: null, privateKey: PRIVATE_KEY });
    const late = sealDaySync({ day: '2026-11-01', files: [], previousRoot: null, privateKey: PRIVATE_KEY });
    expect(await verifyChain([late, early], PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-10-01',
      index: 1,
      reason: 'day is out of order: it comes after 2026-11-01 (records must be oldest first)',
    });
  });

  it('is caught when two records swap their day labels, by the link', async () => {
    const first = at(1);
    const second = at(2);
    [first.day, second.day] = [second.day, first.day];
    const chain = [at(0), second, first, at(3)];
    const verdict = await verifyChain(chain, PUBLIC_KEY);
    expect(verdict).toEqual({
      ok: false,
      day: '2026-09-30',
      index: 1,
      reason:
        'previous_root is the root of 2026-10-01, which comes later in the list (records must be oldest first); it should be the root of 2026-09-29, the newest earlier day in the 14 days before it',
    });
  });

  it('is caught when a day appears twice', async () => {
    expect(await verifyChain([at(0), at(1), at(1)], PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-09-30',
      index: 2,
      reason: 'day appears twice in the chain (a sealed day is never signed again)',
    });
  });
});

describe('a missing day', () => {
  it('is caught at the next day, whose previous_root points at nothing in the chain', async () => {
    const chain = [at(0), at(1), at(3), at(4)];
    expect(await verifyChain(chain, PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-10-02',
      index: 2,
      reason:
        'previous_root matches no day in the chain (a day is missing, or previous_root is wrong); it should be the root of 2026-09-30, the newest earlier day in the 14 days before it',
    });
  });

  it('is caught when the first day is removed and the rest is checked against an anchor', async () => {
    expect(await verifyChain(CHAIN.slice(2), PUBLIC_KEY, { anchorRoot: at(0).root })).toMatchObject({
      ok: false,
      day: '2026-10-01',
    });
  });
});

describe('a wrong previous_root', () => {
  it('edited into a record breaks its root', async () => {
    const chain = copy(CHAIN);
    (chain[2] as DayRoot).previous_root = at(0).root;
    expect(await verifyChain(chain, PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-10-01',
      index: 2,
      reason: ROOT_MISMATCH,
    });
  });

  it('signed by the key holder but chained to an older day is caught by the link', async () => {
    const skip = signedByKeyHolder('2026-10-01', at(2).files, at(0).root);
    expect(checkDayRoot(skip, PUBLIC_KEY)).toEqual({ ok: true });
    expect(await verifyChain([at(0), at(1), skip], PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-10-01',
      index: 2,
      reason:
        'previous_root is the root of 2026-09-29; it should be the root of 2026-09-30, the newest earlier day in the 14 days before it',
    });
  });

  it('signed as null although an earlier day is in the window is caught', async () => {
    const unlinked = signedByKeyHolder('2026-10-01', at(2).files, null);
    expect(await verifyChain([at(0), at(1), unlinked], PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-10-01',
      index: 2,
      reason:
        'previous_root is null; it should be the root of 2026-09-30, the newest earlier day in the 14 days before it',
    });
  });

  it('pointing at a day more than 14 days back is caught: the chain should have restarted from null', async () => {
    const first = at(0);
    const late = signedByKeyHolder(shiftDay(first.day, 15), at(1).files, first.root);
    expect(await verifyChain([first, late], PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-10-14',
      index: 1,
      reason:
        'previous_root is the root of 2026-09-29; it should be null, since no earlier day in the chain falls in the 14 days before it',
    });
  });
});

describe('a wrong key', () => {
  it('fails the first day', async () => {
    expect(await verifyChain(CHAIN, OTHER_PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-09-29',
      index: 0,
      reason: BAD_SIGNATURE,
    });
    expect(await verifyDayRoot(at(0), OTHER_PUBLIC_KEY)).toBe(false);
  });

  it('fails a day signed by another key in the middle of the chain', async () => {
    const chain = copy(CHAIN);
    const day = at(3);
    chain[3] = sealDaySync({
      day: day.day,
      files: dayFiles(day.day),
      previousRoot: day.previous_root,
      privateKey: OTHER_PRIVATE_KEY,
    });
    expect(await verifyChain(chain, PUBLIC_KEY)).toEqual({
      ok: false,
      day: '2026-10-02',
      index: 3,
      reason: BAD_SIGNATURE,
    });
  });

  it('of the wrong length is the caller’s error, not a verdict', async () => {
    const error = thrown(() => checkDayRoot(at(0), new Uint8Array(16)));
    expect(error.code).toBe('invalid-key');
    expect(error.message).toBe('public key must be 32 bytes, got 16');
    await expect(verifyDayRoot(at(0), new Uint8Array(33))).rejects.toThrow('public key must be 32 bytes, got 33');
    await expect(verifyChain(CHAIN, 'key' as unknown as Uint8Array)).rejects.toThrow(
      'public key must be a Uint8Array of 32 bytes, got "key"',
    );
  });
});

describe('malformed records are verdicts with a reason, never crashes', () => {
  const good = at(0);
  it.each([
    ['not an object', 'hello', 'record must be an object, got "hello"'],
    ['null', null, 'record must be an object, got null'],
    ['an array', [], 'record must be an object, got an array'],
    [
      'a bad day',
      { ...good, day: '2026-9-29' },
      'day must be a real calendar date written YYYY-MM-DD, got "2026-9-29"',
    ],
    ['a missing root', { ...good, root: undefined }, 'root must be 64 lowercase hex characters, got undefined'],
    [
      'an upper-case root',
      { ...good, root: good.root.toUpperCase() },
      `root must be 64 lowercase hex characters, got "${good.root.toUpperCase()}"`,
    ],
    [
      'an empty previous_root',
      { ...good, previous_root: '' },
      'previous_root must be null or 64 lowercase hex characters, got ""',
    ],
    ['files as a string', { ...good, files: 'index.json' }, 'files must be an array of lines, got "index.json"'],
    ['a numeric signature', { ...good, signature: 7 }, 'signature must be a base64 string, got number 7'],
    ['a line that is not a string', { ...good, files: [3] }, 'files[0]: a line must be a string, got number 3'],
    [
      'a line with one space',
      { ...good, files: [`${'a'.repeat(64)} x.json`] },
      `files[0]: line "${'a'.repeat(64)} x.json" is not "<64 lowercase hex>  <path>"`,
    ],
    [
      'a line with a refused path',
      { ...good, files: [`${'a'.repeat(64)}  /etc/passwd`] },
      'files[0]: path "/etc/passwd" is refused: it starts with a slash (paths are relative to the day folder)',
    ],
  ])('%s', (_name, record, reason) => {
    expect(checkDayRoot(record, PUBLIC_KEY)).toEqual({ ok: false, reason });
    expect(verifyChainSync([record as DayRoot], PUBLIC_KEY)).toMatchObject({ ok: false, index: 0, reason });
  });

  it('names a record without a readable day by its position', () => {
    expect(verifyChainSync([at(0), { nonsense: true } as unknown as DayRoot], PUBLIC_KEY)).toEqual({
      ok: false,
      day: 'records[1]',
      index: 1,
      reason: 'day must be a real calendar date written YYYY-MM-DD, got undefined',
    });
  });

  it('refuses lines out of order or repeated even when the key holder signed them', () => {
    const lines = dayLines(dayFiles('2026-10-01'));
    const unsorted = signedByKeyHolder('2026-10-01', [lines[1] ?? '', lines[0] ?? '', ...lines.slice(2)], null);
    expect(checkDayRoot(unsorted, PUBLIC_KEY)).toEqual({
      ok: false,
      reason: 'files[1]: path "catalogs/weather.json" is out of order (lines are sorted by path)',
    });
    const repeated = signedByKeyHolder('2026-10-01', [lines[0] ?? '', lines[0] ?? ''], null);
    expect(checkDayRoot(repeated, PUBLIC_KEY)).toEqual({
      ok: false,
      reason: 'files[1]: path "catalogs/weather.json" appears more than once',
    });
  });

  it('refuses a chain that is not an array', () => {
    expect(thrown(() => verifyChainSync({} as DayRoot[], PUBLIC_KEY)).message).toBe(
      'records must be an array of day roots, got an object',
    );
  });
});

describe('verifyFiles and parseDayRoot on bad input', () => {
  it('verifyFiles refuses a malformed record with invalid-record', () => {
    const error = thrown(() => verifyFiles({ ...at(0), files: ['nope'] }, []));
    expect(error.code).toBe('invalid-record');
    expect(error.message).toBe('record cannot be checked: files[0]: line "nope" is not "<64 lowercase hex>  <path>"');
  });

  it('verifyFiles refuses a refused path or a duplicate among the files', () => {
    expect(thrown(() => verifyFiles(at(0), [{ path: 'a\\b', bytes: text('') }])).code).toBe('invalid-path');
    expect(
      thrown(() =>
        verifyFiles(at(0), [
          { path: 'a', bytes: text('') },
          { path: 'a', bytes: text('') },
        ]),
      ).code,
    ).toBe('duplicate-path');
  });

  it('verifyFileHashes refuses a bad hash, a bad path and a duplicate', () => {
    expect(thrown(() => verifyFileHashes(at(0), [{ path: 'a.json', hash: 'xyz' }])).message).toBe(
      'hashes[0].hash must be 64 lowercase hex characters, got "xyz"',
    );
    expect(thrown(() => verifyFileHashes(at(0), [{ path: '', hash: '0'.repeat(64) }])).message).toBe(
      'path must not be empty',
    );
    const twice = { path: 'a.json', hash: '0'.repeat(64) };
    expect(thrown(() => verifyFileHashes(at(0), [twice, twice])).code).toBe('duplicate-path');
    expect(thrown(() => verifyFileHashes(at(0), 'x' as unknown as [])).message).toBe(
      'hashes must be an array of { path, hash }, got "x"',
    );
  });

  it('parseDayRoot returns a clean copy of a well-formed record and refuses others', () => {
    const parsed = parseDayRoot({ ...at(0), extra: 'dropped' });
    expect(parsed).toEqual(at(0));
    const error = thrown(() => parseDayRoot({ ...at(0), signature: null }));
    expect(error.code).toBe('invalid-record');
    expect(error.message).toBe('not a day record: signature must be a base64 string, got null');
  });
});

describe('any single-character change to a sealed record is caught', () => {
  it('in the root, the previous root, a line or the signature', () => {
    const record = at(3);
    const fields = ['root', 'previous_root', 'signature', 'line'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...fields),
        fc.nat(),
        fc.nat(),
        fc.constantFrom(...'0123456789abcdefABCDEF+/='),
        (field, row, position, replacement) => {
          const changed = copy(record);
          const edit = (value: string): string => {
            const index = position % value.length;
            fc.pre(value[index] !== replacement);
            return value.slice(0, index) + replacement + value.slice(index + 1);
          };
          if (field === 'line') {
            const index = row % changed.files.length;
            changed.files[index] = edit(changed.files[index] ?? '');
          } else {
            changed[field] = edit(changed[field] ?? '');
          }
          expect(checkDayRoot(changed, PUBLIC_KEY).ok).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});
