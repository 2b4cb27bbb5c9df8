// The app's shared shapes come from the packages that own them: the day from history's real-date check, the
// letter from the probe (all but n in a kept observation), the risk level from risk's classifier and the route factors from a real route answer.
import { isDay } from '@mcp-atlas/base';
import { LetterSchema } from '@mcp-atlas/probe';
import { classifyTools } from '@mcp-atlas/risk';
import { createToolIndex, routeTask } from '@mcp-atlas/route';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DAY,
  HourlyObservationSchema,
  HourSlotSchema,
  RiskLevelSchema,
  RouteFactorsSchema,
  ServerDayResultSchema,
} from '../src/data/schemas.js';

describe('the day shape', () => {
  it.each(['2026-02-28', '2024-02-29', '2026-12-31', '0000-01-01'])('accepts the real date %s', (day) => {
    expect(DAY.safeParse(day).success).toBe(true);
    expect(isDay(day)).toBe(true);
  });

  it.each(['2026-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10'])(
    'refuses %s, which has the format but is not on the calendar, as history does',
    (day) => {
      const result = DAY.safeParse(day);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        'expected a real calendar date written YYYY-MM-DD',
      ]);
      expect(isDay(day)).toBe(false);
    },
  );

  it.each(['2026-2-1', '26-02-01', '2026-02-01T00:00:00Z', ''])('refuses %s with the format message alone', (day) => {
    const result = DAY.safeParse(day);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['expected a day written YYYY-MM-DD']);
  });

  it('still states the format in its JSON Schema', () => {
    expect(z.toJSONSchema(DAY)).toMatchObject({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
  });
});

describe('the risk level and the letter', () => {
  it('accepts every level the risk classifier gives, and nothing else', () => {
    const levels = classifyTools([
      {
        name: 'get_forecast',
        description: 'Get the weather forecast for a city.',
        annotations: { readOnlyHint: true },
      },
      { name: 'update_issue', description: 'Update an issue.' },
      { name: 'delete_repository', description: 'Delete a repository for good.' },
    ]).map((verdict) => verdict.level);
    expect(new Set(levels)).toEqual(new Set(['read-only', 'changes-data', 'high-risk']));
    for (const level of levels) expect(RiskLevelSchema.parse(level)).toBe(level);
    expect([...RiskLevelSchema.options].sort()).toEqual(['changes-data', 'high-risk', 'read-only']);
    expect(RiskLevelSchema.safeParse('low').success).toBe(false);
  });

  it("is the probe's letter enum in a day's result, and every letter but n in a kept observation", () => {
    expect([...LetterSchema.options]).toEqual(['o', 'a', 'p', 'd', 'n']);
    expect([...ServerDayResultSchema.shape.letter.options]).toEqual([...LetterSchema.options]);
    // A rate-limited check (n) measured nothing: no hourly or five-minute observation, no hour slot keeps it.
    expect([...HourlyObservationSchema.shape.letter.options]).toEqual(['o', 'a', 'p', 'd']);
    expect([...HourSlotSchema.shape.letter.options]).toEqual(['o', 'a', 'p', 'd']);
  });
});

describe('the route factors', () => {
  it("parse a real route answer's factors field for field", () => {
    const index = createToolIndex([
      {
        id: 'files.example',
        tools: [{ name: 'list_files', description: 'List the files in a folder.' }],
      },
    ]);
    const answer = routeTask(index, 'list the files in my folder');
    const pick = answer.picks[0];
    expect(pick).toBeDefined();
    expect(RouteFactorsSchema.strict().parse(pick?.factors)).toEqual(pick?.factors);
    expect(Object.keys(RouteFactorsSchema.shape).sort()).toEqual(Object.keys(pick?.factors ?? {}).sort());
  });
});
