// The search's second look: a name whose action differs from the query's ranks lower (by exactly
// VERB_CONFLICT_FACTOR), and one server's fourth result in a row gives way to another server's equal match.
import { describe, expect, it } from 'vitest';
import { createToolIndex, searchTools } from '../src/index.js';
import { SEARCH_RULES } from '../src/rules.js';
import { diversifyByServer, nameVerbsOf, queryActionOf, verbAgreementFactor } from '../src/search-rerank.js';

const {
  serverFreeRepeats: SERVER_FREE_REPEATS,
  serverRepeatFactor: SERVER_REPEAT_FACTOR,
  verbAgreementFactor: VERB_AGREEMENT_FACTOR,
  verbConflictFactor: VERB_CONFLICT_FACTOR,
} = SEARCH_RULES;

import { readTaskIntent } from '../src/task.js';

const actionOf = (query: string) => queryActionOf(query, readTaskIntent(query).verb);

describe('verb agreement', () => {
  it('the rule values are the published ones', () => {
    expect([VERB_CONFLICT_FACTOR, SERVER_REPEAT_FACTOR, SERVER_FREE_REPEATS, SEARCH_RULES.rerankDepth]).toEqual([
      0.6, 0.8, 3, 50,
    ]);
    expect(VERB_AGREEMENT_FACTOR).toBe(1.2);
  });

  it('reads the action words of a name, stemmed, once each', () => {
    expect(nameVerbsOf('create_calendar_event')).toEqual(['creat']);
    expect(nameVerbsOf('listEvents')).toEqual(['list']);
    expect(nameVerbsOf('event_details')).toEqual([]);
    expect(nameVerbsOf('get_or_get_again')).toEqual(['get']);
  });

  it('agrees with the same verb or a verb of the same family, accepts a word the query uses, conflicts otherwise', () => {
    const action = actionOf('create a calendar event');
    expect(verbAgreementFactor(nameVerbsOf('create_event'), action)).toBe(VERB_AGREEMENT_FACTOR);
    expect(verbAgreementFactor(nameVerbsOf('add_event'), action)).toBe(VERB_AGREEMENT_FACTOR);
    // "cancel" is in the delete family: delete_event does what was asked.
    expect(verbAgreementFactor(nameVerbsOf('delete_event'), actionOf('cancel a calendar event'))).toBe(
      VERB_AGREEMENT_FACTOR,
    );
    expect(verbAgreementFactor(nameVerbsOf('update_event'), action)).toBe(VERB_CONFLICT_FACTOR);
    expect(verbAgreementFactor(nameVerbsOf('list_events'), action)).toBe(VERB_CONFLICT_FACTOR);
    // No action word in the name: nothing to disagree with.
    expect(verbAgreementFactor(nameVerbsOf('calendar_event'), action)).toBe(1);
    // "log" is a verb in the lists, but here the query names it as a thing: no conflict, and no agreement.
    expect(verbAgreementFactor(nameVerbsOf('pods_log'), actionOf('show the logs of a pod'))).toBe(1);
    // One agreeing word is enough, whatever else the name says.
    expect(verbAgreementFactor(nameVerbsOf('update_or_create_event'), action)).toBe(VERB_AGREEMENT_FACTOR);
  });

  it('a query without a known verb never penalizes', () => {
    expect(actionOf('calendar events tomorrow')).toBeNull();
    expect(verbAgreementFactor(['updat'], null)).toBe(1);
  });

  it('in search: two tools equal in text, one agreeing and one conflicting, score in the ratio worked out by hand', () => {
    const index = createToolIndex([
      { id: 'a', tools: [{ name: 'event_update', description: 'A calendar event.' }] },
      { id: 'b', tools: [{ name: 'event_make', description: 'A calendar event.' }] },
    ]);
    const hits = searchTools(index, 'create a calendar event');
    expect(hits.map((hit) => [hit.tool, hit.level])).toEqual([
      ['event_make', 'changes-data'],
      ['event_update', 'changes-data'],
    ]);
    // Text match m for both: event_make m x 1.2 (agrees), event_update m x 0.6 (conflicts), then feedback from
    // the two: terms {event, calendar, mak} and {event, calendar, updat}, shares (1.2 / 1.8) / 3 = 2/9 and
    // (0.6 / 1.8) / 3 = 1/9, likeness 2/3 + 2/9 = 8/9 and 2/3 + 1/9 = 7/9, so event_update keeps
    // 0.6 + 0.4 x 7/8 = 0.95 of its score: ratio 0.6 x 0.95 / 1.2 = 0.475.
    expect((hits[1]?.score ?? 0) / (hits[0]?.score ?? 1)).toBeCloseTo(
      (VERB_CONFLICT_FACTOR * (1 - 0.4 + 0.4 * (7 / 8))) / VERB_AGREEMENT_FACTOR,
      12,
    );
    expect((hits[1]?.score ?? 0) / (hits[0]?.score ?? 1)).toBeCloseTo(0.475, 12);
  });
});

describe('server diversity in the re-ranking', () => {
  const server = (entry: { server: number }) => entry.server;

  it(`places ${SERVER_FREE_REPEATS} results of one server freely, then scales each further one by ${SERVER_REPEAT_FACTOR}`, () => {
    const ranked = [
      { id: 'a1', server: 1, score: 1 },
      { id: 'a2', server: 1, score: 0.9 },
      { id: 'a3', server: 1, score: 0.85 },
      { id: 'a4', server: 1, score: 0.8 },
      { id: 'b1', server: 2, score: 0.7 },
    ];
    const out = diversifyByServer(ranked, server);
    // a4 after three of its server: 0.8 x 0.8 = 0.64, below b1's 0.7.
    expect(out.map((entry) => entry.id)).toEqual(['a1', 'a2', 'a3', 'b1', 'a4']);
    expect(out[4]?.score).toBeCloseTo(0.64, 12);
    expect(out[3]?.score).toBe(0.7);
  });

  it('a fourth result clearly ahead keeps its place (0.88 x 0.8 = 0.704 > 0.7), and ties keep the incoming order', () => {
    const ranked = [
      { id: 'a1', server: 1, score: 1 },
      { id: 'a2', server: 1, score: 0.9 },
      { id: 'a3', server: 1, score: 0.89 },
      { id: 'a4', server: 1, score: 0.88 },
      { id: 'b1', server: 2, score: 0.7 },
    ];
    expect(diversifyByServer(ranked, server).map((entry) => entry.id)).toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
    const tied = [
      { id: 'x', server: 1, score: 0.5 },
      { id: 'y', server: 2, score: 0.5 },
    ];
    expect(diversifyByServer(tied, server).map((entry) => entry.id)).toEqual(['x', 'y']);
    expect(diversifyByServer([], server)).toEqual([]);
  });

  it('in search: four equal tools of one server and one of another give a, a, a, b, a', () => {
    const tool = (name: string) => ({ name, description: 'Forecast.' });
    const index = createToolIndex([
      {
        id: 'a-server',
        tools: [tool('forecast_alpha'), tool('forecast_beta'), tool('forecast_delta'), tool('forecast_gamma')],
      },
      { id: 'b-server', tools: [tool('forecast_omega')] },
    ]);
    const hits = searchTools(index, 'forecast', { limit: 5 });
    expect(hits.map((hit) => hit.serverId)).toEqual(['a-server', 'a-server', 'a-server', 'b-server', 'a-server']);
    expect((hits[4]?.score ?? 0) / (hits[3]?.score ?? 1)).toBeCloseTo(SERVER_REPEAT_FACTOR, 12);
  });
});
