// Checks over every real tool list in ../shared/corpus (read in place, never copied). The loader hands
// out parsed lists, not the servers' original text, so JSON.stringify of each raw array stands in for
// toolsJson here; in production toolsJson is the server's own text.
import { createHash } from 'node:crypto';
import { type CorpusServer, loadCorpus } from '@mcp-atlas/corpus';
import { describe, expect, test } from 'vitest';
import { canonicalContentJson, canonicalToolJson } from '../src/canonical-json.js';
import { HEAVY_TOOL_LIST_CHARS } from '../src/constants.js';
import {
  analyzeToolList,
  diffToolLists,
  estimateTokens,
  type HashOptions,
  hasDescription,
  hashTool,
  hashToolList,
  hasInputSchema,
  isJsonObject,
  isUsableSchema,
  readToolName,
} from '../src/index.js';
import { referenceCanonicalContentJson, referenceCanonicalToolJson } from './reference/canonical-json.reference.js';
import { referenceHasDescription, referenceIsUsableSchema } from './reference/tool-facts.reference.js';

const servers: CorpusServer[] = loadCorpus();

// Every object rebuilt with its keys in reverse order, at every depth.
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((key) => [key, reverseKeys(value[key])]),
  );
}

function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

describe('the corpus', () => {
  test('holds real tool lists to check', () => {
    expect(servers.length).toBeGreaterThan(40);
    expect(servers.reduce((sum, server) => sum + server.tools.length, 0)).toBeGreaterThan(1_000);
  });
});

describe('analyzeToolList over every real list', () => {
  test('never throws, on the raw entries or on the normalized tools', () => {
    for (const server of servers) {
      for (const tools of [server.raw, server.tools]) {
        const findings = analyzeToolList({
          tools,
          toolsJson: JSON.stringify(tools),
          protocolVersion: '2025-06-18',
          elapsedMs: 1_000,
        });
        expect(Array.isArray(findings), server.id).toBe(true);
      }
    }
  });

  test('token estimates are the JSON length / 4, and heavy lists are exactly those over 40,000 characters', () => {
    for (const server of servers) {
      const toolsJson = JSON.stringify(server.raw);
      expect(estimateTokens(toolsJson), server.id).toBe(Math.round(toolsJson.length / 4));
      const heavy = analyzeToolList({ tools: server.raw, toolsJson }).some(
        (finding) => finding.id === 'heavy-tool-list',
      );
      expect(heavy, server.id).toBe(toolsJson.length > HEAVY_TOOL_LIST_CHARS);
    }
  });

  test('missing descriptions and schemas list exactly the tools that lack them', () => {
    for (const server of servers) {
      const findings = analyzeToolList({ tools: server.tools, toolsJson: '[]' });
      const listed = (id: string) => findings.find((finding) => finding.id === id)?.tools ?? [];
      const names = (keep: (tool: unknown) => boolean) =>
        server.tools.flatMap((tool, i) => (keep(tool) ? [readToolName(tool) ?? `tools[${i}]`] : []));
      expect(listed('missing-descriptions'), server.id).toEqual(names((tool) => !hasDescription(tool)));
      expect(listed('missing-schema'), server.id).toEqual(names((tool) => !hasInputSchema(tool)));
    }
  });

  test('no real input schema is refused by the depth or size limits', () => {
    for (const server of servers) {
      for (const tool of server.tools) {
        if (isJsonObject(tool.inputSchema))
          expect(isUsableSchema(tool.inputSchema), `${server.id} ${tool.name}`).toBe(true);
      }
    }
  });
});

describe('hashes over every real list', () => {
  test('the list hash does not depend on tool order', () => {
    for (const server of servers) {
      const hash = hashToolList(server.raw);
      expect(hashToolList([...server.raw].reverse()), server.id).toBe(hash);
      expect(hashToolList(rotate(server.raw, 7)), server.id).toBe(hash);
    }
  });

  test('tool hashes do not depend on key order or spacing', () => {
    for (const server of servers) {
      for (const tool of server.raw) {
        const respaced = JSON.parse(JSON.stringify(reverseKeys(tool), null, 2));
        expect(hashTool(respaced), server.id).toBe(hashTool(tool));
      }
    }
  });

  test('tools with different names never share a hash', () => {
    const byHash = new Map<string, string>();
    for (const server of servers) {
      for (const tool of server.raw) {
        const hash = hashTool(tool);
        const name = JSON.stringify(readToolName(tool));
        const seen = byHash.get(hash);
        if (seen !== undefined) expect(seen, server.id).toBe(name);
        byHash.set(hash, name);
      }
    }
  });
});

