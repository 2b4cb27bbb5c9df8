import { describe, expect, it } from 'vitest';
import { CHANGE_DAYS_KEPT, OUTAGES_KEPT, RISK_RISE_DAYS_KEPT } from '../src/constants.js';
import {
  type DailyCheckOutcome,
  dailyUptime,
  foldServerDay,
  foldSkippedDay,
  isDayFolded,
  lettersAsOf,
  newServerFoldState,
  ReliabilityInputError,
  type ServerFoldState,
  type ToolListDiffInput,
  toolListBaseline,
} from '../src/index.js';

/** A check answered with tools, hash `h`; overrides change any field. */
function check(over: Partial<DailyCheckOutcome> = {}): DailyCheckOutcome {
  return {
    id: 's',
    letter: 'o',
    message: 'tools listed',
    toolsHash: 'h1',
    serverVersion: '1.0.0',
    paymentAddress: null,
    redirect: null,
    elapsedMs: 900,
    ...over,
  };
}

const down = (message = 'timeout'): Partial<DailyCheckOutcome> => ({
  letter: 'd',
  message,
  toolsHash: null,
  serverVersion: null,
});

function diff(over: Partial<ToolListDiffInput> = {}): ToolListDiffInput {
  return {
    added: [],
    removed: [],
    changed: [],
    rewritten: [],
    riskRises: [],
    renamed: [],
    silent: false,
    unchanged: false,
    ...over,
  };
}

