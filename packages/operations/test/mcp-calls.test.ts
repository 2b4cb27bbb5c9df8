/**
 * The MCP endpoint's limits per network: each pinned at, just under and just over its threshold, so a change of
 * a number or of `>` to `>=` fails here. A batch is admitted whole or not at all.
 */
import { ReliabilityInputError } from '@mcp-atlas/reliability';
import { describe, expect, it } from 'vitest';
import { decideMcpCalls } from '../src/index.js';
import { MCP_ENDPOINT_RULES } from '../src/rules.js';

describe('decideMcpCalls', () => {
  it('states the numbers the methodology gives', () => {
    expect(MCP_ENDPOINT_RULES).toEqual({
      batchMaxMessages: 10,
      toolCallsPerNetworkPerMinute: 30,
      toolCallsPerNetworkPerDay: 1_000,
      callLogLinesPerDay: 20_000,
    });
    expect(Object.isFrozen(MCP_ENDPOINT_RULES)).toBe(true);
  });

  it('takes the 30th call of a minute and refuses the 31st', () => {
    expect(decideMcpCalls({ networkThisMinute: 28, networkToday: 28, calls: 1 })).toEqual({ admitted: true }); // under
    expect(decideMcpCalls({ networkThisMinute: 29, networkToday: 29, calls: 1 })).toEqual({ admitted: true }); // at
    expect(decideMcpCalls({ networkThisMinute: 30, networkToday: 30, calls: 1 })).toEqual({
      admitted: false,
      reason: 'network_minute_limit',
      limit: 30,
    }); // over
  });

  it('takes the 1,000th call of a UTC day and refuses the 1,001st, whatever the minute', () => {
    expect(decideMcpCalls({ networkThisMinute: 0, networkToday: 999, calls: 1 })).toEqual({ admitted: true });
    expect(decideMcpCalls({ networkThisMinute: 0, networkToday: 1_000, calls: 1 })).toEqual({
      admitted: false,
      reason: 'network_daily_limit',
      limit: 1_000,
    });
  });

  it('admits a batch only when all of its calls fit', () => {
    expect(decideMcpCalls({ networkThisMinute: 20, networkToday: 20, calls: 10 })).toEqual({ admitted: true });
    expect(decideMcpCalls({ networkThisMinute: 21, networkToday: 21, calls: 10 })).toMatchObject({
      admitted: false,
      reason: 'network_minute_limit',
    });
    expect(decideMcpCalls({ networkThisMinute: 0, networkToday: 995, calls: 6 })).toMatchObject({
      admitted: false,
      reason: 'network_daily_limit',
    });
  });

  it('lets a request without tool calls through, even at both limits', () => {
    expect(decideMcpCalls({ networkThisMinute: 30, networkToday: 1_000, calls: 0 })).toEqual({ admitted: true });
  });

  it('throws on counts that are not whole numbers', () => {
    expect(() => decideMcpCalls({ networkThisMinute: -1, networkToday: 0, calls: 1 })).toThrow(ReliabilityInputError);
    expect(() => decideMcpCalls({ networkThisMinute: 0, networkToday: 0.5, calls: 1 })).toThrow(ReliabilityInputError);
    expect(() => decideMcpCalls(null as never)).toThrow(ReliabilityInputError);
  });
});
