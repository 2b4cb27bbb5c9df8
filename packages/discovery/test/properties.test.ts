// Properties of the merge over generated directories: a second merge of the same reads on the same day changes
// nothing, the order in which sources and entries arrive changes nothing, and every readable entry lands in
// exactly one server. Bounded by a number of runs, never by time. Pure module under test.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeCatalog, type SourceEntry, type SourceName, type SourceRead } from '../src/index.js';
import { DISCOVERY_RULES } from '../src/rules.js';

const DAY = '2026-12-07';

// Few owners, repositories and registry names, so that generated entries collide often.
const repoUrl = fc.oneof(
  fc.constant(null),
  fc
    .tuple(
      fc.constantFrom('acme', 'Acme', 'zeta'),
      fc.constantFrom('notes', 'maps', 'servers'),
      fc.constantFrom('', '.git', '/', '/tree/main/x'),
    )
    .map(([owner, repo, tail]) => `https://github.com/${owner}/${repo}${tail}`),
);
const registryId = fc.oneof(fc.constant(null), fc.constantFrom('io.acme/notes', 'io.acme/maps', 'io.zeta/a'));

const entry: fc.Arbitrary<SourceEntry> = fc.record({
  sourceId: fc.constantFrom('a', 'b', 'c', 'd'),
  name: fc.constantFrom('One', 'Two', 'Three'),
  repositoryUrl: repoUrl,
  registryId,
});

const reads: fc.Arbitrary<SourceRead[]> = fc.uniqueArray(
  fc.record({
    source: fc.constantFrom(...(DISCOVERY_RULES.sources as readonly SourceName[])),
    outcome: fc.constantFrom('complete', 'truncated', 'failed' as const),
    entries: fc.array(entry, { maxLength: 4 }),
  }),
  { selector: (r) => r.source, maxLength: 5 },
);

describe('mergeCatalog properties', () => {
  it('merging the same reads again on the same day changes nothing', () => {
    fc.assert(
      fc.property(reads, (today) => {
        const once = mergeCatalog([], today, DAY).servers;
        expect(mergeCatalog(once, today, DAY).servers).toEqual(once);
      }),
      { numRuns: 300 },
    );
  });

  it('the order of the sources and of their entries changes nothing', () => {
    fc.assert(
      fc.property(reads, (today) => {
        const reversed = [...today].reverse().map((r) => ({ ...r, entries: [...r.entries].reverse() }));
        const forward = mergeCatalog([], today, DAY);
        const backward = mergeCatalog([], reversed, DAY);
        // Within one source a repeated id keeps the first one read, so compare where ids are unique.
        const unique = today.every((r) => new Set(r.entries.map((e) => e.sourceId)).size === r.entries.length);
        if (unique) expect(backward.servers).toEqual(forward.servers);
      }),
      { numRuns: 300 },
    );
  });

  it('puts every readable entry in exactly one server, under its own source', () => {
    fc.assert(
      fc.property(reads, (today) => {
        const { servers, leftOut } = mergeCatalog([], today, DAY);
        const listed = today.reduce((sum, r) => sum + r.entries.length, 0);
        const placed = servers.reduce((sum, s) => sum + Object.keys(s.sources).length, 0);
        // One sighting per source per server: entries of one source that are one server count once.
        expect(placed + leftOut.length).toBeLessThanOrEqual(listed);
        expect(new Set(servers.map((s) => s.key)).size).toBe(servers.length);
        for (const s of servers) expect(s.active).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
