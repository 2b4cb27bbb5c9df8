import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyTools, type RiskVerdict } from '../src/index.js';

const LEVELS = ['read-only', 'changes-data', 'high-risk'];

function isWellFormed(verdict: RiskVerdict): boolean {
  return (
    LEVELS.includes(verdict.level) &&
    verdict.rule >= 1 &&
    verdict.rule <= 8 &&
    typeof verdict.raised === 'boolean' &&
    typeof verdict.reason === 'string' &&
    verdict.reason.length > 0
  );
}

describe('tool lists from untrusted servers', () => {
  it.each([
    [1, 'not a tool object'],
    ['delete_everything', 'not a tool object'],
    [null, 'not a tool object'],
    [[{ name: 'x' }], 'not a tool object'],
    [{}, 'has no name'],
    [{ description: 'x' }, 'has no name'],
    [{ name: 42 }, 'not a string'],
    [{ name: null }, 'not a string'],
    [{ name: ['delete'] }, 'not a string'],
  ])('%j gets rule 8 and says why (%s)', (entry, why) => {
    const [verdict] = classifyTools([entry]);
    expect(verdict).toMatchObject({ level: 'changes-data', rule: 8, raised: false, verb: null });
    expect(verdict?.reason).toContain(why);
  });

  it('never throws on any JSON value in the list', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (tools) => {
        const verdicts = classifyTools(tools);
        expect(verdicts).toHaveLength(tools.length);
        expect(verdicts.every(isWellFormed)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on tool-shaped objects with hostile fields', () => {
    const hostileTool = fc.record(
      {
        name: fc.oneof(fc.string(), fc.jsonValue()),
        description: fc.oneof(fc.string({ maxLength: 3000 }), fc.jsonValue()),
        annotations: fc.oneof(
          fc.record({ readOnlyHint: fc.jsonValue(), destructiveHint: fc.jsonValue() }, { requiredKeys: [] }),
          fc.jsonValue(),
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(hostileTool), (tools) => {
        expect(classifyTools(tools).every(isWellFormed)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('the seed invariants hold for any annotated tool', () => {
    const tool = fc.record({
      name: fc.stringMatching(/^[a-zA-Z_]{1,30}$/),
      annotations: fc.record({ readOnlyHint: fc.boolean(), destructiveHint: fc.boolean() }),
    });
    fc.assert(
      fc.property(tool, (t) => {
        const [verdict] = classifyTools([t]);
        if (t.annotations.destructiveHint && !t.annotations.readOnlyHint) expect(verdict?.level).toBe('high-risk');
        if (t.annotations.readOnlyHint && verdict?.rule !== 2) expect(verdict?.level).toBe('read-only');
      }),
      { numRuns: 1000 },
    );
  });
});
