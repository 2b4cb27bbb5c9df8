// An injected SHA-256 (HashOptions.sha256) must give exactly the hashes of the default @noble/hashes one,
// and a wrong one must be a typed error. node:crypto is the injected SHA-256 here, as in the app; the
// package itself never imports it.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  combineToolHashes,
  FindingsInputError,
  type HashOptions,
  hashTool,
  hashToolList,
  type Sha256,
  sha256Hex,
} from '../src/index.js';
import { createPage, deletePage, getPage, thrownBy } from './fixtures.js';

const nodeSha256: Sha256 = (bytes) => createHash('sha256').update(bytes).digest();
const native: HashOptions = { sha256: nodeSha256 };

// Records every input it is given (copied, since the package reuses its encoding buffer).
function recordingSha256(): { sha256: Sha256; inputs: Uint8Array[] } {
  const inputs: Uint8Array[] = [];
  return {
    inputs,
    sha256: (bytes) => {
      inputs.push(bytes.slice());
      return nodeSha256(bytes);
    },
  };
}

describe('an injected node:crypto SHA-256 gives the default hashes', () => {
  test('for the published SHA-256 vectors through sha256Hex', () => {
    expect(sha256Hex('', native)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc', native)).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('a'.repeat(1_000_000), native)).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  test('for any string, lone surrogates and texts past the encoding buffer included', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.constant('€'.repeat(21_846))), (text) => {
        expect(sha256Hex(text, native)).toBe(sha256Hex(text));
      }),
      { numRuns: 300 },
    );
  });

  test('for any JSON value as a tool, and any list of them', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), (tools) => {
        for (const tool of tools) expect(hashTool(tool, native)).toBe(hashTool(tool));
        expect(hashToolList(tools, native)).toBe(hashToolList(tools));
        const hashes = tools.map((tool) => hashTool(tool));
        expect(combineToolHashes(hashes, native)).toBe(combineToolHashes(hashes));
      }),
      { numRuns: 300 },
    );
  });

  test('for tool-shaped objects', () => {
    const toolShaped = fc.record(
      {
        name: fc.string(),
        description: fc.string({ unit: 'grapheme' }),
        inputSchema: fc.jsonValue(),
        annotations: fc.dictionary(fc.string(), fc.boolean()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(toolShaped, { maxLength: 6 }), (tools) => {
        expect(hashToolList(tools, native)).toBe(hashToolList(tools));
      }),
      { numRuns: 300 },
    );
  });
});

describe('what the injected SHA-256 is given', () => {
  test('the UTF-8 bytes of the canonical text, once per tool and once for the list', () => {
    const recorder = recordingSha256();
    const hash = hashToolList([getPage, createPage], { sha256: recorder.sha256 });
    expect(recorder.inputs).toHaveLength(3);
    const decoder = new TextDecoder();
    expect(decoder.decode(recorder.inputs[0])).toBe(
      '{"description":"Returns the text of one notebook page.","inputSchema":{"properties":{"page":{"type":"string"}},"required":["page"],"type":"object"},"name":"get_page"}',
    );
    const tools = [hashTool(getPage), hashTool(createPage)].sort();
    expect(decoder.decode(recorder.inputs[2])).toBe(`${tools[0]}\n${tools[1]}\n`);
    expect(hash).toBe(hashToolList([getPage, createPage]));
  });

  test('non-ASCII text as its UTF-8 bytes', () => {
    const recorder = recordingSha256();
    sha256Hex('é€😀', { sha256: recorder.sha256 });
    expect([...(recorder.inputs[0] as Uint8Array)]).toEqual([0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80]);
  });

  test('a function that returns the same array each time (a reused digest buffer) still gives right hashes', () => {
    const reused = new Uint8Array(32);
    const reusing: Sha256 = (bytes) => {
      reused.set(nodeSha256(bytes));
      return reused;
    };
    const tools = [getPage, createPage, deletePage];
    expect(hashToolList(tools, { sha256: reusing })).toBe(hashToolList(tools));
  });

  test('an error thrown by the injected function reaches the caller unchanged', () => {
    const failure = new Error('hardware said no');
    const failing: Sha256 = () => {
      throw failure;
    };
    expect(thrownBy(() => hashTool(getPage, { sha256: failing }))).toBe(failure);
  });
});

