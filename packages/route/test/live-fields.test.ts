// withLiveFields: replacing servers' live fields in a built index must give exactly what a new index over the
// changed servers gives, for every search and route, while leaving the old index as it was.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createToolIndex,
  type IndexServer,
  type LiveServerUpdate,
  RouteInputError,
  routeTask,
  searchTools,
  withLiveFields,
} from '../src/index.js';
import { catalog } from './fixtures.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const QUERIES = ['send an email', 'list my calendar events', 'read a file', 'refund a payment', 'delete a file'];

/** The servers with the updates applied, as a caller would pass them to createToolIndex. */
function applied(servers: readonly IndexServer[], updates: readonly LiveServerUpdate[]): IndexServer[] {
  return servers.map((server) => {
    const update = updates.find((u) => u.id === server.id);
    if (update === undefined) return server;
    const { id: _id, ...fields } = update;
    const kept = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
    return { ...server, ...kept };
  });
}

/** Every search (answering only and not) and route of QUERIES over `index`. */
function answersOf(index: ReturnType<typeof createToolIndex>) {
  return QUERIES.map((query) => ({
    search: searchTools(index, query),
    all: searchTools(index, query, { answeringOnly: false }),
    route: routeTask(index, query, { now: NOW }),
  }));
}

const update = fc.record(
  {
    id: fc.constantFrom(...catalog.map((server) => server.id)),
    answering: fc.boolean(),
    liveIncident: fc.boolean(),
    agentsReliability: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true })),
  },
  { requiredKeys: ['id'] },
);

describe('withLiveFields', () => {
  it('answers every search and route as a new index over the changed servers does, batch after batch', () => {
    const batch = fc.uniqueArray(update, { selector: (u) => u.id, maxLength: catalog.length });
    fc.assert(
      fc.property(fc.array(batch, { minLength: 1, maxLength: 3 }), (batches) => {
        const first = createToolIndex(catalog);
        // As the service does: each live update starts from the index the last one gave.
        let index = first;
        let servers: IndexServer[] = [...catalog];
        for (const updates of batches) {
          index = withLiveFields(index, updates);
          servers = applied(servers, updates);
          expect(answersOf(index)).toEqual(answersOf(createToolIndex(servers)));
        }
        // The first index still answers as before any update.
        expect(answersOf(first)).toEqual(answersOf(createToolIndex(catalog)));
      }),
      { numRuns: 60 },
    );
    // Each run builds up to four indexes and answers 15 queries on each; on a loaded 2-core machine running the
    // other packages' tests at once, 60 runs have taken over the default 5 s.
  });

  it('starts from servers that are down or in an incident, as a catalog read from a day often does', () => {
    const start = catalog.map((server, at) => ({ ...server, answering: at % 2 === 0, liveIncident: at % 3 === 0 }));
    const updates = catalog.map((server, at) => ({ id: server.id, answering: at % 2 === 1, liveIncident: false }));
    const index = withLiveFields(createToolIndex(start), updates);
    expect(answersOf(index)).toEqual(answersOf(createToolIndex(applied(start, updates))));
    expect(answersOf(index)).not.toEqual(answersOf(createToolIndex(start)));
  });

  it('drops a server that stops answering from a search, and brings it back when it answers again', () => {
    const index = createToolIndex(catalog);
    const mail = catalog[0] as IndexServer;
    const hasMail = (i: ReturnType<typeof createToolIndex>) =>
      searchTools(i, 'send an email').some((hit) => hit.serverId === mail.id);
    expect(hasMail(index)).toBe(true);
    const down = withLiveFields(index, [{ id: mail.id, answering: false }]);
    expect(hasMail(down)).toBe(false);
    expect(hasMail(withLiveFields(down, [{ id: mail.id, answering: true }]))).toBe(true);
    expect(down.toolCount).toBe(index.toolCount);
  });

  it('refuses an unknown id, an id given twice, a field that is not live and a value out of range', () => {
    const index = createToolIndex(catalog);
    const id = (catalog[0] as IndexServer).id;
    const codeOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof RouteInputError ? error.code : 'other';
      }
      return 'none';
    };
    expect(codeOf(() => withLiveFields(index, [{ id: 'nobody', answering: false }]))).toBe('invalid-server');
    expect(
      codeOf(() =>
        withLiveFields(index, [
          { id, answering: false },
          { id, answering: true },
        ]),
      ),
    ).toBe('duplicate-server-id');
    expect(codeOf(() => withLiveFields(index, [{ id, successChance: 0.5 } as unknown as LiveServerUpdate]))).toBe(
      'invalid-server',
    );
    expect(codeOf(() => withLiveFields(index, [{ id, agentsReliability: 1.5 }]))).toBe('invalid-server');
    expect(codeOf(() => withLiveFields(index, [{ id, answering: 'no' } as unknown as LiveServerUpdate]))).toBe(
      'invalid-server',
    );
    expect(codeOf(() => withLiveFields({ serverCount: 0, toolCount: 0, termCount: 0 }, []))).toBe('invalid-index');
    expect(codeOf(() => withLiveFields(index, [{ id, liveIncident: true }]))).toBe('none');
  });
});
