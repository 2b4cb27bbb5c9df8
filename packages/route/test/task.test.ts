import { describe, expect, it } from 'vitest';
import { readTaskIntent } from '../src/index.js';

describe('readTaskIntent reads the task risk from its first known verb', () => {
  it.each<[string, string | null, string]>([
    ['delete the old drafts', 'delete', 'high'],
    ['Pay the electricity bill', 'pay', 'high'],
    ['run the nightly job', 'run', 'high'],
    ['send an email to the team', 'send', 'change'],
    ['please create a calendar event', 'create', 'change'],
    ['list my open issues', 'list', 'read'],
    ['read the latest email', 'read', 'read'],
    ['find and delete duplicate photos', 'find', 'read'],
    ['weather in Lisbon tomorrow', null, 'read'],
    ['', null, 'read'],
  ])('%j', (task, verb, risk) => {
    expect(readTaskIntent(task)).toEqual({ verb, risk });
  });

  it('compares words as written: an inflected verb is not the action verb', () => {
    expect(readTaskIntent('deleted files from last week')).toEqual({ verb: null, risk: 'read' });
  });
});
