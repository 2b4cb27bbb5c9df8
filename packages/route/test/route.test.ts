import { describe, expect, it } from 'vitest';
import { ROUTE_RULES_VERSION } from '../src/constants.js';
import {
  createToolIndex,
  type IndexServer,
  type RouteCandidate,
  type RouteInputError,
  routeTask,
  verbBonusFactor,
} from '../src/index.js';
import { catalog, mailServer } from './fixtures.js';

const NOW = new Date('2026-12-02T12:00:00Z');
const DAY = 86_400_000;

function daysAgo(days: number): string {
  return new Date(NOW.getTime() - days * DAY).toISOString();
}

/** A copy of the mail server under another id, with extra facts. */
function mail(id: string, facts: Partial<IndexServer> = {}): IndexServer {
  return { ...mailServer, id, ...facts };
}

function productOf(pick: RouteCandidate): number {
  return Object.values(pick.factors).reduce((product, factor) => product * factor, 1);
}

describe('routeTask reads the task and ranks one tool per server', () => {
  const index = createToolIndex(catalog);

  it('reports the task risk, its verb and the rules version', () => {
    const result = routeTask(index, 'send an email to the team');
    expect(result.taskRisk).toBe('change');
    expect(result.verb).toBe('send');
    expect(result.rulesVersion).toBe(ROUTE_RULES_VERSION);
    expect(routeTask(index, 'delete an email').taskRisk).toBe('high');
    expect(routeTask(index, 'list email messages').taskRisk).toBe('read');
    expect(routeTask(index, 'my inbox today')).toMatchObject({ taskRisk: 'read', verb: null });
    // "email" is also a verb in risk's lists, so a task that starts with it changes things.
    expect(routeTask(index, 'email inbox').taskRisk).toBe('change');
  });

  it('picks the sending tool for a sending task, with the verb bonus and no privilege cut', () => {
    const [pick] = routeTask(index, 'send an email').picks;
    expect(pick?.serverId).toBe('mail.example');
    expect(pick?.tool).toBe('send_message');
    expect(pick?.level).toBe('changes-data');
    expect(pick?.factors.verbBonus).toBe(1.6);
    expect(pick?.factors.leastPrivilege).toBe(1);
    // One of the four mail tools is high risk: 1 - 0.3 x 0.25.
    expect(pick?.factors.highRiskShare).toBeCloseTo(0.925, 12);
    expect(pick?.factors.successChance).toBe(0.5);
    expect(pick?.factors.guard).toBe(1);
  });

  it('gives the verb bonus for a verb that is also a stop word, as verbBonusFactor does', () => {
    // "use" is a stop word of the text match and a verb of the task: the bonus reads the tool's name.
    const browser = createToolIndex([
      {
        id: 'browser.example',
        name: 'Browser',
        tools: [
          { name: 'use_browser', description: 'Opens a browser session for the agent.' },
          { name: 'browser_open', description: 'Opens a browser window at an address.' },
        ],
      },
    ]);
    const result = routeTask(browser, 'use the browser');
    expect(result.verb).toBe('use');
    const [pick] = result.picks;
    expect(pick?.tool).toBe('use_browser');
    expect(pick?.factors.verbBonus).toBe(1.6);
    expect(verbBonusFactor('use', 'use_browser')).toBe(1.6);
    expect(verbBonusFactor('use', 'browser_open')).toBe(1);
  });

  it('gives every pick a score equal to the product of its factors, best first, one per server', () => {
    const { picks } = routeTask(index, 'list files and email messages');
    expect(picks.length).toBeGreaterThan(1);
    expect(new Set(picks.map((pick) => pick.serverId)).size).toBe(picks.length);
    for (const pick of picks) expect(pick.score).toBeCloseTo(productOf(pick), 12);
    for (let i = 1; i < picks.length; i++) expect(picks[i - 1]!.score).toBeGreaterThanOrEqual(picks[i]!.score);
  });

  it('guards a read task on a server that also has high-risk tools (0.5) and prefers the read-only tool', () => {
    const [pick] = routeTask(index, 'list email messages').picks;
    expect(pick?.tool).toBe('list_messages');
    expect(pick?.factors.leastPrivilege).toBe(1);
    expect(pick?.factors.guard).toBe(0.5);
  });

  it('cuts a tool that can do more than a read task needs to 0.35, and less than a change task needs to 0.15', () => {
    const free = routeTask(index, 'find free time slots').picks.find((pick) => pick.tool === 'find-free-slots');
    // No annotations on the calendar server: a reading verb lands at changes data (rule 7).
    expect(free?.level).toBe('changes-data');
    expect(free?.factors.leastPrivilege).toBe(0.35);
    const balance = routeTask(index, 'update the balance').picks.find((pick) => pick.tool === 'get_balance');
    expect(balance?.factors.leastPrivilege).toBe(0.15);
  });

  it('returns 5 picks by default and honours a limit', () => {
    const many = createToolIndex(Array.from({ length: 8 }, (_, i) => mail(`m${i}`)));
    expect(routeTask(many, 'send email').picks).toHaveLength(5);
    expect(routeTask(many, 'send email', { limit: 2 }).picks).toHaveLength(2);
    expect(routeTask(many, 'send email', { limit: 100 }).picks).toHaveLength(8);
  });

  it('returns no picks for a task no tool matches', () => {
    expect(routeTask(index, 'zeppelin')).toMatchObject({ picks: [], setAside: [] });
  });
});

