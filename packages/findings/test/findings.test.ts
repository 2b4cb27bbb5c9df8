import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { HEAVY_TOOL_LIST_CHARS, SLOW_CHECK_MS, VERY_LONG_DESCRIPTION_CHARS } from '../src/constants.js';
import {
  analyzeToolList,
  FINDING_IDS,
  FINDING_TITLES,
  type Finding,
  type FindingId,
  FindingsInputError,
  type ToolListInput,
} from '../src/index.js';
import {
  createPage,
  deletePage,
  getPage,
  nestedObject,
  objectSchema,
  textOfLength,
  thrownBy,
  toolsJsonOfLength,
} from './fixtures.js';

// A clean, annotated list that triggers no finding, so each test can add exactly one problem.
const cleanTools = [
  { ...getPage, annotations: { readOnlyHint: true } },
  { ...createPage, annotations: { readOnlyHint: false } },
];

function analyze(overrides: Partial<ToolListInput> = {}): Finding[] {
  const tools = overrides.tools ?? cleanTools;
  return analyzeToolList({ tools, toolsJson: overrides.toolsJson ?? JSON.stringify(tools), ...overrides });
}

function ids(findings: readonly Finding[]): FindingId[] {
  return findings.map((finding) => finding.id);
}

function only(findings: readonly Finding[], id: FindingId): Finding {
  const found = findings.filter((finding) => finding.id === id);
  expect(found).toHaveLength(1);
  return found[0] as Finding;
}

describe('a clean tool list has no findings', () => {
  test('annotated, described, with schemas, a current protocol and a fast check', () => {
    expect(analyze({ protocolVersion: '2025-06-18', elapsedMs: 800 })).toEqual([]);
  });
});

describe('heavy tool list: toolsJson over 40,000 characters', () => {
  test('the limit is 40,000', () => {
    expect(HEAVY_TOOL_LIST_CHARS).toBe(40_000);
  });

  test('39,999 and exactly 40,000 characters are not heavy', () => {
    expect(ids(analyze({ toolsJson: toolsJsonOfLength(39_999) }))).toEqual([]);
    expect(ids(analyze({ toolsJson: toolsJsonOfLength(40_000) }))).toEqual([]);
  });

  test('40,001 characters are heavy, with the length as value and about 10,000 tokens in the message', () => {
    const finding = only(analyze({ toolsJson: toolsJsonOfLength(40_001) }), 'heavy-tool-list');
    expect(finding.value).toBe(40_001);
    expect(finding.tools).toBeUndefined();
    expect(finding.message).toBe(
      'The tool list is 40,001 characters of JSON, about 10,000 tokens at 4 characters a token; the limit is 40,000.',
    );
  });

  test('reads the text as given, not a re-serialization of the tools', () => {
    // The same two tools, spaced out by the server: only the text sent counts.
    const spaced = JSON.stringify(cleanTools, null, 2).padEnd(40_001, ' ');
    expect(ids(analyze({ toolsJson: spaced }))).toEqual(['heavy-tool-list']);
  });
});

describe('very long description: over 2,000 characters', () => {
  test('the limit is 2,000', () => {
    expect(VERY_LONG_DESCRIPTION_CHARS).toBe(2_000);
  });

  test('1,999 and exactly 2,000 characters are not very long', () => {
    for (const length of [1_999, 2_000]) {
      const tools = [{ ...cleanTools[0], description: textOfLength(length) }, cleanTools[1]];
      expect(ids(analyze({ tools }))).toEqual([]);
    }
  });

  test('2,001 characters are very long; every such tool is listed and the longest length is the value', () => {
    const tools = [
      { ...cleanTools[0], description: textOfLength(2_001) },
      { ...cleanTools[1], description: textOfLength(2_500) },
      { ...deletePage, annotations: {}, description: textOfLength(2_000) },
    ];
    const finding = only(analyze({ tools }), 'very-long-description');
    expect(finding.tools).toEqual(['get_page', 'create_page']);
    expect(finding.value).toBe(2_500);
    expect(finding.message).toBe('2 tools have a description over 2,000 characters; the longest has 2,500.');
  });

  test('one tool reads in the singular', () => {
    const tools = [{ ...cleanTools[0], description: textOfLength(2_001) }];
    expect(only(analyze({ tools }), 'very-long-description').message).toBe(
      '1 tool has a description over 2,000 characters; the longest has 2,001.',
    );
  });
});

