// The one-right-tool evaluation: ranks, the four figures by hand, accepted answers, and every parse error.
import { describe, expect, it } from 'vitest';
import {
  createToolIndex,
  evaluateOneTool,
  type OneToolPrompt,
  parseOneToolSet,
  RouteInputError,
  type SearchHit,
  searchTools,
} from '../src/index.js';
import { ONE_TOOL_RULES } from '../src/rules.js';
import { catalog } from './fixtures.js';

function hit(serverId: string, tool: string): SearchHit {
  return { serverId, tool, description: '', level: 'changes-data', score: 1 };
}

/** A result list of `length` filler hits with the target placed at `rank` (1-based); no target when rank is 0. */
function listWithTargetAt(rank: number, length = 12): SearchHit[] {
  return Array.from({ length }, (_, at) => (at + 1 === rank ? hit('mail', 'send') : hit('other', `filler_${at + 1}`)));
}

function prompt(id: string, extra: Partial<OneToolPrompt> = {}): OneToolPrompt {
  return { id, query: `query ${id}`, server: 'mail', tool: 'send', ...extra };
}

/** A search that answers each prompt's query from a table written by the test. */
function searchFrom(table: Record<string, SearchHit[]>): (query: string) => SearchHit[] {
  return (query) => table[query] ?? [];
}

function errorOf(run: () => unknown): RouteInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof RouteInputError) return error;
    throw error;
  }
  throw new Error('expected a RouteInputError');
}