describe('routeTask uses what the caller knows about each server', () => {
  it('multiplies success chance, stability, directory and agents factors in', () => {
    const index = createToolIndex([
      mail('plain'),
      mail('known', { successChance: 0.9, stability: 0.5, directoryListed: true, agentsReliability: 0.6 }),
    ]);
    const picks = routeTask(index, 'send email').picks;
    const plain = picks.find((pick) => pick.serverId === 'plain')!;
    const known = picks.find((pick) => pick.serverId === 'known')!;
    expect(known.factors).toMatchObject({ successChance: 0.9, stability: 0.5, directory: 1.15, agents: 0.8 });
    // Same tool, same text: the scores differ by (0.9 / 0.5) x 0.5 x 1.15 x 0.8 = 0.828.
    expect(known.score / plain.score).toBeCloseTo(0.828, 12);
  });

  it('guards gateways (0.7), new submissions and young domains (0.8) for tasks that are not high risk', () => {
    const index = createToolIndex([
      mail('gateway', { gateway: true }),
      mail('new29', { submittedAt: daysAgo(29) }),
      mail('new30', { submittedAt: daysAgo(30) }),
      mail('young89', { domainAgeDays: 89 }),
      mail('young90', { domainAgeDays: 90 }),
      mail('both', { gateway: true, domainAgeDays: 10 }),
    ]);
    const guards = Object.fromEntries(
      routeTask(index, 'send email', { now: NOW, limit: 10 }).picks.map((pick) => [pick.serverId, pick.factors.guard]),
    );
    expect(guards).toEqual({
      gateway: 0.7,
      new29: 0.8,
      new30: 1,
      young89: 0.8,
      young90: 1,
      both: expect.closeTo(0.56, 12),
    });
  });
});

