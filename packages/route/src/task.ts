// Pure module: what a task asks for, read from its action verb with @mcp-atlas/risk's verb lists.
import { VERB_RULES } from '@mcp-atlas/risk/rules';
import { TASK_RISK_WITHOUT_VERB } from './constants.js';
import { splitText } from './text.js';
import type { TaskIntent, TaskRisk } from './types.js';

/** The risk a known verb implies, or null for a word that is not in any of risk's verb lists. */
export function riskOfVerb(word: string): TaskRisk | null {
  if (VERB_RULES.highRiskVerbs.has(word)) return 'high';
  if (VERB_RULES.changingVerbs.has(word)) return 'change';
  if (VERB_RULES.readingVerbs.has(word)) return 'read';
  return null;
}

/**
 * The action verb of a task and the risk it implies. The verb is the first word of the task that is in one
 * of @mcp-atlas/risk's verb lists, compared as written (lower-cased, not stemmed): tasks are imperatives, so
 * their first verb is the action, and later words that double as verbs ("email", "order", "post") are
 * usually nouns. With no known verb the task counts as a read, the least a tool would need.
 *
 * @example readTaskIntent('Please delete the draft invoice') // { verb: 'delete', risk: 'high' }
 * @example readTaskIntent('weather in Lisbon tomorrow')      // { verb: null, risk: 'read' }
 */
export function readTaskIntent(task: string): TaskIntent {
  for (const word of splitText(task)) {
    const risk = riskOfVerb(word);
    if (risk !== null) return { verb: word, risk };
  }
  return { verb: null, risk: TASK_RISK_WITHOUT_VERB };
}
