import { describe, expect, it } from 'vitest';
import {
  analyzeRuntimeSchemas,
  DESCRIPTION_ACTION_WORDS,
  SCHEMA_COMPLETENESS_BASE,
  SCHEMA_COMPLETENESS_CAP_WITHOUT_DESCRIPTIONS,
  SCHEMA_COMPLETENESS_CAP_WITHOUT_INPUT_SCHEMA,
  SCHEMA_COMPLETENESS_MARKER_POINTS,
  SCHEMA_MARKERS,
  scoreToolDescription,
} from '../src/schema-analysis.js';

/** A description of exactly `length` code points that holds no action word. */
function text(length: number): string {
  return 'x'.repeat(length);
}

const FULL_TOOL = {
  name: 'search_issues',
  // 55 code points, with the action word "search".
  description: 'Search issues by text, label and state in one repository.',
  inputSchema: {
    type: 'object',
    properties: { q: { type: 'string', description: 'Words to find' } },
    required: ['q'],
  },
};

describe('schema completeness from runtime schemas', () => {
  it('keeps the engine numbers', () => {
    expect(SCHEMA_MARKERS).toEqual(['inputSchema', 'parameters', 'properties', 'description', 'type', 'required']);
    expect([SCHEMA_COMPLETENESS_BASE, SCHEMA_COMPLETENESS_MARKER_POINTS]).toEqual([40, 60]);
    expect([SCHEMA_COMPLETENESS_CAP_WITHOUT_INPUT_SCHEMA, SCHEMA_COMPLETENESS_CAP_WITHOUT_DESCRIPTIONS]).toEqual([
      60, 70,
    ]);
    expect(DESCRIPTION_ACTION_WORDS).toHaveLength(10);
  });

  it('gives 40 and no description quality for an empty list', () => {
    const result = analyzeRuntimeSchemas([]);
    expect(result.schemaCompleteness).toBe(40);
    expect(result.descriptionQuality).toBe(0);
    expect(result.details.schema_completeness.issues).toEqual(['no_tool_definitions_found']);
  });

  it('gives 100 when all six markers show: 40 + 6/6 x 60', () => {
    const result = analyzeRuntimeSchemas([FULL_TOOL]);
    expect(result.schemaCompleteness).toBe(100);
    expect(result.details.schema_completeness).toEqual({
      tool_count: 1,
      schema_markers_found: [...SCHEMA_MARKERS],
      issues: [],
    });
  });

  it('gives 90 for five markers (40 + 50.000000000000014 truncated) when required is missing', () => {
    const { required: _, ...schema } = FULL_TOOL.inputSchema;
    expect(analyzeRuntimeSchemas([{ ...FULL_TOOL, inputSchema: schema }]).schemaCompleteness).toBe(90);
  });

  it('gives 80 for four markers: no declared parameter, no required list', () => {
    const tool = { name: 't', description: 'd', inputSchema: { type: 'object', properties: {} } };
    const result = analyzeRuntimeSchemas([tool]);
    expect(result.details.schema_completeness.schema_markers_found).toEqual([
      'inputSchema',
      'properties',
      'description',
      'type',
    ]);
    expect(result.schemaCompleteness).toBe(80);
  });

  it('caps at 70 without any description: 3 markers give 70, the cap holds it there', () => {
    const tool = { name: 't', inputSchema: { type: 'object', properties: {} } };
    const result = analyzeRuntimeSchemas([tool]);
    expect(result.schemaCompleteness).toBe(70);
    expect(result.details.schema_completeness.issues).toEqual(['no_descriptions']);
    const more = { name: 't', inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } };
    // 5 markers would give 90; without a description the cap of 70 applies.
    expect(analyzeRuntimeSchemas([more]).schemaCompleteness).toBe(70);
  });

  it('caps at 60 without an input schema: a description alone gives 40 + 10 = 50', () => {
    const result = analyzeRuntimeSchemas([{ name: 't', description: 'Adds two numbers together.' }]);
    expect(result.schemaCompleteness).toBe(50);
    expect(result.details.schema_completeness.issues).toEqual(['no_input_schema']);
  });

  it('counts a parameter description as the description marker', () => {
    const tool = { name: 't', inputSchema: { properties: { a: { description: 'The first number' } } } };
    expect(analyzeRuntimeSchemas([tool]).details.schema_completeness.schema_markers_found).toEqual([
      'inputSchema',
      'parameters',
      'properties',
      'description',
    ]);
  });

  it('takes markers from any tool of the list, as the engine takes them from any file', () => {
    const bare = { name: 'bare' };
    expect(analyzeRuntimeSchemas([bare, FULL_TOOL]).schemaCompleteness).toBe(100);
    expect(analyzeRuntimeSchemas([bare]).schemaCompleteness).toBe(40);
  });

  it('skips entries that are not tools and counts them', () => {
    const result = analyzeRuntimeSchemas([null, 'x', { description: 'no name' }, { name: 7 }, FULL_TOOL]);
    expect(result.details.skipped_entries).toBe(4);
    expect(result.details.schema_completeness.tool_count).toBe(1);
    expect(analyzeRuntimeSchemas(null as unknown as unknown[]).schemaCompleteness).toBe(40);
  });
});

