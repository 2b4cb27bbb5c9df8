// "Tool list changed today" and the days since a risk rise are counted from the clock's UTC day, not from the
// newest checked day: after midnight, before today's daily check, yesterday's change no longer sets a server
// aside as changed today, and its risk rise is a day old. The fixture's newest day is 2026-11-30, and Ticket
// Yard's tool list changed (and rose in risk) on it.
import { routeTask } from '@mcp-atlas/route';
import { describe, expect, it } from 'vitest';
import { buildView } from '../src/view/build-view.js';
import { VIEW_DAY, writeFixture } from './fixtures/http-atlas.js';

const CHANGE_TASK = 'create a ticket for the login bug';

async function reasonsAt(now: string): Promise<string | undefined> {
  const { storage } = await writeFixture();
  const view = await buildView(storage, new Date(now));
  expect(view.day).toBe(VIEW_DAY);
  const route = routeTask(view.toolIndex, CHANGE_TASK, { now: new Date(now) });
  return route.setAside.find((s) => s.serverId === 'ticket-yard')?.reason;
}

describe('dates the route reads', () => {
  it('on the checked day itself, sets the server aside as changed today, its risk risen 0 days ago', async () => {
    const reason = await reasonsAt(`${VIEW_DAY}T23:59:59.000Z`);
    expect(reason).toContain('tool list changed today');
    expect(reason).toContain('risk rose 0 days ago');
  });

  it('one second after midnight, no longer changed today; the rise is 1 day old and still sets it aside', async () => {
    const reason = await reasonsAt('2026-12-01T00:00:01.000Z');
    expect(reason).not.toContain('changed today');
    expect(reason).toContain('risk rose 1 day ago (under 7)');
  });

  it('counts the 7-day rise window to today: 6 days after, set aside; 7 days after, not', async () => {
    expect(await reasonsAt('2026-12-06T12:00:00.000Z')).toContain('risk rose 6 days ago');
    expect(await reasonsAt('2026-12-07T12:00:00.000Z')).toBeUndefined();
  });
});
