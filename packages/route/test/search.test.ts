import { describe, expect, it } from 'vitest';
import { createToolIndex, type IndexServer, RouteInputError, type SearchOptions, searchTools } from '../src/index.js';
import { coverageFactor, inverseDocumentFrequency, queryTerms, termScore } from '../src/text-match.js';
import { calendarServer, catalog, invoiceServer, mailServer, paymentsServer } from './fixtures.js';

const index = createToolIndex(catalog);

function tools(query: string, options?: SearchOptions): string[] {
  return searchTools(index, query, options).map((hit) => `${hit.serverId}/${hit.tool}`);
}

describe('text match: BM25F over name (double), description (length-normalized) and server name', () => {
  it('matches the hand-computed scores of a two-tool index', () => {
    // N = 2, df("invoic") = 2: idf = ln(1 + 0.5 / 2.5) = 0.18232; the best a term can add is idf x 2.2.
    // send_invoice: name 1, description "Sends an invoice." 2 terms; list_invoices: name 1, description 3 terms.
    // Average description length 2.5, so the divisors are 0.25 + 0.75 x 2 / 2.5 = 0.85 and 0.25 + 0.75 x 3 / 2.5 = 1.15.
    // f = 2 x 1 + 1 / 0.85 = 3.17647 and 2 + 1 / 1.15 = 2.86957; text match = f / (f + 1.2) (the idf x 2.2 cancels).
    const hits = searchTools(createToolIndex([invoiceServer]), 'invoice');
    expect(hits.map((hit) => hit.tool)).toEqual(['send_invoice', 'list_invoices']);
    expect(hits[0]?.score).toBeCloseTo(0.725806, 6);
    expect(hits[1]?.score).toBeCloseTo(0.705128, 6);
  });

  it('uses the BM25 idf, the merged field frequency and the coverage share', () => {
    expect(inverseDocumentFrequency(2, 2)).toBeCloseTo(Math.log(1.2), 12);
    expect(inverseDocumentFrequency(100, 1)).toBeCloseTo(Math.log(1 + 99.5 / 1.5), 12);
    // name 1 (x2) + description 2 / 1 + server 1 (x0.5) = 4.5; 1 x 4.5 x 2.2 / (4.5 + 1.2)
    expect(termScore(1, 1, 2, 1, 1)).toBeCloseTo((4.5 * 2.2) / 5.7, 12);
    expect(coverageFactor(1, 2)).toBe(0.5);
    expect(coverageFactor(0, 0)).toBe(0);
  });

  it('counts a word in the name more than the same word in the description', () => {
    const twin = createToolIndex([
      { id: 'a', tools: [{ name: 'forecast_now', description: 'Returns data for a place.' }] },
      { id: 'b', tools: [{ name: 'now_data', description: 'Returns forecast for a place.' }] },
    ]);
    const hits = searchTools(twin, 'forecast');
    expect(hits.map((hit) => hit.serverId)).toEqual(['a', 'b']);
    expect((hits[0]?.score ?? 0) > (hits[1]?.score ?? 0)).toBe(true);
  });

  it('weights a rare word above a common one', () => {
    const common = { name: 'tool_x', description: 'Handles widgets.' };
    const rareIndex = createToolIndex([
      { id: 'a', tools: [{ name: 'tool_a', description: 'Handles gizmos.' }] },
      {
        id: 'b',
        tools: [
          common,
          { name: 'tool_y', description: 'Handles widgets too.' },
          { name: 'tool_z', description: 'Widgets again.' },
        ],
      },
    ]);
    expect(searchTools(rareIndex, 'gizmos widgets')[0]?.tool).toBe('tool_a');
  });

  it('ranks a tool that covers every query word above one that repeats a single word', () => {
    const coverage = createToolIndex([
      { id: 'a', tools: [{ name: 'archive_page', description: 'Archives a wiki page.' }] },
      { id: 'b', tools: [{ name: 'page_page', description: 'Page page page page.' }] },
    ]);
    expect(searchTools(coverage, 'archive page')[0]?.serverId).toBe('a');
  });

  it('widens a query with synonyms, but a tool using the query word itself ranks first', () => {
    const synonyms = createToolIndex([
      { id: 'a', tools: [{ name: 'email_send', description: 'Sends a note.' }] },
      { id: 'b', tools: [{ name: 'mail_send', description: 'Sends a note.' }] },
    ]);
    expect(queryTerms('mail').map(({ term, weight }) => [term, weight])).toEqual([
      ['mail', 1],
      ['email', 0.4],
    ]);
    const hits = searchTools(synonyms, 'mail');
    expect(hits.map((hit) => hit.serverId)).toEqual(['b', 'a']);
  });

  it('lets a server name lift its tools when the tool text does not name the subject', () => {
    const hits = searchTools(index, 'calendar');
    expect(hits.length).toBe(3);
    expect(hits.every((hit) => hit.serverId === 'calendar.example')).toBe(true);
    // listEvents and createEvent say "calendar" in their descriptions; find-free-slots only through the server name.
    expect(hits[2]?.tool).toBe('find-free-slots');
  });

  it('keeps at most 24 distinct query words, in the order written', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const terms = queryTerms(`${words} word0`).filter((term) => term.weight === 1);
    expect(terms).toHaveLength(24);
    expect(terms[23]?.term).toBe('word23');
  });
});

