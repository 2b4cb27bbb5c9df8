// Every route-score factor, hand-computed at and around its thresholds.
import { describe, expect, it } from 'vitest';
import {
  AGENTS_BASE,
  AGENTS_SLOPE,
  DIRECTORY_FACTOR,
  GUARD_GATEWAY,
  GUARD_NEW,
  GUARD_READ_TASK_HIGH_RISK_SERVER,
  HIGH_RISK_SHARE_WEIGHT,
  LEAST_PRIVILEGE_LESS,
  LEAST_PRIVILEGE_MORE,
  NEW_SERVER_DAYS,
  RISK_RISE_DAYS,
  VERB_BONUS,
  YOUNG_DOMAIN_DAYS,
} from '../src/constants.js';
import {
  agentsFactor,
  directoryFactor,
  guardFactor,
  highRiskShareFactor,
  leastPrivilegeFactor,
  RouteInputError,
  type RouteScoreInput,
  scoreRoute,
  verbBonusFactor,
} from '../src/index.js';
import { isNewSubmission, isRecentRiskRise, isYoungDomain } from '../src/route-score.js';

describe('the constants are the seed numbers', () => {
  it('holds every route-score number in one place', () => {
    expect(VERB_BONUS).toBe(1.6);
    expect(LEAST_PRIVILEGE_MORE).toBe(0.35);
    expect(LEAST_PRIVILEGE_LESS).toBe(0.15);
    expect(HIGH_RISK_SHARE_WEIGHT).toBe(0.3);
    expect(DIRECTORY_FACTOR).toBe(1.15);
    expect(GUARD_READ_TASK_HIGH_RISK_SERVER).toBe(0.5);
    expect(GUARD_GATEWAY).toBe(0.7);
    expect(GUARD_NEW).toBe(0.8);
    expect(AGENTS_BASE).toBe(0.5);
    expect(AGENTS_SLOPE).toBe(0.5);
    expect(NEW_SERVER_DAYS).toBe(30);
    expect(YOUNG_DOMAIN_DAYS).toBe(90);
    expect(RISK_RISE_DAYS).toBe(7);
  });
});

describe('verb bonus: 1.6 when the task verb is a word of the tool name', () => {
  it.each<[string | null, string, number]>([
    ['send', 'send_email', 1.6],
    ['send', 'emailSend', 1.6],
    ['send', 'sends-email', 1.6],
    ['list', 'listIssues', 1.6],
    ['create', 'creating_page', 1.6],
    ['send', 'resend_email', 1],
    ['send', 'email', 1],
    [null, 'send_email', 1],
  ])('verb %s in %s gives %d', (verb, tool, expected) => {
    expect(verbBonusFactor(verb, tool)).toBe(expected);
  });
});

describe('least privilege: 0.35 when the tool can do more, 0.15 when it can do less', () => {
  it.each<[Parameters<typeof leastPrivilegeFactor>[0], Parameters<typeof leastPrivilegeFactor>[1], number]>([
    ['read-only', 'read', 1],
    ['changes-data', 'read', 0.35],
    ['high-risk', 'read', 0.35],
    ['read-only', 'change', 0.15],
    ['changes-data', 'change', 1],
    ['high-risk', 'change', 0.35],
    ['read-only', 'high', 0.15],
    ['changes-data', 'high', 0.15],
    ['high-risk', 'high', 1],
  ])('a %s tool for a %s task: %d', (level, task, expected) => {
    expect(leastPrivilegeFactor(level, task)).toBe(expected);
  });
});

describe('high-risk share: 1 - 0.3 x share', () => {
  it.each([
    [0, 1],
    [0.25, 0.925],
    [0.5, 0.85],
    [1, 0.7],
  ])('share %d gives %d', (share, expected) => {
    expect(highRiskShareFactor(share)).toBeCloseTo(expected, 12);
  });
});

describe('directory factor: 1.15 when listed', () => {
  it('is 1.15 listed and 1 otherwise', () => {
    expect(directoryFactor(true)).toBe(1.15);
    expect(directoryFactor(false)).toBe(1);
  });
});

describe('guard: 0.5 read task on a server with high-risk tools, 0.7 gateway, 0.8 new', () => {
  const base = { taskRisk: 'read' as const, serverHasHighRiskTool: false, gateway: false, isNew: false };
  it.each<[string, Partial<typeof base>, number]>([
    ['nothing applies', {}, 1],
    ['read task, server with a high-risk tool', { serverHasHighRiskTool: true }, 0.5],
    ['change task, server with a high-risk tool', { taskRisk: 'change' as never, serverHasHighRiskTool: true }, 1],
    ['high task, server with a high-risk tool', { taskRisk: 'high' as never, serverHasHighRiskTool: true }, 1],
    ['gateway', { gateway: true }, 0.7],
    ['new', { isNew: true }, 0.8],
    ['gateway and new', { gateway: true, isNew: true }, 0.56],
    ['all three', { serverHasHighRiskTool: true, gateway: true, isNew: true }, 0.28],
  ])('%s', (_label, change, expected) => {
    expect(guardFactor({ ...base, ...change })).toBeCloseTo(expected, 12);
  });
});

