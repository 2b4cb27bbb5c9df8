import { describe, expect, it } from 'vitest';
import { emptyServerState } from '../src/scan/fold-day.js';
import { uptimeInputFromState } from '../src/view/build-view.js';

describe('a server’s uptime inputs', () => {
  it('use the daily letters alone when there are no five-minute checks', () => {
    const state = { ...emptyServerState({ id: 's', url: 'https://s.example/mcp' }), letters: 'ood' };
    expect(uptimeInputFromState(state, '2026-11-30')).toEqual({ letters: 'ood' });
  });
  it('sum five-minute counters over the last 30 and 90 UTC days, today included', () => {
    const state = {
      ...emptyServerState({ id: 's', url: 'https://s.example/mcp' }),
      letters: 'oo',
      fiveMinute: [
        { day: '2026-09-01', answered: 100, checks: 100 }, // 91 days back: outside both windows
        { day: '2026-09-02', answered: 50, checks: 60 }, // 90th day back counting today: in the 90-day window
        { day: '2026-10-31', answered: 280, checks: 288 }, // 31st day: 90-day window only
        { day: '2026-11-01', answered: 288, checks: 288 }, // 30th day: both
        { day: '2026-11-30', answered: 10, checks: 12 },
      ],
    };
    expect(uptimeInputFromState(state, '2026-11-30')).toEqual({
      letters: 'oo',
      fiveMinute: { answered: 298, total: 300 },
      fiveMinuteLong: { answered: 628, total: 648 },
    });
  });
});
