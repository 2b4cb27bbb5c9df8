// Pure module: route picks a server and tool for a task, and names every server it set aside and why.
import {
  DEFAULT_ROUTE_LIMIT,
  NEW_SERVER_DAYS,
  RISK_RISE_DAYS,
  ROUTE_RULES_VERSION,
  VERB_BONUS,
  YOUNG_DOMAIN_DAYS,
} from './constants.js';
import { RouteInputError } from './errors.js';
import {
  isNewSubmission,
  isRecentRiskRise,
  isYoungDomain,
  leastPrivilegeFactor,
  scoreCheckedRoute,
  verbBonusFactor,
} from './route-score.js';
import { checkLimit, checkText } from './search.js';
import { readTaskIntent } from './task.js';
import { stemWord } from './text.js';
import { matchText } from './text-match.js';
import {
  countDaysSince,
  type IndexState,
  LEVELS_BY_RANK,
  levelOfDoc,
  type ServerEntry,
  stateOf,
  type ToolIndex,
} from './tool-index.js';
import type { RouteCandidate, RouteOptions, RouteResult, SetAside, TaskIntent, TaskRisk } from './types.js';

function plural(count: number, word: string): string {
  const rounded = Math.floor(count);
  return `${rounded} ${word}${rounded === 1 ? '' : 's'}`;
}

/**
 * Why a server is set aside for a task of this risk, in the seed's order; empty when it is not. Any task:
 * not answering with tools, a tool-list change today, a live incident. Tasks that change things: also a
 * rise in risk fewer than 7 days ago. High-risk tasks: also a submission fewer than 30 days old, a domain
 * younger than 90 days, a gateway, a redirect to another domain.
 */
export function setAsideReasons(entry: ServerEntry, taskRisk: TaskRisk, now: Date | undefined): string[] {
  const server = entry.server;
  const reasons: string[] = [];
  if (server.answering === false) reasons.push('not answering with tools');
  if (server.changedToday === true) reasons.push('tool list changed today');
  if (server.liveIncident === true) reasons.push('live incident');
  if (taskRisk !== 'read' && isRecentRiskRise(server.riskRiseDays)) {
    reasons.push(
      `risk rose ${plural(server.riskRiseDays as number, 'day')} ago (under ${RISK_RISE_DAYS}) and the task changes things`,
    );
  }
  if (taskRisk === 'high') {
    const ageDays = entry.submittedAtMs === null || now === undefined ? null : countDaysSince(entry.submittedAtMs, now);
    if (isNewSubmission(ageDays)) reasons.push(`submitted under ${NEW_SERVER_DAYS} days ago and the task is high risk`);
    if (isYoungDomain(server.domainAgeDays)) {
      reasons.push(
        `domain is ${plural(server.domainAgeDays as number, 'day')} old (under ${YOUNG_DOMAIN_DAYS}) and the task is high risk`,
      );
    }
    if (server.gateway === true) reasons.push('gateway, and the task is high risk');
    if (server.crossDomainRedirect === true) reasons.push('redirects to another domain, and the task is high risk');
  }
  return reasons;
}

function checkNow(state: IndexState, now: unknown): Date | undefined {
  if (now !== undefined && (!(now instanceof Date) || !Number.isFinite(now.getTime()))) {
    throw new RouteInputError('invalid-option', 'routeTask: now must be a valid Date.');
  }
  if (now === undefined && state.anySubmittedAt) {
    throw new RouteInputError(
      'now-required',
      'routeTask: options.now is required because some servers have submittedAt (this package never reads the clock).',
    );
  }
  return now as Date | undefined;
}

/**
 * Which tools' names hold the task's verb (by stem): the verb bonus's test, the same rule as verbBonusFactor,
 * which scoreRoute uses. Read from the name counts of the verb's posting list, so it costs one lookup per tool.
 * A verb that is also a stop word ("use", "is", "has") has no posting list, so for it each tool the task matches
 * has its name read instead (such verbs are rare, and only matched tools are asked).
 */
function toolsNamingVerb(state: IndexState, verb: string | null): (doc: number) => boolean {
  if (verb === null) return () => false;
  const id = state.termIds.get(stemWord(verb));
  if (id === undefined) return (doc) => verbBonusFactor(verb, state.docName[doc] as string) > 1;
  const marks = new Uint8Array(state.docServer.length);
  const postings = state.postingDocs[id] as Int32Array;
  const nameCounts = state.postingName[id] as Uint16Array;
  for (let i = 0; i < postings.length; i++) if ((nameCounts[i] as number) > 0) marks[postings[i] as number] = 1;
  return (doc) => marks[doc] === 1;
}

/** Per server: its best tool by text match (named when set aside) and its best tool by route score. */
interface ServerBests {
  servers: number[];
  bestTextDoc: Int32Array;
  bestText: Float64Array;
  bestDoc: Int32Array;
  bestPart: Float64Array;
  /** Text match and verb bonus of bestDoc. */
  bestDocText: Float64Array;
  bestDocVerbBonus: Float64Array;
}

/**
 * One pass over the tools the task matches. Within a server only text match, least privilege and verb bonus
 * differ from tool to tool (the other factors belong to the server), so the tool with the best product of
 * those three is the server's best tool; ties go to the smaller tool name.
 */