describe('the time windows, at and around each threshold', () => {
  it('a submission is new under 30 days: 29.999 yes, 30 and 30.001 no, a future date yes', () => {
    expect(isNewSubmission(29.999)).toBe(true);
    expect(isNewSubmission(30)).toBe(false);
    expect(isNewSubmission(30.001)).toBe(false);
    expect(isNewSubmission(-1)).toBe(true);
    expect(isNewSubmission(null)).toBe(false);
  });

  it('a domain is young under 90 days: 89 yes, 90 and 91 no', () => {
    expect(isYoungDomain(89)).toBe(true);
    expect(isYoungDomain(89.9)).toBe(true);
    expect(isYoungDomain(90)).toBe(false);
    expect(isYoungDomain(91)).toBe(false);
    expect(isYoungDomain(undefined)).toBe(false);
  });

  it('a risk rise counts under 7 days: 0 and 6 yes, 7 and 8 no', () => {
    expect(isRecentRiskRise(0)).toBe(true);
    expect(isRecentRiskRise(6)).toBe(true);
    expect(isRecentRiskRise(7)).toBe(false);
    expect(isRecentRiskRise(8)).toBe(false);
    expect(isRecentRiskRise(undefined)).toBe(false);
  });
});

describe('agents factor: 0.5 + 0.5 x reliability once there are stars, else 1', () => {
  it.each<[number | null | undefined, number]>([
    [null, 1],
    [undefined, 1],
    [0, 0.5],
    [0.5, 0.75],
    [0.9, 0.95],
    [1, 1],
  ])('reliability %s gives %d', (reliability, expected) => {
    expect(agentsFactor(reliability)).toBeCloseTo(expected, 12);
  });
});

describe('scoreRoute multiplies every factor', () => {
  const input: RouteScoreInput = {
    textMatch: 0.8,
    tool: { name: 'send_email', level: 'changes-data' },
    task: { verb: 'send', risk: 'change' },
    server: {
      successChance: 0.9,
      stability: 0.5,
      highRiskShare: 0.25,
      directoryListed: true,
      gateway: true,
      isNew: true,
      agentsReliability: 0.6,
    },
  };

  it('matches the hand-computed product', () => {
    // 0.8 x 0.9 x 0.5 x 1 x (1 - 0.3 x 0.25) x 1.6 x 1.15 x (0.7 x 0.8) x (0.5 + 0.5 x 0.6)
    // = 0.36 x 0.925 = 0.333; x 1.6 = 0.5328; x 1.15 = 0.61272; x 0.56 = 0.3431232; x 0.8 = 0.27449856
    const { score, factors } = scoreRoute(input);
    expect(factors).toEqual({
      textMatch: 0.8,
      successChance: 0.9,
      stability: 0.5,
      leastPrivilege: 1,
      highRiskShare: 0.925,
      verbBonus: 1.6,
      directory: 1.15,
      guard: expect.closeTo(0.56, 12),
      agents: 0.8,
    });
    expect(score).toBeCloseTo(0.36 * 0.925 * 1.6 * 1.15 * 0.56 * 0.8, 12);
    expect(score).toBeCloseTo(0.27449856, 12);
  });

  it('uses 0.5 for an unknown success chance and 1 for an unknown stability', () => {
    const { factors, score } = scoreRoute({ ...input, server: { highRiskShare: 0, isNew: false } });
    expect(factors.successChance).toBe(0.5);
    expect(factors.stability).toBe(1);
    expect(score).toBeCloseTo(0.8 * 0.5 * 1.6, 12);
  });

  it('rejects numbers outside 0 to 1', () => {
    expect(() => scoreRoute({ ...input, textMatch: 1.5 })).toThrow(RouteInputError);
    expect(() => scoreRoute({ ...input, server: { ...input.server, highRiskShare: -0.1 } })).toThrow(
      'server.highRiskShare',
    );
    expect(() => scoreRoute({ ...input, server: { ...input.server, successChance: 2 } })).toThrow(
      'server.successChance',
    );
    expect(() => scoreRoute({ ...input, server: { ...input.server, stability: Number.NaN } })).toThrow(
      'server.stability',
    );
    expect(() => scoreRoute({ ...input, server: { ...input.server, agentsReliability: 1.2 } })).toThrow(
      'server.agentsReliability',
    );
  });
});