describe('evaluateOneTool: ranks and figures', () => {
  it('uses the cut-offs of the graded evaluation: top 5 for hit@5, top 10 for MRR and hit@10', () => {
    expect(ONE_TOOL_RULES).toEqual({ topK: 5, mrrDepth: 10 });
    expect(Object.isFrozen(ONE_TOOL_RULES)).toBe(true);
  });

  it('ranks 1, 3, 10 and 11: P@1 1/4, MRR (1 + 1/3 + 1/10 + 0) / 4, hit@5 2/4, hit@10 3/4', () => {
    const prompts = [prompt('r1'), prompt('r3'), prompt('r10'), prompt('r11')];
    const report = evaluateOneTool(
      prompts,
      searchFrom({
        'query r1': listWithTargetAt(1),
        'query r3': listWithTargetAt(3),
        'query r10': listWithTargetAt(10),
        'query r11': listWithTargetAt(11),
      }),
    );
    expect(report.prompts.map((result) => result.rank)).toEqual([1, 3, 10, null]);
    expect(report.count).toBe(4);
    expect(report.p1).toBe(0.25);
    expect(report.mrr).toBeCloseTo((1 + 1 / 3 + 0.1) / 4, 12); // 0.358333...
    expect(report.hit5).toBe(0.5);
    expect(report.hit10).toBe(0.75);
  });

  it('counts rank 5 in hit@5 and rank 6 only in hit@10', () => {
    const report = evaluateOneTool(
      [prompt('r5'), prompt('r6')],
      searchFrom({ 'query r5': listWithTargetAt(5), 'query r6': listWithTargetAt(6) }),
    );
    expect(report.prompts.map((result) => result.rank)).toEqual([5, 6]);
    expect(report.p1).toBe(0);
    expect(report.hit5).toBe(0.5);
    expect(report.hit10).toBe(1);
    expect(report.mrr).toBeCloseTo((1 / 5 + 1 / 6) / 2, 12); // 0.183333...
  });

  it('reports each prompt with its target and the top five as server/tool', () => {
    const report = evaluateOneTool([prompt('r3')], searchFrom({ 'query r3': listWithTargetAt(3) }));
    expect(report.prompts).toEqual([
      {
        id: 'r3',
        query: 'query r3',
        target: 'mail/send',
        rank: 3,
        top: ['other/filler_1', 'other/filler_2', 'mail/send', 'other/filler_4', 'other/filler_5'],
      },
    ]);
  });

  it('counts an accepted pair as right, at its own rank, and the first right hit wins', () => {
    const accept = [{ server: 'mail-copy', tool: 'send' }];
    const hits = [hit('x', 'a'), hit('mail-copy', 'send'), hit('mail', 'send')];
    const report = evaluateOneTool([prompt('acc', { accept })], () => hits);
    expect(report.prompts[0]?.rank).toBe(2);
    expect(report.mrr).toBe(0.5);
    // Without the accept list the same answers put the target third.
    expect(evaluateOneTool([prompt('acc')], () => hits).prompts[0]?.rank).toBe(3);
  });

  it('treats the right tool name on another server as wrong', () => {
    const report = evaluateOneTool([prompt('srv')], () => [hit('mail-clone', 'send'), hit('mail', 'send_mail')]);
    expect(report.prompts[0]?.rank).toBeNull();
    expect(report.p1).toBe(0);
    expect(report.mrr).toBe(0);
  });

  it('does not join server and tool into one string before comparing ("a/b" + "c" is not "a" + "b/c")', () => {
    const report = evaluateOneTool([prompt('slash', { server: 'a', tool: 'b/c' })], () => [hit('a/b', 'c')]);
    expect(report.prompts[0]?.rank).toBeNull();
  });

  it('reads at most ten results, however many the search returns', () => {
    const report = evaluateOneTool([prompt('long')], () => listWithTargetAt(11, 50));
    expect(report.prompts[0]?.rank).toBeNull();
    expect(report.prompts[0]?.top).toHaveLength(5);
  });

  it('calls the search once per prompt with the query as written', () => {
    const seen: string[] = [];
    evaluateOneTool([prompt('a', { query: '  Refund the LAST payment ' }), prompt('b')], (query) => {
      seen.push(query);
      return [];
    });
    expect(seen).toEqual(['  Refund the LAST payment ', 'query b']);
  });

  it('gives zeros for an empty prompt list, and carries the set version and hash when given', () => {
    const report = evaluateOneTool([], () => [], { set: { version: 'one-tool-dev-v1', sha256: 'ab' } });
    expect(report).toMatchObject({ count: 0, p1: 0, mrr: 0, hit5: 0, hit10: 0, prompts: [] });
    expect(report.set).toEqual({ version: 'one-tool-dev-v1', sha256: 'ab' });
    expect(evaluateOneTool([], () => []).set).toBeNull();
  });

  it('measures a real index: the reported rank is where searchTools put the target', () => {
    const index = createToolIndex(catalog);
    const prompts = [
      prompt('mail', { query: 'send an email message to a colleague', server: 'mail.example', tool: 'send_message' }),
      prompt('refund', { query: 'give a customer their money back', server: 'pay.example', tool: 'refund_charge' }),
    ];
    const report = evaluateOneTool(prompts, (query) => searchTools(index, query));
    prompts.forEach((entry, at) => {
      const hits = searchTools(index, entry.query).slice(0, 10);
      const found = hits.findIndex((one) => one.serverId === entry.server && one.tool === entry.tool);
      expect(report.prompts[at]?.rank).toBe(found < 0 ? null : found + 1);
      expect(report.prompts[at]?.top).toEqual(hits.slice(0, 5).map((one) => `${one.serverId}/${one.tool}`));
    });
    expect(report.prompts[0]?.rank).toBe(1);
  });

  it('rejects a search that is not a function or returns malformed hits', () => {
    expect(errorOf(() => evaluateOneTool([prompt('a')], 'nope' as never)).code).toBe('invalid-option');
    const bad = errorOf(() => evaluateOneTool([prompt('a')], () => [{ tool: 'send' }] as never));
    expect(bad.code).toBe('invalid-search-result');
    expect(bad.message).toBe('prompt "a": search must return an array of hits with serverId and tool.');
    expect(errorOf(() => evaluateOneTool([prompt('a')], () => null as never)).code).toBe('invalid-search-result');
  });

  it('checks the prompts it is given, as parseOneToolSet does', () => {
    const error = errorOf(() => evaluateOneTool([prompt('a'), prompt('a')], () => []));
    expect(error.code).toBe('invalid-jobs');
    expect(error.message).toBe('prompt "a" (index 1): id appears twice; ids must be unique.');
    expect(errorOf(() => evaluateOneTool('x' as never, () => [])).code).toBe('invalid-jobs');
  });
});

