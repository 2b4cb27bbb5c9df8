import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import * as api from '../src/index.js';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));
const sources = readdirSync(srcDir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(join(srcDir, file), 'utf8') }));

describe('the public API', () => {
  test('exports exactly these runtime names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'CHARS_PER_TOKEN',
        'FINDING_IDS',
        'FINDING_TITLES',
        'EXCERPT_MATCH_CLOSE',
        'EXCERPT_MATCH_OPEN',
        'FindingsInputError',
        'INSTRUCTION_LIKE_PHRASES',
        'INSTRUCTION_LIKE_TAGS',
        'INVISIBLE_CHARACTER_RANGES',
        'REVIEW_EXCERPT_CONTEXT_CHARS',
        'REVIEW_MAX_DESCRIPTION_CHARS',
        'REVIEW_ONLY_CHECK_IDS',
        'REVIEW_ONLY_CHECK_TITLES',
        'findReviewOnlyPatterns',
        'findReviewOnlyPatternsInTools',
        'HEAVY_TOOL_LIST_CHARS',
        'LIST_HASH_SEPARATOR',
        'MAX_SCHEMA_DEPTH',
        'MAX_SCHEMA_NODES',
        'OLDER_PROTOCOL_BEFORE',
        'RENAME_MATCH_FIELDS',
        'RISK_RANK',
        'SLOW_CHECK_MS',
        'TOOL_HASH_FIELDS',
        'VERY_LONG_DESCRIPTION_CHARS',
        'analyzeToolList',
        'canonicalJson',
        'combineToolHashes',
        'diffToolLists',
        'estimateTokens',
        'hasAnnotations',
        'hasDescription',
        'hasInputSchema',
        'hashTool',
        'hashToolList',
        'isJsonObject',
        'isOlderProtocol',
        'isUsableSchema',
        'labelTool',
        'parseProtocolDate',
        'readToolDescription',
        'readToolName',
        'sha256Hex',
      ].sort(),
    );
  });

  test('the rule constants hold the methodology numbers', () => {
    expect(api.HEAVY_TOOL_LIST_CHARS).toBe(40_000);
    expect(api.CHARS_PER_TOKEN).toBe(4);
    expect(api.VERY_LONG_DESCRIPTION_CHARS).toBe(2_000);
    expect(api.OLDER_PROTOCOL_BEFORE).toBe('2025-03-26');
    expect(api.SLOW_CHECK_MS).toBe(3_000);
    expect(api.LIST_HASH_SEPARATOR).toBe('\n');
    expect(api.RISK_RANK).toEqual({ 'read-only': 0, 'changes-data': 1, 'high-risk': 2 });
  });

  test('the hashed fields are listed in canonical (sorted) order', () => {
    expect([...api.TOOL_HASH_FIELDS]).toEqual(['annotations', 'description', 'inputSchema', 'name']);
    expect([...api.TOOL_HASH_FIELDS]).toEqual([...api.TOOL_HASH_FIELDS].sort());
    expect([...api.RENAME_MATCH_FIELDS]).toEqual(['description', 'inputSchema']);
  });
});

describe('the package stays pure', () => {
  test('no source file imports a node: module', () => {
    for (const { file, text } of sources) expect(text, file).not.toMatch(/from\s+['"]node:/);
  });

  test('no source file reads the clock or a random source', () => {
    for (const { file, text } of sources) {
      expect(text, file).not.toMatch(/\bDate\.now\(|new Date\(|Math\.random\(|performance\.now\(/);
    }
  });

  test('every source file says it is pure in its first comment', () => {
    for (const { file, text } of sources) expect(text.split('\n')[0], file).toMatch(/^\/\/ Pure module:/);
  });

  test('imports only relative modules, @noble/hashes and @mcp-atlas/risk', () => {
    for (const { file, text } of sources) {
      for (const match of text.matchAll(/from\s+['"]([^'"]+)['"]/g)) {
        expect(match[1], file).toMatch(/^(\.\/[\w-]+\.js|@noble\/hashes\/(sha2|utils)\.js|@mcp-atlas\/risk)$/);
      }
    }
  });
});
