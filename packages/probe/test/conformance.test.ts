/**
 * Which conformance-suite scenarios a check runs: the base three for any server, the DNS-rebinding one only for a
 * loopback URL, one per declared capability in a fixed order, and exactly the named ones when any is named. Pure
 * module under test.
 */
import { describe, expect, it } from 'vitest';
import { chooseConformanceScenarios } from '../src/index.js';
import { CONFORMANCE_RULES } from '../src/rules.js';

const BASE = ['server-initialize', 'ping', 'tools-list'];

describe('chooseConformanceScenarios', () => {
  it('runs the base scenarios against a remote server that declares only tools', () => {
    expect(chooseConformanceScenarios({ loopback: false, capabilities: { tools: {} } })).toEqual(BASE);
    expect(CONFORMANCE_RULES.baseScenarios).toEqual(BASE);
  });

  it('adds the DNS-rebinding scenario for a loopback server only', () => {
    expect(chooseConformanceScenarios({ loopback: true, capabilities: {} })).toEqual([
      ...BASE,
      'dns-rebinding-protection',
    ]);
  });

  it('adds one scenario per declared capability, logging, resources and prompts in that order', () => {
    const capabilities = { prompts: {}, resources: { subscribe: true }, logging: {} };
    expect(chooseConformanceScenarios({ loopback: false, capabilities })).toEqual([
      ...BASE,
      'logging-set-level',
      'resources-list',
      'prompts-list',
    ]);
  });

  it('counts a capability declared as null, or capabilities that are not an object, as none declared', () => {
    expect(chooseConformanceScenarios({ loopback: false, capabilities: { logging: null } })).toEqual(BASE);
    expect(chooseConformanceScenarios({ loopback: false, capabilities: 'logging' })).toEqual(BASE);
    expect(chooseConformanceScenarios({ loopback: false, capabilities: null })).toEqual(BASE);
  });

  it('runs exactly the named scenarios when any is named, once each, in the order given', () => {
    expect(
      chooseConformanceScenarios({
        loopback: true,
        capabilities: { logging: {} },
        asked: ['ping', 'tools-call', 'ping'],
      }),
    ).toEqual(['ping', 'tools-call']);
  });
});