describe('the fast paths over every real tool', () => {
  const native: HashOptions = { sha256: (bytes) => createHash('sha256').update(bytes).digest() };

  test('an injected node:crypto SHA-256 gives the default hash for every tool and every list', () => {
    let tools = 0;
    for (const server of servers) {
      for (const list of [server.raw, server.tools]) {
        for (const tool of list) {
          expect(hashTool(tool, native), server.id).toBe(hashTool(tool));
          tools++;
        }
        expect(hashToolList(list, native), server.id).toBe(hashToolList(list));
      }
    }
    expect(tools).toBeGreaterThan(2_000);
  });

  test('canonical texts equal the 0.1.0 writer for every tool', () => {
    for (const server of servers) {
      for (const tool of [...server.raw, ...server.tools]) {
        expect(canonicalToolJson(tool), server.id).toBe(referenceCanonicalToolJson(tool));
        if (isJsonObject(tool)) expect(canonicalContentJson(tool), server.id).toBe(referenceCanonicalContentJson(tool));
      }
    }
  });

  test('schema and description checks equal the 0.1.0 checks for every tool', () => {
    for (const server of servers) {
      for (const tool of server.raw) {
        expect(hasDescription(tool), server.id).toBe(referenceHasDescription(tool));
        expect(hasInputSchema(tool), server.id).toBe(isJsonObject(tool) && referenceIsUsableSchema(tool.inputSchema));
      }
    }
  });
});

describe('diffToolLists over every real list', () => {
  test('a list against itself, in any order, is unchanged', () => {
    for (const server of servers) {
      const result = diffToolLists(
        { tools: server.raw, serverVersion: '1' },
        { tools: [...server.raw].reverse(), serverVersion: '1' },
      );
      expect(result.unchanged, server.id).toBe(true);
      expect(result.silent, server.id).toBe(false);
    }
  });

  test('dropping the first tool removes exactly it (or changes its name group), silently under the same version', () => {
    for (const server of servers) {
      const first = server.raw[0];
      const name = readToolName(first);
      if (name === null) continue;
      const result = diffToolLists(
        { tools: server.raw, serverVersion: '1' },
        { tools: server.raw.slice(1), serverVersion: '1' },
      );
      const stillThere = server.raw.slice(1).some((tool) => readToolName(tool) === name);
      expect(stillThere ? result.changed : result.removed, server.id).toEqual([name]);
      expect(result.added, server.id).toEqual([]);
      expect(result.silent, server.id).toBe(true);
    }
  });

  test('every tool of a list diffed against nothing is added, and the high-risk ones rise from nothing', () => {
    for (const server of servers) {
      const result = diffToolLists({ tools: [] }, { tools: server.raw });
      const named = new Set(server.raw.flatMap((tool, i) => [readToolName(tool) ?? `tools[${i}]`]));
      expect(result.added, server.id).toEqual([...named].sort());
      for (const rise of result.riskRises) {
        expect(rise.from, server.id).toBeNull();
        expect(rise.to, server.id).toBe('high-risk');
      }
    }
  });

  test('renaming every tool reports renames for described tools with unique names, and nothing changed', () => {
    for (const server of servers) {
      const tools = server.raw.filter((tool) => readToolName(tool) !== null) as Record<string, unknown>[];
      const renamedTools: Record<string, unknown>[] = tools.map((tool) => ({
        ...tool,
        name: `renamed_${String(tool.name)}`,
      }));
      const result = diffToolLists({ tools }, { tools: renamedTools });
      expect(result.changed, server.id).toEqual([]);
      const total = result.renamed.length + result.removed.length;
      expect(total, server.id).toBe(new Set(tools.map((tool) => tool.name)).size);
      for (const pair of result.renamed) {
        const from = tools.find((tool) => tool.name === pair.from);
        const to = renamedTools.find((tool) => tool.name === pair.to);
        expect(hasDescription(from), server.id).toBe(true);
        expect(JSON.stringify(reverseKeys(from?.inputSchema)), server.id).toBe(
          JSON.stringify(reverseKeys(to?.inputSchema)),
        );
        expect(from?.description, server.id).toBe(to?.description);
      }
    }
  });
});
