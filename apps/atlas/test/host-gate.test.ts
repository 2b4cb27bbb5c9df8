// The gate every check of a service passes: at most the limit of one host's checks run at once, in arrival order,
// hosts are told apart by name and port, a failed check frees its turn, and a bad limit is refused.
import { describe, expect, it } from 'vitest';
import { createHostGate, hostKeyOf } from '../src/scan/host-gate.js';

/** A check that runs until the test ends it; `started` says whether the gate let it start. */
function heldCheck() {
  let end: (value: string) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const state = { started: false };
  const work = () => {
    state.started = true;
    return new Promise<string>((resolve, reject) => {
      end = resolve;
      fail = reject;
    });
  };
  return { state, work, end: (value: string) => end(value), fail: (error: Error) => fail(error) };
}

/** Lets every promise callback queued so far run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the host gate', () => {
  it('with limit 1, starts a host’s second check only after the first ends, and the third after the second', async () => {
    const gate = createHostGate(1);
    const [a, b, c] = [heldCheck(), heldCheck(), heldCheck()];
    const runs = [a, b, c].map((check, i) => gate.run(`https://mcp.example.org/s/${i}`, check.work));
    await settle();
    expect([a, b, c].map((check) => check.state.started)).toEqual([true, false, false]);
    a.end('a');
    await settle();
    expect([b, c].map((check) => check.state.started)).toEqual([true, false]);
    b.end('b');
    await settle();
    expect(c.state.started).toBe(true);
    c.end('c');
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c']);
  });

  it('with limit 2, runs two at once and holds the third', async () => {
    const gate = createHostGate(2);
    const [a, b, c] = [heldCheck(), heldCheck(), heldCheck()];
    const runs = [a, b, c].map((check) => gate.run('https://mcp.example.org/mcp', check.work));
    await settle();
    expect([a, b, c].map((check) => check.state.started)).toEqual([true, true, false]);
    b.end('b');
    await settle();
    expect(c.state.started).toBe(true);
    a.end('a');
    c.end('c');
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c']);
  });

  it('keeps hosts apart by name and port, so another host never waits', async () => {
    const gate = createHostGate(1);
    const [a, b, c] = [heldCheck(), heldCheck(), heldCheck()];
    const runs = [
      gate.run('https://one.example.org/mcp', a.work),
      gate.run('https://two.example.org/mcp', b.work),
      gate.run('https://one.example.org:8443/mcp', c.work),
    ];
    await settle();
    expect([a, b, c].map((check) => check.state.started)).toEqual([true, true, true]);
    for (const check of [a, b, c]) check.end('done');
    await Promise.all(runs);
    expect(hostKeyOf('https://ONE.example.org:443/mcp')).toBe('one.example.org');
    expect(hostKeyOf('http://127.0.0.1:8080/s/1/mcp')).toBe('127.0.0.1:8080');
  });

  it('frees the turn of a check that throws', async () => {
    const gate = createHostGate(1);
    const [a, b] = [heldCheck(), heldCheck()];
    const first = gate.run('https://mcp.example.org/mcp', a.work);
    const second = gate.run('https://mcp.example.org/mcp', b.work);
    // The gate starts a check a tick after it is asked, so let the first one start before it fails.
    await settle();
    a.fail(new Error('no connection'));
    await expect(first).rejects.toThrow('no connection');
    await settle();
    expect(b.state.started).toBe(true);
    b.end('b');
    expect(await second).toBe('b');
  });

  it('refuses a limit below 1 or not whole', () => {
    for (const limit of [0, -1, 1.5, Number.NaN]) expect(() => createHostGate(limit)).toThrow(RangeError);
  });
});