describe('options that choose the default', () => {
  test('no options, an empty object and sha256: undefined all use @noble/hashes', () => {
    const expected = hashTool(getPage);
    expect(hashTool(getPage, {})).toBe(expected);
    // A JavaScript caller can pass an explicit undefined, which the types (exact optional properties) refuse.
    expect(hashTool(getPage, { sha256: undefined } as unknown as HashOptions)).toBe(expected);
    expect(hashTool(getPage, undefined)).toBe(expected);
  });

  test('a second argument that is not an object is ignored, so tools.map(hashTool) keeps working in JavaScript', () => {
    const tools = [getPage, createPage, deletePage];
    // Array.prototype.map passes (tool, index, array); plain JavaScript callers wrote this before options existed.
    const loose = hashTool as (tool: unknown, index: unknown) => string;
    const hashes = tools.map(loose);
    expect(hashes).toEqual(tools.map((tool) => hashTool(tool)));
    expect(combineToolHashes(hashes)).toBe(hashToolList(tools));
    expect(hashTool(getPage, null as unknown as HashOptions)).toBe(hashTool(getPage));
  });
});

describe('an injected SHA-256 that is wrong is a typed error', () => {
  const wrongDigests: [string, unknown, string][] = [
    ['31 bytes', new Uint8Array(31), '31 bytes'],
    ['33 bytes', new Uint8Array(33), '33 bytes'],
    ['an empty array', new Uint8Array(0), '0 bytes'],
    ['a plain array of 32 numbers', new Array<number>(32).fill(0), 'an array'],
    ['a hex string', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'string'],
    ['nothing', undefined, 'undefined'],
    ['null', null, 'null'],
  ];

  for (const [label, digest, described] of wrongDigests) {
    test(`a function that returns ${label}`, () => {
      const options = { sha256: (() => digest) as unknown as Sha256 };
      for (const run of [
        () => sha256Hex('abc', options),
        () => hashTool(getPage, options),
        () => hashToolList([getPage], options),
        () => combineToolHashes([hashTool(getPage)], options),
      ]) {
        const error = thrownBy(run);
        expect(error).toBeInstanceOf(FindingsInputError);
        expect(error).not.toBeInstanceOf(TypeError);
        expect(error).toBeInstanceOf(Error);
        expect((error as FindingsInputError).code).toBe('sha256-wrong-digest');
        expect((error as Error).message).toMatch(
          new RegExp(`options\\.sha256 must return the 32-byte digest as a Uint8Array, got ${described}$`),
        );
      }
    });
  }

  test('the message names the function that was called', () => {
    const options = { sha256: (() => new Uint8Array(16)) as Sha256 };
    expect((thrownBy(() => hashToolList([getPage], options)) as Error).message).toBe(
      'hashToolList: options.sha256 must return the 32-byte digest as a Uint8Array, got 16 bytes',
    );
  });

  test('an empty list still checks the one digest it asks for', () => {
    const error = thrownBy(() => hashToolList([], { sha256: () => new Uint8Array(20) }));
    expect((error as FindingsInputError).code).toBe('sha256-wrong-digest');
  });

  test('a sha256 that is not a function is refused before any hashing', () => {
    for (const bad of ['sha256', 42, {}, null, true]) {
      const options = { sha256: bad } as unknown as HashOptions;
      for (const run of [
        () => sha256Hex('abc', options),
        () => hashTool(getPage, options),
        () => hashToolList([], options),
        () => combineToolHashes([], options),
      ]) {
        const error = thrownBy(run);
        expect(error).toBeInstanceOf(FindingsInputError);
        expect((error as FindingsInputError).code).toBe('sha256-not-a-function');
        expect((error as Error).message).toMatch(
          /options\.sha256 must be a function from bytes to the 32-byte digest, got /,
        );
      }
    }
  });

  test('a 32-byte Buffer, as node:crypto returns, is accepted', () => {
    expect(hashTool(getPage, { sha256: (bytes) => Buffer.from(nodeSha256(bytes)) })).toBe(hashTool(getPage));
  });
});