describe('least privilege in search: a reading query ranks read-only tools first', () => {
  const twins = (extra: IndexServer['tools'][number]): IndexServer[] => [
    {
      id: 'annotated',
      tools: [{ name: 'get_report', description: 'Returns the report.', annotations: { readOnlyHint: true } }],
    },
    { id: 'plain', tools: [{ name: 'get_report', description: 'Returns the report.' }, extra] },
  ];

  it('scales a changes-data tool by 0.35 for a reading verb, and by nothing without a verb', () => {
    const twinIndex = createToolIndex(twins({ name: 'other', description: 'x' }));
    const read = searchTools(twinIndex, 'get report');
    expect(read.map((hit) => [hit.serverId, hit.level])).toEqual([
      ['annotated', 'read-only'],
      ['plain', 'changes-data'],
    ]);
    expect((read[1]?.score ?? 0) / (read[0]?.score ?? 1)).toBeCloseTo(0.35, 12);
    const neutral = searchTools(twinIndex, 'report');
    expect(neutral[0]?.score).toBe(neutral[1]?.score);
  });

  it('scales a high-risk tool by 0.2 for a reading verb, 0.5 for a changing verb and 1 for a high-risk verb', () => {
    const levels = createToolIndex([
      { id: 'r', tools: [{ name: 'report', description: 'Report.', annotations: { readOnlyHint: true } }] },
      { id: 'h', tools: [{ name: 'report', description: 'Report.', annotations: { destructiveHint: true } }] },
    ]);
    const ratio = (query: string) => {
      const hits = searchTools(levels, query);
      const high = hits.find((hit) => hit.serverId === 'h')?.score ?? 0;
      const readOnly = hits.find((hit) => hit.serverId === 'r')?.score ?? 1;
      return high / readOnly;
    };
    expect(ratio('show report')).toBeCloseTo(0.2, 12);
    expect(ratio('update report')).toBeCloseTo(0.5, 12);
    expect(ratio('delete report')).toBeCloseTo(1, 12);
  });
});