function findServerBests(state: IndexState, task: string, intent: TaskIntent): ServerBests {
  const serverCount = state.servers.length;
  const bests: ServerBests = {
    servers: [],
    bestTextDoc: new Int32Array(serverCount).fill(-1),
    bestText: new Float64Array(serverCount),
    bestDoc: new Int32Array(serverCount).fill(-1),
    bestPart: new Float64Array(serverCount),
    bestDocText: new Float64Array(serverCount),
    bestDocVerbBonus: new Float64Array(serverCount),
  };
  const namesVerb = toolsNamingVerb(state, intent.verb);
  const privilegeByRank = LEVELS_BY_RANK.map((level) => leastPrivilegeFactor(level, intent.risk));
  matchText(state, task, (doc, textMatch) => {
    if (textMatch <= 0) return;
    const server = state.docServer[doc] as number;
    const name = state.docName[doc] as string;
    const previous = bests.bestDoc[server] as number;
    if (previous < 0) bests.servers.push(server);
    const textDoc = bests.bestTextDoc[server] as number;
    if (
      textDoc < 0 ||
      textMatch > (bests.bestText[server] as number) ||
      (textMatch === bests.bestText[server] && name < (state.docName[textDoc] as string))
    ) {
      bests.bestTextDoc[server] = doc;
      bests.bestText[server] = textMatch;
    }
    const verbBonus = namesVerb(doc) ? VERB_BONUS : 1;
    const part = textMatch * (privilegeByRank[state.docLevel[doc] as number] as number) * verbBonus;
    if (
      previous < 0 ||
      part > (bests.bestPart[server] as number) ||
      (part === bests.bestPart[server] && name < (state.docName[previous] as string))
    ) {
      bests.bestDoc[server] = doc;
      bests.bestPart[server] = part;
      bests.bestDocText[server] = textMatch;
      bests.bestDocVerbBonus[server] = verbBonus;
    }
  });
  bests.servers.sort((a, b) => a - b);
  return bests;
}

function compareCandidates(a: RouteCandidate, b: RouteCandidate): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.serverId !== b.serverId) return a.serverId < b.serverId ? -1 : 1;
  return a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0;
}

/**
 * Picks the servers and tools to use for a task: reads the task's risk from its action verb, sets aside the
 * servers the seed's rules exclude (each named with its best-matching tool and the reason), and ranks the
 * best tool of every other matching server by the route score, whose factors come with each pick. Every
 * set-aside server that matched the task is listed, best text match first. `now` is
 * needed when any server has `submittedAt`, since this package never reads the clock.
 *
 * @example
 * const { taskRisk, picks } = routeTask(index, 'send an email to the team', { now: new Date('2026-12-02T12:00:00Z') });
 * picks[0]?.factors.verbBonus; // 1.6 when the tool name holds "send"
 */
export function routeTask(index: ToolIndex, task: string, options?: RouteOptions): RouteResult {
  const state = stateOf(index);
  const text = checkText(task, 'routeTask: task');
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new RouteInputError('invalid-option', 'routeTask: options must be an object.');
  }
  const now = checkNow(state, options?.now);
  const limit = checkLimit(options?.limit, DEFAULT_ROUTE_LIMIT, 'routeTask');
  const intent = readTaskIntent(text);
  const picks: RouteCandidate[] = [];
  const setAside: (SetAside & { textMatch: number })[] = [];
  const bests = findServerBests(state, text, intent);
  for (const serverIndex of bests.servers) {
    const entry = state.servers[serverIndex] as ServerEntry;
    const reasons = setAsideReasons(entry, intent.risk, now);
    if (reasons.length > 0) {
      const tool = state.docName[bests.bestTextDoc[serverIndex] as number] as string;
      setAside.push({
        serverId: entry.server.id,
        tool,
        reason: reasons.join('; '),
        textMatch: bests.bestText[serverIndex] as number,
      });
      continue;
    }
    const ageDays = entry.submittedAtMs === null || now === undefined ? null : countDaysSince(entry.submittedAtMs, now);
    const serverFacts = {
      ...(entry.server.successChance !== undefined ? { successChance: entry.server.successChance } : {}),
      ...(entry.server.stability !== undefined ? { stability: entry.server.stability } : {}),
      highRiskShare: entry.toolCount === 0 ? 0 : entry.highRiskCount / entry.toolCount,
      directoryListed: entry.server.directoryListed === true,
      gateway: entry.server.gateway === true,
      isNew: isNewSubmission(ageDays) || isYoungDomain(entry.server.domainAgeDays),
      agentsReliability: entry.server.agentsReliability ?? null,
    };
    const doc = bests.bestDoc[serverIndex] as number;
    const level = levelOfDoc(state, doc);
    const tool = state.docName[doc] as string;
    const textMatch = bests.bestDocText[serverIndex] as number;
    const verbBonus = bests.bestDocVerbBonus[serverIndex] as number;
    const { score, factors } = scoreCheckedRoute(
      { textMatch, tool: { name: tool, level }, task: intent, server: serverFacts },
      verbBonus,
    );
    picks.push({ serverId: entry.server.id, tool, level, score, factors });
  }
  picks.sort(compareCandidates);
  // Set-aside servers come best text match first, so the ones that would have competed lead the list.
  setAside.sort(
    (a, b) => b.textMatch - a.textMatch || (a.serverId < b.serverId ? -1 : a.serverId > b.serverId ? 1 : 0),
  );
  return {
    taskRisk: intent.risk,
    verb: intent.verb,
    picks: picks.slice(0, limit),
    setAside: setAside.map(({ serverId, tool, reason }) => ({
      serverId,
      ...(tool !== undefined ? { tool } : {}),
      reason,
    })),
    rulesVersion: ROUTE_RULES_VERSION,
  };
}