describe('missing descriptions', () => {
  test('tools without a usable description are listed, by position when they have no name', () => {
    const tools = [
      cleanTools[0],
      { ...cleanTools[1], description: undefined },
      { name: 'blank_page', description: '  ', inputSchema: objectSchema, annotations: {} },
      { name: 'numbered', description: 42, inputSchema: objectSchema },
      'not a tool',
      { name: 9, description: 'Has a description but no string name.', inputSchema: objectSchema },
    ];
    const finding = only(analyze({ tools }), 'missing-descriptions');
    expect(finding.tools).toEqual(['create_page', 'blank_page', 'numbered', 'tools[4]']);
    expect(finding.value).toBe(4);
    expect(finding.message).toBe('4 of 6 tools have no description.');
  });

  test('one missing reads in the singular', () => {
    const tools = [cleanTools[0], { ...cleanTools[1], description: '' }];
    expect(only(analyze({ tools }), 'missing-descriptions').message).toBe('1 of 2 tools has no description.');
  });
});

describe('no annotations', () => {
  test('found when no tool carries an annotations object', () => {
    const finding = only(analyze({ tools: [getPage, createPage, deletePage] }), 'no-annotations');
    expect(finding.value).toBe(3);
    expect(finding.tools).toBeUndefined();
    expect(finding.message).toBe(
      'None of the 3 tools declares annotations, so agents get no hints such as readOnlyHint.',
    );
  });

  test('one tool with annotations, even empty ones, is enough', () => {
    expect(ids(analyze({ tools: [getPage, createPage, { ...deletePage, annotations: {} }] }))).toEqual([]);
  });

  test('annotations that are not an object do not count', () => {
    expect(
      ids(
        analyze({
          tools: [
            { ...getPage, annotations: [] },
            { ...createPage, annotations: null },
          ],
        }),
      ),
    ).toEqual(['no-annotations']);
  });

  test('an empty list has nothing to annotate and no finding', () => {
    expect(analyzeToolList({ tools: [], toolsJson: '[]' })).toEqual([]);
  });
});

describe('missing schema', () => {
  test('tools without a usable input schema are listed', () => {
    const tools = [
      cleanTools[0],
      { ...cleanTools[1], inputSchema: undefined },
      { ...deletePage, annotations: {}, inputSchema: 'object' },
      { name: 'too_deep', description: 'Nested past the limit.', inputSchema: nestedObject(65) },
      { name: 'deep_enough', description: 'Nested to the limit.', inputSchema: nestedObject(64) },
      null,
    ];
    const finding = only(analyze({ tools }), 'missing-schema');
    expect(finding.tools).toEqual(['create_page', 'delete_page', 'too_deep', 'tools[5]']);
    expect(finding.value).toBe(4);
    expect(finding.message).toBe('4 of 6 tools declare no usable input schema.');
  });

  test('one missing reads in the singular', () => {
    const tools = [cleanTools[0], { ...cleanTools[1], inputSchema: [] }];
    expect(only(analyze({ tools }), 'missing-schema').message).toBe('1 of 2 tools declares no usable input schema.');
  });
});

describe('duplicate names', () => {
  test('each repeated name is listed once, in the order it first repeats', () => {
    const tools = [cleanTools[0], cleanTools[1], cleanTools[0], cleanTools[1], cleanTools[0]];
    const finding = only(analyze({ tools }), 'duplicate-names');
    expect(finding.tools).toEqual(['get_page', 'create_page']);
    expect(finding.value).toBe(2);
    expect(finding.message).toBe('2 tool names are used by more than one tool.');
  });

  test('names differing only in case are different names', () => {
    expect(ids(analyze({ tools: [cleanTools[0], { ...cleanTools[0], name: 'GET_PAGE' }] }))).toEqual([]);
  });

  test('entries without a string name are never duplicates of each other', () => {
    const unnamed = { ...cleanTools[0], name: 5 };
    expect(ids(analyze({ tools: [unnamed, unnamed] }))).toEqual([]);
  });

  test('one repeated name reads in the singular', () => {
    expect(only(analyze({ tools: [cleanTools[0], cleanTools[0]] }), 'duplicate-names').message).toBe(
      '1 tool name is used by more than one tool.',
    );
  });
});

