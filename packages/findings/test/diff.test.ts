import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  diffToolLists,
  FindingsInputError,
  hashToolList,
  type ToolListDiff,
  type ToolListSnapshot,
} from '../src/index.js';
import { createPage, deletePage, getPage, objectSchema, thrownBy, tool } from './fixtures.js';

const NOTHING: ToolListDiff = {
  added: [],
  removed: [],
  changed: [],
  rewritten: [],
  riskRises: [],
  renamed: [],
  silent: false,
  unchanged: true,
};

type MaybeVersion = string | undefined;

/** A snapshot whose version is left out when it is undefined (a list read without one). */
function snapshotOf(tools: readonly unknown[], version: MaybeVersion): ToolListSnapshot {
  return version === undefined ? { tools } : { tools, serverVersion: version };
}

function diff(
  before: readonly unknown[],
  after: readonly unknown[],
  versions: [MaybeVersion?, MaybeVersion?] = [],
): ToolListDiff {
  return diffToolLists(snapshotOf(before, versions[0]), snapshotOf(after, versions[1]));
}

// Annotated versions of the fixtures, with the levels the risk rules give them.
const readPage = { ...getPage, annotations: { readOnlyHint: true } }; // read-only (rule 3)
const addPage = { ...createPage, annotations: { readOnlyHint: false } }; // changes data (rule 5)
const dropPage = { ...deletePage, annotations: { destructiveHint: true } }; // high risk (rules 1 and 2)

describe('unchanged lists', () => {
  test('the same list is unchanged, even reordered and with keys reordered', () => {
    const reordered = [
      JSON.parse(
        '{"inputSchema":' +
          JSON.stringify(objectSchema) +
          ',"description":"Adds a new page to the notebook.","name":"create_page"}',
      ),
      getPage,
    ];
    expect(diff([getPage, createPage], reordered)).toEqual(NOTHING);
  });

  test('two empty lists are unchanged', () => {
    expect(diff([], [])).toEqual(NOTHING);
  });

  test('a change outside the hashed fields (title) is no change', () => {
    expect(diff([getPage], [{ ...getPage, title: 'Page reader' }])).toEqual(NOTHING);
  });

  test('an unchanged list is never silent, whatever the versions', () => {
    expect(diff([getPage], [getPage], ['1.0.0', '1.0.0']).silent).toBe(false);
  });
});

describe('added and removed', () => {
  test('a new tool is added', () => {
    expect(diff([readPage], [readPage, addPage])).toEqual({ ...NOTHING, added: ['create_page'], unchanged: false });
  });

  test('a tool that is gone is removed', () => {
    expect(diff([readPage, addPage, dropPage], [readPage])).toEqual({
      ...NOTHING,
      removed: ['create_page', 'delete_page'],
      unchanged: false,
    });
  });

  test('a tool added as high risk is a risk rise from nothing', () => {
    expect(diff([readPage], [readPage, dropPage])).toEqual({
      ...NOTHING,
      added: ['delete_page'],
      riskRises: [{ name: 'delete_page', from: null, to: 'high-risk' }],
      unchanged: false,
    });
  });

  test('a tool added below high risk is not a risk rise', () => {
    expect(diff([], [readPage, addPage]).riskRises).toEqual([]);
  });

  test('names are sorted by code unit', () => {
    expect(diff([], [tool('b_tool'), tool('B_tool'), tool('a_tool')]).added).toEqual(['B_tool', 'a_tool', 'b_tool']);
  });
});

describe('changed, rewritten and risk rises', () => {
  test('a read-only tool with a new description is changed, not rewritten', () => {
    const after = [{ ...readPage, description: 'Returns the text and title of one notebook page.' }, addPage];
    expect(diff([readPage, addPage], after)).toEqual({ ...NOTHING, changed: ['get_page'], unchanged: false });
  });

  test('a tool that changes data, changed at the same level, is rewritten', () => {
    const after = [readPage, { ...addPage, description: 'Adds a page and files it under a chapter.' }];
    expect(diff([readPage, addPage], after)).toEqual({
      ...NOTHING,
      changed: ['create_page'],
      rewritten: ['create_page'],
      unchanged: false,
    });
  });

  test('a high-risk tool with a new input schema is rewritten', () => {
    const after = [{ ...dropPage, inputSchema: { type: 'object', properties: { pages: { type: 'array' } } } }];
    expect(diff([dropPage], after)).toEqual({
      ...NOTHING,
      changed: ['delete_page'],
      rewritten: ['delete_page'],
      unchanged: false,
    });
  });

  test('a level going up is a risk rise, not a rewrite', () => {
    const before = [{ ...tool('page_tool'), annotations: { readOnlyHint: true } }];
    const after = [{ ...tool('page_tool'), annotations: { destructiveHint: true } }];
    expect(diff(before, after)).toEqual({
      ...NOTHING,
      changed: ['page_tool'],
      riskRises: [{ name: 'page_tool', from: 'read-only', to: 'high-risk' }],
      unchanged: false,
    });
  });

  test('a description that now says it deletes permanently raises the level', () => {
    const after = [{ ...addPage, description: 'Adds a page, and permanently deletes the old one.' }];
    expect(diff([addPage], after).riskRises).toEqual([{ name: 'create_page', from: 'changes-data', to: 'high-risk' }]);
  });

  test('a level going down is a change only', () => {
    const before = [{ ...tool('page_tool'), annotations: { destructiveHint: true } }];
    const after = [{ ...tool('page_tool'), annotations: { readOnlyHint: true } }];
    expect(diff(before, after)).toEqual({ ...NOTHING, changed: ['page_tool'], unchanged: false });
  });

  test('a changed annotation alone is a change', () => {
    expect(
      diff([readPage], [{ ...readPage, annotations: { readOnlyHint: true, idempotentHint: true } }]).changed,
    ).toEqual(['get_page']);
  });
});