describe('routeTask sets servers aside and names each with its reason', () => {
  it('sets aside servers not answering, changed today or with a live incident, for any task', () => {
    const index = createToolIndex([
      mail('ok'),
      mail('down', { answering: false }),
      mail('changed', { changedToday: true }),
      mail('incident', { liveIncident: true }),
    ]);
    for (const task of ['list email messages', 'send email', 'delete email']) {
      const { picks, setAside } = routeTask(index, task);
      expect(picks.map((pick) => pick.serverId)).toEqual(['ok']);
      expect(Object.fromEntries(setAside.map((entry) => [entry.serverId, entry.reason]))).toEqual({
        down: 'not answering with tools',
        changed: 'tool list changed today',
        incident: 'live incident',
      });
    }
  });

  it('names the best-matching tool of a set-aside server and joins several reasons', () => {
    const index = createToolIndex([mail('both', { answering: false, liveIncident: true })]);
    expect(routeTask(index, 'send email').setAside).toEqual([
      { serverId: 'both', tool: 'send_message', reason: 'not answering with tools; live incident' },
    ]);
  });

  it('sets aside a rise in risk under 7 days for tasks that change things, not for reads', () => {
    const index = createToolIndex([
      mail('rise6', { riskRiseDays: 6 }),
      mail('rise7', { riskRiseDays: 7 }),
      mail('rise0', { riskRiseDays: 0 }),
    ]);
    const change = routeTask(index, 'send email');
    expect(change.picks.map((pick) => pick.serverId)).toEqual(['rise7']);
    expect(change.setAside.map((entry) => entry.reason)).toEqual([
      'risk rose 0 days ago (under 7) and the task changes things',
      'risk rose 6 days ago (under 7) and the task changes things',
    ]);
    expect(routeTask(index, 'delete email').setAside).toHaveLength(2);
    expect(routeTask(index, 'list email messages').setAside).toEqual([]);
  });

  it('for high-risk tasks also sets aside new submissions, young domains, gateways and cross-domain redirects', () => {
    const index = createToolIndex([
      mail('ok'),
      mail('new29', { submittedAt: daysAgo(29) }),
      mail('new30', { submittedAt: daysAgo(30) }),
      mail('young89', { domainAgeDays: 89 }),
      mail('young90', { domainAgeDays: 90 }),
      mail('gateway', { gateway: true }),
      mail('redirect', { crossDomainRedirect: true }),
    ]);
    const high = routeTask(index, 'delete an email message', { now: NOW, limit: 10 });
    expect(high.picks.map((pick) => pick.serverId).sort()).toEqual(['new30', 'ok', 'young90']);
    expect(Object.fromEntries(high.setAside.map((entry) => [entry.serverId, entry.reason]))).toEqual({
      new29: 'submitted under 30 days ago and the task is high risk',
      young89: 'domain is 89 days old (under 90) and the task is high risk',
      gateway: 'gateway, and the task is high risk',
      redirect: 'redirects to another domain, and the task is high risk',
    });
    const change = routeTask(index, 'send an email message', { now: NOW, limit: 10 });
    expect(change.setAside).toEqual([]);
    expect(change.picks).toHaveLength(7);
  });

  it('lists set-aside servers best text match first', () => {
    const index = createToolIndex([
      {
        id: 'weak',
        answering: false,
        tools: [{ name: 'misc', description: 'Also mentions email somewhere in a long sentence of text.' }],
      },
      { id: 'strong', answering: false, tools: [{ name: 'send_email', description: 'Sends email.' }] },
    ]);
    expect(routeTask(index, 'send email').setAside.map((entry) => entry.serverId)).toEqual(['strong', 'weak']);
  });
});

describe('routeTask rejects bad input with a clear error', () => {
  const index = createToolIndex([mail('dated', { submittedAt: daysAgo(3) })]);

  it('needs now when a server has submittedAt, since it never reads the clock', () => {
    expect(() => routeTask(index, 'send email')).toThrow(/options\.now is required/);
    try {
      routeTask(index, 'send email');
    } catch (error) {
      expect((error as RouteInputError).code).toBe('now-required');
    }
    expect(routeTask(index, 'send email', { now: NOW }).picks).toHaveLength(1);
  });

  it('rejects an invalid now, limit, options or task', () => {
    expect(() => routeTask(index, 'send email', { now: new Date('nope') })).toThrow('now must be a valid Date');
    expect(() => routeTask(index, 'send email', { now: '2026-01-01' as never })).toThrow('now must be a valid Date');
    expect(() => routeTask(index, 'send email', { now: NOW, limit: 0 })).toThrow(
      'limit must be a whole number from 1 to 100',
    );
    expect(() => routeTask(index, 'send email', null as never)).toThrow('options must be an object');
    expect(() => routeTask(index, undefined as never)).toThrow('routeTask: task must be a string');
  });
});