/** Folds a run of days, day i on `start` + i; `null` is a day the check did not run. */
function foldRun(
  start: string,
  days: (Partial<DailyCheckOutcome> | null)[],
  state: ServerFoldState = newServerFoldState(),
) {
  const all: { day: string; kinds: string[] }[] = [];
  let current = state;
  days.forEach((over, i) => {
    const day = new Date(Date.parse(`${start}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10);
    if (over === null) {
      current = foldSkippedDay(current, day);
      return;
    }
    const folded = foldServerDay(current, check(over), { day, toolDiff: diff({ added: ['x'] }) });
    all.push({ day, kinds: folded.changes.map((c) => c.kind) });
    current = folded.state;
  });
  return { state: current, changes: all };
}

describe('foldServerDay: letters and days not checked', () => {
  it('writes one letter per day, oldest first', () => {
    expect(
      foldRun('2026-11-01', [{}, { letter: 'a', toolsHash: null }, { letter: 'p', toolsHash: null }, down()]).state
        .letters,
    ).toBe('oapd');
  });

  it('fills days with no fold at all (no check, no skip record) with n, up to 30', () => {
    const one = foldServerDay(newServerFoldState(), check(), { day: '2026-11-01' }).state;
    expect(foldServerDay(one, check(), { day: '2026-11-02' }).state.letters).toBe('oo');
    expect(foldServerDay(one, check(), { day: '2026-11-04' }).state.letters).toBe('onno');
    // 40 days later: the whole window is n but the newest day.
    const late = foldServerDay(one, check(), { day: '2026-12-11' }).state.letters;
    expect(late).toHaveLength(30);
    expect(late).toBe(`${'n'.repeat(29)}o`);
  });

  it('a skipped day is n, moves nothing else, and is never folded twice', () => {
    const one = foldServerDay(newServerFoldState(), check({ ...down() }), { day: '2026-11-01' }).state;
    const skipped = foldSkippedDay(one, '2026-11-02');
    expect(skipped).toEqual({ ...one, letters: 'dn', lastDay: '2026-11-02' });
    expect(foldSkippedDay(skipped, '2026-11-02')).toBe(skipped);
    expect(foldSkippedDay(skipped, '2026-11-01')).toBe(skipped);
  });

  it('a server never checked gets no letter for a skipped day: its history starts at its first check', () => {
    const fresh = newServerFoldState();
    expect(foldSkippedDay(fresh, '2026-11-02')).toBe(fresh);
  });

  it('a day already in the state is left alone and records no change', () => {
    const one = foldServerDay(newServerFoldState(), check(), { day: '2026-11-02' }).state;
    expect(isDayFolded(one, '2026-11-02')).toBe(true);
    expect(isDayFolded(one, '2026-11-01')).toBe(true);
    expect(isDayFolded(one, '2026-11-03')).toBe(false);
    const again = foldServerDay(one, check({ ...down() }), { day: '2026-11-02' });
    expect(again).toEqual({ state: one, changes: [] });
    expect(again.state).toBe(one);
  });

  it("keeps fields of the caller's state it does not know", () => {
    const state = { ...newServerFoldState(), id: 'keep-me', fiveMinute: [1, 2] };
    const next = foldServerDay(state, check(), { day: '2026-11-01' }).state;
    expect(next.id).toBe('keep-me');
    expect(next.fiveMinute).toEqual([1, 2]);
  });
});

describe('foldServerDay: status changes against the previous daily check that ran', () => {
  it('records stopped and started answering; sign-in and payment count as answering', () => {
    const run = foldRun('2026-11-01', [
      {},
      down('no connection'),
      { letter: 'a', toolsHash: null },
      { letter: 'p', toolsHash: null, paymentAddress: 'https://pay.example/x' },
      {},
    ]);
    expect(run.changes.map((c) => c.kinds)).toEqual([
      [],
      ['stopped-answering'],
      ['started-answering', 'sign-in'],
      ['payment-address'],
      [],
    ]);
  });

  it('the first check records no status change', () => {
    expect(foldRun('2026-11-01', [down()]).changes[0]!.kinds).toEqual([]);
  });

  it('compares with the last check that ran across days not checked', () => {
    // down, then two days not checked, then down again: still the same outage, no change.
    const run = foldRun('2026-11-01', [{}, down(), null, null, down(), {}]);
    expect(run.changes.map((c) => c.kinds)).toEqual([[], ['stopped-answering'], [], ['started-answering']]);
    expect(run.state.letters).toBe('odnndo');
  });

  it('reports sign-in once when it begins, and again after a day without it', () => {
    const signIn = { letter: 'a' as const, toolsHash: null };
    const run = foldRun('2026-11-01', [{}, signIn, signIn, {}, signIn]);
    expect(run.changes.map((c) => c.kinds)).toEqual([[], ['sign-in'], [], [], ['sign-in']]);
  });

  it('reports a payment address when it is new, not when it repeats after a day without payment', () => {
    const pay = (address: string) => ({ letter: 'p' as const, toolsHash: null, paymentAddress: address });
    const run = foldRun('2026-11-01', [
      pay('https://a.example'),
      pay('https://a.example'),
      {},
      pay('https://a.example'),
      pay('https://b.example'),
    ]);
    expect(run.changes.map((c) => c.kinds)).toEqual([['payment-address'], [], [], [], ['payment-address']]);
    expect(run.state.lastPaymentAddress).toBe('https://b.example');
  });

  it('reports a redirect to another domain when it begins or moves, never a same-site one', () => {
    const to = (location: string, sameSite = false) => ({
      ...down('redirect'),
      redirect: { location, sameSite, followed: sameSite },
    });
    const run = foldRun('2026-11-01', [
      {},
      to('https://other.example/'),
      to('https://other.example/'),
      to('https://third.example/'),
      {},
      to('https://other.example/'),
      { redirect: { location: 'https://www.same.example/', sameSite: true } },
    ]);
    expect(run.changes.map((c) => c.kinds)).toEqual([
      [],
      ['stopped-answering', 'redirect'],
      [],
      ['redirect'],
      ['started-answering'],
      ['stopped-answering', 'redirect'],
      ['started-answering'],
    ]);
    expect(run.state.lastRedirect).toBeNull();
  });
});

describe('foldServerDay: the tool list compares with the previous daily check that listed tools (item 10)', () => {
  const start = foldServerDay(newServerFoldState(), check({ toolsHash: 'h1' }), { day: '2026-11-01' }).state;

  it('the next day: baseline is yesterday', () => {
    expect(toolListBaseline(start, { toolsHash: 'h2' })).toEqual({ day: '2026-11-01', toolsHash: 'h1' });
    expect(toolListBaseline(start, { toolsHash: 'h1' })).toBeNull();
    expect(toolListBaseline(start, { toolsHash: null })).toBeNull();
    expect(toolListBaseline(newServerFoldState(), { toolsHash: 'h1' })).toBeNull();
  });

  it('a down day in between: the list is compared with the day before the outage, and the change is recorded on the day it is seen', () => {
    const downDay = foldServerDay(start, check(down()), { day: '2026-11-02' }).state;
    expect(downDay.toolsHash).toBe('h1');
    expect(downDay.lastCatalogDay).toBe('2026-11-01');
    expect(toolListBaseline(downDay, { toolsHash: 'h2' })).toEqual({ day: '2026-11-01', toolsHash: 'h1' });
    const back = foldServerDay(downDay, check({ toolsHash: 'h2' }), {
      day: '2026-11-03',
      toolDiff: diff({ added: ['new_tool'] }),
    });
    expect(back.changes.map((c) => c.kind)).toEqual(['started-answering', 'tools']);
    expect(back.state.changeDays).toEqual(['2026-11-03']);
    expect(back.state.lastCatalogDay).toBe('2026-11-03');
  });

  it('a down day with the same list on both sides records no tool change', () => {
    const downDay = foldServerDay(start, check(down()), { day: '2026-11-02' }).state;
    const back = foldServerDay(downDay, check({ toolsHash: 'h1' }), { day: '2026-11-03' });
    expect(back.changes.map((c) => c.kind)).toEqual(['started-answering']);
    expect(back.state.changeDays).toEqual([]);
  });

  it('a day not checked in between (cost cap) moves no baseline', () => {
    const skipped = foldSkippedDay(start, '2026-11-02');
    expect(toolListBaseline(skipped, { toolsHash: 'h2' })).toEqual({ day: '2026-11-01', toolsHash: 'h1' });
    const back = foldServerDay(skipped, check({ toolsHash: 'h2' }), {
      day: '2026-11-03',
      toolDiff: diff({ removed: ['old'] }),
    });
    expect(back.changes.map((c) => c.kind)).toEqual(['tools']);
    expect(back.state.letters).toBe('ono');
  });

  it('a sign-in day in between has no list either', () => {
    const signIn = foldServerDay(start, check({ letter: 'a', toolsHash: null }), { day: '2026-11-02' }).state;
    expect(toolListBaseline(signIn, { toolsHash: 'h2' })).toEqual({ day: '2026-11-01', toolsHash: 'h1' });
  });

  it('records the diff and its sentence; a silent change says so', () => {
    const folded = foldServerDay(start, check({ toolsHash: 'h2' }), {
      day: '2026-11-02',
      toolDiff: diff({
        added: ['a', 'b'],
        changed: ['c'],
        silent: true,
        riskRises: [{ name: 'a', from: null, to: 'high-risk' }],
      }),
    });
    expect(folded.changes).toEqual([
      {
        serverId: 's',
        kind: 'tools',
        detail: 'Tool list changed silently (same server version): 2 added, 1 changed, 1 rise(s) in risk.',
        diff: {
          added: ['a', 'b'],
          removed: [],
          changed: ['c'],
          rewritten: [],
          riskRises: [{ name: 'a', from: null, to: 'high-risk' }],
          renamed: [],
          silent: true,
        },
      },
    ]);
    expect(folded.state.riskRiseDays).toEqual(['2026-11-02']);
  });

  it('a change whose earlier list cannot be read is still recorded and counted, without detail', () => {
    const folded = foldServerDay(start, check({ toolsHash: 'h2' }), { day: '2026-11-02', toolDiff: null });
    expect(folded.changes).toEqual([
      { serverId: 's', kind: 'tools', detail: expect.stringContaining('no tool-by-tool detail') },
    ]);
    expect(folded.state.changeDays).toEqual(['2026-11-02']);
    expect(folded.state.riskRiseDays).toEqual([]);
  });

  it('refuses a diff that says unchanged when the hashes differ (the caller diffed the wrong lists)', () => {
    expect(() =>
      foldServerDay(start, check({ toolsHash: 'h2' }), { day: '2026-11-02', toolDiff: diff({ unchanged: true }) }),
    ).toThrow(ReliabilityInputError);
  });
});

describe('foldServerDay: kept windows at and around each limit', () => {
  /** A state whose change and rise days are the given ages (in days before 2026-12-31). */
  function withDays(ages: number[]): ServerFoldState {
    const days = ages
      .map((age) => new Date(Date.parse('2026-12-31T00:00:00Z') - age * 86_400_000).toISOString().slice(0, 10))
      .sort();
    return {
      ...newServerFoldState(),
      letters: 'o',
      lastDay: '2026-12-30',
      toolsHash: 'h1',
      lastCatalogDay: '2026-12-30',
      changeDays: days,
      riskRiseDays: days,
    };
  }

  it(`change days: kept ${CHANGE_DAYS_KEPT} days, today included (age 59 stays, 60 goes)`, () => {
    expect(CHANGE_DAYS_KEPT).toBe(60);
    const next = foldServerDay(withDays([61, 60, 59, 1]), check({ toolsHash: 'h1' }), { day: '2026-12-31' }).state;
    // age 59 = 2026-11-02, the oldest of the 60 days ending 2026-12-31
    expect(next.changeDays).toEqual(['2026-11-02', '2026-12-30']);
  });

  it(`risk-rise days: kept ${RISK_RISE_DAYS_KEPT} days, today included (age 6 stays, 7 goes)`, () => {
    expect(RISK_RISE_DAYS_KEPT).toBe(7);
    const next = foldServerDay(withDays([8, 7, 6, 0 + 1]), check({ toolsHash: 'h1' }), { day: '2026-12-31' }).state;
    expect(next.riskRiseDays).toEqual(['2026-12-25', '2026-12-30']);
  });

  it('a change today is added to both lists', () => {
    const next = foldServerDay(withDays([]), check({ toolsHash: 'h2' }), {
      day: '2026-12-31',
      toolDiff: diff({ riskRises: [{ name: 'x', from: 'read-only', to: 'high-risk' }], changed: ['x'] }),
    }).state;
    expect(next.changeDays).toEqual(['2026-12-31']);
    expect(next.riskRiseDays).toEqual(['2026-12-31']);
  });

  it(`outages: counted in observed down days, ended by an answer, the newest ${OUTAGES_KEPT} kept`, () => {
    expect(OUTAGES_KEPT).toBe(5);
    const d = down();
    // outages of 1, 2 (with a day not checked inside, which does not count), 3, 1, 1, 2 days
    const run = foldRun('2026-11-01', [d, {}, d, null, d, {}, d, d, d, {}, d, {}, d, {}, d, d, {}]);
    expect(run.state.letters).toBe('dodndodddodododdo');
    expect(run.state.outages).toEqual([2, 3, 1, 1, 2]);
    expect(run.state.currentOutageDays).toBe(0);
    const ongoing = foldRun('2026-11-01', [{}, d, d]).state;
    expect(ongoing.outages).toEqual([]);
    expect(ongoing.currentOutageDays).toBe(2);
  });
});

describe('foldServerDay: bad input', () => {
  it('throws a typed error for a bad day or letter', () => {
    expect(() => foldServerDay(newServerFoldState(), check(), { day: '2026-13-01' })).toThrow(ReliabilityInputError);
    expect(() => foldServerDay(newServerFoldState(), check({ letter: 'n' as never }), { day: '2026-11-01' })).toThrow(
      /today.letter/,
    );
    expect(() => foldServerDay(newServerFoldState(), check({ id: '' }), { day: '2026-11-01' })).toThrow(/today.id/);
  });
});

describe('lettersAsOf (the 30-day window ending a given day)', () => {
  const LAST = '2026-11-10';

  it('leaves the letters as they are on or before their last day, and with no letter yet', () => {
    expect(lettersAsOf({ letters: 'od', lastDay: LAST }, LAST)).toBe('od');
    expect(lettersAsOf({ letters: 'od', lastDay: LAST }, '2026-11-09')).toBe('od');
    expect(lettersAsOf({ letters: '', lastDay: null }, LAST)).toBe('');
  });

  it('adds n for each day after the last letter, through the day', () => {
    expect(lettersAsOf({ letters: 'od', lastDay: LAST }, '2026-11-11')).toBe('odn');
    expect(lettersAsOf({ letters: 'od', lastDay: LAST }, '2026-11-13')).toBe('odnnn');
    // Across a month's end.
    expect(lettersAsOf({ letters: 'o', lastDay: '2026-11-30' }, '2026-12-02')).toBe('onn');
  });

  it('keeps the last 30, at and around the window', () => {
    const full = `${'a'.repeat(29)}o`;
    expect(lettersAsOf({ letters: full, lastDay: LAST }, '2026-11-11')).toBe(`${'a'.repeat(28)}on`);
    expect(lettersAsOf({ letters: full, lastDay: LAST }, '2026-12-09')).toBe(`o${'n'.repeat(29)}`);
    expect(lettersAsOf({ letters: full, lastDay: LAST }, '2026-12-10')).toBe('n'.repeat(30));
    expect(lettersAsOf({ letters: full, lastDay: LAST }, '2027-03-01')).toBe('n'.repeat(30));
  });

  it('moves the uptime window with the days: 29 o and a d ten days ago is 95.0%, not 96.7%', () => {
    const letters = `${'o'.repeat(29)}d`;
    expect(dailyUptime(letters)).toBeCloseTo(96.7, 1);
    expect(dailyUptime(lettersAsOf({ letters, lastDay: LAST }, '2026-11-20'))).toBe(95);
  });

  it('refuses a day that is not YYYY-MM-DD', () => {
    expect(() => lettersAsOf({ letters: 'o', lastDay: LAST }, '2026-11-1')).toThrow(ReliabilityInputError);
  });
});