describe('renamed', () => {
  test('the same description and schema under a new name is a rename, not a removal and an addition', () => {
    const renamedTool = { ...addPage, name: 'add_page' };
    expect(diff([readPage, addPage], [readPage, renamedTool])).toEqual({
      ...NOTHING,
      renamed: [{ from: 'create_page', to: 'add_page' }],
      unchanged: false,
    });
  });

  test('a rename that also changes the description is a removal and an addition', () => {
    const after = [{ ...addPage, name: 'add_page', description: 'Adds a page, then shares it.' }];
    expect(diff([addPage], after)).toEqual({
      ...NOTHING,
      added: ['add_page'],
      removed: ['create_page'],
      unchanged: false,
    });
  });

  test('a rename that also changes the schema is a removal and an addition', () => {
    const after = [{ ...addPage, name: 'add_page', inputSchema: { type: 'object' } }];
    expect(diff([addPage], after)).toEqual({
      ...NOTHING,
      added: ['add_page'],
      removed: ['create_page'],
      unchanged: false,
    });
  });

  test('tools without a description are never matched as a rename', () => {
    const before = [{ name: 'first_tool', inputSchema: objectSchema }];
    const after = [{ name: 'second_tool', inputSchema: objectSchema }];
    expect(diff(before, after)).toEqual({
      ...NOTHING,
      added: ['second_tool'],
      removed: ['first_tool'],
      unchanged: false,
    });
  });

  test('a rename to a riskier name reports the rise under the new name', () => {
    const after = [{ ...readPage, name: 'remove_page' }];
    expect(diff([readPage], after)).toEqual({
      ...NOTHING,
      renamed: [{ from: 'get_page', to: 'remove_page' }],
      riskRises: [{ name: 'remove_page', from: 'read-only', to: 'high-risk' }],
      unchanged: false,
    });
  });

  test('several candidates pair in name order, and the extra one is added', () => {
    const shared = { description: 'Same words.', inputSchema: objectSchema };
    const before = [
      { name: 'old_b', ...shared },
      { name: 'old_a', ...shared },
    ];
    const after = [
      { name: 'new_c', ...shared },
      { name: 'new_a', ...shared },
      { name: 'new_b', ...shared },
    ];
    expect(diff(before, after)).toEqual({
      ...NOTHING,
      added: ['new_c'],
      renamed: [
        { from: 'old_a', to: 'new_a' },
        { from: 'old_b', to: 'new_b' },
      ],
      unchanged: false,
    });
  });
});

describe('silent changes', () => {
  test('a change under the same server version is silent', () => {
    expect(diff([readPage], [readPage, addPage], ['2.1.0', '2.1.0']).silent).toBe(true);
  });

  test('a change with a new server version is not silent', () => {
    expect(diff([readPage], [readPage, addPage], ['2.1.0', '2.2.0']).silent).toBe(false);
  });

  test('without a version on both sides a change is never called silent', () => {
    expect(diff([readPage], [readPage, addPage], [undefined, '2.1.0']).silent).toBe(false);
    expect(diff([readPage], [readPage, addPage], ['2.1.0', undefined]).silent).toBe(false);
    expect(diff([readPage], [readPage, addPage]).silent).toBe(false);
    expect(diffToolLists({ tools: [], serverVersion: null }, { tools: [readPage], serverVersion: null }).silent).toBe(
      false,
    );
    // An empty version (a server whose serverInfo has none is read as '') is no version either.
    expect(diff([readPage], [readPage, addPage], ['', '']).silent).toBe(false);
  });

  test('a rename alone under the same version is silent too', () => {
    expect(diff([addPage], [{ ...addPage, name: 'add_page' }], ['1', '1']).silent).toBe(true);
  });
});