describe('older protocol: a version before 2025-03-26', () => {
  test('2025-03-25 is older, with the version in the message and no value', () => {
    const finding = only(analyze({ protocolVersion: '2025-03-25' }), 'older-protocol');
    expect(finding.message).toBe('The server answered with protocol version 2025-03-25, older than 2025-03-26.');
    expect(finding.value).toBeUndefined();
  });

  test('2025-03-26 and later are not older', () => {
    expect(ids(analyze({ protocolVersion: '2025-03-26' }))).toEqual([]);
    expect(ids(analyze({ protocolVersion: '2025-03-27' }))).toEqual([]);
  });

  test('a version that is not a date, null or absent is never older', () => {
    for (const protocolVersion of ['latest', '2024-02-30', null, undefined, 20240101 as unknown as string]) {
      // A JavaScript caller can pass an explicit undefined, which the types (exact optional properties) refuse.
      expect(ids(analyze({ protocolVersion } as Partial<ToolListInput>))).toEqual([]);
    }
  });
});

describe('slow: the whole check over 3,000 ms', () => {
  test('the limit is 3,000 ms', () => {
    expect(SLOW_CHECK_MS).toBe(3_000);
  });

  test('2,999 and exactly 3,000 ms are not slow', () => {
    expect(ids(analyze({ elapsedMs: 2_999 }))).toEqual([]);
    expect(ids(analyze({ elapsedMs: 3_000 }))).toEqual([]);
  });

  test('3,001 ms is slow, and so is 3,000.5 ms', () => {
    const finding = only(analyze({ elapsedMs: 3_001 }), 'slow');
    expect(finding.value).toBe(3_001);
    expect(finding.message).toBe('The whole check took 3,001 ms, over 3,000 ms.');
    expect(only(analyze({ elapsedMs: 3_000.5 }), 'slow').message).toBe(
      'The whole check took 3,000.5 ms, over 3,000 ms.',
    );
  });

  test('a value that is not a real duration is never slow', () => {
    for (const elapsedMs of [
      null,
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -5_000,
      '9000' as unknown as number,
    ]) {
      expect(ids(analyze({ elapsedMs } as Partial<ToolListInput>))).toEqual([]);
    }
  });

  test('a long check has its number grouped in thousands', () => {
    expect(only(analyze({ elapsedMs: 1_234_567 }), 'slow').message).toBe(
      'The whole check took 1,234,567 ms, over 3,000 ms.',
    );
  });
});

describe('tool-list-cut', () => {
  const cut = (listedBytes: number, capBytes = 1_048_576, keptTools = 120, listedTools = 500) => ({
    listedTools,
    keptTools,
    listedBytes,
    capBytes,
  });

  test('is reported only when the listed text is over the cap (strictly)', () => {
    expect(ids(analyze({ cut: cut(1_048_575) }))).toEqual([]);
    expect(ids(analyze({ cut: cut(1_048_576) }))).toEqual([]);
    expect(ids(analyze({ cut: cut(1_048_577) }))).toEqual(['tool-list-cut']);
  });

  test('names the size, the cap and the tools kept, with the size as its value', () => {
    const finding = only(analyze({ cut: cut(2_345_678) }), 'tool-list-cut');
    expect(finding.message).toBe(
      'The tool list is 2,345,678 bytes of JSON, over the 1,048,576 kept per check; only the first 120 of 500 tools were kept.',
    );
    expect(finding.value).toBe(2_345_678);
    expect(finding.tools).toBeUndefined();
    expect(only(analyze({ cut: cut(11, 10, 1, 1) }), 'tool-list-cut').message).toBe(
      'The tool list is 11 bytes of JSON, over the 10 kept per check; only the first 1 of 1 tool was kept.',
    );
  });

  test('a missing or malformed cut is ignored', () => {
    for (const bad of [
      null,
      undefined,
      {},
      cut(Number.NaN),
      cut(-1, -2),
      { ...cut(5_000_000), keptTools: '3' },
      'cut',
    ]) {
      expect(ids(analyze({ cut: bad as never }))).toEqual([]);
    }
  });
});

