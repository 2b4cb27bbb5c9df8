// The state page over small hand-written observatories: the uptime distribution's appear date at and around
// 14 observed days (hand-computed), the day's changes and rises in risk, and the first days of a service.
import { describe, expect, it } from 'vitest';
import type { Change } from '../src/data/schemas.js';
import { createMemoryStorage } from '../src/storage/memory-storage.js';
import { appOver, getPage, type HandServer, writeHandObservatory } from './pages-fixtures.js';

const DAY = '2026-11-29';
const NOW = new Date('2026-11-30T08:00:00Z');

/** Servers with the given letter strings, ids s1, s2, ... */
const serversWith = (...letters: string[]): HandServer[] =>
  letters.map((l, i) => ({ id: `s${i + 1}`, letters: l, tools: [] }));
const days = (n: number) => 'o'.repeat(n);

async function stateText(day: string, servers: HandServer[], changes: Change[] = []): Promise<string> {
  const { app } = await appOver(await writeHandObservatory(day, servers, changes), NOW);
  const page = await getPage(app, '/');
  expect(page.status).toBe(200);
  return page.text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('the uptime distribution on the state page', () => {
  it.each([
    // observed days of each server -> median (the lower middle one for an even count) -> appear date
    ['all at 13', [days(13), days(13), days(13)], 13, '2026-11-30'],
    ['median 13 of three', [days(12), days(13), days(20)], 13, '2026-11-30'],
    ['two servers, 13 and 14: the lower middle', [days(13), days(14)], 13, '2026-11-30'],
    ['all at 12', [days(12), days(12), days(12)], 12, '2026-12-01'],
    ['15 letters of which 2 are n', [`nn${days(13)}`, `n${days(12)}n`, days(13)], 13, '2026-11-30'],
    ['a server never observed', ['', '', days(3)], 0, '2026-12-13'],
  ])('%s: waits, giving the median’s days and the day it appears', async (_case, letters, median, appearsOn) => {
    const text = await stateText(DAY, serversWith(...letters));
    expect(text).toContain(`The median server has ${median} observed ${median === 1 ? 'day' : 'days'} so far`);
    expect(text).toContain(`the distribution appears on ${appearsOn} .`);
    expect(text).not.toContain('Uptime distribution of');
  });

  it.each([
    ['all at 14', [days(14), days(14), days(14)]],
    ['two servers, 14 and 15', [days(14), days(15)]],
    ['median 14 of three', [days(3), days(14), days(30)]],
  ])('%s: draws the histogram', async (_case, letters) => {
    const { app } = await appOver(await writeHandObservatory(DAY, serversWith(...letters)), NOW);
    const page = await getPage(app, '/');
    expect(page.text).toContain('data-distribution="shown"');
    expect(page.text).toContain(`<title id="histogram-title">Uptime distribution of ${letters.length} servers</title>`);
    expect(page.text).not.toContain('The median server has');
  });

  it('counts the appear date across a month and a year', async () => {
    expect(await stateText('2026-12-31', serversWith(days(5), days(5), days(5)))).toContain('appears on 2027-01-09 .');
    expect(await stateText('2028-02-20', serversWith(days(4), days(4), days(4)))).toContain('appears on 2028-03-01 .');
  });

  it('puts each server in its uptime band, 99.9 apart from 100', async () => {
    // 29 o and 1 d: 96.7; 999 of 1000 would need five-minute counts, so 1 d in 30 is the closest daily figure.
    const { app } = await appOver(
      await writeHandObservatory(
        DAY,
        serversWith(days(30), `${days(29)}d`, `d${days(29)}`, `dd${days(28)}`, 'd'.repeat(16) + days(14)),
      ),
      NOW,
    );
    const page = await getPage(app, '/');
    // 100, 96.7, 96.7, 93.3, 46.7
    expect(page.text).toContain(
      '<desc id="histogram-desc">below 50%: 1; 50 to 79.9%: 0; 80 to 89.9%: 0; 90 to 94.9%: 1; 95 to 98.9%: 2; 99 to 99.9%: 0; 100%: 1</desc>',
    );
  });

  it('says so when there is no day or no server yet', async () => {
    const { app } = await appOver(createMemoryStorage(), NOW);
    const empty = await getPage(app, '/');
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('No day has been checked yet');
    expect(empty.text).toContain('No day has been sealed yet');
    expect(await stateText(DAY, [])).toContain('No server is watched yet.');
  });
});

describe('the day’s changes on the state page', () => {
  it('lists each change and each rise in risk, tool by tool', async () => {
    const changes: Change[] = [
      {
        serverId: 's1',
        kind: 'tools',
        detail: 'Tool list changed: 1 added, 1 rise(s) in risk.',
        diff: {
          added: ['pay_now'],
          removed: [],
          changed: ['wipe_all'],
          rewritten: [],
          riskRises: [
            { name: 'pay_now', from: null, to: 'high-risk' },
            { name: 'wipe_all', from: 'read-only', to: 'high-risk' },
          ],
          renamed: [],
          silent: true,
        },
      },
      { serverId: 's2', kind: 'stopped-answering', detail: 'Stopped answering: timeout.' },
    ];
    const text = await stateText(DAY, serversWith(days(20), `${days(19)}d`), changes);
    expect(text).toContain('Changes on 2026-11-29');
    expect(text).toContain('s1 : Tool list changed: 1 added, 1 rise(s) in risk. (silent: same server version)');
    expect(text).toContain('s2 : Stopped answering: timeout.');
    expect(text).toContain('pay_now added as high-risk');
    expect(text).toContain('wipe_all rose from read-only to high-risk');
    expect(text).not.toContain('No tool rose in risk');
  });
});
