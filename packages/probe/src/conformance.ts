// Which scenarios of the official MCP conformance suite a check runs against a server: the ones that fit any
// server and call no tool, the DNS-rebinding one for a loopback server, and one per capability the server
// declares. Pure module: the caller says whether the URL is loopback and what initialize declared.
import {
  CONFORMANCE_BASE_SCENARIOS,
  CONFORMANCE_CAPABILITY_SCENARIOS,
  CONFORMANCE_LOOPBACK_SCENARIOS,
} from './constants.js';

/** What the choice reads about the server under check. */
export interface ConformanceTarget {
  /** Whether the server's URL names a loopback host. */
  loopback: boolean;
  /** The `capabilities` object of the server's initialize answer (anything else counts as none declared). */
  capabilities: unknown;
  /** Scenarios the user named; when any is given they are run instead, once each, in the order given. */
  asked?: readonly string[] | undefined;
}

/**
 * The scenarios to run, in order: the base ones, the loopback one for a loopback server, then one per declared
 * capability (logging, resources, prompts, in that order). A capability declared as null counts as not declared.
 *
 * @example
 * chooseConformanceScenarios({ loopback: true, capabilities: { tools: {}, prompts: {} } });
 * // ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'prompts-list']
 */
export function chooseConformanceScenarios(target: ConformanceTarget): string[] {
  const asked = Array.isArray(target.asked) ? target.asked : [];
  if (asked.length > 0) return [...new Set(asked)];
  const declared = target.capabilities !== null && typeof target.capabilities === 'object' ? target.capabilities : {};
  const byCapability = Object.entries(CONFORMANCE_CAPABILITY_SCENARIOS)
    .filter(([capability]) => (declared as Record<string, unknown>)[capability] != null)
    .map(([, scenario]) => scenario);
  return [
    ...CONFORMANCE_BASE_SCENARIOS,
    ...(target.loopback === true ? CONFORMANCE_LOOPBACK_SCENARIOS : []),
    ...byCapability,
  ];
}