describe('duplicate names and entries without a name', () => {
  test('a name that loses one of its two tools is changed', () => {
    expect(diff([readPage, readPage], [readPage]).changed).toEqual(['get_page']);
  });

  test('a name used twice is unchanged when both tools stay, in any order', () => {
    const other = { ...readPage, description: 'A second reader under the same name.' };
    expect(diff([readPage, other], [other, readPage])).toEqual(NOTHING);
  });

  test('a name used twice takes the higher level of its tools', () => {
    expect(diff([readPage], [readPage, { ...readPage, annotations: { destructiveHint: true } }]).riskRises).toEqual([
      { name: 'get_page', from: 'read-only', to: 'high-risk' },
    ]);
  });

  test('entries without a string name are matched by content', () => {
    expect(diff([5, { name: 7 }], [{ name: 7 }, 5])).toEqual(NOTHING);
  });

  test('unmatched unnamed entries are labelled by their position in their own list', () => {
    expect(diff([readPage, 5], [6, readPage])).toEqual({
      ...NOTHING,
      added: ['tools[0]'],
      removed: ['tools[1]'],
      unchanged: false,
    });
  });
});

// Tools drawn from a small pool so that generated lists overlap, repeat and differ in useful ways.
const toolPool = fc.constantFrom<unknown>(
  readPage,
  addPage,
  dropPage,
  getPage,
  { ...addPage, name: 'add_page' },
  { ...addPage, description: 'Adds a page and files it.' },
  { ...readPage, annotations: { destructiveHint: true } },
  5,
  null,
  { name: 7, description: 'x' },
);

describe('diff properties', () => {
  test('any list diffed against itself is unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 10 }),
        fc.option(fc.string(), { nil: undefined }),
        (tools, version) => {
          expect(diff(tools, tools, [version, version])).toEqual(NOTHING);
        },
      ),
    );
  });

  test('unchanged exactly when the list hashes are equal', () => {
    fc.assert(
      fc.property(fc.array(toolPool, { maxLength: 6 }), fc.array(toolPool, { maxLength: 6 }), (before, after) => {
        const result = diff(before, after);
        expect(result.unchanged).toBe(hashToolList(before) === hashToolList(after));
        const empty = result.added.length + result.removed.length + result.changed.length + result.renamed.length === 0;
        expect(result.unchanged).toBe(empty);
      }),
    );
  });

  test('tool order does not change the diff of named tools', () => {
    const named = fc.constantFrom<unknown>(
      readPage,
      addPage,
      dropPage,
      getPage,
      { ...addPage, name: 'add_page' },
      { ...readPage, annotations: {} },
    );
    fc.assert(
      fc.property(fc.array(named, { maxLength: 6 }), fc.array(named, { maxLength: 6 }), (before, after) => {
        expect(diff([...before].reverse(), [...after].reverse())).toEqual(diff(before, after));
      }),
    );
  });

  test('rewritten tools are changed tools; every array is sorted', () => {
    fc.assert(
      fc.property(fc.array(toolPool, { maxLength: 6 }), fc.array(toolPool, { maxLength: 6 }), (before, after) => {
        const result = diff(before, after);
        for (const name of result.rewritten) expect(result.changed).toContain(name);
        for (const list of [result.added, result.removed, result.changed, result.rewritten])
          expect(list).toEqual([...list].sort());
      }),
    );
  });

  test('any JSON values on either side give a diff, never an exception', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        fc.jsonValue(),
        (before, after, version) => {
          const result = diffToolLists(
            { tools: before, serverVersion: version as string },
            { tools: after, serverVersion: version as string },
          );
          expect(typeof result.unchanged).toBe('boolean');
        },
      ),
    );
  });
});

describe('caller mistakes are typed errors', () => {
  test('a side that is not an object', () => {
    const error = thrownBy(() => diffToolLists(null as unknown as ToolListSnapshot, { tools: [] }));
    expect(error).toBeInstanceOf(FindingsInputError);
    expect((error as FindingsInputError).code).toBe('input-not-object');
    expect((error as Error).message).toBe('diffToolLists: before must be an object, got null');
  });

  test('a side whose tools is not an array', () => {
    const error = thrownBy(() => diffToolLists({ tools: [] }, { tools: 'x' as unknown as unknown[] }));
    expect((error as FindingsInputError).code).toBe('tools-not-array');
    expect((error as Error).message).toBe('diffToolLists: after.tools must be an array of tools, got string');
  });
});
