// The nesting limit over stdio: a local server process whose lines nest deeper than MAX_JSON_DEPTH is
// refused with reason `too-deep` (letter d), as the HTTP probe refuses such an answer, without the line
// ever being parsed; an answer exactly at the limit is read.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/constants.js';
import { ProbeResultSchema } from '../src/index.js';
import { exceedsJsonDepth } from '../src/json-depth.js';
import { probeStdio } from '../src/node/index.js';

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/stdio-deep-server.mjs');

async function run(mode: string) {
  const result = await probeStdio({ command: process.execPath, args: [fixture, mode] });
  expect(ProbeResultSchema.parse(result)).toEqual(result);
  // Whatever the process wrote, the result serializes and holds nothing past the limit.
  expect(exceedsJsonDepth(JSON.stringify(result), MAX_JSON_DEPTH + 8)).toBe(false);
  return result;
}

describe('probeStdio and the nesting limit', () => {
  it('an initialize answer nested too deep is d/too-deep at initialize', async () => {
    const result = await run('deep-init');
    expect(result).toMatchObject({ letter: 'd', reason: 'too-deep', failedStep: 'initialize' });
    expect(result.message).toBe(`the initialize answer nests deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('a first tools/list page nested too deep is d/too-deep at tools/list', async () => {
    const result = await run('deep-tools');
    expect(result).toMatchObject({
      letter: 'd',
      reason: 'too-deep',
      failedStep: 'tools/list',
      toolCount: 0,
      protocolVersion: '2025-06-18',
    });
    expect(result.message).toBe(`tools/list page 1 nests deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('an answer exactly at the limit is read', async () => {
    const result = await run('at-limit');
    expect(result).toMatchObject({ letter: 'o', reason: 'ok', toolCount: 1 });
    expect(exceedsJsonDepth(`{"jsonrpc":"2.0","id":2,"result":{"tools":${result.toolsJson}}}`, MAX_JSON_DEPTH)).toBe(
      false,
    );
    expect(
      exceedsJsonDepth(`{"jsonrpc":"2.0","id":2,"result":{"tools":${result.toolsJson}}}`, MAX_JSON_DEPTH - 1),
    ).toBe(true);
  });
});
