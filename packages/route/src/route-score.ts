// Pure module: the route score 7Maps describes, one small function per factor so each can be read and tested
// alone. The score is the product of the factors; nothing else enters it.
import type { RiskLevel } from '@mcp-atlas/risk';
import {
  AGENTS_BASE,
  AGENTS_SLOPE,
  DEFAULT_STABILITY,
  DEFAULT_SUCCESS_CHANCE,
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
} from './constants.js';
import { RouteInputError } from './errors.js';
import { splitText, stemWord } from './text.js';
import type { RouteFactors, TaskIntent, TaskRisk } from './types.js';

const TASK_RANK: Readonly<Record<TaskRisk, number>> = { read: 0, change: 1, high: 2 };
const TOOL_RANK: Readonly<Record<RiskLevel, number>> = { 'read-only': 0, 'changes-data': 1, 'high-risk': 2 };

/** 1 when the tool's level matches the task; 0.35 when the tool can do more; 0.15 when it can do less. */
export function leastPrivilegeFactor(level: RiskLevel, taskRisk: TaskRisk): number {
  const tool = TOOL_RANK[level];
  const task = TASK_RANK[taskRisk];
  if (tool > task) return LEAST_PRIVILEGE_MORE;
  if (tool < task) return LEAST_PRIVILEGE_LESS;
  return 1;
}

/** 1 - 0.3 x the share (0 to 1) of the server's tools that are high risk. */
export function highRiskShareFactor(share: number): number {
  return 1 - HIGH_RISK_SHARE_WEIGHT * share;
}

/** 1.6 when the task's verb is one of the tool name's words (compared by light stem), else 1. */
export function verbBonusFactor(verb: string | null, toolName: string): number {
  if (verb === null) return 1;
  const stem = stemWord(verb);
  return splitText(toolName).some((word) => stemWord(word) === stem) ? VERB_BONUS : 1;
}

/** 1.15 for a server listed in the Claude or ChatGPT directory, else 1. */
export function directoryFactor(listed: boolean): number {
  return listed ? DIRECTORY_FACTOR : 1;
}

/** True when a server was submitted fewer than 30 days before now (a future date counts as new). */
export function isNewSubmission(ageDays: number | null): boolean {
  return ageDays !== null && ageDays < NEW_SERVER_DAYS;
}

/** True when a domain is younger than 90 days. */
export function isYoungDomain(domainAgeDays: number | undefined): boolean {
  return domainAgeDays !== undefined && domainAgeDays < YOUNG_DOMAIN_DAYS;
}

/** True when risk rose fewer than 7 days ago (0 to 6 days: today and the six days before). */
export function isRecentRiskRise(riskRiseDays: number | undefined): boolean {
  return riskRiseDays !== undefined && riskRiseDays < RISK_RISE_DAYS;
}

/** What the guard looks at. */
export interface GuardInput {
  taskRisk: TaskRisk;
  serverHasHighRiskTool: boolean;
  gateway: boolean;
  /** New submission or young domain. */
  isNew: boolean;
}

/**
 * The guard: 0.5 for a read task on a server that also has high-risk tools, 0.7 for a gateway, 0.8 for a
 * new submission or young domain. Guards that apply together multiply (a gateway on a young domain: 0.56).
 */
export function guardFactor(input: GuardInput): number {
  let guard = 1;
  if (input.taskRisk === 'read' && input.serverHasHighRiskTool) guard *= GUARD_READ_TASK_HIGH_RISK_SERVER;
  if (input.gateway) guard *= GUARD_GATEWAY;
  if (input.isNew) guard *= GUARD_NEW;
  return guard;
}

/** 0.5 + 0.5 x reliability once the server has stars (reliability given), otherwise 1. */
export function agentsFactor(reliability: number | null | undefined): number {
  return reliability === null || reliability === undefined ? 1 : AGENTS_BASE + AGENTS_SLOPE * reliability;
}

function checkShare(value: unknown, field: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new RouteInputError(
      'invalid-option',
      `scoreRoute: ${field} must be a number from 0 to 1, got ${String(value)}.`,
    );
  }
}

/** Everything {@link scoreRoute} needs about one tool, its server and the task. */
export interface RouteScoreInput {
  /** Text match of the tool for the task, 0 to 1. */
  textMatch: number;
  tool: { name: string; level: RiskLevel };
  task: TaskIntent;
  server: {
    successChance?: number;
    stability?: number;
    /** Share of the server's tools that are high risk, 0 to 1. */
    highRiskShare: number;
    directoryListed?: boolean;
    gateway?: boolean;
    /** Submitted fewer than 30 days ago, or a domain younger than 90 days. */
    isNew: boolean;
    agentsReliability?: number | null;
  };
}

/**
 * The route score of one tool for one task, and every factor behind it:
 * text match x success chance x stability x least privilege x (1 - 0.3 x high-risk share) x verb bonus
 * x directory x guard x agents. A missing success chance counts as 0.5 (no history), a missing stability as 1.
 *
 * @example
 * scoreRoute({ textMatch: 0.8, tool: { name: 'send_email', level: 'changes-data' },
 *   task: { verb: 'send', risk: 'change' }, server: { highRiskShare: 0, isNew: false, successChance: 0.9 } }).score
 * // 0.8 x 0.9 x 1.6 = 1.152
 */
export function scoreRoute(input: RouteScoreInput): { score: number; factors: RouteFactors } {
  const { server } = input;
  checkShare(input.textMatch, 'textMatch');
  checkShare(server.highRiskShare, 'server.highRiskShare');
  if (server.successChance !== undefined) checkShare(server.successChance, 'server.successChance');
  if (server.stability !== undefined) checkShare(server.stability, 'server.stability');
  if (server.agentsReliability !== undefined && server.agentsReliability !== null) {
    checkShare(server.agentsReliability, 'server.agentsReliability');
  }
  return scoreCheckedRoute(input, verbBonusFactor(input.task.verb, input.tool.name));
}

/**
 * {@link scoreRoute} without the range checks, for inputs already validated (routeTask validates servers
 * when the index is built), with the verb bonus worked out by the caller from the index.
 */
export function scoreCheckedRoute(input: RouteScoreInput, verbBonus: number): { score: number; factors: RouteFactors } {
  const { server, task, tool } = input;
  const factors: RouteFactors = {
    textMatch: input.textMatch,
    successChance: server.successChance ?? DEFAULT_SUCCESS_CHANCE,
    stability: server.stability ?? DEFAULT_STABILITY,
    leastPrivilege: leastPrivilegeFactor(tool.level, task.risk),
    highRiskShare: highRiskShareFactor(server.highRiskShare),
    verbBonus,
    directory: directoryFactor(server.directoryListed === true),
    guard: guardFactor({
      taskRisk: task.risk,
      serverHasHighRiskTool: server.highRiskShare > 0,
      gateway: server.gateway === true,
      isNew: server.isNew,
    }),
    agents: agentsFactor(server.agentsReliability),
  };
  const score =
    factors.textMatch *
    factors.successChance *
    factors.stability *
    factors.leastPrivilege *
    factors.highRiskShare *
    factors.verbBonus *
    factors.directory *
    factors.guard *
    factors.agents;
  return { score, factors };
}
