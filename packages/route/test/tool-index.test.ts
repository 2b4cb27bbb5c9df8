import { describe, expect, it } from 'vitest';
import { createToolIndex, type IndexServer, RouteInputError, searchTools } from '../src/index.js';
import { stateOf } from '../src/tool-index.js';
import { catalog, filesServer, mailServer } from './fixtures.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof RouteInputError) return error.code;
    throw error;
  }
  return undefined;
}

describe('createToolIndex builds an index over every tool', () => {
  it('counts servers, searchable tools and distinct terms', () => {
    const index = createToolIndex(catalog);
    expect(index.serverCount).toBe(4);
    expect(index.toolCount).toBe(14);
    expect(index.termCount).toBeGreaterThan(20);
    expect(Object.isFrozen(index)).toBe(true);
  });

  it('accepts an empty catalog and a server with no tools', () => {
    expect(createToolIndex([]).toolCount).toBe(0);
    const index = createToolIndex([{ id: 'empty', tools: [] }]);
    expect(index.serverCount).toBe(1);
    expect(searchTools(index, 'anything')).toEqual([]);
  });

  it('skips tool entries that are not tools with a name, without throwing', () => {
    const messy: IndexServer = {
      id: 'messy',
      tools: [null, 42, 'read_file', [], {}, { name: 7 }, { name: '   ' }, { name: 'read_notes', description: 12 }],
    };
    const index = createToolIndex([messy]);
    expect(index.toolCount).toBe(1);
    expect(searchTools(index, 'notes')[0]?.tool).toBe('read_notes');
    expect(searchTools(index, 'notes')[0]?.description).toBe('');
  });

  it('classifies each tool with @mcp-atlas/risk and counts the high-risk ones per server', () => {
    const state = stateOf(createToolIndex([mailServer, filesServer]));
    expect(state.servers.map((entry) => [entry.toolCount, entry.highRiskCount])).toEqual([
      [4, 1],
      [4, 1],
    ]);
  });

  it('searches a tool title together with its description, and keeps the description as given', () => {
    const index = createToolIndex([
      { id: 't', tools: [{ name: 'op1', title: 'Weather outlook', description: 'Returns data.' }] },
    ]);
    const [hit] = searchTools(index, 'weather');
    expect(hit?.tool).toBe('op1');
    expect(hit?.description).toBe('Returns data.');
  });
});

describe('createToolIndex rejects servers the caller described wrongly', () => {
  it.each<[string, unknown]>([
    ['not an array', { id: 'x', tools: [] }],
    ['null', null],
  ])('a catalog that is %s', (_label, value) => {
    expect(codeOf(() => createToolIndex(value as IndexServer[]))).toBe('invalid-servers');
  });

  it.each<[string, unknown, RegExp]>([
    ['a server that is not an object', 'mail', /server at index 0: must be an object/],
    ['a missing id', { tools: [] }, /id must be a non-empty string/],
    ['an empty id', { id: '', tools: [] }, /id must be a non-empty string/],
    ['tools that are not an array', { id: 'a', tools: {} }, /server "a": tools must be an array/],
    ['a name that is not a string', { id: 'a', tools: [], name: 3 }, /name must be a string/],
    ['a url that is not a string', { id: 'a', tools: [], url: 3 }, /url must be a string/],
    ['answering that is not a boolean', { id: 'a', tools: [], answering: 'yes' }, /answering must be a boolean/],
    ['gateway that is not a boolean', { id: 'a', tools: [], gateway: 1 }, /gateway must be a boolean/],
    [
      'successChance above 1',
      { id: 'a', tools: [], successChance: 1.01 },
      /successChance must be a number from 0 to 1, got 1.01/,
    ],
    ['successChance below 0', { id: 'a', tools: [], successChance: -0.01 }, /successChance must be/],
    ['stability that is NaN', { id: 'a', tools: [], stability: Number.NaN }, /stability must be/],
    [
      'a negative domain age',
      { id: 'a', tools: [], domainAgeDays: -1 },
      /domainAgeDays must be a finite number of at least 0/,
    ],
    ['an infinite risk rise', { id: 'a', tools: [], riskRiseDays: Number.POSITIVE_INFINITY }, /riskRiseDays must be/],
    ['agents reliability above 1', { id: 'a', tools: [], agentsReliability: 2 }, /agentsReliability must be/],
    [
      'a submittedAt that is not a date',
      { id: 'a', tools: [], submittedAt: 'last week' },
      /submittedAt must be an ISO 8601 date/,
    ],
  ])('%s', (_label, server, message) => {
    expect(() => createToolIndex([server as IndexServer])).toThrow(message);
    expect(codeOf(() => createToolIndex([server as IndexServer]))).toBe('invalid-server');
  });

  it('accepts the edges of every range: 0 and 1, null reliability, an ISO date', () => {
    const server: IndexServer = {
      id: 'edges',
      tools: [],
      successChance: 0,
      stability: 1,
      domainAgeDays: 0,
      riskRiseDays: 0,
      agentsReliability: null,
      submittedAt: '2026-11-30T12:00:00Z',
    };
    expect(createToolIndex([server]).serverCount).toBe(1);
    expect(createToolIndex([{ ...server, agentsReliability: 1, successChance: 1, stability: 0 }]).serverCount).toBe(1);
  });

  it('rejects a repeated id, naming it', () => {
    expect(() => createToolIndex([mailServer, mailServer])).toThrow('server "mail.example" appears twice');
    expect(codeOf(() => createToolIndex([mailServer, mailServer]))).toBe('duplicate-server-id');
  });

  it('rejects an index that did not come from createToolIndex', () => {
    const fake = { serverCount: 0, toolCount: 0, termCount: 0 };
    expect(codeOf(() => searchTools(fake, 'x'))).toBe('invalid-index');
    expect(codeOf(() => searchTools(null as never, 'x'))).toBe('invalid-index');
  });
});
