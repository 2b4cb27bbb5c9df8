import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import * as api from '../src/index.js';
import * as rules from '../src/rules.js';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));
const sources = readdirSync(srcDir)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(join(srcDir, file), 'utf8') }));

describe('the public API', () => {
  test('exports exactly these runtime names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'FINDING_IDS',
        'FINDING_TITLES',
        'FindingsInputError',
        'REVIEW_ONLY_CHECK_IDS',
        'REVIEW_ONLY_CHECK_TITLES',
        'findReviewOnlyPatterns',
        'findReviewOnlyPatternsInTools',
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

  test('the rules subpath exports one frozen object per concern and nothing else', () => {
    expect(Object.keys(rules).sort()).toEqual([
      'FINDING_RULES',
      'REVIEW_PATTERN_RULES',
      'TOKEN_RULES',
      'TOOL_DIFF_RULES',
      'TOOL_HASH_RULES',
    ]);
    for (const group of Object.values(rules)) expect(Object.isFrozen(group)).toBe(true);
  });

  test('the rule constants hold the methodology numbers', () => {
    expect(rules.FINDING_RULES).toEqual({
      heavyToolListChars: 40_000,
      veryLongDescriptionChars: 2_000,
      olderProtocolBefore: '2025-03-26',
      slowCheckMs: 3_000,
      maxSchemaDepth: 64,
      maxSchemaNodes: 10_000,
    });
    expect(rules.TOKEN_RULES).toEqual({ charsPerToken: 4 });
    expect(rules.TOOL_HASH_RULES.listHashSeparator).toBe('\n');
    expect(rules.TOOL_DIFF_RULES.riskRank).toEqual({ 'read-only': 0, 'changes-data': 1, 'high-risk': 2 });
    expect(rules.REVIEW_PATTERN_RULES.excerptContextChars).toBe(40);
    expect(rules.REVIEW_PATTERN_RULES.maxDescriptionChars).toBe(100_000);
    expect([rules.REVIEW_PATTERN_RULES.excerptMatchOpen, rules.REVIEW_PATTERN_RULES.excerptMatchClose]).toEqual([
      '«',
      '»',
    ]);
  });

  test('the hashed fields are listed in canonical (sorted) order', () => {
    const { toolHashFields } = rules.TOOL_HASH_RULES;
    expect([...toolHashFields]).toEqual(['annotations', 'description', 'inputSchema', 'name']);
    expect([...toolHashFields]).toEqual([...toolHashFields].sort());
    expect([...rules.TOOL_DIFF_RULES.renameMatchFields]).toEqual(['description', 'inputSchema']);
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

  test('imports only relative modules, @noble/hashes, @mcp-atlas/risk and the bundled @mcp-atlas/base', () => {
    for (const { file, text } of sources) {
      for (const match of text.matchAll(/from\s+['"]([^'"]+)['"]/g)) {
        expect(match[1], file).toMatch(
          /^(\.\/[\w-]+\.js|@noble\/hashes\/(sha2|utils)\.js|@mcp-atlas\/risk|@mcp-atlas\/base)$/,
        );
      }
    }
  });
});
