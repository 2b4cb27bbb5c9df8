import { describe, expect, it } from 'vitest';
import { CLOSURE_NOTE_MAX_CHARS, lastClosureAt } from '../src/incident-closure.js';
import {
  checkClosureNote,
  decideClosedIncident,
  decideIncident,
  type IncidentClosure,
  type IncidentInput,
  ReliabilityInputError,
} from '../src/index.js';

const NOW = new Date('2025-06-01T12:00:00Z');
const at = (hhmm: string): string => `2025-06-01T${hhmm}:00Z`;
const closure = (server: string, hhmm: string, note = 'reviewed'): IncidentClosure => ({ server, at: at(hhmm), note });

// Two anonymous agents and our own failed check: a shown incident under the incident rule.
const failingAt = (agentA: string, agentB: string, checkAt: string): IncidentInput => ({
  reports: [
    { reporter: 'anon:a', paid: false, ok: false, at: at(agentA), reason: 'timeout' },
    { reporter: 'anon:b', paid: false, ok: false, at: at(agentB), reason: 'timeout' },
  ],
  checks: [{ kind: 'hourly', at: at(checkAt), outcome: 'timeout' }],
});

describe('the newest closure known at now', () => {
  it('is null without a closure of that server', () => {
    expect(lastClosureAt([], 'notes', NOW)).toBeNull();
    expect(lastClosureAt([closure('other', '11:00')], 'notes', NOW)).toBeNull();
  });

  it('takes the newest closure of the server, whatever the order', () => {
    expect(
      lastClosureAt([closure('notes', '11:00'), closure('notes', '09:00'), closure('other', '11:59')], 'notes', NOW),
    ).toBe('2025-06-01T11:00:00.000Z');
  });

  it('counts a closure at exactly now, and not one a second later (not known yet)', () => {
    expect(lastClosureAt([closure('notes', '12:00')], 'notes', NOW)).toBe('2025-06-01T12:00:00.000Z');
    expect(lastClosureAt([{ server: 'notes', at: '2025-06-01T12:00:01Z', note: 'x' }], 'notes', NOW)).toBeNull();
  });

  it('refuses a closure without a valid time or server', () => {
    expect(() => lastClosureAt([{ server: 'notes', at: 'yesterday', note: 'x' }], 'notes', NOW)).toThrow(
      ReliabilityInputError,
    );
    expect(() => lastClosureAt([{ server: '', at: at('10:00'), note: 'x' }], 'notes', NOW)).toThrow(
      /closures\[0\]\.server/,
    );
  });
});

describe('an incident a person closed', () => {
  it('is shown before the closure, as the incident rule decides', () => {
    const input = failingAt('11:00', '11:10', '11:20');
    expect(decideIncident(input, NOW).shown).toBe(true);
    expect(decideClosedIncident('notes', input, [], NOW).shown).toBe(true);
  });

  it('is not shown again when every failure came before the closure', () => {
    const decision = decideClosedIncident(
      'notes',
      failingAt('11:00', '11:10', '11:20'),
      [closure('notes', '11:30')],
      NOW,
    );
    expect(decision).toMatchObject({ shown: false, failingReporters: [], ownCheckFailed: false });
  });

  it('does not count a failure at exactly the closure time (after T means after)', () => {
    const decision = decideClosedIncident(
      'notes',
      failingAt('11:30', '11:30', '11:30'),
      [closure('notes', '11:30')],
      NOW,
    );
    expect(decision.shown).toBe(false);
  });

  it('opens again when new failures after the closure count and are confirmed', () => {
    const decision = decideClosedIncident(
      'notes',
      failingAt('11:31', '11:40', '11:45'),
      [closure('notes', '11:30')],
      NOW,
    );
    expect(decision).toMatchObject({
      shown: true,
      failingReporters: ['anon:a', 'anon:b'],
      since: '2025-06-01T11:31:00.000Z',
    });
  });

  it('needs the new failures to meet the rule alone: one new agent after the closure, plus the old check, is not enough', () => {
    // Agent b and our check failed before the closure; only agent a failed after it, and anonymous agents never confirm.
    const decision = decideClosedIncident(
      'notes',
      failingAt('11:50', '11:10', '11:20'),
      [closure('notes', '11:30')],
      NOW,
    );
    expect(decision).toMatchObject({ shown: false, failingReporters: ['anon:a'], confirmed: false });
  });

  it('ignores closures of other servers and closures not known yet', () => {
    const input = failingAt('11:00', '11:10', '11:20');
    expect(decideClosedIncident('notes', input, [closure('other', '11:30')], NOW).shown).toBe(true);
    expect(decideClosedIncident('notes', input, [closure('notes', '12:30')], NOW).shown).toBe(true);
  });

  it('keeps the later of the input’s own closedAt and the newest closure', () => {
    const input = { ...failingAt('11:31', '11:40', '11:45'), closedAt: at('11:50') };
    expect(decideClosedIncident('notes', input, [closure('notes', '11:30')], NOW).shown).toBe(false);
  });
});

describe('the note a person leaves', () => {
  it('is trimmed and kept', () => {
    expect(checkClosureNote('  owner confirmed a deploy  ')).toBe('owner confirmed a deploy');
  });

  it('must not be blank', () => {
    for (const note of ['', '   ', '\n\t', undefined, 7])
      expect(() => checkClosureNote(note)).toThrow(ReliabilityInputError);
  });

  it('fits in 1,000 characters: 1,000 passes, 1,001 does not', () => {
    expect(CLOSURE_NOTE_MAX_CHARS).toBe(1_000);
    expect(checkClosureNote('x'.repeat(1_000))).toHaveLength(1_000);
    expect(() => checkClosureNote('x'.repeat(1_001))).toThrow(/at most 1000 characters/);
  });
});
