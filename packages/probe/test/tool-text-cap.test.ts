// The cap on the tool text a check keeps: tools are kept in order while their raw array text fits the
// cap in UTF-8 bytes, hand-computed at and around the cap, and against a real server whose list is over
// MAX_TOOLS_JSON_BYTES.
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_TOOLS_JSON_BYTES } from '../src/constants.js';
import { capToolText, probeServer } from '../src/index.js';
import { createNodeHttpClient } from '../src/node/index.js';
import { type LocalServer, startScriptedServer } from './fixtures/servers.js';

const servers: LocalServer[] = [];
afterAll(async () => {
  for (const server of servers.splice(0)) await server.close();
});

// Three tools whose raw texts are 9, 9 and 11 bytes: `{"n":"a"}`, `{"n":"b"}`, `{"n":"cde"}`.
const TEXT = '[{"n":"a"}, {"n":"b"},\n{"n":"cde"}]';
const TOOLS = JSON.parse(TEXT) as unknown[];

describe('capToolText', () => {
  it(`is ${MAX_TOOLS_JSON_BYTES} bytes (1 MiB) by default`, () => {
    expect(MAX_TOOLS_JSON_BYTES).toBe(1_048_576);
  });

  it('leaves a list within the cap untouched, spacing included (at the cap exactly too)', () => {
    const bytes = Buffer.byteLength(TEXT); // 35
    expect(bytes).toBe(35);
    expect(capToolText(TOOLS, TEXT, 35)).toEqual({ tools: TOOLS, toolsJson: TEXT, cut: null });
    expect(capToolText(TOOLS, TEXT, 1_000)).toEqual({ tools: TOOLS, toolsJson: TEXT, cut: null });
  });

  it('keeps whole tools while `[` + texts joined by `,` + `]` fits, one byte over the cap cutting the last', () => {
    // All three rejoined: 2 + 9 + 1 + 9 + 1 + 11 = 33 bytes, under the 34-byte cap but the original is 35.
    expect(capToolText(TOOLS, TEXT, 34)).toEqual({
      tools: TOOLS,
      toolsJson: '[{"n":"a"},{"n":"b"},{"n":"cde"}]',
      cut: { listedTools: 3, keptTools: 3, listedBytes: 35, keptBytes: 33, capBytes: 34 },
    });
    // Two tools: 2 + 9 + 1 + 9 = 21 bytes.
    expect(capToolText(TOOLS, TEXT, 32)).toMatchObject({
      tools: TOOLS.slice(0, 2),
      toolsJson: '[{"n":"a"},{"n":"b"}]',
      cut: { keptTools: 2, keptBytes: 21 },
    });
    expect(capToolText(TOOLS, TEXT, 21)).toMatchObject({ cut: { keptTools: 2, keptBytes: 21 } });
    expect(capToolText(TOOLS, TEXT, 20)).toMatchObject({
      tools: TOOLS.slice(0, 1),
      toolsJson: '[{"n":"a"}]',
      cut: { keptTools: 1, keptBytes: 11 },
    });
    expect(capToolText(TOOLS, TEXT, 10)).toMatchObject({
      tools: [],
      toolsJson: '[]',
      cut: { keptTools: 0, keptBytes: 2 },
    });
  });

  it('counts UTF-8 bytes: two for é, three for €, four for an emoji (a surrogate pair)', () => {
    // `[` 1, `"é"` 2 quotes + 2, `,` 1, `"€"` 2 + 3, `,` 1, `"😀"` 2 + 4, `]` 1: 19 bytes.
    const text = '["é","€","😀"]';
    const tools = JSON.parse(text) as unknown[];
    expect(Buffer.byteLength(text)).toBe(19);
    expect(capToolText(tools, text, 19).cut).toBeNull();
    expect(capToolText(tools, text, 18)).toMatchObject({
      tools: ['é', '€'],
      toolsJson: '["é","€"]',
      cut: { listedBytes: 19, keptBytes: 12 },
    });
    expect(capToolText(tools, text, 11)).toMatchObject({ tools: ['é'], cut: { keptBytes: 6 } });
  });

  it('keeps nothing when the text cannot be matched to the tools, and never throws on text that is not JSON', () => {
    expect(capToolText([1, 2], '[1, 2, 3]   ', 5)).toMatchObject({
      tools: [],
      toolsJson: '[]',
      cut: { listedTools: 2, keptTools: 0 },
    });
    expect(capToolText([1], '[}', 1)).toMatchObject({ tools: [], toolsJson: '[]' });
    expect(capToolText([1], '   ', 1)).toMatchObject({ tools: [], toolsJson: '[]' });
  });
});

describe('a real server over the cap', () => {
  it('is listed whole by the probe (all 500 tools, 1.2 MB), and cut on a tool boundary by capToolText', async () => {
    // 500 tools with 2,400-character descriptions: about 1.24 MB of raw text.
    const tools = Array.from({ length: 500 }, (_, i) => ({
      name: `tool_${i}`,
      description: 'x'.repeat(2_400),
      inputSchema: { type: 'object' },
    }));
    const server = await startScriptedServer({ tools });
    servers.push(server);
    const result = await probeServer(server.url, { allowPrivate: true, httpClient: createNodeHttpClient });
    expect(result).toMatchObject({ letter: 'o', toolCount: 500 });
    const json = result.toolsJson as string;
    expect(Buffer.byteLength(json)).toBeGreaterThan(MAX_TOOLS_JSON_BYTES);
    const capped = capToolText(result.tools, json);
    const cut = capped.cut!;
    expect(cut.listedTools).toBe(500);
    expect(cut.keptTools).toBeGreaterThan(400);
    expect(cut.keptTools).toBeLessThan(500);
    expect(Buffer.byteLength(capped.toolsJson)).toBe(cut.keptBytes);
    expect(cut.keptBytes).toBeLessThanOrEqual(MAX_TOOLS_JSON_BYTES);
    // One more tool would not have fitted.
    const nextTool = JSON.stringify(tools[cut.keptTools]);
    expect(cut.keptBytes + 1 + Buffer.byteLength(nextTool)).toBeGreaterThan(MAX_TOOLS_JSON_BYTES);
    expect(JSON.parse(capped.toolsJson)).toEqual(capped.tools);
    expect(capped.tools).toEqual(tools.slice(0, cut.keptTools));
  });
});