describe('description quality from runtime schemas', () => {
  it('scores a tool at and around 20 and 50 code points', () => {
    const noParams = (description: string) => ({ name: 't', description, inputSchema: { type: 'object' } });
    expect(scoreToolDescription(noParams(text(19)))).toBe(60);
    expect(scoreToolDescription(noParams(text(20)))).toBe(80);
    expect(scoreToolDescription(noParams(text(49)))).toBe(80);
    expect(scoreToolDescription(noParams(text(50)))).toBe(90);
    // Whitespace around the text does not count; code points do, not UTF-16 units.
    expect(scoreToolDescription(noParams(`   ${text(19)}   `))).toBe(60);
    expect(scoreToolDescription(noParams('😀'.repeat(20)))).toBe(80);
    expect(scoreToolDescription(noParams('😀'.repeat(10)))).toBe(60);
  });

  it('adds 10 for an action word, anywhere and in any case', () => {
    expect(scoreToolDescription({ name: 't', description: 'QUERY' })).toBe(70);
    expect(scoreToolDescription({ name: 't', description: 'Reconnects' })).toBe(70);
    expect(scoreToolDescription({ name: 't', description: 'Adds' })).toBe(60);
  });

  it('gives 60 times the share of described parameters', () => {
    const withParams = (described: number, total: number) => ({
      name: 't',
      inputSchema: {
        properties: Object.fromEntries(
          Array.from({ length: total }, (_, i) => [`p${i}`, i < described ? { description: 'what it is' } : {}]),
        ),
      },
    });
    expect(scoreToolDescription(withParams(0, 2))).toBe(0);
    expect(scoreToolDescription(withParams(1, 2))).toBe(30);
    expect(scoreToolDescription(withParams(2, 2))).toBe(60);
    expect(scoreToolDescription(withParams(1, 7))).toBeCloseTo(60 / 7, 12);
    // A blank description does not count as one.
    const blank = { name: 't', inputSchema: { properties: { a: { description: '   ' } } } };
    expect(scoreToolDescription(blank)).toBe(0);
  });

  it('averages over tools and truncates: (100 + 60 + 8.57) / 3 = 56.19 -> 56', () => {
    const sevenParams = {
      name: 'seven',
      inputSchema: {
        properties: Object.fromEntries(
          Array.from({ length: 7 }, (_, i) => [`p${i}`, i === 0 ? { description: 'x' } : {}]),
        ),
      },
    };
    const result = analyzeRuntimeSchemas([FULL_TOOL, { name: 'bare' }, sevenParams]);
    expect(result.descriptionQuality).toBe(56);
    expect(result.details.description_quality).toEqual({
      tool_count: 3,
      tools_described: 1,
      tools_detailed: 1,
      tools_actionable: 1,
      parameters_declared: 8,
      parameters_described: 2,
    });
  });

  it('does not lose a point to float noise: 60 + 46.67 + 13.33 averages exactly 40', () => {
    const described = (k: number, n: number) => ({
      name: 't',
      inputSchema: {
        properties: Object.fromEntries(
          Array.from({ length: n }, (_, i) => [`p${i}`, i < k ? { description: 'x' } : {}]),
        ),
      },
    });
    // In floating point (60 + 46.666666666666664 + 13.333333333333334) / 3 is 39.99999999999999.
    expect(analyzeRuntimeSchemas([described(1, 1), described(7, 9), described(2, 9)]).descriptionQuality).toBe(40);
  });

  it('scores 0 for an entry that is not a tool', () => {
    expect(scoreToolDescription(undefined)).toBe(0);
  });
});