describe('all findings together', () => {
  test('come in the methodology order', () => {
    const tools = [
      { name: 'dup', description: textOfLength(2_001) },
      { name: 'dup', description: '' },
    ];
    const findings = analyzeToolList({
      tools,
      toolsJson: toolsJsonOfLength(40_001),
      protocolVersion: '2024-11-05',
      elapsedMs: 3_001,
      cut: { listedTools: 2, keptTools: 1, listedBytes: 40_001, capBytes: 40_000 },
    });
    expect(ids(findings)).toEqual(FINDING_IDS);
  });

  test('every id has a title', () => {
    expect(Object.keys(FINDING_TITLES).sort()).toEqual([...FINDING_IDS].sort());
    expect(FINDING_TITLES['heavy-tool-list']).toBe('Heavy tool list');
  });
});

describe('untrusted tool lists', () => {
  test('any JSON values in the tools array give findings, never an exception', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.jsonValue(),
            fc.record(
              {
                name: fc.jsonValue(),
                description: fc.jsonValue(),
                inputSchema: fc.jsonValue(),
                annotations: fc.jsonValue(),
              },
              { requiredKeys: [] },
            ),
          ),
        ),
        fc.jsonValue(),
        fc.jsonValue(),
        (tools, protocolVersion, elapsedMs) => {
          const findings = analyzeToolList({
            tools,
            toolsJson: JSON.stringify(tools),
            protocolVersion: protocolVersion as string,
            elapsedMs: elapsedMs as number,
          });
          for (const finding of findings) {
            expect(FINDING_IDS).toContain(finding.id);
            expect(typeof finding.message).toBe('string');
          }
        },
      ),
    );
  });

  test('every entry that is not an object counts as missing both a description and a schema', () => {
    const tools = [null, 1, 'x', true, [], [{ name: 'a' }]];
    const findings = analyzeToolList({ tools, toolsJson: JSON.stringify(tools) });
    const labels = tools.map((_, i) => `tools[${i}]`);
    expect(only(findings, 'missing-descriptions').tools).toEqual(labels);
    expect(only(findings, 'missing-schema').tools).toEqual(labels);
  });

  test('a huge schema counts as missing instead of being walked in full', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 50_000; i++) properties[`p${i}`] = { type: 'string' };
    const tools = [{ ...cleanTools[0], inputSchema: { type: 'object', properties } }];
    expect(only(analyze({ tools, toolsJson: '[]' }), 'missing-schema').tools).toEqual(['get_page']);
  });
});

describe('caller mistakes are typed errors', () => {
  test('tools that is not an array', () => {
    const error = thrownBy(() => analyzeToolList({ tools: null as unknown as unknown[], toolsJson: '[]' }));
    expect(error).toBeInstanceOf(FindingsInputError);
    expect((error as FindingsInputError).code).toBe('tools-not-array');
    expect((error as Error).message).toBe('analyzeToolList: input.tools must be an array of tools, got null');
  });

  test('toolsJson that is not a string', () => {
    const error = thrownBy(() => analyzeToolList({ tools: [], toolsJson: null as unknown as string }));
    expect((error as FindingsInputError).code).toBe('tools-json-not-string');
    expect((error as Error).message).toBe(
      'analyzeToolList: input.toolsJson must be the JSON text of the tools array, got null',
    );
  });

  test('an input that is not an object', () => {
    const error = thrownBy(() => analyzeToolList(undefined as unknown as ToolListInput));
    expect((error as FindingsInputError).code).toBe('input-not-object');
  });
});
