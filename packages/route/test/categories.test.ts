import { describe, expect, it } from 'vitest';
import { CATEGORY_MIN_SCORE, CATEGORY_MIN_SHARE } from '../src/constants.js';
import { CATEGORIES, categorize, scoreCategories } from '../src/index.js';
import { calendarServer, filesServer, mailServer, paymentsServer } from './fixtures.js';

/** `count` tools that signal no category at all. */
function neutral(count: number): { name: string }[] {
  return Array.from({ length: count }, (_, i) => ({ name: `alpha_${i}` }));
}

describe('categorize reads a server category from its tools', () => {
  it('names the category of each fixture server', () => {
    expect(categorize(mailServer.tools)).toBe('email');
    expect(categorize(calendarServer.tools)).toBe('calendar');
    expect(categorize(filesServer.tools)).toBe('files');
    expect(categorize(paymentsServer.tools)).toBe('payments');
  });

  it('scores 2 for a word in the name and 1 for a word only in the description', () => {
    const scores = scoreCategories([{ name: 'send_email' }, { name: 'notify', description: 'Sends an email.' }]);
    expect(scores.find((entry) => entry.category === 'email')?.score).toBe(3);
    expect(scores.map((entry) => entry.category)).toEqual(CATEGORIES);
  });

  it('needs 2 points: one description mention is not enough, two are', () => {
    expect(CATEGORY_MIN_SCORE).toBe(2);
    expect(categorize([{ name: 'notify', description: 'Sends an email.' }])).toBeNull();
    expect(
      categorize([
        { name: 'notify', description: 'Sends an email.' },
        { name: 'ping', description: 'Checks the email box.' },
      ]),
    ).toBe('email');
  });

  it('needs a fifth of the best possible score: 2 of 10 points yes, 2 of 12 no', () => {
    expect(CATEGORY_MIN_SHARE).toBe(0.2);
    expect(categorize([{ name: 'send_email' }, ...neutral(4)])).toBe('email');
    expect(categorize([{ name: 'send_email' }, ...neutral(5)])).toBeNull();
  });

  it('gives a tie to the earlier category', () => {
    expect(categorize([{ name: 'calendar_sync' }, { name: 'email_sync' }])).toBe('email');
    expect(CATEGORIES.indexOf('email')).toBeLessThan(CATEGORIES.indexOf('calendar'));
  });

  it("takes the server's name when it holds a category word", () => {
    expect(categorize([{ name: 'query' }], { serverName: 'PostgreSQL' })).toBe('databases');
    expect(categorize(mailServer.tools, { serverName: 'Team Calendar' })).toBe('calendar');
    expect(categorize(mailServer.tools, { serverName: 'Acme' })).toBe('email');
  });

  it('never throws on untrusted tool lists, and returns null when nothing is clear', () => {
    expect(categorize([])).toBeNull();
    expect(categorize(null as never)).toBeNull();
    expect(categorize([1, 'send_email', null, { name: 5 }, { description: 'email' }])).toBeNull();
    expect(categorize(neutral(3))).toBeNull();
  });
});
