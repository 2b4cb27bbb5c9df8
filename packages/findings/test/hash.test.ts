import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  canonicalJson,
  combineToolHashes,
  FindingsInputError,
  hashTool,
  hashToolList,
  sha256Hex,
} from '../src/index.js';
import { createPage, deletePage, getPage, thrownBy } from './fixtures.js';

// An independent SHA-256 (node:crypto) to check the package's hashes against.
function referenceSha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('hashTool', () => {
  test('is the SHA-256 of the canonical JSON of name, description, inputSchema and annotations', () => {
    const tool = {
      name: 'get_page',
      description: 'Returns a page.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    };
    const expected = referenceSha256(
      '{"annotations":{"readOnlyHint":true},"description":"Returns a page.",' +
        '"inputSchema":{"properties":{"id":{"type":"string"}},"type":"object"},"name":"get_page"}',
    );
    expect(hashTool(tool)).toBe(expected);
  });

  test('pins one hash, so an accidental change of the canonical form shows', () => {
    // SHA-256 of '{"name":"ping"}', computed once with node:crypto and written down.
    expect(hashTool({ name: 'ping' })).toBe('3f1b5ce7170804143ea6c840825f11e1fce1aed30dba5b7f0d83220f84066889');
  });

  test('equals the canonical JSON of the four fields picked out of the tool', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('name', 'description', 'inputSchema', 'annotations', 'title', 'outputSchema', 'x'),
          fc.jsonValue(),
        ),
        (tool) => {
          const picked: Record<string, unknown> = {};
          for (const key of ['name', 'description', 'inputSchema', 'annotations'])
            if (key in tool) picked[key] = tool[key];
          expect(hashTool(tool)).toBe(referenceSha256(canonicalJson(picked)));
        },
      ),
    );
  });

  test('ignores fields outside the four, such as title and outputSchema', () => {
    expect(hashTool({ ...getPage, title: 'Get a page', outputSchema: { type: 'object' } })).toBe(hashTool(getPage));
  });

  test('changes when any of the four fields changes', () => {
    const base = hashTool(getPage);
    expect(hashTool({ ...getPage, name: 'get_pages' })).not.toBe(base);
    expect(hashTool({ ...getPage, description: 'Returns the text of one page.' })).not.toBe(base);
    expect(hashTool({ ...getPage, inputSchema: { type: 'object' } })).not.toBe(base);
    expect(hashTool({ ...getPage, annotations: {} })).not.toBe(base);
  });

  test('does not depend on key order, whitespace or number spelling in the server text', () => {
    const a = JSON.parse(
      '{"name":"page_size","inputSchema":{"type":"object","properties":{"n":{"maximum":100,"type":"number"}}}}',
    );
    const b = JSON.parse(
      '{ "inputSchema" : { "properties" : { "n" : { "type" : "number", "maximum" : 1.00e2 } }, "type" : "object" },\n "name" : "page_size" }',
    );
    expect(hashTool(a)).toBe(hashTool(b));
  });

  test('treats a field set to undefined as absent', () => {
    expect(hashTool({ name: 'ping', description: undefined })).toBe(hashTool({ name: 'ping' }));
  });

  test('hashes an entry that is not a tool object whole, and never like an object', () => {
    for (const entry of [null, 0, 'ping', true, [], ['ping'], [{ name: 'ping' }]]) {
      expect(hashTool(entry)).toBe(referenceSha256(canonicalJson(entry)));
      expect(hashTool(entry)).not.toBe(hashTool({}));
    }
  });

  test('never throws on any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(hashTool(value)).toMatch(/^[0-9a-f]{64}$/);
      }),
    );
  });
});

describe('hashToolList', () => {
  test('is the SHA-256 of the sorted tool hashes, each followed by a newline', () => {
    const hashes = [hashTool(getPage), hashTool(createPage)].sort();
    expect(hashToolList([getPage, createPage])).toBe(referenceSha256(`${hashes[0]}\n${hashes[1]}\n`));
  });

  test('an empty list hashes the empty string', () => {
    expect(hashToolList([])).toBe(EMPTY_SHA256);
  });

  test('does not depend on tool order', () => {
    const tools = [getPage, createPage, deletePage, 7, null];
    fc.assert(
      fc.property(fc.shuffledSubarray(tools, { minLength: tools.length }), (shuffled) => {
        expect(hashToolList(shuffled)).toBe(hashToolList(tools));
      }),
    );
  });

  test('does not depend on tool order or key order, for any JSON values', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.nat(), (tools, seed) => {
        const rotated = tools.map((_, i) => tools[(i + seed) % tools.length]);
        const reparsed = rotated.map((tool) => JSON.parse(JSON.stringify(tool, null, 1)));
        expect(hashToolList(reparsed)).toBe(hashToolList(tools));
      }),
    );
  });

  test('counts duplicates: a tool listed twice differs from the tool once', () => {
    expect(hashToolList([getPage, getPage])).not.toBe(hashToolList([getPage]));
  });

  test('changes when one tool changes', () => {
    expect(hashToolList([getPage, { ...createPage, description: 'Adds two pages.' }])).not.toBe(
      hashToolList([getPage, createPage]),
    );
  });

  test('a tools value that is not an array is a typed error', () => {
    const error = thrownBy(() => hashToolList({ tools: [] } as unknown as unknown[]));
    expect(error).toBeInstanceOf(FindingsInputError);
    expect((error as FindingsInputError).code).toBe('tools-not-array');
    expect((error as Error).message).toBe('hashToolList: tools must be an array of tools, got object');
  });
});

describe('combineToolHashes', () => {
  test('gives the list hash from stored tool hashes', () => {
    const tools = [getPage, createPage, deletePage];
    expect(combineToolHashes(tools.map((tool) => hashTool(tool)))).toBe(hashToolList(tools));
    expect(combineToolHashes([])).toBe(EMPTY_SHA256);
  });

  test('refuses anything that is not a tool hash', () => {
    for (const bad of [['abc'], [hashTool(getPage).toUpperCase()], [42], 'not an array']) {
      const error = thrownBy(() => combineToolHashes(bad as string[]));
      expect(error).toBeInstanceOf(FindingsInputError);
      expect((error as FindingsInputError).code).toBe('not-a-tool-hash');
    }
  });

  test('agrees with sha256Hex over the joined hashes', () => {
    const hash = hashTool(getPage);
    expect(combineToolHashes([hash])).toBe(sha256Hex(`${hash}\n`));
  });
});