describe('parseOneToolSet', () => {
  const good = {
    name: 'sample',
    version: 'one-tool-dev-v1',
    written: '2026-12-03T00:30:00Z',
    note: 'written by hand for this test',
    prompts: [
      { id: 'otd-001', query: 'send mail', server: 'mail', tool: 'send' },
      {
        id: 'otd-002',
        query: 'refund a charge',
        server: 'pay',
        tool: 'refund',
        accept: [{ server: 'pay-copy', tool: 'refund' }],
      },
    ],
  };

  it('returns a checked copy of a good set', () => {
    const set = parseOneToolSet(structuredClone(good));
    expect(set).toEqual(good);
    expect(parseOneToolSet({ version: 'v', prompts: [] })).toEqual({ version: 'v', prompts: [] });
  });

  it('drops fields it does not know, so a checked set holds only its shape', () => {
    const set = parseOneToolSet({ version: 'v', extra: 1, prompts: [{ ...good.prompts[0], comment: 'x' }] });
    expect(set).toEqual({ version: 'v', prompts: [good.prompts[0]] });
  });

  const withPrompt = (value: unknown) => ({ version: 'v', prompts: [good.prompts[0], value] });
  const cases: [string, unknown, string][] = [
    ['a non-object set', [], 'One-tool set: expected an object.'],
    ['a null set', null, 'One-tool set: expected an object.'],
    ['a missing version', { prompts: [] }, 'One-tool set: version must be a non-empty string.'],
    ['a blank version', { version: ' ', prompts: [] }, 'One-tool set: version must be a non-empty string.'],
    ['prompts not an array', { version: 'v', prompts: {} }, 'One-tool set: prompts must be an array.'],
    [
      'a name that is not a string',
      { version: 'v', name: 3, prompts: [] },
      'One-tool set: name must be a string when present.',
    ],
    [
      'a written time that is not a string',
      { version: 'v', written: 0, prompts: [] },
      'One-tool set: written must be a string when present.',
    ],
    [
      'a note that is not a string',
      { version: 'v', note: [], prompts: [] },
      'One-tool set: note must be a string when present.',
    ],
    ['a prompt that is not an object', withPrompt('x'), 'prompt at index 1: must be an object.'],
    [
      'a prompt without an id',
      withPrompt({ query: 'q', server: 's', tool: 't' }),
      'prompt at index 1: id must be a non-empty string.',
    ],
    [
      'an empty id',
      withPrompt({ id: '', query: 'q', server: 's', tool: 't' }),
      'prompt at index 1: id must be a non-empty string.',
    ],
    [
      'a blank query',
      withPrompt({ id: 'p2', query: '  ', server: 's', tool: 't' }),
      'prompt "p2" (index 1): query must be a non-empty string.',
    ],
    [
      'a missing server',
      withPrompt({ id: 'p2', query: 'q', tool: 't' }),
      'prompt "p2" (index 1): server must be a non-empty string.',
    ],
    [
      'an empty tool',
      withPrompt({ id: 'p2', query: 'q', server: 's', tool: '' }),
      'prompt "p2" (index 1): tool must be a non-empty string.',
    ],
    [
      'accept not an array',
      withPrompt({ id: 'p2', query: 'q', server: 's', tool: 't', accept: { server: 's', tool: 'u' } }),
      'prompt "p2" (index 1): accept must be an array of { server, tool } with non-empty strings.',
    ],
    [
      'an accept pair without a tool',
      withPrompt({ id: 'p2', query: 'q', server: 's', tool: 't', accept: [{ server: 's2' }] }),
      'prompt "p2" (index 1): accept must be an array of { server, tool } with non-empty strings.',
    ],
    [
      'an accept pair with an empty server',
      withPrompt({ id: 'p2', query: 'q', server: 's', tool: 't', accept: [{ server: '', tool: 'u' }] }),
      'prompt "p2" (index 1): accept must be an array of { server, tool } with non-empty strings.',
    ],
    [
      'a repeated id',
      withPrompt({ ...good.prompts[0] }),
      'prompt "otd-001" (index 1): id appears twice; ids must be unique.',
    ],
  ];

  it.each(cases)('rejects %s with code invalid-jobs and a message naming it', (_label, value, message) => {
    const error = errorOf(() => parseOneToolSet(value));
    expect(error.code).toBe('invalid-jobs');
    expect(error.message).toBe(message);
  });
});