describe('searchTools options', () => {
  it('filters by risk: read keeps read-only, change drops high risk, any keeps all', () => {
    const levelsOf = (risk: SearchOptions['risk']) =>
      new Set(searchTools(index, 'file', risk === undefined ? {} : { risk }).map((hit) => hit.level));
    expect([...levelsOf('read')]).toEqual(['read-only']);
    expect(levelsOf('change').has('high-risk')).toBe(false);
    expect(levelsOf('change').has('changes-data')).toBe(true);
    expect(levelsOf('any').has('high-risk')).toBe(true);
    expect(levelsOf(undefined)).toEqual(levelsOf('any'));
  });

  it('leaves out servers that are not answering unless asked', () => {
    const down = createToolIndex([{ ...mailServer, answering: false }, calendarServer]);
    expect(searchTools(down, 'email message')).toEqual([]);
    expect(searchTools(down, 'email message', { answeringOnly: false }).length).toBe(4);
    const unknown = createToolIndex([{ ...mailServer }]);
    expect(searchTools(unknown, 'email message').length).toBe(4);
  });

  it('returns 10 results by default and honours a limit from 1 to 100', () => {
    const many = createToolIndex([
      { id: 'many', tools: Array.from({ length: 15 }, (_, i) => ({ name: `note_${i}`, description: 'A note.' })) },
    ]);
    expect(searchTools(many, 'note')).toHaveLength(10);
    expect(searchTools(many, 'note', { limit: 1 })).toHaveLength(1);
    expect(searchTools(many, 'note', { limit: 100 })).toHaveLength(15);
  });

  it.each<[string, unknown]>([
    ['limit 0', { limit: 0 }],
    ['limit 101', { limit: 101 }],
    ['limit 2.5', { limit: 2.5 }],
    ['limit as text', { limit: '3' }],
    ['an unknown risk', { risk: 'write' }],
    ['answeringOnly as text', { answeringOnly: 'no' }],
    ['options that are null', null],
  ])('rejects %s', (_label, options) => {
    expect(() => searchTools(index, 'file', options as SearchOptions)).toThrow(RouteInputError);
  });

  it('rejects a query that is not a string', () => {
    expect(() => searchTools(index, 42 as never)).toThrow('searchTools: query must be a string, got number.');
  });
});

describe('searchTools results', () => {
  it('finds the obvious tool for plain tasks', () => {
    expect(tools('send an email')[0]).toBe('mail.example/send_message');
    expect(tools('read a text file')[0]).toBe('files.example/read_file');
    expect(tools('refund a card charge')[0]).toBe('pay.example/refund_charge');
    expect(tools('find a free time slot')[0]).toBe('calendar.example/find-free-slots');
  });

  it('returns nothing for an empty query, stop words only, or words no tool has', () => {
    expect(searchTools(index, '')).toEqual([]);
    expect(searchTools(index, 'the of and to')).toEqual([]);
    expect(searchTools(index, 'zeppelin')).toEqual([]);
  });

  it('carries the server, tool, description, level and a score from 0 to 1', () => {
    const [hit] = searchTools(index, 'balance');
    expect(hit).toEqual({
      serverId: 'pay.example',
      tool: 'get_balance',
      description: 'Shows the account balance.',
      level: 'read-only',
      score: expect.any(Number),
    });
    expect(hit?.score).toBeGreaterThan(0);
    expect(hit?.score).toBeLessThanOrEqual(1);
  });

  it('breaks ties by server id, then tool name', () => {
    const same = { name: 'ping_host', description: 'Checks a host.' };
    const tie = createToolIndex([
      { id: 'zeta', tools: [same] },
      {
        id: 'alpha',
        tools: [
          { ...same, name: 'ping_host' },
          { ...same, name: 'host_ping' },
        ],
      },
    ]);
    expect(searchTools(tie, 'host').map((hit) => `${hit.serverId}/${hit.tool}`)).toEqual([
      'alpha/host_ping',
      'alpha/ping_host',
      'zeta/ping_host',
    ]);
  });

  it('gives the same answer every time, whatever ran before', () => {
    const first = searchTools(index, 'list email messages');
    searchTools(index, 'write a file');
    searchTools(index, 'calendar events');
    expect(searchTools(index, 'list email messages')).toEqual(first);
    expect(searchTools(createToolIndex([...catalog].reverse()), 'list email messages')).toEqual(first);
  });

  it('searches a payments server by its name as well as its tools', () => {
    const hits = tools('payments');
    expect(hits).toHaveLength(paymentsServer.tools.length);
    expect(hits.every((id) => id.startsWith('pay.example/'))).toBe(true);
  });
});
