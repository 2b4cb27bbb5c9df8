// How far back the daily score's drop alert looks, in the app's schedule. The score's rules themselves (the
// 10-point drop, the 7-day reliability window, the latency percentile) are @mcp-atlas/score's.
import { SCORE_RELIABILITY_WINDOW_DAYS } from '@mcp-atlas/score';

/**
 * How many days back the drop alert looks for a server's previous score: a day the cost cap skipped leaves no
 * entry, and the comparison is then with the newest scored day before it. Same window as the score's
 * reliability window (`SCORE_RELIABILITY_WINDOW_DAYS` of @mcp-atlas/score).
 */
export const SCORE_DROP_LOOKBACK_DAYS = SCORE_RELIABILITY_WINDOW_DAYS;
